import { type ClientAddress, clientAddress } from '../../lib/client-address.ts';
import { randomUUID } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import {
  PICTURE_LIMITS,
  type TMultipartUpload,
  type TUploadedFile,
  type TUploadType,
  UPLOAD,
  UPLOAD_ACCEPT,
  pictureLimitText,
  pictureTooLarge,
  planParts,
} from '@storefront/shared';
import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { ApiError, notFound } from '../../lib/errors.ts';
import { ImageDecodeError, pictureHeader, sanitiseImage } from '../images/image-process.ts';
import type { ImageWork } from '../images/image-work.ts';
import { sanitiseFileName } from './file-name.ts';
import { type DetectedType, SNIFF_BYTES, detectFileType } from './file-type.ts';
import * as repo from './files.repository.ts';
import type { FileRow, UploadRow } from './files.repository.ts';
import { type FileStorage, StorageNotFoundError, StorageTooLargeError } from './storage.ts';
import { type QuotaLimits, type Uploader, chargePictureWork, releaseHold, reserveUpload } from './upload-quota.ts';

export type { FileRow } from './files.repository.ts';

export interface FilesDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  storage: FileStorage;
  /** spec §7: prefixed to the relative url of a file (config.imageHost). */
  imageHost: string;
  /** Upload quotas and the room kept for guests (docs/decisions/0024), and the pixels an uploader may have decoded (0050). */
  quota: QuotaLimits;
  /** Turns for decoding pictures, shared with the resized copies (docs/decisions/0050). */
  imageWork: ImageWork;
  /** A guest's file nothing refers to is deleted this long after its upload (docs/decisions/0024). */
  guestFileRetentionMs: number;
  /** Called after a stored file is deleted: its resized copies go too (plugins/files.ts). */
  onFileDeleted?(uuid: string): Promise<void>;
}

/** Unfinished multipart uploads are removed this long after they started. */
export const MULTIPART_LIFETIME_MS = 24 * 60 * 60 * 1000;

const nowIso = () => new Date().toISOString();

export const tooLarge = () => new ApiError('payload_too_large', `The file is larger than the ${UPLOAD.maxBytes / 1024 / 1024} MB limit`, undefined, 413);

/** A server-chosen storage key: the date for tidy folders and the file's uuid, nothing from the client. */
function storageKeyFor(uuid: string, at = new Date()): string {
  const y = at.getUTCFullYear();
  const m = String(at.getUTCMonth() + 1).padStart(2, '0');
  return `${y}/${m}/${uuid}`;
}

/** Where a stored file is served (outside /api: an <img> cannot send the API key; decision 0012). */
export function filePath(row: Pick<FileRow, 'uuid' | 'name'>): string {
  return `/files/${row.uuid}/${encodeURIComponent(row.name)}`;
}

/** The uploaded file of spec §3; a relative url gets the image host in front (spec §7). */
export function toUploadedFile(row: FileRow, imageHost: string): TUploadedFile {
  return {
    uuid: row.uuid,
    name: row.name,
    size: row.size,
    isStored: true,
    isImage: row.is_image === 1,
    mimeType: row.mime_type,
    cdnUrl: `${imageHost.replace(/\/$/, '')}${filePath(row)}`,
    width: row.width,
    height: row.height,
  };
}

/**
 * A stored file that belongs to this customer, or null (others' files look absent).
 * For other modules: the profile image (PATCH /api/customers/images) and booking payment
 * proofs accept only a file their customer uploaded.
 */
export async function findFileForOwner(db: Kysely<Database>, uuid: string, customerId: number): Promise<FileRow | null> {
  if (!/^[0-9a-f-]{36}$/i.test(uuid)) return null;
  return (await repo.fileByUuidForOwner(db, uuid.toLowerCase(), customerId)) ?? null;
}

/** Any stored file by uuid, for serving its bytes (the uuid is the capability; decision 0013). */
export async function findFile(db: Kysely<Database>, uuid: string): Promise<FileRow | null> {
  if (!/^[0-9a-f-]{36}$/i.test(uuid)) return null;
  return (await repo.fileByUuid(db, uuid.toLowerCase())) ?? null;
}

/** A file the caller may see: their own, or a guest's (the uuid is then the only key). */
export async function fileInfo(deps: FilesDeps, uuid: string, customerId: number | null): Promise<TUploadedFile> {
  const row = await findFile(deps.db, uuid);
  if (!row || (row.owner_customer_id !== null && row.owner_customer_id !== customerId)) throw notFound('The file');
  return toUploadedFile(row, deps.imageHost);
}

/** Refuses a file whose bytes are not of a kind this upload type takes (spec: type from the bytes). */
export function checkAccepted(type: TUploadType, detected: DetectedType): void {
  const raster = detected.mime.startsWith('image/') && detected.mime !== 'image/svg+xml';
  const listed = UPLOAD_ACCEPT[type].includes(detected.mime);
  if (listed && (!raster || detected.isImage)) return;
  if (raster && listed && !detected.isImage) {
    throw new ApiError('unsupported_media_type', 'The file is not a valid image', undefined, 415);
  }
  const wanted = type === 'image' ? 'a PNG, JPEG, GIF or WebP image' : 'a PNG, JPEG, GIF or WebP image or a PDF';
  throw new ApiError('unsupported_media_type', `This kind of file is not accepted here: please choose ${wanted}`, undefined, 415);
}

/**
 * Refuses a picture larger than its upload type takes (docs/decisions/0050), by the size
 * its header claims: nothing has decoded it yet. 413, naming the picture's size and the limit.
 */
export function checkPictureSize(type: TUploadType, picture: { width: number; height: number; frames?: number }): void {
  const problem = pictureTooLarge(type, picture);
  if (problem) throw new ApiError('image_too_large', problem, { file: `At most ${pictureLimitText(type)}` }, 413);
}

/** Passes bytes through and keeps the first SNIFF_BYTES for type detection. */
function sniffer(): Transform & { head(): Buffer } {
  const chunks: Buffer[] = [];
  let kept = 0;
  const t = new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (kept < SNIFF_BYTES) {
        const take = chunk.subarray(0, SNIFF_BYTES - kept);
        chunks.push(Buffer.from(take));
        kept += take.length;
      }
      done(null, chunk);
    },
  }) as Transform & { head(): Buffer };
  t.head = () => Buffer.concat(chunks);
  return t;
}

async function readHead(storage: FileStorage, key: string, size: number): Promise<Buffer> {
  const stream = await storage.read(key, { start: 0, end: Math.min(size, SNIFF_BYTES) - 1 });
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export interface StoredObject {
  uuid: string;
  key: string;
  size: number;
  detected: DetectedType;
}

/**
 * Streams bytes into storage under a new server-chosen key, counting them and sniffing the
 * type. Beyond maxBytes (the 50 MB limit, or less: the room an upload quota left) reading
 * stops and `overLimit` is thrown.
 */
export async function storeObject(
  storage: FileStorage,
  body: Readable,
  maxBytes: number = UPLOAD.maxBytes,
  overLimit: () => ApiError = tooLarge,
): Promise<StoredObject> {
  const uuid = randomUUID();
  const key = storageKeyFor(uuid);
  const sniff = sniffer();
  body.on('error', (err) => sniff.destroy(err));
  let size: number;
  try {
    ({ size } = await storage.put(key, body.pipe(sniff), { maxBytes }));
  } catch (err) {
    if (err instanceof StorageTooLargeError) throw overLimit();
    throw err;
  }
  if (size === 0) {
    await storage.delete(key);
    throw new ApiError('bad_request', 'The file is empty', { file: 'The file is empty' });
  }
  return { uuid, key, size, detected: detectFileType(sniff.head()) };
}

/**
 * An accepted raster image, decoded and encoded again by libvips in place of the bytes that
 * arrived: no EXIF (a phone photo's GPS position above all), XMP, ICC or anything appended
 * survives, and the picture is turned upright by its EXIF orientation first
 * (image-process.ts). Its size and dimensions become the clean copy's. Bytes that sniffed
 * as an image but do not decode are refused as not an image.
 *
 * In its turn among the process's picture work (docs/decisions/0050): libvips reads the
 * header again, frames included, and the picture must fit its upload type; its pixels are
 * counted against the uploader's hourly budget; then it is decoded.
 */
async function cleanImage(deps: FilesDeps, obj: StoredObject, type: TUploadType, who: Uploader): Promise<StoredObject> {
  const notAnImage = () => new ApiError('unsupported_media_type', 'The file is not a valid image', undefined, 415);
  // The file (up to 50 MB) is read in the turn: an upload waiting for its turn holds nothing.
  const clean = await deps.imageWork.run(async () => {
    const chunks: Buffer[] = [];
    for await (const c of await deps.storage.read(obj.key)) chunks.push(c as Buffer);
    const input = Buffer.concat(chunks);
    try {
      const header = await pictureHeader(input, obj.detected.mime);
      checkPictureSize(type, header);
      await chargePictureWork(deps, who, header.width * header.height * header.frames);
      return await sanitiseImage(input, obj.detected.mime, PICTURE_LIMITS[type].maxPixels);
    } catch (err) {
      if (err instanceof ImageDecodeError) throw notAnImage();
      throw err;
    }
  });
  const { size } = await deps.storage.put(obj.key, Readable.from([clean.data]), { maxBytes: Math.max(UPLOAD.maxBytes, clean.data.length) });
  return { ...obj, size, detected: { ...obj.detected, width: clean.width, height: clean.height } };
}

/**
 * Checks a stored object against the upload type and records it as a file; the object is
 * removed again when it is refused, so nothing half-accepted stays on disk. The quota hold
 * the upload ran under (if any) goes in the same transaction: the file now counts instead.
 */
export async function acceptObject(
  deps: FilesDeps,
  obj: StoredObject,
  input: {
    type: TUploadType;
    filename: string | null | undefined;
    owner: number | null;
    /** The guest's address key (request.clientAddress); ignored for a customer's file. */
    address: ClientAddress | null;
    holdId?: number;
    source: 'direct' | 'multipart' | 'url';
  },
): Promise<FileRow> {
  try {
    checkAccepted(input.type, obj.detected);
    let stored = obj;
    if (obj.detected.isImage) {
      // The size the header claims, before even reading the file whole (a bomb is refused here).
      checkPictureSize(input.type, { width: obj.detected.width!, height: obj.detected.height! });
      stored = await cleanImage(deps, obj, input.type, { customerId: input.owner, address: input.address ?? clientAddress(null) });
    }
    return await deps.db.transaction().execute(async (trx) => {
      if (input.holdId !== undefined) await repo.deleteHold(trx, input.holdId);
      return repo.insertFile(trx, {
        uuid: stored.uuid,
        storage_key: stored.key,
        name: sanitiseFileName(input.filename, stored.detected.ext),
        size: stored.size,
        mime_type: stored.detected.mime,
        is_image: stored.detected.isImage ? 1 : 0,
        width: stored.detected.width,
        height: stored.detected.height,
        source: input.source,
        owner_customer_id: input.owner,
        owner_address: input.owner === null ? input.address : null,
        created_at: nowIso(),
      });
    });
  } catch (err) {
    await deps.storage.delete(obj.key).catch(() => {});
    throw err;
  }
}

// ---- multipart ----------------------------------------------------------------------------

/** The API path a part's bytes are PUT to. */
export function partUrl(uploadUuid: string, partNumber: number): string {
  return `/api/files/multipart/${uploadUuid}/parts/${partNumber}`;
}

function multipartView(row: UploadRow, done: number[]): TMultipartUpload {
  return {
    uuid: row.uuid,
    size: row.size,
    parts: planParts(row.size, row.part_size).map((p) => ({ ...p, url: partUrl(row.uuid, p.partNumber) })),
    completedParts: done,
    expiresAt: row.expires_at,
  };
}

/** An upload the caller may work on: their own, or a guest's (its uuid is then the key). */
async function openUploadFor(deps: FilesDeps, uuid: string, owner: number | null): Promise<UploadRow> {
  const row = /^[0-9a-f-]{36}$/i.test(uuid) ? await repo.uploadByUuid(deps.db, uuid.toLowerCase()) : undefined;
  if (!row || (row.owner_customer_id !== null && row.owner_customer_id !== owner)) throw notFound('The upload');
  if (row.expires_at < nowIso() && row.status !== 'complete') throw notFound('The upload');
  return row;
}

/** Declared types only ever refuse early (a .zip need not send 50 MB to learn it is refused); the bytes decide acceptance. */
function refuseDeclaredType(type: TUploadType, contentType: string | undefined) {
  if (!contentType) return;
  const mime = contentType.split(';')[0]!.trim().toLowerCase();
  if (!mime || mime === 'application/octet-stream') return;
  if (!UPLOAD_ACCEPT[type].includes(mime)) {
    throw new ApiError('unsupported_media_type', 'This kind of file is not accepted here', { contentType: 'Not an accepted type' }, 415);
  }
}

/**
 * Starts a multipart upload. Its declared size is reserved against the uploader's quota
 * before any part is sent, and stays reserved (the upload row counts) until it completes,
 * is cancelled or expires (docs/decisions/0024).
 */
export async function startMultipart(
  deps: FilesDeps,
  input: { filename: string; size: number; contentType?: string; type: TUploadType; who: Uploader },
): Promise<TMultipartUpload> {
  if (input.size > UPLOAD.maxBytes) throw tooLarge();
  refuseDeclaredType(input.type, input.contentType);
  const hold = await reserveUpload(deps, input.who, { bytes: input.size });
  try {
    return await openMultipart(deps, input, hold.id);
  } finally {
    await releaseHold(deps.db, hold);
  }
}

async function openMultipart(
  deps: FilesDeps,
  input: { filename: string; size: number; type: TUploadType; who: Uploader },
  holdId: number,
): Promise<TMultipartUpload> {
  const uuid = randomUUID();
  const key = storageKeyFor(randomUUID());
  const storageUploadId = await deps.storage.createMultipart(key);
  const created = new Date();
  const owner = input.who.customerId;
  // The upload row takes over from the hold in one step: the room is never counted zero times.
  const row = await deps.db
    .transaction()
    .execute(async (trx) => {
      await repo.deleteHold(trx, holdId);
      return repo.insertUpload(trx, {
        uuid,
        owner_customer_id: owner,
        owner_address: owner === null ? input.who.address : null,
        name: input.filename.slice(0, 1000),
        size: input.size,
        upload_type: input.type,
        part_size: UPLOAD.chunkBytes,
        part_count: planParts(input.size).length,
        storage_key: key,
        storage_upload_id: storageUploadId,
        status: 'open',
        file_uuid: null,
        created_at: created.toISOString(),
        expires_at: new Date(created.getTime() + MULTIPART_LIFETIME_MS).toISOString(),
      });
    })
    .catch(async (err: unknown) => {
      await deps.storage.abortMultipart(key, storageUploadId).catch(() => {});
      throw err;
    });
  return multipartView(row, []);
}

/** The upload's plan and the parts already received: what a resumed upload still has to send. */
export async function multipartStatus(deps: FilesDeps, uuid: string, owner: number | null): Promise<TMultipartUpload> {
  const row = await openUploadFor(deps, uuid, owner);
  const parts = await repo.uploadParts(deps.db, row.id);
  return multipartView(
    row,
    parts.map((p) => p.part_number),
  );
}

export async function putPart(
  deps: FilesDeps,
  input: { uuid: string; partNumber: number; owner: number | null; contentLength: number | null; body: Readable },
): Promise<{ partNumber: number; size: number; completedParts: number[] }> {
  const row = await openUploadFor(deps, input.uuid, input.owner);
  if (row.status !== 'open') throw new ApiError('conflict', 'This upload is already complete', undefined, 409);
  const plan = planParts(row.size, row.part_size).find((p) => p.partNumber === input.partNumber);
  if (!plan) throw new ApiError('bad_request', `This upload has no part ${input.partNumber}`, { partNumber: 'No such part' });
  // A Content-Length beyond the part is refused before reading a byte; a body longer than
  // it says (or than the part, when sent chunked) is cut off by the storage's own count.
  if (input.contentLength !== null && input.contentLength > plan.size) throw tooLarge();
  let stored: { size: number; etag: string };
  try {
    stored = await deps.storage.putPart(row.storage_key, row.storage_upload_id, plan.partNumber, input.body, { maxBytes: plan.size });
  } catch (err) {
    if (err instanceof StorageTooLargeError) throw tooLarge();
    if (err instanceof StorageNotFoundError) throw notFound('The upload');
    throw err;
  }
  if (stored.size !== plan.size) {
    throw new ApiError('bad_request', `Part ${plan.partNumber} must be ${plan.size} bytes; ${stored.size} arrived`, { partNumber: 'Incomplete part' });
  }
  await repo.savePart(deps.db, { upload_id: row.id, part_number: plan.partNumber, size: stored.size, etag: stored.etag, received_at: nowIso() });
  const parts = await repo.uploadParts(deps.db, row.id);
  return { partNumber: plan.partNumber, size: stored.size, completedParts: parts.map((p) => p.part_number) };
}

export async function completeMultipart(deps: FilesDeps, uuid: string, owner: number | null): Promise<FileRow> {
  const row = await openUploadFor(deps, uuid, owner);
  // Completing twice (a retry after a lost answer) gives the same file.
  if (row.status === 'complete' && row.file_uuid) {
    const file = await repo.fileByUuid(deps.db, row.file_uuid);
    if (file) return file;
  }
  const plan = planParts(row.size, row.part_size);
  const parts = await repo.uploadParts(deps.db, row.id);
  const have = new Map(parts.map((p) => [p.part_number, p]));
  const missing = plan.filter((p) => have.get(p.partNumber)?.size !== p.size).map((p) => p.partNumber);
  if (missing.length) {
    throw new ApiError('bad_request', `Parts not received yet: ${missing.join(', ')}`, { parts: `Missing parts: ${missing.join(', ')}` });
  }
  // One process completes; a concurrent second call is told to try again.
  if (!(await repo.switchUploadStatus(deps.db, row.id, 'open', 'completing'))) {
    throw new ApiError('conflict', 'This upload is being completed; try again in a moment', undefined, 409);
  }
  let obj: StoredObject;
  try {
    const { size } = await deps.storage.completeMultipart(
      row.storage_key,
      row.storage_upload_id,
      plan.map((p) => ({ partNumber: p.partNumber, etag: have.get(p.partNumber)!.etag })),
    );
    if (size !== row.size) throw new Error(`joined ${size} bytes, expected ${row.size}`);
    obj = { uuid: randomUUID(), key: row.storage_key, size, detected: detectFileType(await readHead(deps.storage, row.storage_key, size)) };
  } catch (err) {
    await repo.switchUploadStatus(deps.db, row.id, 'completing', 'open');
    throw err;
  }
  let file: FileRow;
  try {
    file = await acceptObject(deps, obj, {
      type: row.upload_type as TUploadType,
      filename: row.name,
      owner: row.owner_customer_id,
      // Stored from request.clientAddress when the upload began.
      address: row.owner_address as ClientAddress | null,
      source: 'multipart',
    });
  } catch (err) {
    // Refused bytes: the joined object is gone (acceptObject) and so is the upload.
    await repo.deleteUpload(deps.db, row.id);
    throw err;
  }
  await repo.switchUploadStatus(deps.db, row.id, 'completing', 'complete', { file_uuid: file.uuid });
  return file;
}

export async function abortMultipart(deps: FilesDeps, uuid: string, owner: number | null): Promise<void> {
  const row = await openUploadFor(deps, uuid, owner);
  if (row.status === 'complete') throw new ApiError('conflict', 'This upload is already complete', undefined, 409);
  await deps.storage.abortMultipart(row.storage_key, row.storage_upload_id);
  await repo.deleteUpload(deps.db, row.id);
}

/**
 * Removes unfinished uploads (and their parts) past their lifetime, forgets finished ones,
 * drops URL import tasks older than a day and quota holds past their expiry. Runs hourly
 * (plugins/files.ts).
 */
export async function cleanupExpired(deps: FilesDeps, now: Date = new Date()): Promise<{ uploads: number }> {
  const iso = now.toISOString();
  let removed = 0;
  for (;;) {
    const batch = await repo.expiredUploads(deps.db, iso);
    for (const row of batch) {
      if (row.status !== 'complete') await deps.storage.abortMultipart(row.storage_key, row.storage_upload_id).catch(() => {});
      await repo.deleteUpload(deps.db, row.id);
      removed++;
    }
    if (batch.length < 100) break;
  }
  await repo.deleteImportsBefore(deps.db, new Date(now.getTime() - MULTIPART_LIFETIME_MS).toISOString());
  await repo.deleteExpiredHolds(deps.db, iso);
  return { uploads: removed };
}

/**
 * Deletes guests' files that nothing refers to (not a booking's payment proof, not a
 * profile picture) once they are older than the retention (GUEST_FILE_RETENTION_HOURS):
 * the row first — deleting it is what claims it, so processes sweeping at once never
 * share a file — then the bytes. Runs with the hourly cleanup (plugins/files.ts); tests
 * call it directly (docs/decisions/0024).
 */
export async function sweepGuestFiles(
  deps: FilesDeps,
  now: Date = new Date(),
  log?: { warn(obj: object, msg: string): void },
): Promise<{ files: number; bytes: number }> {
  const before = new Date(now.getTime() - deps.guestFileRetentionMs).toISOString();
  let files = 0;
  let bytes = 0;
  for (;;) {
    const batch = await repo.claimUnreferencedGuestFiles(deps.db, before, 100);
    for (const row of batch) {
      // A failed delete leaves bytes no row points at: wasted space, never a broken link.
      await deps.storage.delete(row.storage_key).catch((err) => log?.warn({ err, key: row.storage_key }, 'deleting a swept guest file failed'));
      await deps.onFileDeleted?.(row.uuid).catch((err) => log?.warn({ err, uuid: row.uuid }, 'deleting the copies of a swept guest file failed'));
      files++;
      bytes += Number(row.size);
    }
    if (batch.length < 100) break;
  }
  return { files, bytes };
}
