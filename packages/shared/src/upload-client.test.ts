import { describe, expect, it } from 'vitest';
import { UPLOAD } from './constants.ts';
import { type FileLike, planParts } from './upload.ts';
import type { TUploadedFile } from './upload-schemas.ts';
import {
  NetworkError,
  type ResumeStore,
  type TransportRequest,
  type TransportResponse,
  UploadCancelledError,
  UploadError,
  runPool,
  sendWithRetries,
  uploadSource,
} from './upload-client.ts';

const MB = 1024 * 1024;
const UUID = '11111111-2222-4333-8444-555555555555';

const fakeFile = (size: number, name = 'a.png'): FileLike & { lastModified: number } => ({
  size,
  name,
  type: 'image/png',
  lastModified: 1,
  slice: (start?: number, end?: number) => ({ start, end }),
});

const uploaded = (size: number): TUploadedFile => ({
  uuid: UUID,
  name: 'a.png',
  size,
  isStored: true,
  isImage: true,
  mimeType: 'image/png',
  cdnUrl: `/files/${UUID}/a.png`,
  width: 1,
  height: 1,
});

function reply(status: number, body: unknown = {}, headers: Record<string, string> = {}): TransportResponse {
  return { status, body, header: (n) => headers[n.toLowerCase()] ?? null };
}

/** Records every wait instead of waiting. */
function fakeSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

function memoryResume(): ResumeStore & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, get: (k) => map.get(k) ?? null, set: (k, v) => void map.set(k, v), delete: (k) => void map.delete(k) };
}

/** A fake server for the multipart protocol, counting parts in flight at once. */
function multipartServer(size: number, opts: { already?: number[]; failOnce?: number[]; throttleOnce?: number[] } = {}) {
  const parts = planParts(size).map((p) => ({ ...p, url: `/api/files/multipart/${UUID}/parts/${p.partNumber}` }));
  const received = new Set(opts.already ?? []);
  const sent: number[] = [];
  const failOnce = new Set(opts.failOnce ?? []);
  const throttleOnce = new Set(opts.throttleOnce ?? []);
  let inFlight = 0;
  let maxInFlight = 0;
  const calls: string[] = [];
  const transport = async (req: TransportRequest): Promise<TransportResponse> => {
    calls.push(`${req.method} ${req.url}`);
    const view = () => ({ uuid: UUID, size, parts, completedParts: [...received].sort((a, b) => a - b), expiresAt: '2099-01-01T00:00:00Z' });
    if (req.method === 'POST' && req.url === '/api/files/multipart/start') return reply(200, view());
    if (req.method === 'GET' && req.url === `/api/files/multipart/${UUID}`) return reply(200, view());
    if (req.method === 'PUT') {
      const n = Number(req.url.split('/').pop());
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 2));
      req.onUploadProgress?.(parts[n - 1]!.size / 2);
      await new Promise((r) => setTimeout(r, 2));
      inFlight--;
      if (req.signal?.aborted) throw new DOMException('aborted', 'AbortError');
      if (failOnce.delete(n)) throw new NetworkError();
      if (throttleOnce.delete(n)) return reply(429, { error: { code: 'rate_limited', message: 'slow down' } }, { 'retry-after': '2' });
      sent.push(n);
      received.add(n);
      return reply(200, { partNumber: n, size: parts[n - 1]!.size, completedParts: [...received] });
    }
    if (req.method === 'POST' && req.url.endsWith('/complete')) {
      return received.size === parts.length ? reply(200, uploaded(size)) : reply(400, { error: { code: 'bad_request', message: 'missing' } });
    }
    if (req.method === 'DELETE') return reply(204, null);
    return reply(404, { error: { code: 'not_found', message: 'no' } });
  };
  return {
    transport,
    sent,
    calls,
    get maxInFlight() {
      return maxInFlight;
    },
  };
}

describe('uploadSource: direct upload', () => {
  it('sends a file under 25 MB as one form and reports progress', async () => {
    const progress: number[] = [];
    const reqs: TransportRequest[] = [];
    const file = await uploadSource(fakeFile(1000), {
      type: 'image',
      transport: async (req) => {
        reqs.push(req);
        req.onUploadProgress?.(400);
        req.onUploadProgress?.(1000);
        return reply(200, uploaded(1000));
      },
      onProgress: (p) => progress.push(p.loaded),
    });
    expect(file.uuid).toBe(UUID);
    expect(reqs.map((r) => `${r.method} ${r.url} ${r.form?.type}`)).toEqual(['POST /api/files image']);
    expect(progress).toEqual([400, 1000]);
  });

  it('refuses a file over 50 MB before sending anything', async () => {
    let called = false;
    const p = uploadSource(fakeFile(UPLOAD.maxBytes + 1), { type: 'image', transport: async () => ((called = true), reply(200)) });
    await expect(p).rejects.toMatchObject({ code: 'payload_too_large' });
    expect(called).toBe(false);
  });

  it('gives the server’s error (code and message) when it refuses the file', async () => {
    const p = uploadSource(fakeFile(10), {
      type: 'image',
      transport: async () => reply(415, { error: { code: 'unsupported_media_type', message: 'The file is not a valid image' } }),
    });
    await expect(p).rejects.toEqual(new UploadError('unsupported_media_type', 'The file is not a valid image', 415));
  });
});

describe('uploadSource: multipart upload', () => {
  it('sends the parts of a 30 MB file 4 at a time, retrying a network error and a 429', async () => {
    const server = multipartServer(30 * MB, { failOnce: [2], throttleOnce: [5] });
    const { waits, sleep } = fakeSleep();
    const progress: number[] = [];
    const file = await uploadSource(fakeFile(30 * MB), { type: 'image', transport: server.transport, sleep, onProgress: (p) => progress.push(p.loaded) });
    expect(file.size).toBe(30 * MB);
    expect(server.sent.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(server.maxInFlight).toBe(UPLOAD.concurrency);
    // 1 s after the first network error; the Retry-After of the 429.
    expect(waits.sort()).toEqual([1000, 2000]);
    expect(progress.at(-1)).toBe(30 * MB);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThanOrEqual(0);
    expect(server.calls.at(-1)).toBe(`POST /api/files/multipart/${UUID}/complete`);
  });

  it('resumes an interrupted upload without sending the parts the server has', async () => {
    const resume = memoryResume();
    const f = fakeFile(30 * MB);
    resume.set(`image:a.png:${30 * MB}:1`, UUID);
    const server = multipartServer(30 * MB, { already: [1, 2, 3] });
    const progress: number[] = [];
    await uploadSource(f, { type: 'image', transport: server.transport, resume, onProgress: (p) => progress.push(p.loaded) });
    expect(server.sent.sort()).toEqual([4, 5, 6]);
    expect(server.calls).not.toContain('POST /api/files/multipart/start');
    // Progress starts from what was already there.
    expect(progress[0]).toBe(15 * MB);
    expect(resume.map.size).toBe(0);
  });

  it('keeps the upload to resume when the network gives up, and starts afresh when the server forgot it', async () => {
    const resume = memoryResume();
    const server = multipartServer(30 * MB, { failOnce: [] });
    let down = false;
    const transport = async (req: TransportRequest) => {
      if (down && req.method === 'PUT') throw new NetworkError();
      const res = await server.transport(req);
      if (req.method === 'PUT') down = true; // the connection drops after the first part
      return res;
    };
    const { waits, sleep } = fakeSleep();
    await expect(uploadSource(fakeFile(30 * MB), { type: 'image', transport, resume, sleep })).rejects.toMatchObject({ code: 'network_error' });
    // Three retries per failing part, 1 s, 2 s, 3 s apart (parts fail side by side).
    expect([...new Set(waits)].sort()).toEqual([1000, 2000, 3000]);
    expect(waits.length % 3).toBe(0);
    expect([...resume.map.values()]).toEqual([UUID]);

    const forgetful = async (req: TransportRequest) =>
      req.method === 'GET' ? reply(404, { error: { code: 'not_found', message: 'gone' } }) : server.transport(req);
    const calls: string[] = [];
    await uploadSource(fakeFile(30 * MB), { type: 'image', transport: async (r) => (calls.push(`${r.method} ${r.url}`), forgetful(r)), resume });
    expect(calls[0]).toBe(`GET /api/files/multipart/${UUID}`);
    expect(calls[1]).toBe('POST /api/files/multipart/start');
  });

  it('stops when cancelled and drops the upload on the server', async () => {
    const ctl = new AbortController();
    const server = multipartServer(30 * MB);
    const resume = memoryResume();
    const transport = async (req: TransportRequest) => {
      if (req.method === 'PUT' && req.url.endsWith('/3')) ctl.abort();
      return server.transport(req);
    };
    await expect(uploadSource(fakeFile(30 * MB), { type: 'image', transport, signal: ctl.signal, resume })).rejects.toBeInstanceOf(UploadCancelledError);
    expect(server.calls).toContain(`DELETE /api/files/multipart/${UUID}`);
    expect(server.calls).not.toContain(`POST /api/files/multipart/${UUID}/complete`);
    expect(resume.map.size).toBe(0);
  });
});

describe('uploadSource: other sources', () => {
  it('imports a URL, polling the task every 500 ms until it succeeds', async () => {
    const statuses = ['progress', 'progress', 'success'];
    const { waits, sleep } = fakeSleep();
    const file = await uploadSource('https://cdn.example.com/sofa.png', {
      type: 'image',
      sleep,
      transport: async (req) => {
        if (req.method === 'POST') {
          expect(req.json).toEqual({ sourceUrl: 'https://cdn.example.com/sofa.png', type: 'image' });
          return reply(202, { token: 't', status: 'waiting', done: 0, total: null, error: null, file: null });
        }
        const status = statuses.shift()!;
        return reply(200, { token: 't', status, done: 5, total: 10, error: null, file: status === 'success' ? uploaded(10) : null });
      },
    });
    expect(file.uuid).toBe(UUID);
    expect(waits).toEqual([500, 500, 500]);
  });

  it('reports a failed import with the server’s reason', async () => {
    const p = uploadSource('http://example.com/a.png', {
      type: 'image',
      sleep: async () => {},
      transport: async () =>
        reply(200, { token: 't', status: 'error', done: 0, total: null, error: { code: 'address_not_allowed', message: 'no' }, file: null }),
    });
    await expect(p).rejects.toMatchObject({ code: 'address_not_allowed' });
  });

  it('looks up a file UUID', async () => {
    const urls: string[] = [];
    const file = await uploadSource(UUID, { type: 'image', transport: async (r) => (urls.push(r.url), reply(200, uploaded(3))) });
    expect(file.size).toBe(3);
    expect(urls).toEqual([`/api/files/${UUID}`]);
  });

  it("refuses anything else with 'File uploading from ... is not supported'", async () => {
    await expect(uploadSource('ftp://x/y', { type: 'image', transport: async () => reply(200) })).rejects.toEqual(
      new UploadError('unsupported_source', 'File uploading from ftp://x/y is not supported'),
    );
  });
});

describe('sendWithRetries', () => {
  it('gives up after 3 network retries, waiting 1, 2 and 3 s', async () => {
    const { waits, sleep } = fakeSleep();
    let calls = 0;
    const p = sendWithRetries(async () => (calls++, Promise.reject(new NetworkError())), { method: 'GET', url: '/x' }, sleep);
    await expect(p).rejects.toMatchObject({ code: 'network_error' });
    expect(calls).toBe(4);
    expect(waits).toEqual([1000, 2000, 3000]);
  });

  it('waits 15 s on a 429 without Retry-After, and returns the 429 after the last try', async () => {
    const { waits, sleep } = fakeSleep();
    const res = await sendWithRetries(async () => reply(429), { method: 'GET', url: '/x' }, sleep);
    expect(res.status).toBe(429);
    expect(waits).toEqual(Array(UPLOAD.throttleRetries).fill(15_000));
  });
});

describe('runPool', () => {
  it('never runs more than the limit at once and does every item', async () => {
    let now = 0;
    let max = 0;
    const done: number[] = [];
    await runPool([1, 2, 3, 4, 5, 6, 7, 8, 9], 4, async (n) => {
      now++;
      max = Math.max(max, now);
      await new Promise((r) => setTimeout(r, n % 3));
      now--;
      done.push(n);
    });
    expect(max).toBe(4);
    expect(done.sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
