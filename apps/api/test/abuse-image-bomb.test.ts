import fs from 'node:fs';
import path from 'node:path';
import { IMAGE_EXTENSION, IMAGE_FORMATS, IMAGE_WIDTHS, OG_IMAGE } from '@storefront/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { uniqueIp } from './helpers/accounts.ts';
import { expectApiError } from './helpers/assertions.ts';
import { uploadForm } from './helpers/files.ts';
import { type StartOptions, startTestApp, type TestApp } from './helpers/test-app.ts';

// Picture bombs (docs/decisions/0050): a small file that claims a huge picture is refused
// from its header before anything decodes it; a picture within the limits is kept; the
// resized copies of the largest picture the shop takes, asked for all at once, are made a
// few at a time within a bounded memory, and beyond the queue the rest are told to come back
// (503 with Retry-After); and the pixels an uploader makes the shop decode count against an
// hourly budget. The test app trusts X-Forwarded-For, so each guest has an address of its own.

/** Every variant name of a picture: the 12 widths × formats and the share image. */
const VARIANTS = [...IMAGE_WIDTHS.flatMap((w) => IMAGE_FORMATS.map((f) => `${w}.${IMAGE_EXTENSION[f]}`)), OG_IMAGE.name];

/** Peak growth of the process's resident memory the burst below must stay under. */
const BURST_RSS_BOUND_MB = 400;

/** A JPEG of one colour with a darker block: small on the wire whatever its size in pixels (smallest with its Huffman tables optimised, slower to make). */
async function jpeg(width: number, height: number, smallest = false): Promise<Buffer> {
  const block = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#5a3d2b' } })
    .png()
    .toBuffer();
  return sharp({ create: { width, height, channels: 3, background: '#d8cbb5' } })
    .composite([{ input: block, left: 0, top: 0 }])
    .jpeg({ quality: 80, optimiseCoding: smallest })
    .toBuffer();
}

function startApp(opts: StartOptions = {}) {
  return startTestApp({
    seed: false,
    ...opts,
    config: {
      trustProxy: true,
      ...opts.config,
      uploads: { ...loadConfig({}).uploads, minFreeDiskBytes: 0, guestMegapixelsPerHour: 100, ...opts.config?.uploads },
    },
    files: { throttle: { start: { burst: 1000, refillMs: 1000 }, parts: { burst: 1000, refillMs: 1000 } } },
  });
}

const upload = (t: TestApp, bytes: Buffer, type: 'image' | 'document', ip: string) =>
  t.api('/api/files', { method: 'POST', body: uploadForm({ bytes, name: 'photo.jpg', contentType: 'image/jpeg' }, type), headers: { 'x-forwarded-for': ip } });

let t: TestApp;
let bomb: Buffer;
/** The largest picture an image upload takes (6000 × 6000) and the largest a document takes (8192 × 6144). */
let largestImage: Buffer;
let largestDocument: Buffer;

beforeAll(async () => {
  [t, bomb, largestImage, largestDocument] = await Promise.all([startApp(), jpeg(9999, 10_000, true), jpeg(6000, 6000), jpeg(8192, 6144)]);
  // What the attack sent: a file of a few hundred KB that opens into 100 million pixels.
  expect(bomb.length).toBeLessThan(1024 * 1024);
  expect(await sharp(bomb).metadata()).toMatchObject({ width: 9999, height: 10_000 });
}, 120_000);
afterAll(() => t?.close());

const fileCount = async (app: TestApp) =>
  Number(
    (
      await app.db.kysely
        .selectFrom('files')
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

function storedObjects(app: TestApp): string[] {
  const dir = path.join(app.app.config.dataDir, 'files');
  return fs.existsSync(dir) ? (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(dir, f)).isFile()) : [];
}

describe('a picture bomb', () => {
  it('is refused from its header within two seconds, with the largest size the upload takes in pixels', async () => {
    const ip = uniqueIp();
    const files = await fileCount(t);
    const started = performance.now();
    const res = await upload(t, bomb, 'image', ip);
    const ms = performance.now() - started;
    expectApiError(res, 413, 'image_too_large');
    expect(res.body.error.message).toMatch(/9,999 × 10,000 pixels/);
    expect(res.body.error.message).toMatch(/6,000 pixels/);
    expect(res.body.error.fields).toEqual({ file: expect.stringMatching(/6,000 pixels/) });
    // Read from the header, not decoded: the attack took 21.8 s to be accepted.
    expect(ms).toBeLessThan(2000);
    if (process.env.IMAGE_BOMB_REPORT) console.info(`refusing the 9999 × 10000 bomb took ${ms.toFixed(0)} ms`);
    // Nothing of it is kept.
    expect(await fileCount(t)).toBe(files);
    expect(storedObjects(t)).toEqual([]);

    // As a payment proof the limit is a phone's largest photo: still far from a bomb.
    const proof = await upload(t, bomb, 'document', ip);
    expectApiError(proof, 413, 'image_too_large');
    expect(proof.body.error.message).toMatch(/8,192 pixels/);
    expect(proof.body.error.message).toMatch(/50 megapixels/);

    // Refused before any decoding, it cost the guest nothing of the hour's pixel budget:
    // the largest payment proof (50 megapixels of 100) still goes through.
    expect((await upload(t, largestDocument, 'document', ip)).status).toBe(200);
  }, 30_000);

  it('is refused by the size its header claims, also just one pixel over', async () => {
    const ip = uniqueIp();
    const wide = await jpeg(6001, 100);
    const res = await upload(t, wide, 'image', ip);
    expectApiError(res, 413, 'image_too_large');
    expect(res.body.error.message).toMatch(/6,001 × 100 pixels/);
    // The same file is a fine payment proof.
    expect((await upload(t, wide, 'document', ip)).status).toBe(200);
  });
});

describe('the largest pictures the shop takes', () => {
  it('are kept: 6000 × 6000 as an image, 8192 × 6144 (a 50-megapixel phone photo) as a payment proof', async () => {
    const ip = uniqueIp();
    const image = await upload(t, largestImage, 'image', ip);
    expect(image.status, image.text).toBe(200);
    expect(image.body).toMatchObject({ isImage: true, width: 6000, height: 6000 });
    // A payment proof of the largest size is refused as a catalogue picture…
    expectApiError(await upload(t, largestDocument, 'image', ip), 413, 'image_too_large');
    // …and kept as a document.
    const proof = await upload(t, largestDocument, 'document', uniqueIp());
    expect(proof.status, proof.text).toBe(200);
    expect(proof.body).toMatchObject({ isImage: true, width: 8192, height: 6144 });
  }, 30_000);

  it('made into every resized copy at once, keep the process within its memory budget', async () => {
    const proof = await upload(t, largestDocument, 'document', uniqueIp());
    expect(proof.status, proof.text).toBe(200);
    const before = t.app.files.images.encodes;
    // 26 requests at once: every variant twice (the second of each waits for the first).
    const urls = [...VARIANTS, ...VARIANTS].map((v) => `${t.baseUrl}/images/files/${proof.body.uuid}/${v}`);
    const base = process.memoryUsage().rss;
    let peak = base;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    const started = performance.now();
    let answers: { status: number; type: string | null; bytes: number }[];
    try {
      answers = await Promise.all(
        urls.map(async (u) => {
          const res = await fetch(u);
          return { status: res.status, type: res.headers.get('content-type'), bytes: (await res.arrayBuffer()).byteLength };
        }),
      );
    } finally {
      clearInterval(sampler);
    }
    const growthMb = (peak - base) / 1e6;
    if (process.env.IMAGE_BOMB_REPORT) {
      console.info(
        `burst of ${urls.length}: rss ${(base / 1e6).toFixed(0)} → peak ${(peak / 1e6).toFixed(0)} MB (+${growthMb.toFixed(0)} MB) in ${(performance.now() - started).toFixed(0)} ms`,
      );
    }
    expect(answers.map((a) => a.status)).toEqual(urls.map(() => 200));
    expect(answers.every((a) => a.bytes > 0 && /^image\/(avif|webp|jpeg)$/.test(a.type ?? ''))).toBe(true);
    // Each copy was made once, however many asked for it at once.
    expect(t.app.files.images.encodes - before).toBe(VARIANTS.length);
    expect(growthMb).toBeLessThan(BURST_RSS_BOUND_MB);
  }, 120_000);
});

describe('beyond what the process works on at once', () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await startApp({ config: { images: { concurrency: 1, queue: 2, waitMs: 60_000 } } });
  });
  afterAll(() => small?.close());

  it('a request for a copy is told to come back (503 with Retry-After), and gets it when it does', async () => {
    const file = await upload(small, largestImage, 'image', uniqueIp());
    expect(file.status, file.text).toBe(200);
    // Each on a connection of its own: this app is closed right after, and a keep-alive
    // connection still finishing its answer would hold the close for the keep-alive timeout.
    const get = (v: string) => small.api(`/images/files/${file.body.uuid}/${v}`, { apiKey: null, headers: { connection: 'close' } });
    const answers = await Promise.all(VARIANTS.map(get));
    const busy = answers.filter((a) => a.status === 503);
    // One is made, two wait for their turn; the requests that arrive while those are
    // waiting (most of the thirteen) are refused at once.
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(3);
    expect(busy.length).toBeGreaterThan(0);
    expect(busy.length + answers.filter((a) => a.status === 200).length).toBe(VARIANTS.length);
    for (const a of busy) {
      expectApiError(a, 503, 'service_unavailable');
      expect(Number(a.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // Asked again one at a time, every copy is made.
    for (const v of VARIANTS) expect((await get(v)).status).toBe(200);
  }, 60_000);
});

describe('the pixels an uploader makes the shop decode', () => {
  it('count against an hourly budget per guest address: beyond it an upload is refused with when to come back', async () => {
    const ip = uniqueIp();
    // 36 + 50 megapixels of the guest's 100 in this app.
    expect((await upload(t, largestImage, 'image', ip)).status).toBe(200);
    expect((await upload(t, largestDocument, 'document', ip)).status).toBe(200);
    const files = await fileCount(t);
    const over = await upload(t, largestImage, 'image', ip);
    expectApiError(over, 413, 'image_quota_exceeded');
    expect(over.body.error.message).toMatch(/100 megapixels/);
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await fileCount(t)).toBe(files);
    // A small picture still fits, and another address has a budget of its own.
    expect((await upload(t, await jpeg(1200, 800), 'image', ip)).status).toBe(200);
    expect((await upload(t, largestImage, 'image', uniqueIp())).status).toBe(200);
  }, 60_000);
});
