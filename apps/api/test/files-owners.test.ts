import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectApiError } from './helpers/assertions.ts';
import { signUp, type TestCustomer } from './helpers/accounts.ts';
import { pngBytes, uploadForm } from './helpers/files.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// Whose files, uploads and imports are whose: a customer's are theirs alone (others get a
// 404, as for something that does not exist); a guest's are reached by their uuid only.

const MB = 1024 * 1024;
let t: TestApp;
let source: http.Server;
let sourceUrl: string;
let a: TestCustomer;
let b: TestCustomer;

beforeAll(async () => {
  source = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(pngBytes(3, 3)));
  await new Promise<void>((r) => source.listen(0, '127.0.0.1', () => r()));
  const port = (source.address() as AddressInfo).port;
  sourceUrl = `http://127.0.0.1:${port}/pic.png`;
  t = await startTestApp({ seed: false, files: { testOnlyAllowAddresses: [`127.0.0.1:${port}`] } });
  [a, b] = [await signUp(t), await signUp(t)];
});
afterAll(async () => {
  await t?.close();
  await new Promise((r) => source?.close(r));
});

const uploadAs = async (who: TestCustomer | null) => {
  const res = await t.api('/api/files', { method: 'POST', body: uploadForm({ bytes: pngBytes(), name: 'mine.png' }), headers: who?.auth });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

describe('files of customers and guests', () => {
  it('a customer’s file is theirs: recorded with them, visible to them, absent to others', async () => {
    const file = await uploadAs(a);
    const row = await t.db.kysely.selectFrom('files').select('owner_customer_id').where('uuid', '=', file.uuid).executeTakeFirstOrThrow();
    expect(row.owner_customer_id).not.toBeNull();
    expect((await t.api(`/api/files/${file.uuid}`, { headers: a.auth })).body).toEqual(file);
    expectApiError(await t.api(`/api/files/${file.uuid}`, { headers: b.auth }), 404, 'not_found');
    expectApiError(await t.api(`/api/files/${file.uuid}`), 404, 'not_found');
    // The bytes are served by their uuid to anyone who has it (an <img> sends no key; decision 0012).
    expect((await fetch(`${t.baseUrl}${file.cdnUrl}`)).status).toBe(200);
  });

  it('a guest’s file has no owner and cannot become a customer’s', async () => {
    const file = await uploadAs(null);
    expect((await t.api(`/api/files/${file.uuid}`, { headers: b.auth })).status).toBe(200);
    expectApiError(await t.api('/api/customers/images', { method: 'PATCH', json: { uuid: file.uuid }, headers: b.auth }), 404);
  });

  it('another customer can neither see, send parts to, complete nor cancel a customer’s multipart upload', async () => {
    const up = (await t.api('/api/files/multipart/start', { method: 'POST', json: { filename: 'a.png', size: 26 * MB, type: 'image' }, headers: a.auth })).body;
    const part = up.parts[0];
    expectApiError(await t.api(`/api/files/multipart/${up.uuid}`, { headers: b.auth }), 404);
    expectApiError(
      await t.api(part.url, { method: 'PUT', body: new Uint8Array(part.size), headers: { ...b.auth, 'content-type': 'application/octet-stream' } }),
      404,
    );
    expectApiError(await t.api(`/api/files/multipart/${up.uuid}/complete`, { method: 'POST', headers: b.auth }), 404);
    expectApiError(await t.api(`/api/files/multipart/${up.uuid}`, { method: 'DELETE', headers: b.auth }), 404);
    expectApiError(await t.api(`/api/files/multipart/${up.uuid}`), 404);
    expect((await t.api(`/api/files/multipart/${up.uuid}`, { headers: a.auth })).status).toBe(200);
    expect((await t.api(`/api/files/multipart/${up.uuid}`, { method: 'DELETE', headers: a.auth })).status).toBe(204);
  });

  it('another customer cannot follow a customer’s URL import', async () => {
    const task = (await t.api('/api/files/from-url', { method: 'POST', json: { sourceUrl, type: 'image' }, headers: a.auth })).body;
    expectApiError(await t.api(`/api/files/from-url/${task.token}`, { headers: b.auth }), 404);
    expectApiError(await t.api(`/api/files/from-url/${task.token}/events`, { headers: b.auth }), 404);
    await expect.poll(async () => (await t.api(`/api/files/from-url/${task.token}`, { headers: a.auth })).body.status).toBe('success');
    const done = (await t.api(`/api/files/from-url/${task.token}`, { headers: a.auth })).body;
    // The imported file is the customer's: it can be their profile picture.
    const set = await t.api('/api/customers/images', { method: 'PATCH', json: { uuid: done.file.uuid }, headers: a.auth });
    expect(set.status, set.text).toBe(200);
  });
});
