import { UPLOAD } from './constants.ts';
import { MESSAGES } from './messages.ts';

// The upload protocol of spec §4/§9 (files), shared by the API and the browser's upload
// helper so that both plan the same parts and agree on every limit. The request and
// answer schemas are in upload-schemas.ts, so the browser loads no zod (decision 0030).

/**
 * What a file is for, sent as the `type` field of POST /api/files (spec §7).
 * image: a real raster image (PNG, JPEG, GIF, WebP), such as a profile picture.
 * document: an image or a PDF, such as a bank transfer slip for a booking.
 */
export const UPLOAD_TYPES = ['image', 'document'] as const;
export type TUploadType = (typeof UPLOAD_TYPES)[number];

/** The MIME types each upload type accepts, decided from the file's bytes. */
export const UPLOAD_ACCEPT: Record<TUploadType, readonly string[]> = {
  image: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'],
  document: ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf'],
};

// ---- picture sizes -----------------------------------------------------------------------

/**
 * The largest picture each upload type takes (docs/decisions/0050), read from the file's
 * header before anything decodes it: a few hundred KB of JPEG can claim 100 million pixels,
 * which take seconds and gigabytes to open.
 * image: product and category pictures, banners, the logo, profile pictures: at most 6000
 *   pixels wide and high, four times the widest copy the shop shows (1440 px) and more than
 *   a 24-megapixel camera's 6000 × 4000.
 * document: a payment proof, a phone's photo of a deposit slip, taken at the phone's largest
 *   size: up to a 50-megapixel photo (8160 × 6120, 8192 × 6144).
 * `maxPixels` counts every frame of an animation.
 */
export const PICTURE_LIMITS: Record<TUploadType, { maxSide: number; maxPixels: number }> = {
  image: { maxSide: 6000, maxPixels: 6000 * 6000 },
  document: { maxSide: 8192, maxPixels: 8192 * 6144 },
};

const count = (n: number) => n.toLocaleString('en-US');
const megapixels = (n: number) => Math.floor(n / 1_000_000);

/** What an upload type takes at most, in words: "6,000 pixels wide and high". */
export function pictureLimitText(type: TUploadType): string {
  const { maxSide, maxPixels } = PICTURE_LIMITS[type];
  const side = `${count(maxSide)} pixels wide and high`;
  return maxPixels < maxSide * maxSide ? `${side} and ${megapixels(maxPixels)} megapixels` : side;
}

/**
 * Why a picture of this size (its frames included) is too large for the upload type, in
 * the shopper's words, or null when it fits.
 */
export function pictureTooLarge(type: TUploadType, picture: { width: number; height: number; frames?: number }): string | null {
  const { maxSide, maxPixels } = PICTURE_LIMITS[type];
  const { width, height } = picture;
  const frames = Math.max(1, picture.frames ?? 1);
  const limit = pictureLimitText(type);
  const what = type === 'document' ? 'a picture of a document' : 'a picture here';
  if (width > maxSide || height > maxSide || width * height > maxPixels) {
    return `This picture is ${count(width)} × ${count(height)} pixels: ${what} may be at most ${limit}. Please make it smaller and upload it again.`;
  }
  if (width * height * frames > maxPixels) {
    return (
      `This animation is ${count(width)} × ${count(height)} pixels in ${count(frames)} frames, ${megapixels(width * height * frames)} megapixels in all: ` +
      `an animation here may have at most ${megapixels(maxPixels)} megapixels in all. Please make it smaller or shorter and upload it again.`
    );
  }
  return null;
}

// ---- multipart -------------------------------------------------------------------------

/** Parts of a multipart upload (spec §9): 5 MB chunks, the last at least 1 MB unless it is the only one. */
export function planParts(
  size: number,
  chunk: number = UPLOAD.chunkBytes,
  minLast: number = UPLOAD.minLastPartBytes,
): { partNumber: number; offset: number; size: number }[] {
  if (!Number.isSafeInteger(size) || size <= 0) return [];
  let count = Math.ceil(size / chunk);
  // A short tail joins the part before it, so that no last part is under the minimum.
  if (count > 1 && size - (count - 1) * chunk < minLast) count -= 1;
  const parts = [];
  for (let i = 0; i < count; i++) {
    const offset = i * chunk;
    parts.push({ partNumber: i + 1, offset, size: i === count - 1 ? size - offset : chunk });
  }
  return parts;
}

/** spec §4: direct upload for small files, multipart from 25 MB. */
export function shouldUseMultipart(size: number): boolean {
  return size >= UPLOAD.multipartFromBytes;
}

// ---- URL import --------------------------------------------------------------------------

export const UPLOAD_TASK_STATUSES = ['unknown', 'waiting', 'progress', 'error', 'success'] as const;
export type TUploadTaskStatus = (typeof UPLOAD_TASK_STATUSES)[number];

export function isFinalTaskStatus(s: TUploadTaskStatus): boolean {
  return s === 'success' || s === 'error';
}

// ---- sources ------------------------------------------------------------------------------

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The bits of a browser File/Blob the uploader uses (kept structural: no DOM types here). */
export interface FileLike {
  size: number;
  type: string;
  name?: string;
  slice(start?: number, end?: number, contentType?: string): unknown;
}

export type UploadSource =
  | { kind: 'file'; file: FileLike }
  | { kind: 'url'; url: string }
  | { kind: 'uuid'; uuid: string }
  | { kind: 'unsupported'; message: string };

function isFileLike(v: unknown): v is FileLike {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as FileLike).size === 'number' &&
    typeof (v as FileLike).type === 'string' &&
    typeof (v as FileLike).slice === 'function'
  );
}

function describeSource(v: unknown): string {
  if (typeof v === 'string') return v.length > 100 ? `${v.slice(0, 100)}…` : v;
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** spec §5: only file objects, http(s) URLs or file UUIDs are accepted. */
export function classifyUploadSource(value: unknown): UploadSource {
  if (isFileLike(value)) return { kind: 'file', file: value };
  if (typeof value === 'string') {
    const s = value.trim();
    if (UUID_PATTERN.test(s)) return { kind: 'uuid', uuid: s.toLowerCase() };
    if (/^https?:\/\//i.test(s)) {
      try {
        const u = new URL(s);
        if ((u.protocol === 'http:' || u.protocol === 'https:') && u.hostname) return { kind: 'url', url: u.href };
      } catch {
        // falls through to unsupported
      }
    }
  }
  return { kind: 'unsupported', message: MESSAGES.uploadUnsupported(describeSource(value)) };
}

// ---- retries ------------------------------------------------------------------------------

/**
 * How long to wait before trying a request again, or null to give up (spec §8, §9):
 * a throttled request (429) waits for Retry-After, 15 s when the server gives none;
 * a network error is retried up to 3 times, waiting 1 s times the attempt number.
 * `attempt` counts the failures of this kind so far, from 1.
 */
export function retryDelayMs(
  failure: { kind: 'network'; attempt: number } | { kind: 'throttled'; attempt: number; retryAfter?: string | null },
  now: number = Date.now(),
): number | null {
  if (failure.kind === 'network') {
    return failure.attempt <= UPLOAD.networkRetries ? UPLOAD.networkBackoffMs * failure.attempt : null;
  }
  // Throttling is the server asking to slow down, not a fault; still, never wait forever.
  if (failure.attempt > UPLOAD.throttleRetries) return null;
  return parseRetryAfter(failure.retryAfter, now) ?? UPLOAD.defaultRetryAfterS * 1000;
}

/** Retry-After as delta-seconds or an HTTP date, in ms from now; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Math.min(Number(v), 3600) * 1000;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.min(Math.max(0, at - now), 3600 * 1000);
}
