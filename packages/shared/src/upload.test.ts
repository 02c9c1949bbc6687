import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UPLOAD } from './constants.ts';
import {
  PICTURE_LIMITS,
  classifyUploadSource,
  parseRetryAfter,
  pictureLimitText,
  pictureTooLarge,
  planParts,
  retryDelayMs,
  shouldUseMultipart,
} from './upload.ts';

const MB = 1024 * 1024;

describe('planParts (spec §9: 5 MB chunks, last part at least 1 MB unless the only one)', () => {
  it('cuts 30 MB into six 5 MB parts', () => {
    expect(planParts(30 * MB).map((p) => p.size)).toEqual(Array(6).fill(5 * MB));
  });

  it('joins a tail under 1 MB to the part before it', () => {
    expect(planParts(25 * MB + 100).map((p) => p.size)).toEqual([5 * MB, 5 * MB, 5 * MB, 5 * MB, 5 * MB + 100]);
  });

  it('keeps a tail of exactly 1 MB as its own part', () => {
    expect(planParts(26 * MB).map((p) => p.size)).toEqual([5 * MB, 5 * MB, 5 * MB, 5 * MB, 5 * MB, MB]);
  });

  it('lets a small file be one short part', () => {
    expect(planParts(10)).toEqual([{ partNumber: 1, offset: 0, size: 10 }]);
  });

  it('plans nothing for an empty or invalid size', () => {
    expect(planParts(0)).toEqual([]);
    expect(planParts(-5)).toEqual([]);
    expect(planParts(1.5)).toEqual([]);
  });

  it('always covers every byte once, in order, with valid part sizes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: UPLOAD.maxBytes }), (size) => {
        const parts = planParts(size);
        let offset = 0;
        parts.forEach((p, i) => {
          expect(p.partNumber).toBe(i + 1);
          expect(p.offset).toBe(offset);
          offset += p.size;
          if (i < parts.length - 1) expect(p.size).toBe(UPLOAD.chunkBytes);
        });
        expect(offset).toBe(size);
        const last = parts.at(-1)!;
        if (parts.length > 1) {
          expect(last.size).toBeGreaterThanOrEqual(UPLOAD.minLastPartBytes);
          expect(last.size).toBeLessThan(UPLOAD.chunkBytes + UPLOAD.minLastPartBytes);
        }
      }),
    );
  });
});

describe('shouldUseMultipart (spec §4: from 25 MB)', () => {
  it('uses a direct upload below 25 MB and multipart from 25 MB', () => {
    expect(shouldUseMultipart(25 * MB - 1)).toBe(false);
    expect(shouldUseMultipart(25 * MB)).toBe(true);
  });
});

describe('classifyUploadSource (spec §5)', () => {
  const file = { size: 3, type: 'image/png', name: 'a.png', slice: () => null };

  it('accepts file objects, http(s) URLs and file UUIDs', () => {
    expect(classifyUploadSource(file)).toEqual({ kind: 'file', file });
    expect(classifyUploadSource('https://cdn.example.com/a.png')).toEqual({ kind: 'url', url: 'https://cdn.example.com/a.png' });
    expect(classifyUploadSource(' HTTP://example.com/x ')).toEqual({ kind: 'url', url: 'http://example.com/x' });
    expect(classifyUploadSource('0F8FAD5B-D9CB-469F-A165-70867728950E')).toEqual({ kind: 'uuid', uuid: '0f8fad5b-d9cb-469f-a165-70867728950e' });
  });

  it("refuses anything else with 'File uploading from ... is not supported'", () => {
    expect(classifyUploadSource('ftp://example.com/a.png')).toEqual({
      kind: 'unsupported',
      message: 'File uploading from ftp://example.com/a.png is not supported',
    });
    expect(classifyUploadSource('file:///etc/passwd')).toMatchObject({ message: 'File uploading from file:///etc/passwd is not supported' });
    expect(classifyUploadSource('http://')).toMatchObject({ kind: 'unsupported' });
    expect(classifyUploadSource(42)).toEqual({ kind: 'unsupported', message: 'File uploading from number is not supported' });
    expect(classifyUploadSource(null)).toEqual({ kind: 'unsupported', message: 'File uploading from null is not supported' });
    expect(classifyUploadSource(undefined)).toMatchObject({ message: 'File uploading from undefined is not supported' });
    expect(classifyUploadSource({ size: 1 })).toMatchObject({ message: 'File uploading from object is not supported' });
    expect(classifyUploadSource([file])).toMatchObject({ message: 'File uploading from array is not supported' });
    expect(classifyUploadSource('x'.repeat(500))).toMatchObject({ kind: 'unsupported' });
    expect((classifyUploadSource('x'.repeat(500)) as { message: string }).message.length).toBeLessThan(200);
  });
});

describe('retryDelayMs (spec §8, §9)', () => {
  it('retries a network error 3 times, waiting 1 s times the attempt', () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs({ kind: 'network', attempt }))).toEqual([1000, 2000, 3000, null]);
  });

  it('waits for Retry-After on 429, 15 s when there is none, and gives up after a few', () => {
    expect(retryDelayMs({ kind: 'throttled', attempt: 1, retryAfter: '7' })).toBe(7000);
    expect(retryDelayMs({ kind: 'throttled', attempt: 1, retryAfter: null })).toBe(15_000);
    expect(retryDelayMs({ kind: 'throttled', attempt: 2, retryAfter: 'soon' })).toBe(15_000);
    expect(retryDelayMs({ kind: 'throttled', attempt: UPLOAD.throttleRetries + 1, retryAfter: '1' })).toBeNull();
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-21T10:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('', now)).toBeNull();
    expect(parseRetryAfter('99999999', now)).toBe(3600_000);
  });
});

describe('pictureTooLarge (docs/decisions/0050)', () => {
  it('takes pictures up to the limit of their upload type, in either orientation', () => {
    expect(pictureTooLarge('image', { width: 6000, height: 6000 })).toBeNull();
    expect(pictureTooLarge('image', { width: 4032, height: 3024 })).toBeNull();
    expect(pictureTooLarge('document', { width: 8192, height: 6144 })).toBeNull();
    expect(pictureTooLarge('document', { width: 6144, height: 8192 })).toBeNull();
    expect(pictureTooLarge('document', { width: 8160, height: 6120 })).toBeNull();
  });

  it("refuses one pixel more, naming the picture's size and the limit in pixels", () => {
    expect(pictureTooLarge('image', { width: 6001, height: 10 })).toBe(
      'This picture is 6,001 × 10 pixels: a picture here may be at most 6,000 pixels wide and high. Please make it smaller and upload it again.',
    );
    expect(pictureTooLarge('image', { width: 8192, height: 6144 })).toMatch(/8,192 × 6,144 pixels/);
    // Within the side, beyond the pixels: a square 8192 × 8192 is 67 megapixels.
    expect(pictureTooLarge('document', { width: 8192, height: 8192 })).toBe(
      'This picture is 8,192 × 8,192 pixels: a picture of a document may be at most 8,192 pixels wide and high and 50 megapixels. Please make it smaller and upload it again.',
    );
    expect(pictureTooLarge('document', { width: 9999, height: 10_000 })).toMatch(/^This picture is 9,999 × 10,000 pixels/);
  });

  it('counts every frame of an animation', () => {
    expect(pictureTooLarge('image', { width: 1000, height: 1000, frames: 36 })).toBeNull();
    expect(pictureTooLarge('image', { width: 1000, height: 1000, frames: 37 })).toBe(
      'This animation is 1,000 × 1,000 pixels in 37 frames, 37 megapixels in all: an animation here may have at most 36 megapixels in all. Please make it smaller or shorter and upload it again.',
    );
  });

  it('says each limit in words', () => {
    expect(pictureLimitText('image')).toBe('6,000 pixels wide and high');
    expect(pictureLimitText('document')).toBe('8,192 pixels wide and high and 50 megapixels');
    expect(PICTURE_LIMITS.document.maxPixels).toBeGreaterThan(8160 * 6120);
  });
});
