import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { MESSAGES, type TUploadTask, type TUploadTaskStatus, UPLOAD } from '@storefront/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectApiError } from './helpers/assertions.ts';
import { pngBytes } from './helpers/files.ts';
import { TEST_API_KEY, startTestApp, type TestApp } from './helpers/test-app.ts';

// Importing files from URLs (spec §4): the task and its statuses, and the refusal of every
// address inside our own network, proven by listeners that count the connections they get.

let t: TestApp;
let source: http.Server;
let sourceUrl: string;
/** Connections made to the listeners that must never be reached. */
const trapped: string[] = [];
let trap4: net.Server;
let trap6: net.Server | null = null;
let trapPort: number;
let trap6Port: number | null = null;
/** Lets the slow route finish when the test says so. */
let release: () => void = () => {};

const png = pngBytes(120, 80, 600 * 1024);

async function listen(server: net.Server, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  // The file source: a real HTTP server on loopback, which only the test exception lets the app reach.
  source = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/slow/sofa.png') {
      // Half the file, then a pause the test ends: the task is seen "in progress".
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(png.length) });
      res.write(png.subarray(0, png.length / 2));
      release = () => res.end(png.subarray(png.length / 2));
      return;
    }
    if (url.pathname === '/stall') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(png.length) });
      res.write(png.subarray(0, 1000));
      return; // never finishes
    }
    if (url.pathname === '/chair.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(png);
    if (url.pathname === '/page.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end('<!doctype html><script>alert(1)</script>');
    if (url.pathname === '/huge') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(UPLOAD.maxBytes + 1) });
      res.write(png.subarray(0, 100));
      return;
    }
    if (url.pathname === '/redirect') return void res.writeHead(302, { location: url.searchParams.get('to')! }).end();
    if (url.pathname === '/redirect-relative') return void res.writeHead(301, { location: '/chair.png' }).end();
    res.writeHead(404).end('no');
  });
  const sourcePort = await listen(source, '127.0.0.1');
  sourceUrl = `http://127.0.0.1:${sourcePort}`;

  // Traps: listeners where any connection is a failure of the address policy.
  trap4 = net.createServer((s) => {
    trapped.push(`127.0.0.1 from ${s.remoteAddress}`);
    s.destroy();
  });
  trapPort = await listen(trap4, '127.0.0.1');
  try {
    const six = net.createServer((s) => {
      trapped.push(`::1 from ${s.remoteAddress}`);
      s.destroy();
    });
    trap6Port = await listen(six, '::1');
    trap6 = six;
  } catch {
    trap6 = null; // no IPv6 loopback on this machine; [::1] is still refused below
  }

  t = await startTestApp({
    seed: false,
    files: {
      testOnlyAllowAddresses: [`127.0.0.1:${sourcePort}`],
      // A name that resolves to loopback, as a hostile DNS record would.
      testOnlyResolve: async (host) =>
        host === 'rebind.test' ? [{ address: '127.0.0.1', family: 4 }] : host === 'files.test' ? [{ address: '127.0.0.1', family: 4 }] : [],
      throttle: { start: { burst: 1000, refillMs: 1000 } },
      eventsIdleMs: 1500,
    },
  });
});

afterAll(async () => {
  release();
  await t?.close();
  source?.closeAllConnections();
  await new Promise((r) => source?.close(r));
  await new Promise((r) => trap4?.close(r));
  await new Promise((r) => (trap6 ? trap6.close(r) : r(null)));
});

const startImport = (url: string, type = 'image') => t.api<TUploadTask>('/api/files/from-url', { method: 'POST', json: { sourceUrl: url, type } });
const task = (token: string) => t.api<TUploadTask>(`/api/files/from-url/${token}`);

/** Polls the task until it ends, collecting each status the first time it is seen. */
async function follow(
  token: string,
  until: (s: TUploadTaskStatus) => boolean = (s) => s === 'success' || s === 'error',
): Promise<{ seen: TUploadTaskStatus[]; last: TUploadTask }> {
  const seen: TUploadTaskStatus[] = [];
  for (let i = 0; i < 200; i++) {
    const res = await task(token);
    expect(res.status).toBe(200);
    if (seen.at(-1) !== res.body.status) seen.push(res.body.status);
    if (until(res.body.status)) return { seen, last: res.body };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`task ${token} did not end: ${seen.join(' → ')}`);
}

describe('importing from a URL', () => {
  it('goes waiting → progress → success and stores the file', async () => {
    const started = await startImport(`${sourceUrl}/slow/sofa.png`);
    expect(started.status, started.text).toBe(202);
    expect(started.body).toMatchObject({ status: 'waiting', done: 0, file: null, error: null });
    const { seen: first, last: mid } = await follow(started.body.token, (s) => s === 'progress');
    expect(first.at(-1)).toBe('progress');
    // Bytes are counted as they arrive, against the size the source announced.
    await expect.poll(async () => (await task(started.body.token)).body.done).toBeGreaterThan(0);
    expect(mid.total).toBe(png.length);
    release();
    const { seen, last } = await follow(started.body.token);
    expect(['waiting', ...first, ...seen].filter((s, i, a) => a[i - 1] !== s)).toEqual(['waiting', 'progress', 'success']);
    // The stored copy is encoded again without the padding chunk (modules/images): smaller.
    expect(last.file).toMatchObject({ name: 'sofa.png', mimeType: 'image/png', isImage: true, width: 120, height: 80 });
    expect(last.file!.size).toBeLessThan(png.length);
    const served = Buffer.from(await (await fetch(`${t.baseUrl}${last.file!.cdnUrl}`)).arrayBuffer());
    expect(served.length).toBe(last.file!.size);
    expect(served.subarray(0, 8).equals(png.subarray(0, 8))).toBe(true);
  });

  it('pushes the statuses as server-sent events and closes the stream when the task ends', async () => {
    const started = await startImport(`${sourceUrl}/slow/sofa.png`);
    const res = await fetch(`${t.baseUrl}/api/files/from-url/${started.body.token}/events`, { headers: { 'x-api-key': TEST_API_KEY } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const statuses: string[] = [];
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        expect(event).toMatch(/^event: status\ndata: /);
        const data = JSON.parse(event.split('\ndata: ')[1]!) as TUploadTask;
        if (statuses.at(-1) !== data.status) statuses.push(data.status);
        if (data.status === 'progress') release();
      }
    }
    // The loop ended because the server closed the stream after success.
    expect(statuses.at(-1)).toBe('success');
    expect(statuses).toContain('progress');
  });

  it('closes the event stream after a spell without news, though the task is still running', async () => {
    const started = await startImport(`${sourceUrl}/stall`);
    await follow(started.body.token, (s) => s === 'progress');
    const opened = Date.now();
    const res = await fetch(`${t.baseUrl}/api/files/from-url/${started.body.token}/events`, { headers: { 'x-api-key': TEST_API_KEY } });
    const text = await res.text(); // ends only when the server closes the stream
    expect(Date.now() - opened).toBeGreaterThanOrEqual(1400);
    expect(text).toContain('"status":"progress"');
    expect((await task(started.body.token)).body.status).toBe('progress');
  });

  it('follows a redirect to a public file and names the file after the final URL', async () => {
    const started = await startImport(`${sourceUrl}/redirect-relative`);
    const { last } = await follow(started.body.token);
    expect(last.status).toBe('success');
    expect(last.file?.name).toBe('chair.png');
  });

  it('ends in error for a missing file, markup posing as an image, and a file over 50 MB', async () => {
    const missing = await follow((await startImport(`${sourceUrl}/nothing-here.png`)).body.token);
    expect(missing.last).toMatchObject({ status: 'error', error: { code: 'source_error' }, file: null });
    const html = await follow((await startImport(`${sourceUrl}/page.png`)).body.token);
    expect(html.last).toMatchObject({ status: 'error', error: { code: 'unsupported_media_type' } });
    const huge = await follow((await startImport(`${sourceUrl}/huge`)).body.token);
    expect(huge.last).toMatchObject({ status: 'error', error: { code: 'payload_too_large' } });
  });

  it('says "unknown" for a token it never issued', async () => {
    const res = await task('00000000-0000-4000-8000-000000000000');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('unknown');
  });
});

describe('refused sources', () => {
  for (const src of [
    'ftp://files.example.com/a.png',
    'file:///etc/passwd',
    'gopher://example.com/',
    'javascript:alert(1)',
    'data:image/png;base64,AAAA',
    'not a url',
    '//example.com/a.png',
  ]) {
    it(`refuses ${src} with the message of spec §5`, async () => {
      const res = await startImport(src);
      expectApiError(res, 400, 'unsupported_source');
      expect(res.body.error!.message).toBe(MESSAGES.uploadUnsupported(src));
    });
  }
});

describe('URL import never connects inside our network', () => {
  const direct = () => [
    `http://127.0.0.1:${trapPort}/latest`,
    `http://2130706433:${trapPort}/`, // 127.0.0.1 as one decimal number
    `http://0x7f.0.0.1:${trapPort}/`,
    `http://127.1:${trapPort}/`,
    `http://[::ffff:127.0.0.1]:${trapPort}/`, // IPv4-mapped IPv6
    `http://[::1]:${trap6Port ?? trapPort}/`,
    `http://localhost:${trapPort}/`,
    'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
    'http://[fd00:ec2::254]/latest/meta-data/',
    'http://10.0.0.1/',
    'http://192.168.1.1/',
    'http://0.0.0.0/',
  ];

  it('refuses loopback, private, link-local and metadata addresses at once, before connecting', async () => {
    for (const url of direct()) {
      const res = await startImport(url);
      expectApiError(res, 403, 'address_not_allowed');
    }
    expect(trapped).toEqual([]);
  });

  it('refuses a redirect to loopback or to the metadata service, without connecting to it', async () => {
    for (const to of [
      `http://127.0.0.1:${trapPort}/secret`,
      `http://2130706433:${trapPort}/`,
      `http://[::1]:${trap6Port ?? trapPort}/`,
      'http://169.254.169.254/latest/meta-data/',
    ]) {
      const started = await startImport(`${sourceUrl}/redirect?to=${encodeURIComponent(to)}`);
      expect(started.status).toBe(202);
      const { last } = await follow(started.body.token);
      expect(last).toMatchObject({ status: 'error', error: { code: 'address_not_allowed' }, file: null });
    }
    const toFile = await follow((await startImport(`${sourceUrl}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`)).body.token);
    expect(toFile.last).toMatchObject({ status: 'error', error: { code: 'unsupported_source' } });
    expect(trapped).toEqual([]);
  });

  it('refuses a host name that resolves to loopback, checking the address it connects to', async () => {
    const started = await startImport(`http://rebind.test:${trapPort}/`);
    expect(started.status).toBe(202);
    const { last } = await follow(started.body.token);
    expect(last).toMatchObject({ status: 'error', error: { code: 'address_not_allowed' } });
    expect(trapped).toEqual([]);
  });

  it('the trap listeners do count connections (the checks above are not vacuous)', async () => {
    const before = trapped.length;
    await new Promise<void>((resolve) => {
      const s = net.connect(trapPort, '127.0.0.1', () => s.end());
      s.on('close', () => resolve());
      s.on('error', () => resolve());
    });
    await expect.poll(() => trapped.length).toBe(before + 1);
    trapped.splice(before);
  });
});
