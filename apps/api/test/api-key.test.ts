import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectApiError } from './helpers/assertions.ts';
import { startTestApp, TEST_API_KEY, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

describe('the x-api-key header (spec §7)', () => {
  it('a call without the API key gets 401 in the one error shape', async () => {
    const res = await t.api('/api/kvps', { apiKey: null });
    expectApiError(res, 401, 'unauthorized');
  });

  it('a call with a wrong API key gets 401', async () => {
    expectApiError(await t.api('/api/kvps', { apiKey: 'wrong-key' }), 401, 'unauthorized');
    expectApiError(await t.api('/api/kvps', { apiKey: `${TEST_API_KEY}x` }), 401, 'unauthorized');
    expectApiError(await t.api('/api/kvps', { apiKey: TEST_API_KEY.toUpperCase() }), 401, 'unauthorized');
    expectApiError(await t.api('/api/kvps', { apiKey: '' }), 401, 'unauthorized');
  });

  it('a POST without the API key is refused before its body is read', async () => {
    const res = await t.api('/api/cms/articles/search', { method: 'POST', json: {}, apiKey: null });
    expectApiError(res, 401, 'unauthorized');
  });

  it('a call with the right API key is served', async () => {
    const res = await t.api('/api/kvps');
    expect(res.status).toBe(200);
  });

  it('an open path cannot be used as a prefix to reach a closed one', async () => {
    expectApiError(await t.api('/api/healthz', { apiKey: null }), 401);
    expectApiError(await t.api('/api/kvps?next=/api/health', { apiKey: null }), 401);
    expectApiError(await t.api('/api/openapi.jsonx', { apiKey: null }), 401);
  });

  it('a percent-encoded path reaches no endpoint without the API key', async () => {
    // The router decodes %61 to "a": /%61pi/kvps is /api/kvps and must need the key too.
    for (const p of ['/%61pi/kvps', '/%61%70%69/kvps', '/api/%6bvps', '/%61pi/cms/articles/search']) {
      const res = await t.api(p, { apiKey: null, method: p.endsWith('search') ? 'POST' : 'GET', json: p.endsWith('search') ? {} : undefined });
      expect(res.status, p).toBeGreaterThanOrEqual(400);
      expect(res.status, p).toBeLessThan(500);
      expect(res.text, p).not.toContain('16770');
      expect(res.text, p).not.toContain('"list"');
    }
  });
});
