import http from 'node:http';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { TEST_API_KEY } from './test-app.ts';

// Files for the upload tests, made here rather than kept as fixtures: a real PNG of any
// size, and large bodies produced as streams so that a 50 MB test never holds 50 MB.

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A valid RGB PNG of width × height pixels, optionally padded with an ignored chunk to `padTo` bytes. */
export function pngBytes(width = 4, height = 3, padTo = 0): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const row = Buffer.alloc(1 + width * 3, 0x80);
  row[0] = 0;
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  const parts = [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw))];
  const end = chunk('IEND', Buffer.alloc(0));
  const size = parts.reduce((n, b) => n + b.length, 0) + end.length;
  // Ancillary private chunk ("ruLe"): decoders skip it; it makes a PNG of an exact size.
  if (padTo > size + 12) parts.push(chunk('ruLe', Buffer.alloc(padTo - size - 12, 0x61)));
  return Buffer.concat([...parts, end]);
}

/** A multipart/form-data body for POST /api/files. */
export function uploadForm(file: { bytes: Buffer | Blob; name: string; contentType?: string } | null, type: string | null = 'image'): FormData {
  const form = new FormData();
  if (type !== null) form.append('type', type);
  if (file) {
    const blob = file.bytes instanceof Blob ? file.bytes : new Blob([new Uint8Array(file.bytes)], { type: file.contentType ?? 'application/octet-stream' });
    form.append('file', blob, file.name);
  }
  return form;
}

/** A stream of `size` bytes, made in 64 KB pieces as it is read. `head` is sent first. */
export function byteStream(size: number, head: Buffer = Buffer.alloc(0), fill = 0x61): Readable {
  let left = size - head.length;
  let first = true;
  const piece = Buffer.alloc(64 * 1024, fill);
  return new Readable({
    read() {
      if (first) {
        first = false;
        if (head.length) return void this.push(head);
      }
      if (left <= 0) return void this.push(null);
      const n = Math.min(left, piece.length);
      left -= n;
      this.push(n === piece.length ? piece : piece.subarray(0, n));
    },
  });
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Bytes of the request body the client managed to write before the answer came. */
  sent: number;
}

/**
 * Sends a request with a streamed body over plain node:http, so a test controls the
 * headers (a Content-Length, or none: chunked) and sees the answer even when the server
 * answers and closes before the body is all sent.
 */
export function rawRequest(baseUrl: string, opts: { method: string; path: string; headers?: Record<string, string>; body: Readable }): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    const req = http.request(`${baseUrl}${opts.path}`, {
      agent: false,
      method: opts.method,
      headers: { 'x-api-key': TEST_API_KEY, ...opts.headers },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, sent }));
      res.on('error', reject);
      opts.body.destroy();
    });
    // The server may close the connection mid-body after answering: not a test failure.
    req.on('error', (err) => {
      if (!req.writableFinished && (err as NodeJS.ErrnoException).code && ['EPIPE', 'ECONNRESET'].includes((err as NodeJS.ErrnoException).code!)) return;
      reject(err);
    });
    opts.body.on('data', (c: Buffer) => (sent += c.length));
    opts.body.pipe(req);
  });
}

/** A multipart/form-data body as a stream around a streamed file: [preamble][file bytes][epilogue]. */
export function streamedForm(file: Readable, name: string, type = 'image'): { body: Readable; contentType: string; overhead: number } {
  const boundary = `----test${Date.now()}`;
  const pre = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\n${type}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const post = Buffer.from(`\r\n--${boundary}--\r\n`);
  async function* gen() {
    yield pre;
    for await (const c of file) yield c as Buffer;
    yield post;
  }
  return { body: Readable.from(gen()), contentType: `multipart/form-data; boundary=${boundary}`, overhead: pre.length + post.length };
}

/**
 * A large file that exists only as a rule: `head` (such as a PNG header) and then blocks of
 * 64 KB, each filled with a byte of its own. Any slice can be made on demand, so a 30 MB
 * upload holds one 5 MB part in memory at a time.
 */
export function virtualFile(size: number, head: Buffer) {
  const BLOCK = 64 * 1024;
  const byteAt = (i: number) => (i < head.length ? head[i]! : (Math.floor(i / BLOCK) * 7 + 3) % 251);
  function slice(offset: number, length: number): Buffer {
    const out = Buffer.alloc(length);
    let i = 0;
    while (i < length) {
      const pos = offset + i;
      if (pos < head.length) {
        out[i] = head[pos]!;
        i++;
        continue;
      }
      const blockEnd = Math.min(length, i + (BLOCK - (pos % BLOCK)));
      out.fill(byteAt(pos), i, blockEnd);
      i = blockEnd;
    }
    return out;
  }
  return { size, slice };
}
