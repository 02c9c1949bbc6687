import fs from 'node:fs';
import path from 'node:path';
import { UPLOAD } from '@storefront/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFileForOwner } from '../src/modules/files/files.service.ts';
import { expectApiError } from './helpers/assertions.ts';
import { byteStream, pngBytes, rawRequest, streamedForm, uploadForm } from './helpers/files.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// Direct uploads (POST /api/files, spec §7) and serving the stored bytes.

let t: TestApp;
beforeAll(async () => {
  // Many uploads from one address in a few seconds: throttling has a test of its own below.
  t = await startTestApp({ seed: false, files: { throttle: { start: { burst: 1000, refillMs: 1000 } } } });
});
afterAll(() => t?.close());

const upload = (form: FormData, headers?: Record<string, string>) => t.api('/api/files', { method: 'POST', body: form, headers });
const filesDir = () => path.join(t.app.config.dataDir, 'files');

/** Every regular file under a folder, relative to it. */
function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.relative(dir, path.join(d.parentPath, d.name)));
}

const countFiles = async () =>
  Number(
    (
      await t.db.kysely
        .selectFrom('files')
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('POST /api/files (direct upload)', () => {
  it('stores a PNG and answers the uploaded file of spec §3', async () => {
    const bytes = pngBytes(40, 30);
    const res = await upload(uploadForm({ bytes, name: 'sofa photo.png', contentType: 'image/png' }));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'sofa photo.png',
      // The stored copy's size: an image is encoded again without its metadata (modules/images).
      size: expect.any(Number),
      isStored: true,
      isImage: true,
      mimeType: 'image/png',
      cdnUrl: `/files/${res.body.uuid}/sofa%20photo.png`,
      width: 40,
      height: 30,
    });
    // Stored under a server-chosen key: year/month/uuid, nothing from the client's name.
    const stored = listFiles(filesDir());
    expect(stored).toContainEqual(expect.stringMatching(/^\d{4}\/\d{2}\/[0-9a-f-]{36}$/));
    expect(stored.join(' ')).not.toMatch(/sofa/);
  });

  it('serves the bytes at the cdnUrl without an API key, inline, with nosniff and a sandbox', async () => {
    const bytes = pngBytes(8, 8);
    const { body: file } = await upload(uploadForm({ bytes, name: 'chair.png' }));
    const res = await fetch(`${t.baseUrl}${file.cdnUrl}`);
    expect(res.status).toBe(200);
    // The image encoded again (modules/images): a PNG of the size the file answer gives.
    const served = Buffer.from(await res.arrayBuffer());
    expect(served.length).toBe(file.size);
    expect(served.subarray(0, 8).equals(bytes.subarray(0, 8))).toBe(true);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="chair.png"; filename*=UTF-8''chair.png`);
    expect(res.headers.get('content-security-policy')).toMatch(/sandbox/);
    expect(res.headers.get('content-length')).toBe(String(file.size));
    // The uuid alone finds it too, and an unchanged file is not sent twice.
    const again = await fetch(`${t.baseUrl}/files/${file.uuid}`, { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect((await fetch(`${t.baseUrl}/files/${file.uuid}`, { method: 'HEAD' })).status).toBe(200);
  });

  it('answers 404 for a file that does not exist', async () => {
    const res = await fetch(`${t.baseUrl}/files/00000000-0000-4000-8000-000000000000/x.png`);
    expect(res.status).toBe(404);
    expect((await fetch(`${t.baseUrl}/files/not-a-uuid`)).status).toBe(404);
    expectApiError(await t.api('/api/files/00000000-0000-4000-8000-000000000000'), 404, 'not_found');
  });

  it('GET /api/files/:uuid gives the details of a guest upload', async () => {
    const { body: file } = await upload(uploadForm({ bytes: pngBytes(), name: 'a.png' }));
    const res = await t.api(`/api/files/${file.uuid}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(file);
  });

  it('accepts a PDF as a document and serves it as an attachment', async () => {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
    const res = await upload(uploadForm({ bytes: pdf, name: 'bank slip.pdf', contentType: 'application/pdf' }, 'document'));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ mimeType: 'application/pdf', isImage: false, name: 'bank slip.pdf', width: null, height: null });
    const served = await fetch(`${t.baseUrl}${res.body.cdnUrl}`);
    expect(served.headers.get('content-disposition')).toMatch(/^attachment; /);
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('takes the type from the bytes, not the name or the Content-Type: a PNG called .html is a .png', async () => {
    const res = await upload(uploadForm({ bytes: pngBytes(), name: 'invoice.html', contentType: 'text/html' }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'invoice.png', mimeType: 'image/png' });
  });
});

describe('refused uploads', () => {
  const cases: [string, Buffer, string, string][] = [
    ['plain text named .png', Buffer.from('just some words, not a picture\n'), 'notes.png', 'image'],
    ['HTML named .png', Buffer.from('<!DOCTYPE html><html><script>alert(1)</script></html>'), 'cat.png', 'image'],
    ['HTML as a document', Buffer.from('<html><body onload="alert(1)"></body></html>'), 'slip.pdf', 'document'],
    ['SVG as an image', Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'logo.svg', 'image'],
    ['SVG as a document', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), 'logo.png', 'document'],
    ['a PDF as an image', Buffer.from('%PDF-1.7\n%%EOF'), 'photo.jpg', 'image'],
    ['a PNG signature glued to HTML', Buffer.concat([pngBytes().subarray(0, 8), Buffer.from('<html><script>alert(1)</script>')]), 'x.png', 'image'],
    ['a JPEG signature with no frame', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00]), Buffer.alloc(100)]), 'x.jpg', 'image'],
    ['a ZIP', Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(60)]), 'archive.png', 'document'],
  ];
  for (const [what, bytes, name, type] of cases) {
    it(`refuses ${what} with 415 and keeps nothing`, async () => {
      const before = await countFiles();
      const onDisk = listFiles(filesDir()).length;
      const res = await upload(uploadForm({ bytes, name, contentType: 'image/png' }, type));
      expectApiError(res, 415, 'unsupported_media_type');
      expect(await countFiles()).toBe(before);
      expect(listFiles(filesDir()).length).toBe(onDisk);
    });
  }

  it('refuses a form without a file, without a type, or with an unknown type', async () => {
    const noFile = await upload(uploadForm(null, 'image'));
    expectApiError(noFile, 400, 'validation_error');
    expect(noFile.body.error.fields).toHaveProperty('file');
    const noType = await upload(uploadForm({ bytes: pngBytes(), name: 'a.png' }, null));
    expectApiError(noType, 400, 'validation_error');
    expect(noType.body.error.fields).toHaveProperty('type');
    expectApiError(await upload(uploadForm({ bytes: pngBytes(), name: 'a.png' }, 'executable')), 400, 'validation_error');
  });

  it('refuses an empty file, two files, a file in another field, and a JSON body', async () => {
    expectApiError(await upload(uploadForm({ bytes: Buffer.alloc(0), name: 'empty.png' })), 400);
    const two = uploadForm({ bytes: pngBytes(), name: 'a.png' });
    two.append('file', new Blob([new Uint8Array(pngBytes())]), 'b.png');
    expectApiError(await upload(two), 400, 'bad_request');
    const other = new FormData();
    other.append('type', 'image');
    other.append('picture', new Blob([new Uint8Array(pngBytes())]), 'a.png');
    expectApiError(await upload(other), 400);
    expectApiError(await t.api('/api/files', { method: 'POST', json: { file: 'x', type: 'image' } }), 415, 'unsupported_media_type');
  });

  it('needs the API key', async () => {
    expectApiError(await t.api('/api/files', { method: 'POST', body: uploadForm({ bytes: pngBytes(), name: 'a.png' }), apiKey: null }), 401);
  });
});

describe('file names from the client', () => {
  // null: the browser's FormData escapes these characters itself (%0D%0A, %22), so only
  // the properties of the stored name are checked.
  const traversal: [string, string | null][] = [
    ['../../../../etc/passwd.png', 'passwd.png'],
    ['..\\..\\Windows\\System32\\evil.png', 'evil.png'],
    ['/absolute/path/to/photo.png', 'photo.png'],
    ['..', 'file.png'],
    ['.htaccess', 'htaccess.png'],
    ['a\r\nContent-Type: text/html\r\n\r\n<script>.png', null],
    ['quote"; filename=evil.exe.png', null],
    ['CON.png', '_CON.png'],
    ['ছবি সোফা.png', 'ছবি সোফা.png'],
    [`${'সোফা'.repeat(40)}.png`, `${`${'সোফা'.repeat(40)}`.slice(0, 116)}.png`],
  ];
  for (const [given, expected] of traversal) {
    it(`stores ${JSON.stringify(given)} safely${expected ? ` as ${JSON.stringify(expected)}` : ''}`, async () => {
      const before = listFiles(t.app.config.dataDir);
      const res = await upload(uploadForm({ bytes: pngBytes(), name: given }));
      expect(res.status, res.text).toBe(200);
      if (expected) expect(res.body.name).toBe(expected);
      expect(res.body.name).toMatch(/^[^/\\\r\n"<>:|?*%;]+\.png$/);
      // Exactly one new file, and it is at a server-chosen key under files/.
      const added = listFiles(t.app.config.dataDir).filter((f) => !before.includes(f));
      expect(added).toHaveLength(1);
      expect(added[0]).toMatch(/^files\/\d{4}\/\d{2}\/[0-9a-f-]{36}$/);
      // Nothing escaped the data folder.
      expect(fs.existsSync(path.join(t.app.config.dataDir, '..', 'passwd.png'))).toBe(false);
      // Served at its cdnUrl, however long the encoded name.
      const served = await fetch(`${t.baseUrl}${res.body.cdnUrl}`);
      expect(served.status).toBe(200);
      const cd = served.headers.get('content-disposition')!;
      expect(cd).not.toMatch(/[\r\n]/);
      expect(cd.match(/filename="([^"]*)"/)![1]).not.toMatch(/["\\/]/);
      expect(decodeURIComponent(cd.split("filename*=UTF-8''")[1]!)).toBe(res.body.name);
    });
  }
});

describe('the 50 MB limit', () => {
  it('refuses a declared Content-Length well beyond the limit before reading the body', async () => {
    const size = UPLOAD.maxBytes + 10 * 1024 * 1024;
    const form = streamedForm(byteStream(size, pngBytes()), 'big.png');
    const before = await countFiles();
    const res = await rawRequest(t.baseUrl, {
      method: 'POST',
      path: '/api/files',
      headers: { 'content-type': form.contentType, 'content-length': String(size + form.overhead) },
      body: form.body,
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error.code).toBe('payload_too_large');
    expect(res.headers.connection).toBe('close');
    // Answered long before 50 MB went over the wire.
    expect(res.sent).toBeLessThan(UPLOAD.maxBytes / 2);
    expect(await countFiles()).toBe(before);
  });

  it('refuses 50 MB + 1 byte sent without a Content-Length (chunked), counting the bytes, and leaves no trace', async () => {
    const before = await countFiles();
    const form = streamedForm(byteStream(UPLOAD.maxBytes + 1, pngBytes()), 'big.png');
    const res = await rawRequest(t.baseUrl, { method: 'POST', path: '/api/files', headers: { 'content-type': form.contentType }, body: form.body });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error.code).toBe('payload_too_large');
    expect(await countFiles()).toBe(before);
    // No temporary file left behind either.
    expect(listFiles(filesDir()).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses a Content-Length that understates a chunked body', async () => {
    // A lying Content-Length cannot sneak more bytes in: with it the body ends where it says.
    const form = streamedForm(byteStream(2000, pngBytes()), 'liar.png');
    const res = await rawRequest(t.baseUrl, {
      method: 'POST',
      path: '/api/files',
      headers: { 'content-type': form.contentType, 'content-length': '100' },
      body: form.body,
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it('accepts exactly 50 MB', async () => {
    const form = streamedForm(byteStream(UPLOAD.maxBytes, pngBytes(2, 2)), 'exactly-50.png');
    const res = await rawRequest(t.baseUrl, { method: 'POST', path: '/api/files', headers: { 'content-type': form.contentType }, body: form.body });
    expect(res.status, res.body).toBe(200);
    const file = JSON.parse(res.body);
    // Stored as the clean copy of the 2 × 2 picture, without the 50 MB that followed it (modules/images).
    expect(file.size).toBeLessThan(UPLOAD.maxBytes);
    // Keep the disk lean: this test's 50 MB goes again.
    const row = await t.db.kysely.selectFrom('files').select('storage_key').where('uuid', '=', file.uuid).executeTakeFirstOrThrow();
    await t.app.files.deps.storage.delete(row.storage_key);
  });
});

describe('owners', () => {
  it('findFileForOwner finds only the customer’s own files', async () => {
    const { body: file } = await upload(uploadForm({ bytes: pngBytes(), name: 'mine.png' }));
    // Uploaded as a guest: nobody's.
    expect(await findFileForOwner(t.db.kysely, file.uuid, 7)).toBeNull();
    await t.db.kysely.updateTable('files').set({ owner_customer_id: 7 }).where('uuid', '=', file.uuid).execute();
    expect((await findFileForOwner(t.db.kysely, file.uuid, 7))?.uuid).toBe(file.uuid);
    expect((await findFileForOwner(t.db.kysely, file.uuid.toUpperCase(), 7))?.uuid).toBe(file.uuid);
    expect(await findFileForOwner(t.db.kysely, file.uuid, 8)).toBeNull();
    expect(await findFileForOwner(t.db.kysely, 'nonsense', 7)).toBeNull();
    // A customer's file looks absent to anyone else asking for its details.
    expectApiError(await t.api(`/api/files/${file.uuid}`), 404, 'not_found');
  });
});

describe('image host (spec §7)', () => {
  it('prefixes the relative url with the configured image host', async () => {
    const other = await startTestApp({ seed: false, config: { imageHost: 'https://img.example.com/' } });
    try {
      const res = await other.api('/api/files', { method: 'POST', body: uploadForm({ bytes: pngBytes(), name: 'a.png' }) });
      expect(res.status).toBe(200);
      expect(res.body.cdnUrl).toBe(`https://img.example.com/files/${res.body.uuid}/a.png`);
    } finally {
      await other.close();
    }
  });
});

describe('throttling', () => {
  it('answers 429 with a Retry-After of at most 15 s once a client has started too many uploads', async () => {
    const other = await startTestApp({ seed: false, files: { throttle: { start: { burst: 2, refillMs: 15_000 } } } });
    try {
      const send = () => other.api('/api/files', { method: 'POST', body: uploadForm({ bytes: pngBytes(), name: 'a.png' }) });
      expect((await send()).status).toBe(200);
      expect((await send()).status).toBe(200);
      const third = await send();
      expectApiError(third, 429, 'rate_limited');
      const wait = Number(third.headers.get('retry-after'));
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(UPLOAD.defaultRetryAfterS);
    } finally {
      await other.close();
    }
  });
});
