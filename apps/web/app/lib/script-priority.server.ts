import { Transform } from 'node:stream';

/**
 * The page's scripts are fetched at low priority (`fetchpriority="low"` on React Router's
 * module preloads): the server-rendered page reads without them, so on a phone's connection
 * the stylesheet, the fonts and the first pictures come first and hydration follows
 * (decision 0046). React Router's `<Scripts>` takes no such attribute and React hoists its
 * preloads into the head, so the attribute is added to the head as it streams out.
 */
export function scriptsAfterContent(): Transform {
  const HEAD_END = Buffer.from('</head>');
  let held: Buffer[] = [];
  let passing = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (passing) return callback(null, chunk);
      held.push(chunk);
      const html = Buffer.concat(held);
      // Bytes, not text: a chunk may end inside a Bangla character; `</head>` is ASCII, so
      // the bytes before it are whole characters.
      const end = html.indexOf(HEAD_END);
      if (end < 0) return callback();
      passing = true;
      held = [];
      callback(null, Buffer.concat([Buffer.from(lowPriorityPreloads(html.subarray(0, end).toString('utf8'))), html.subarray(end)]));
    },
    flush(callback) {
      callback(null, passing ? undefined : Buffer.concat(held));
    },
  });
}

/** The head with React Router's module preloads asked for at low priority. */
export function lowPriorityPreloads(head: string): string {
  return head.replaceAll('<link rel="modulepreload" ', '<link rel="modulepreload" fetchpriority="low" ');
}
