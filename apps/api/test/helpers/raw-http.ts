import http from 'node:http';

// A plain node:http client for hostile requests: fetch() refuses a body on GET, normalises
// paths and sets its own content type, so it cannot send what a hostile client sends.
// Every request has a deadline: an answer that does not come is a failure ("a hang"),
// not a test that waits forever.

export interface RawRequest {
  method: string;
  /** Path and query as they go on the wire (already percent-encoded, or deliberately not). */
  path: string;
  headers?: Record<string, string>;
  body?: Buffer;
}

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** Milliseconds until the whole answer had arrived. */
  ms: number;
}

export class NoAnswerError extends Error {}

export function rawSend(baseUrl: string, req: RawRequest, timeoutMs: number): Promise<RawAnswer> {
  const started = Date.now();
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    let answered = false;
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const r = http.request({
      // A connection per request: the server closes some (413, broken bodies) mid-write.
      agent: false,
      host: url.hostname,
      port: url.port,
      method: req.method,
      path: req.path,
      headers: { ...(req.body ? { 'content-length': String(req.body.length) } : {}), ...req.headers },
    });
    const timer = setTimeout(() => {
      r.destroy();
      finish(() => reject(new NoAnswerError(`no complete answer to ${req.method} ${req.path.slice(0, 200)} within ${timeoutMs} ms`)));
    }, timeoutMs);
    r.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      // A stream of server-sent events stays open by design: its first bytes are the answer.
      const streaming = String(res.headers['content-type'] ?? '').startsWith('text/event-stream');
      res.on('data', (c: Buffer) => {
        chunks.push(c);
        if (streaming) {
          res.destroy();
          finish(() => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8'), ms: Date.now() - started }));
        }
      });
      res.on('end', () =>
        finish(() => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8'), ms: Date.now() - started })),
      );
      res.on('error', (err) => finish(() => reject(err)));
    });
    // A reset while the body is still being written surfaces on the socket too.
    r.on('socket', (socket) => socket.on('error', () => {}));
    r.on('error', (err: NodeJS.ErrnoException) => {
      // The server may answer (413) and close before the whole body is written.
      if (answered && (err.code === 'EPIPE' || err.code === 'ECONNRESET')) return;
      finish(() => reject(err));
    });
    if (req.body) r.end(req.body);
    else r.end();
  });
}
