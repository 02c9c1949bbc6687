import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_API_KEY, type TestApp } from './helpers/test-app.ts';

// A request refused before its body is read (no API key, a content type the route does not
// read, a declared length over the limit) is answered at once and its connection closed:
// the server does not go on reading, and throwing away, a body it has already refused.
// Otherwise one client streaming garbage behind a refused head keeps a connection and a
// share of a core busy for as long as it likes (docs/decisions/0024).

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ seed: false });
});
afterAll(() => t?.close());

interface SlowAnswer {
  /** Status of the answer, 0 when none came. */
  status: number;
  /** The answer's head, lower-cased. */
  head: string;
  /** Milliseconds from the request head to the first bytes of the answer; null when none came. */
  answeredMs: number | null;
  /** Milliseconds from the request head to the server ending the connection; null when it did not within the wait. */
  closedMs: number | null;
  /** Body bytes written before the connection ended (or the wait did). */
  sent: number;
}

/**
 * Sends a request head, then a body that trickles in (16 KB every 20 ms) and never ends,
 * over a bare socket: what a hostile client does. Watches for the answer and for the
 * server ending the connection, for at most `waitMs`.
 */
function slowBody(opts: { method?: string; path: string; headers: Record<string, string>; chunked?: boolean; waitMs?: number }): Promise<SlowAnswer> {
  const url = new URL(t.baseUrl);
  const waitMs = opts.waitMs ?? 3000;
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect({ host: url.hostname, port: Number(url.port) });
    let received = '';
    let answeredMs: number | null = null;
    let sent = 0;
    let done = false;
    const piece = Buffer.alloc(16 * 1024, 0x7b);
    let timer: NodeJS.Timeout | undefined;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearInterval(timer);
      clearTimeout(deadline);
      socket.destroy();
      const head = received.split('\r\n\r\n')[0]!.toLowerCase();
      const status = Number(/^http\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      resolve({ status, head, answeredMs, closedMs: closed ? Date.now() - started : null, sent });
    };
    const deadline = setTimeout(() => finish(false), waitMs);
    socket.on('connect', () => {
      const lines = [`${opts.method ?? 'POST'} ${opts.path} HTTP/1.1`, `Host: ${url.host}`, ...Object.entries(opts.headers).map(([k, v]) => `${k}: ${v}`)];
      if (opts.chunked) lines.push('Transfer-Encoding: chunked');
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
      timer = setInterval(() => {
        if (socket.destroyed || !socket.writable) return;
        socket.write(opts.chunked ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]) : piece);
        sent += piece.length;
      }, 20);
    });
    socket.on('data', (c: Buffer) => {
      if (answeredMs === null) answeredMs = Date.now() - started;
      received += c.toString('latin1');
    });
    // The server ending the connection: a FIN (end), or a reset of our writes (error), then close.
    socket.on('end', () => finish(true));
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
  });
}

const GIGABYTE = String(1024 * 1024 * 1024);
const SEARCH = '/api/cms/articles/search';

describe('a request refused before its body is read is answered at once and its connection closed', () => {
  it('no API key: 401 at once, and the connection ends while the client is still sending', async () => {
    const res = await slowBody({ path: SEARCH, headers: { 'content-type': 'application/json', 'content-length': GIGABYTE } });
    expect(res.status).toBe(401);
    expect(res.answeredMs).not.toBeNull();
    expect(res.answeredMs!).toBeLessThan(1000);
    expect(res.head).toMatch(/\r\nconnection: close/);
    expect(res.closedMs, 'the server kept the connection open, reading the body').not.toBeNull();
    expect(res.closedMs!).toBeLessThan(2000);
    // Far less than the gigabyte announced went over the wire.
    expect(res.sent).toBeLessThan(8 * 1024 * 1024);
  });

  it('no API key on a chunked body (no length): 401 and closed', async () => {
    const res = await slowBody({ path: SEARCH, headers: { 'content-type': 'application/json' }, chunked: true });
    expect(res.status).toBe(401);
    expect(res.head).toMatch(/\r\nconnection: close/);
    expect(res.closedMs).not.toBeNull();
  });

  it('no API key on an upload: 401 and closed', async () => {
    const res = await slowBody({ path: '/api/files', headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': GIGABYTE } });
    expect(res.status).toBe(401);
    expect(res.closedMs).not.toBeNull();
  });

  it('a content type a JSON route does not read: 415 and closed', async () => {
    const res = await slowBody({ path: SEARCH, headers: { 'x-api-key': TEST_API_KEY, 'content-type': 'application/xml', 'content-length': GIGABYTE } });
    expect(res.status).toBe(415);
    expect(res.head).toMatch(/\r\nconnection: close/);
    expect(res.closedMs).not.toBeNull();
    expect(res.closedMs!).toBeLessThan(2000);
  });

  it('a declared length over the JSON limit: 413 and closed', async () => {
    const res = await slowBody({ path: SEARCH, headers: { 'x-api-key': TEST_API_KEY, 'content-type': 'application/json', 'content-length': GIGABYTE } });
    expect(res.status).toBe(413);
    expect(res.head).toMatch(/\r\nconnection: close/);
    expect(res.closedMs).not.toBeNull();
  });

  it('a refusal without a body keeps the connection for the next request (keep-alive is untouched)', async () => {
    const url = new URL(t.baseUrl);
    const socket = net.connect({ host: url.hostname, port: Number(url.port) });
    let received = '';
    socket.on('data', (c: Buffer) => (received += c.toString('latin1')));
    const answers = () => received.split('HTTP/1.1 ').length - 1;
    const until = async (n: number) => {
      for (let i = 0; i < 100 && answers() < n; i++) await new Promise((r) => setTimeout(r, 20));
    };
    await new Promise<void>((r) => socket.once('connect', () => r()));
    socket.write(`GET /api/kvps HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
    await until(1);
    socket.write(`GET /api/health HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
    await until(2);
    socket.destroy();
    expect(received).toMatch(/^HTTP\/1\.1 401/);
    expect(received).toMatch(/HTTP\/1\.1 200/);
  });

  it('the server still serves afterwards', async () => {
    expect((await t.api('/api/health')).status).toBe(200);
    expect((await t.api(SEARCH, { method: 'POST', json: { size: 1 } })).status).toBe(200);
  });
});
