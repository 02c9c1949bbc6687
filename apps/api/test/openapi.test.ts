import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ seed: false });
});
afterAll(() => t?.close());

describe('the OpenAPI document', () => {
  it('GET /api/openapi.json is an OpenAPI 3 document listing the API, without an API key', async () => {
    const res = await t.api('/api/openapi.json', { apiKey: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = res.body;
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBeTruthy();
    expect(doc.paths['/api/kvps']).toHaveProperty('get');
    expect(doc.paths['/api/cms/articles/search']).toHaveProperty('post');
    expect(doc.paths['/api/health']).toHaveProperty('get');
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-api-key' });
    // The document itself is not listed as an endpoint.
    expect(doc.paths).not.toHaveProperty('/api/openapi.json');
  });

  it('describes the search body and the one error shape', async () => {
    const doc = (await t.api('/api/openapi.json', { apiKey: null })).body;
    const op = doc.paths['/api/cms/articles/search'].post;
    const body = JSON.stringify(op.requestBody);
    for (const field of ['page', 'size', 'fetchCount', 'textParams', 'sortParams']) expect(body).toContain(field);
    expect(JSON.stringify(op.responses['400'])).toContain('error');
    expect(JSON.stringify(op.responses['200'])).toContain('nextPageToken');
  });

  it('/api/docs serves an HTML reference, without an API key', async () => {
    const res = await fetch(`${t.baseUrl}/api/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toMatch(/<html/i);
  });
});
