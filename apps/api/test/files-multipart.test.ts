import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { planParts, type TMultipartUpload, UPLOAD } from '@storefront/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupExpired } from '../src/modules/files/files.service.ts';
import { expectApiError } from './helpers/assertions.ts';
import { byteStream, rawRequest, virtualFile } from './helpers/files.ts';
import { TEST_API_KEY, startTestApp, type TestApp } from './helpers/test-app.ts';

// Multipart uploads for large files (spec §4, §9): start → parts → complete.

const MB = 1024 * 1024;
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ seed: false, files: { throttle: { start: { burst: 1000, refillMs: 1000 } } } });
});
afterAll(() => t?.close());

const start = (body: object) => t.api<TMultipartUpload>('/api/files/multipart/start', { method: 'POST', json: body });
const status = (uuid: string) => t.api<TMultipartUpload>(`/api/files/multipart/${uuid}`);
const complete = (uuid: string) => t.api(`/api/files/multipart/${uuid}/complete`, { method: 'POST' });
const putPart = (url: string, bytes: Buffer) =>
  t.api(url, { method: 'PUT', body: new Uint8Array(bytes), headers: { 'content-type': 'application/octet-stream' } });
const partsDir = () => path.join(t.app.config.dataDir, 'files', '.multipart');
/** Stored files (not parts) on the disk. */
const countStored = () =>
  fs
    .readdirSync(path.join(t.app.config.dataDir, 'files'), { recursive: true })
    .map(String)
    .filter((f) => !f.startsWith('.multipart') && /\/[0-9a-f-]{36}$/.test(f)).length;
/** The folder holding one upload's parts (ask before the upload is gone). */
async function uploadDirOf(uuid: string): Promise<string> {
  const row = await t.db.kysely.selectFrom('file_uploads').select('storage_upload_id').where('uuid', '=', uuid).executeTakeFirstOrThrow();
  return path.join(partsDir(), row.storage_upload_id);
}

/** Sends the first `sendBytes` of a part announced at its full length, then drops the connection. */
function interruptedPart(url: string, announced: number, bytes: Buffer): Promise<void> {
  return new Promise((resolve) => {
    const req = http.request(`${t.baseUrl}${url}`, {
      method: 'PUT',
      agent: false,
      headers: { 'x-api-key': TEST_API_KEY, 'content-type': 'application/octet-stream', 'content-length': String(announced) },
    });
    req.on('error', () => resolve());
    req.on('response', (res) => {
      res.resume();
      resolve();
    });
    req.write(bytes, () => setTimeout(() => req.destroy(), 50));
  });
}

async function sha256OfUrl(url: string): Promise<{ hash: string; size: number }> {
  const res = await fetch(`${t.baseUrl}${url}`);
  expect(res.status).toBe(200);
  const h = createHash('sha256');
  let size = 0;
  for await (const c of res.body as unknown as AsyncIterable<Uint8Array>) {
    h.update(c);
    size += c.length;
  }
  return { hash: h.digest('hex'), size };
}

describe('a 30 MB multipart upload', () => {
  it('survives a failed part, is resumed without resending finished parts, and joins to the exact bytes', async () => {
    // A PDF: an image is encoded again once joined (modules/images), so only a document
    // can show the joined bytes are the parts, byte for byte.
    const file = virtualFile(30 * MB, Buffer.from('%PDF-1.4\n'));
    const started = await start({ filename: 'showroom brochure.pdf', size: file.size, contentType: 'application/pdf', type: 'document' });
    expect(started.status, started.text).toBe(200);
    const up = started.body;
    const dir = await uploadDirOf(up.uuid);
    // 5 MB parts; 30 MB is exactly six of them.
    expect(up.parts.map((p) => p.size)).toEqual(Array(6).fill(5 * MB));
    expect(up.parts).toEqual(planParts(file.size).map((p) => ({ ...p, url: `/api/files/multipart/${up.uuid}/parts/${p.partNumber}` })));
    expect(up.completedParts).toEqual([]);

    // Parts 1 and 2 arrive, out of order and at the same time.
    const [p1, p2, p3] = up.parts as [TMultipartUpload['parts'][0], TMultipartUpload['parts'][0], TMultipartUpload['parts'][0]];
    const sent = await Promise.all([p2, p1].map((p) => putPart(p.url, file.slice(p.offset, p.size))));
    for (const r of sent) expect(r.status, r.text).toBe(200);

    // Part 3 fails on the way: the connection drops after 2 MB of its 5.
    await interruptedPart(p3.url, p3.size, file.slice(p3.offset, 2 * MB));
    // Nothing of it is kept, not even a temporary file.
    await expect.poll(async () => (await status(up.uuid)).body.completedParts).toEqual([1, 2]);
    await expect.poll(() => fs.readdirSync(dir).sort()).toEqual(['1.part', '2.part']);

    // A short part is refused too, and not recorded.
    expectApiError(await putPart(p3.url, file.slice(p3.offset, MB)), 400);
    // The retry of part 3 succeeds.
    const retried = await putPart(p3.url, file.slice(p3.offset, p3.size));
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual({ partNumber: 3, size: p3.size, completedParts: [1, 2, 3] });

    // Completing early says which parts are missing.
    const early = await complete(up.uuid);
    expectApiError(early, 400, 'bad_request');
    expect(early.body.error.message).toContain('4, 5, 6');

    // "The browser was closed": a new client asks what the server has and sends only the rest.
    const resumed = await status(up.uuid);
    expect(resumed.status).toBe(200);
    expect(resumed.body.completedParts).toEqual([1, 2, 3]);
    const missing = resumed.body.parts.filter((p) => !resumed.body.completedParts.includes(p.partNumber));
    expect(missing.map((p) => p.partNumber)).toEqual([4, 5, 6]);
    for (const r of await Promise.all(missing.map((p) => putPart(p.url, file.slice(p.offset, p.size))))) expect(r.status).toBe(200);

    const done = await complete(up.uuid);
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({
      name: 'showroom brochure.pdf',
      size: 30 * MB,
      mimeType: 'application/pdf',
      isImage: false,
      isStored: true,
    });

    // The stored file is the original, byte for byte.
    const expected = createHash('sha256');
    for (const p of up.parts) expected.update(file.slice(p.offset, p.size));
    expect(await sha256OfUrl(done.body.cdnUrl)).toEqual({ hash: expected.digest('hex'), size: 30 * MB });

    // Completing again (a retry after a lost answer) gives the same file; more parts are refused.
    const again = await complete(up.uuid);
    expect(again.status).toBe(200);
    expect(again.body.uuid).toBe(done.body.uuid);
    expectApiError(await putPart(p1.url, file.slice(p1.offset, p1.size)), 409, 'conflict');
    // The parts are gone from the disk.
    expect(fs.existsSync(dir)).toBe(false);
    const row = await t.db.kysely.selectFrom('files').select('storage_key').where('uuid', '=', done.body.uuid).executeTakeFirstOrThrow();
    await t.app.files.deps.storage.delete(row.storage_key);
  });
});

describe('the plan and its limits', () => {
  it('never makes a last part under 1 MB unless it is the only part', async () => {
    for (const [size, sizes] of [
      [25 * MB + MB / 2, [5 * MB, 5 * MB, 5 * MB, 5 * MB, 5 * MB + MB / 2]],
      [26 * MB + MB / 2, [5 * MB, 5 * MB, 5 * MB, 5 * MB, 5 * MB, MB + MB / 2]],
      [300, [300]],
    ] as const) {
      const res = await start({ filename: 'a.png', size, type: 'image' });
      expect(res.status).toBe(200);
      expect(res.body.parts.map((p) => p.size)).toEqual(sizes);
      await t.api(`/api/files/multipart/${res.body.uuid}`, { method: 'DELETE' });
    }
  });

  it('refuses to start an upload over 50 MB (413) or of a declared type the upload type cannot take (415)', async () => {
    expectApiError(await start({ filename: 'huge.png', size: UPLOAD.maxBytes + 1, type: 'image' }), 413, 'payload_too_large');
    expectApiError(await start({ filename: 'a.zip', size: 30 * MB, contentType: 'application/zip', type: 'document' }), 415);
    expectApiError(await start({ filename: 'a.png', size: 0, type: 'image' }), 400, 'validation_error');
    expectApiError(await start({ filename: 'a.png', size: 30 * MB, type: 'video' }), 400, 'validation_error');
  });

  it('refuses a part larger than planned, whether its Content-Length says so or it is sent chunked', async () => {
    const up = (await start({ filename: 'a.png', size: 26 * MB, type: 'image' })).body;
    const part = up.parts[0]!;
    const declared = await rawRequest(t.baseUrl, {
      method: 'PUT',
      path: part.url,
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(part.size + 1) },
      body: byteStream(part.size + 1),
    });
    expect(declared.status).toBe(413);
    expect(declared.sent).toBeLessThan(part.size);
    const chunked = await rawRequest(t.baseUrl, {
      method: 'PUT',
      path: part.url,
      headers: { 'content-type': 'application/octet-stream' },
      body: byteStream(part.size + 1),
    });
    expect(chunked.status).toBe(413);
    expect((await status(up.uuid)).body.completedParts).toEqual([]);
    expectApiError(await putPart(`/api/files/multipart/${up.uuid}/parts/99`, Buffer.alloc(10)), 400);
    expectApiError(await putPart(`/api/files/multipart/00000000-0000-4000-8000-000000000000/parts/1`, Buffer.alloc(10)), 404);
    // Whatever Content-Type it comes with, a part is bytes: counted, not parsed.
    const typed = await t.api(part.url, { method: 'PUT', body: 'text', headers: { 'content-type': 'text/plain' } });
    expectApiError(typed, 400);
    expect(typed.body.error.message).toMatch(/4 arrived/);
    await t.api(`/api/files/multipart/${up.uuid}`, { method: 'DELETE' });
  });

  it('checks the joined bytes: a large text file sent as an image is refused and the upload removed', async () => {
    const size = 26 * MB;
    const text = virtualFile(size, Buffer.from('not an image at all\n'));
    const up = (await start({ filename: 'photo.png', size, type: 'image' })).body;
    const dir = await uploadDirOf(up.uuid);
    const filesBefore = countStored();
    for (const p of up.parts) {
      const bytes = text.slice(p.offset, p.size).fill(0x61, p.offset === 0 ? 20 : 0);
      expect((await putPart(p.url, bytes)).status).toBe(200);
    }
    expectApiError(await complete(up.uuid), 415, 'unsupported_media_type');
    expectApiError(await status(up.uuid), 404);
    expect(fs.existsSync(dir)).toBe(false);
    // Nor was the joined file kept.
    expect(countStored()).toBe(filesBefore);
  });
});

describe('cancelled and abandoned uploads', () => {
  it('DELETE cancels an upload and drops its parts', async () => {
    const up = (await start({ filename: 'a.png', size: 26 * MB, type: 'image' })).body;
    expect((await putPart(up.parts[0]!.url, Buffer.alloc(up.parts[0]!.size))).status).toBe(200);
    const dir = await uploadDirOf(up.uuid);
    expect(fs.readdirSync(dir)).toEqual(['1.part']);
    const res = await t.api(`/api/files/multipart/${up.uuid}`, { method: 'DELETE' });
    expect(res.status).toBe(204);
    expectApiError(await status(up.uuid), 404);
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('unfinished uploads are removed with their parts after a day; fresh ones stay', async () => {
    const old = (await start({ filename: 'old.png', size: 26 * MB, type: 'image' })).body;
    expect((await putPart(old.parts[0]!.url, Buffer.alloc(old.parts[0]!.size))).status).toBe(200);
    // Make it look a day and a minute old.
    const past = new Date(Date.now() - 60_000).toISOString();
    await t.db.kysely.updateTable('file_uploads').set({ expires_at: past }).where('uuid', '=', old.uuid).execute();
    const fresh = (await start({ filename: 'fresh.png', size: 26 * MB, type: 'image' })).body;
    const [oldDir, freshDir] = [await uploadDirOf(old.uuid), await uploadDirOf(fresh.uuid)];

    const { uploads } = await cleanupExpired(t.app.files.deps);
    expect(uploads).toBe(1);
    expectApiError(await status(old.uuid), 404);
    expect((await status(fresh.uuid)).status).toBe(200);
    expect(fs.existsSync(oldDir)).toBe(false);
    expect(fs.existsSync(freshDir)).toBe(true);
    const parts = await t.db.kysely
      .selectFrom('file_upload_parts')
      .innerJoin('file_uploads', 'file_uploads.id', 'file_upload_parts.upload_id')
      .select('uuid')
      .execute();
    expect(parts.map((p) => p.uuid)).not.toContain(old.uuid);
    await t.api(`/api/files/multipart/${fresh.uuid}`, { method: 'DELETE' });
  });
});
