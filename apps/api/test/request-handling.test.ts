import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectApiError } from './helpers/assertions.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const SEARCH = '/api/cms/articles/search';
const post = (body: NonNullable<RequestInit['body']>, contentType = 'application/json') =>
  t.api(SEARCH, { method: 'POST', body, headers: { 'content-type': contentType } });

async function stillServes() {
  const health = await t.api('/api/health');
  expect(health.status).toBe(200);
  const search = await t.api(SEARCH, { method: 'POST', json: { size: 1 } });
  expect(search.status).toBe(200);
  expect(search.body.list).toHaveLength(1);
}

describe('bad requests get a 4xx in the one error shape, never a 5xx', () => {
  it('malformed JSON is a 400', async () => {
    expectApiError(await post('{"page":'), 400, 'bad_request');
    expectApiError(await post('{page: 1}'), 400, 'bad_request');
    expectApiError(await post('[1,2'), 400, 'bad_request');
  });

  it('an empty JSON body is a 400', async () => {
    expectApiError(await post(''), 400);
  });

  it('a field of the wrong type is a 400 naming the field', async () => {
    const res = await t.api(SEARCH, { method: 'POST', json: { page: 'x' } });
    expectApiError(res, 400, 'validation_error');
    expect(Object.keys(res.body.error.fields)).toContain('page');
  });

  it('out-of-range and wrongly shaped search bodies are 400s', async () => {
    for (const body of [
      { page: 0 },
      { page: 1.5 },
      { size: 0 },
      { size: 100_000 },
      { fetchCount: 'yes' },
      { textParams: 'type=page' },
      { textParams: [{ field: 'type', value: 'page', matchType: 'REGEX' }] },
      { textParams: [{ value: 'page' }] },
      { textParams: [{ field: 'type', value: { $ne: null } }] },
      { sortParams: [{ field: 'title', type: 'SIDEWAYS' }] },
      [],
      'page',
      null,
    ]) {
      const res = await t.api(SEARCH, { method: 'POST', json: body });
      expectApiError(res, 400);
    }
  });

  it('a body over 1 MiB is a 413', async () => {
    const res = await t.api(SEARCH, { method: 'POST', json: { page: 1, pad: 'x'.repeat(1024 * 1024 + 1) } });
    expectApiError(res, 413, 'payload_too_large');
  });

  it('a streamed body over 1 MiB without a length is a 413 too', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('{"pad":"'));
      },
      pull(c) {
        if (sent > 1.2 * 1024 * 1024) {
          c.enqueue(new TextEncoder().encode('"}'));
          c.close();
          return;
        }
        c.enqueue(chunk);
        sent += chunk.length;
      },
    });
    const res = await t.api(SEARCH, { method: 'POST', body: stream, duplex: 'half', headers: { 'content-type': 'application/json' } } as never);
    expectApiError(res, 413, 'payload_too_large');
  });

  it('a body just under 1 MiB is accepted', async () => {
    const res = await t.api(SEARCH, { method: 'POST', json: { page: 1, pad: 'x'.repeat(1000 * 1024) } });
    // Unknown keys are dropped by the schema: the search itself runs.
    expect(res.status).toBe(200);
  });

  it('a __proto__ key in JSON is refused with a 400', async () => {
    expectApiError(await post('{"__proto__":{"isAdmin":true},"page":1}'), 400);
    expectApiError(await post('{"textParams":[{"field":"type","value":"page","__proto__":{"x":1}}]}'), 400);
    expectApiError(await post('{"constructor":{"prototype":{"isAdmin":true}}}'), 400);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('a content type the API does not read is a 415', async () => {
    expectApiError(await post('<search/>', 'application/xml'), 415, 'unsupported_media_type');
    expectApiError(await post('page=1', 'application/x-www-form-urlencoded'), 415, 'unsupported_media_type');
  });

  it('a plain-text body where JSON is expected is a 400', async () => {
    expectApiError(await post('{"page":1}', 'text/plain'), 400);
  });

  it('an unknown /api path answers JSON 404, whatever the method', async () => {
    expectApiError(await t.api('/api/nope'), 404, 'not_found');
    expectApiError(await t.api('/api/nope/deeper?x=1'), 404, 'not_found');
    expectApiError(await t.api('/api/nope', { method: 'POST', json: {} }), 404, 'not_found');
    expectApiError(await t.api('/api/nope', { method: 'DELETE' }), 404, 'not_found');
  });

  it('a wrong method on a known path is a 4xx', async () => {
    const res = await t.api(SEARCH, { method: 'GET' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expectApiError(res, res.status);
  });

  it('a path outside /api that does not exist answers JSON 404 when no pages are served', async () => {
    expectApiError(await t.api('/no-such-thing', { apiKey: null }), 404, 'not_found');
  });

  it('the server still serves after all of that', async () => {
    await stillServes();
  });
});

describe('headers on every response', () => {
  it('every response carries an x-request-id, errors included', async () => {
    const seen = new Set<string>();
    for (const res of [
      await t.api('/api/health'),
      await t.api('/api/kvps', { apiKey: null }),
      await t.api('/api/nope'),
      await post('{"page":'),
      await t.api('/media/demo/sofa/7d8790.svg'),
    ]) {
      const id = res.headers.get('x-request-id');
      expect(id).toBeTruthy();
      seen.add(id!);
    }
    expect(seen.size).toBe(5);
  });

  it('a valid x-request-id given by the caller is echoed', async () => {
    const res = await t.api('/api/health', { headers: { 'x-request-id': 'abc12345-trace.1' } });
    expect(res.headers.get('x-request-id')).toBe('abc12345-trace.1');
    const err = await t.api('/api/kvps', { apiKey: null, headers: { 'x-request-id': 'abc12345-trace.2' } });
    expect(err.headers.get('x-request-id')).toBe('abc12345-trace.2');
  });

  it('an invalid x-request-id is replaced by a fresh one', async () => {
    for (const given of ['short', 'has spaces in it', '<script>alert(1)</script>', 'x'.repeat(65), 'semi;colon;value']) {
      const res = await t.api('/api/health', { headers: { 'x-request-id': given } });
      const id = res.headers.get('x-request-id');
      expect(id, given).toBeTruthy();
      expect(id, given).not.toBe(given);
      expect(id, given).toMatch(/^[\w.-]{8,64}$/);
    }
  });

  it('security headers are set on answers and on errors', async () => {
    for (const res of [await t.api('/api/health'), await t.api('/api/kvps', { apiKey: null }), await t.api('/api/nope')]) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      // DENY, as the CSP's frame-ancestors 'none' says (docs/decisions/0019).
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-powered-by')).toBeNull();
    }
  });
});

describe('compression', () => {
  // Raw bytes, decoded here: fetch would decode them itself and hide what was sent.
  async function raw(path: string, encoding: string, init: { method?: string; body?: string } = {}) {
    const url = new URL(path, t.baseUrl);
    return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; bytes: Buffer }>((resolve, reject) => {
      const req = request(url, {
        method: init.method ?? 'GET',
        headers: { 'x-api-key': 'test-storefront-key', 'accept-encoding': encoding, ...(init.body ? { 'content-type': 'application/json' } : {}) },
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end(init.body);
    });
  }

  for (const [name, path, init] of [
    ['a cached POST read (categories)', '/api/categories/search', { method: 'POST', body: '{"page":1,"size":50}' }],
    ['a cached GET read (product details)', '/api/v3/items/joined?id=1', {}],
    ['the OpenAPI document', '/api/openapi.json', {}],
  ] as const) {
    it(`${name} goes out as brotli or gzip and decodes to the very JSON sent uncompressed`, async () => {
      const plain = await raw(path, 'identity', init);
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      const expected = JSON.parse(plain.bytes.toString('utf8'));
      for (const [enc, decode] of [
        ['br', brotliDecompressSync],
        ['gzip', gunzipSync],
      ] as const) {
        const res = await raw(path, enc, init);
        expect(res.status).toBe(200);
        expect(res.headers['content-encoding']).toBe(enc);
        expect(res.headers.vary).toMatch(/accept-encoding/i);
        expect(res.bytes.length).toBeLessThan(plain.bytes.length);
        expect(JSON.parse(decode(res.bytes).toString('utf8'))).toEqual(expected);
      }
    });
  }

  it('small answers are not compressed', async () => {
    const res = await raw('/api/health', 'br');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.bytes.toString('utf8'))).toBeTruthy();
  });
});
