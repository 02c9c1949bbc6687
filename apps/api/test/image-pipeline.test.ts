import fs from 'node:fs';
import path from 'node:path';
import { IMAGE_WIDTHS } from '@storefront/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectApiError } from './helpers/assertions.ts';
import { uploadForm } from './helpers/files.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// The image pipeline (modules/images): uploads lose their metadata, resized AVIF/WebP/JPEG
// copies are made once at the fixed widths only, and the demo drawings get copies too.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ seed: false, files: { throttle: { start: { burst: 1000, refillMs: 1000 } } } });
});
afterAll(() => t?.close());

/**
 * A phone photo: 1200 × 800 as stored, EXIF orientation 6 (shown turned a quarter: 800 ×
 * 1200), a GPS position in Dhaka, the camera's make and an XMP packet.
 */
async function phonePhoto(): Promise<Buffer> {
  // Left half red, right half blue: after the quarter turn the red half is on top.
  const left = await sharp({ create: { width: 600, height: 800, channels: 3, background: '#c03020' } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 1200, height: 800, channels: 3, background: '#2040c0' } })
    .composite([{ input: left, left: 0, top: 0 }])
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: 'PhoneCo', Model: 'Pocket 12' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '23/1 48/1 3108/100', GPSLongitudeRef: 'E', GPSLongitude: '90/1 24/1 5400/100' },
    })
    .withXmp(
      '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" photoshop:City="Dhaka"/></rdf:RDF></x:xmpmeta>',
    )
    .toBuffer();
}

/** The tags of an EXIF block's first IFD and of its GPS IFD (a TIFF structure after "Exif\0\0"). */
function exifTags(exif: Buffer): { ifd0: number[]; gps: number[] } {
  const tiff = exif.subarray(6);
  const le = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (at: number) => (le ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (le ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const ifd = (at: number) => Array.from({ length: u16(at) }, (_, i) => ({ tag: u16(at + 2 + i * 12), value: u32(at + 2 + i * 12 + 8) }));
  const first = ifd(u32(4));
  const gpsAt = first.find((e) => e.tag === 0x8825)?.value;
  return { ifd0: first.map((e) => e.tag), gps: gpsAt ? ifd(gpsAt).map((e) => e.tag) : [] };
}

/** The latitude's 23/1 48/1 as TIFF rationals, in either byte order: a GPS position left in the bytes shows. */
function latitudeBytes(): Buffer[] {
  const be = Buffer.alloc(16);
  const le = Buffer.alloc(16);
  [23, 1, 48, 1].forEach((v, i) => {
    be.writeUInt32BE(v, i * 4);
    le.writeUInt32LE(v, i * 4);
  });
  return [be, le];
}

const upload = (bytes: Buffer, name: string, contentType: string) => t.api('/api/files', { method: 'POST', body: uploadForm({ bytes, name, contentType }) });

async function get(url: string) {
  const res = await fetch(`${t.baseUrl}${url}`, { redirect: 'manual' });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('an uploaded photo', () => {
  let file: { uuid: string; cdnUrl: string; width: number; height: number; size: number };
  let original: Buffer;

  beforeAll(async () => {
    original = await phonePhoto();
    // The fixture carries what the test says it does.
    const meta = await sharp(original).metadata();
    expect(meta.exif?.toString('latin1')).toContain('PhoneCo');
    expect(meta.orientation).toBe(6);
    expect(meta.xmp).toBeDefined();
    // GPS latitude (2) and longitude (4) with their N/E references (1, 3).
    expect(exifTags(meta.exif!).gps).toEqual(expect.arrayContaining([1, 2, 3, 4]));
    expect(latitudeBytes().some((b) => original.includes(b))).toBe(true);
    const res = await upload(original, 'IMG_0042.jpg', 'image/jpeg');
    expect(res.status, res.text).toBe(200);
    file = res.body;
  });

  it('is stored and served without EXIF, GPS or XMP, turned upright by its orientation', async () => {
    // Upright: the dimensions are the turned ones.
    expect([file.width, file.height]).toEqual([800, 1200]);
    const { res, bytes } = await get(file.cdnUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    const meta = await sharp(bytes).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.iptc).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect([meta.width, meta.height]).toEqual([800, 1200]);
    // No trace of the tags anywhere in the bytes.
    const text = bytes.toString('latin1');
    for (const needle of ['Exif', 'PhoneCo', 'Dhaka', 'xmpmeta']) expect(text).not.toContain(needle);
    for (const b of latitudeBytes()) expect(bytes.includes(b)).toBe(false);
    // The red half is on top now.
    const { data } = await sharp(bytes).extract({ left: 400, top: 100, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(150);
    expect(data[2]).toBeLessThan(100);
    // What the database and the answer say is what the disk holds.
    expect(file.size).toBe(bytes.length);
    const row = await t.db.kysely.selectFrom('files').selectAll().where('uuid', '=', file.uuid).executeTakeFirstOrThrow();
    expect(Number(row.size)).toBe(bytes.length);
    expect([row.width, row.height]).toEqual([800, 1200]);
  });

  it('has copies at the fixed widths in AVIF, WebP and JPEG, none wider than the photo', async () => {
    const base = `/images/files/${file.uuid}`;
    for (const [name, format, mime] of [
      ['320.avif', 'heif', 'image/avif'],
      ['640.webp', 'webp', 'image/webp'],
      ['640.jpg', 'jpeg', 'image/jpeg'],
      ['320.jpg', 'jpeg', 'image/jpeg'],
    ] as const) {
      const { res, bytes } = await get(`${base}/${name}`);
      expect(res.status, name).toBe(200);
      expect(res.headers.get('content-type')).toBe(mime);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('content-length')).toBe(String(bytes.length));
      const meta = await sharp(bytes).metadata();
      expect(meta.format, name).toBe(format);
      if (format === 'heif') expect(meta.compression).toBe('av1');
      const width = Number(name.split('.')[0]);
      expect(meta.width, name).toBe(width);
      expect(meta.height, name).toBe(width * 1.5);
      expect(meta.exif).toBeUndefined();
      for (const b of latitudeBytes()) expect(bytes.includes(b)).toBe(false);
    }
    // 960 and 1440 are wider than the 800 px photo: it is not blown up.
    const wide = await sharp((await get(`${base}/1440.webp`)).bytes).metadata();
    expect([wide.width, wide.height]).toEqual([800, 1200]);
  });

  it('makes each copy once, however many ask at the same time, and streams it from disk afterwards', async () => {
    const url = `/images/files/${file.uuid}/960.avif`;
    const before = t.app.files.images.encodes;
    const answers = await Promise.all(Array.from({ length: 6 }, () => get(url)));
    for (const a of answers) expect(a.res.status).toBe(200);
    expect(t.app.files.images.encodes).toBe(before + 1);
    // All six got the same bytes.
    for (const a of answers) expect(a.bytes.equals(answers[0]!.bytes)).toBe(true);
    const cached = path.join(t.app.config.dataDir, 'image-cache', 'files', file.uuid, '960.avif');
    const mtime = fs.statSync(cached).mtimeMs;
    const again = await get(url);
    expect(again.res.status).toBe(200);
    expect(again.bytes.equals(answers[0]!.bytes)).toBe(true);
    expect(t.app.files.images.encodes).toBe(before + 1);
    expect(fs.statSync(cached).mtimeMs).toBe(mtime);
  });

  it('has an Open Graph JPEG of 1200 × 630', async () => {
    const { res, bytes } = await get(`/images/files/${file.uuid}/og.jpg`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1200, 630]);
  });

  it('refuses any other size or format with the one error shape, and stores nothing for it', async () => {
    const before = t.app.files.images.encodes;
    for (const name of ['500.webp', '641.jpg', '6400.avif', '640.png', '640.gif', '640.jpeg', 'og.png', '640', 'x.webp', '0640.webp']) {
      const res = await t.api(`/images/files/${file.uuid}/${name}`, { apiKey: null });
      expectApiError(res, 400, 'bad_request');
      expect(res.body.error.message).toContain(IMAGE_WIDTHS.join(', '));
    }
    expectApiError(await t.api(`/images/files/${file.uuid}/${'9'.repeat(40)}.webp`, { apiKey: null }), 400);
    expect(t.app.files.images.encodes).toBe(before);
    const folder = path.join(t.app.config.dataDir, 'image-cache', 'files', file.uuid);
    expect(fs.readdirSync(folder).sort()).toEqual(['1440.webp', '320.avif', '320.jpg', '640.jpg', '640.webp', '960.avif', 'og.jpg']);
  });

  it('answers 404 for a file that is not there or is not an image', async () => {
    expectApiError(await t.api('/images/files/00000000-0000-4000-8000-000000000000/640.webp', { apiKey: null }), 404, 'not_found');
    expectApiError(await t.api('/images/files/not-a-uuid/640.webp', { apiKey: null }), 404, 'not_found');
    const pdf = await t.api('/api/files', { method: 'POST', body: uploadForm({ bytes: Buffer.from('%PDF-1.4\n%%EOF\n'), name: 'slip.pdf' }, 'document') });
    expect(pdf.status, pdf.text).toBe(200);
    expectApiError(await t.api(`/images/files/${pdf.body.uuid}/640.webp`, { apiKey: null }), 404, 'not_found');
  });
});

describe('other uploads', () => {
  it('a PNG loses its text chunks and anything glued after it, and keeps its transparency', async () => {
    const png = await sharp({ create: { width: 50, height: 40, channels: 4, background: { r: 0, g: 128, b: 0, alpha: 0.5 } } })
      .png()
      .withMetadata({ exif: { IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '23/1 48/1 0/1' } } })
      .toBuffer();
    const glued = Buffer.concat([png, Buffer.from('<script>alert(1)</script>')]);
    const res = await upload(glued, 'logo.png', 'image/png');
    expect(res.status, res.text).toBe(200);
    expect([res.body.width, res.body.height, res.body.mimeType]).toEqual([50, 40, 'image/png']);
    const { bytes } = await get(res.body.cdnUrl);
    const meta = await sharp(bytes).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.hasAlpha).toBe(true);
    expect(bytes.toString('latin1')).not.toMatch(/Exif|script/);
    // The JPEG copy of a transparent picture goes onto white.
    const jpg = await get(`/images/files/${res.body.uuid}/320.jpg`);
    expect((await sharp(jpg.bytes).metadata()).format).toBe('jpeg');
  });

  it('bytes that look like a JPEG but do not decode are refused as not an image', async () => {
    const photo = await phonePhoto();
    const broken = Buffer.concat([photo.subarray(0, 2000), Buffer.alloc(4000, 0x41)]);
    const res = await upload(broken, 'broken.jpg', 'image/jpeg');
    expectApiError(res, 415, 'unsupported_media_type');
  });
});

describe('the demo drawings', () => {
  beforeAll(async () => {
    const now = new Date().toISOString();
    await t.db.kysely
      .insertInto('cms_content')
      .values({
        type: 'slider',
        title: 'Slide',
        slug: 'slide-1',
        body: '',
        fields: JSON.stringify({ image: '/media/banner/sofa/5f7a8a.svg?t=Hi' }),
        sort_order: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await t.db.kysely
      .insertInto('cms_content')
      .values({
        type: 'campaign',
        title: 'Offer',
        slug: 'offer-1',
        body: '',
        fields: JSON.stringify({ image: '/media/demo/armchair/a86b4c.svg' }),
        sort_order: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
  });

  it('a drawing the shop shows has raster copies at the fixed widths', async () => {
    const avif = await get('/images/demo/armchair/a86b4c/640.avif');
    expect(avif.res.status).toBe(200);
    expect(avif.res.headers.get('content-type')).toBe('image/avif');
    expect(await sharp(avif.bytes).metadata()).toMatchObject({ format: 'heif', width: 640, height: 480 });
    const jpg = await get('/images/demo/armchair/a86b4c/1440.jpg');
    // Drawn at the copy's size (vector), not scaled up from 800 px.
    expect(await sharp(jpg.bytes).metadata()).toMatchObject({ format: 'jpeg', width: 1440, height: 1080 });
    const banner = await get('/images/banner/sofa/5f7a8a/960.webp');
    expect(await sharp(banner.bytes).metadata()).toMatchObject({ format: 'webp', width: 960, height: 300 });
  });

  it('a drawing nobody shows is sent to its SVG, and no copy is stored', async () => {
    const before = t.app.files.images.encodes;
    const { res } = await get('/images/demo/sofa/123456/640.webp');
    expect(res.status).toBe(307);
    expect(res.headers.get('location')).toBe('/media/demo/sofa/123456.svg');
    expect(t.app.files.images.encodes).toBe(before);
    expect(fs.existsSync(path.join(t.app.config.dataDir, 'image-cache', 'demo', 'sofa', '123456'))).toBe(false);
    expectApiError(await t.api('/images/demo/spaceship/123456/640.webp', { apiKey: null }), 404, 'not_found');
    expectApiError(await t.api('/images/demo/sofa/zzzzzz/640.webp', { apiKey: null }), 404, 'not_found');
    expectApiError(await t.api('/images/demo/sofa/a86b4c/123.webp', { apiKey: null }), 400, 'bad_request');
  });
});

describe('deleting a file', () => {
  it('removes its copies with it', async () => {
    const res = await upload(await phonePhoto(), 'guest.jpg', 'image/jpeg');
    expect(res.status).toBe(200);
    expect((await get(`/images/files/${res.body.uuid}/320.webp`)).res.status).toBe(200);
    const folder = path.join(t.app.config.dataDir, 'image-cache', 'files', res.body.uuid);
    expect(fs.existsSync(folder)).toBe(true);
    // Past the guest retention, nothing refers to it: the sweep deletes it and its copies.
    await t.app.files.sweepGuestFiles(new Date(Date.now() + 400 * 24 * 60 * 60 * 1000));
    expect(fs.existsSync(folder)).toBe(false);
    expectApiError(await t.api(`/images/files/${res.body.uuid}/320.webp`, { apiKey: null }), 404, 'not_found');
  });
});
