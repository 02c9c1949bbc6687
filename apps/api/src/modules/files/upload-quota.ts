import { UPLOAD } from '@storefront/shared';
import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import { lockForTransaction } from '../../db/dialect/locks.ts';
import type { Database } from '../../db/schema.ts';
import type { ClientAddress } from '../../lib/client-address.ts';
import { DbRateLimiter, retryAfterSeconds } from '../../lib/db-rate-limiter.ts';
import { ApiError } from '../../lib/errors.ts';
import * as repo from './files.repository.ts';
import type { FileStorage } from './storage.ts';

// Upload quotas (docs/decisions/0024): what one customer, or the guests of one client
// address, may keep stored, uploads still arriving included; and the room all guests
// together may take, so that anonymous uploads stop before the disk fills while signed-in
// customers within their quota can still upload.

export interface QuotaLimits {
  customerBytes: number;
  guestBytes: number;
  guestTotalBytes: number;
  /** Guest uploads must leave at least this much free on the storage's disk; 0: no check. */
  minFreeDiskBytes: number;
  /** Megapixels of pictures one customer's uploads may have the shop decode in an hour (docs/decisions/0050). */
  customerMegapixelsPerHour: number;
  /** The same for the guests of one client address. */
  guestMegapixelsPerHour: number;
}

/** Who uploads: a signed-in customer, or a guest known only by the client address. */
export interface Uploader {
  customerId: number | null;
  /** The client address as limits count it (docs/decisions/0049); kept only for guests. */
  address: ClientAddress;
}

/** Room reserved for an upload whose size is not yet known to be final. */
export interface Hold {
  id: number;
  bytes: number;
  /** What capped the room below what was asked: the uploader's own quota, or the shop's room for guests. */
  cappedBy: 'quota' | 'shop' | null;
}

export interface QuotaDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  storage: FileStorage;
  quota: QuotaLimits;
}

/**
 * A hold counts this long at most. A process that dies mid-upload cannot release its
 * holds; they stop counting by themselves after this (and the hourly sweep deletes them).
 * Two hours is 50 MB at 7 KB/s: longer than any upload a shopper would wait for.
 */
export const HOLD_LIFETIME_MS = 2 * 60 * 60 * 1000;

/** Advisory lock keys of the quota check (PostgreSQL), apart from the app's other locks. */
const QUOTA_LOCK_BASE = 7_024_000_000_000;

const MIB = 1024 * 1024;
const mb = (bytes: number) => `${Math.round((bytes / MIB) * 10) / 10} MB`;

/** Over the uploader's own quota: the client's side of things (413; docs/decisions/0024). */
export function quotaExceeded(who: Uploader, limit: number, used: number): ApiError {
  const message =
    who.customerId !== null
      ? `This file does not fit in your ${mb(limit)} of uploads: your files already take ${mb(used)}.`
      : `This file does not fit in the ${mb(limit)} of uploads a guest may keep (${mb(used)} used). Sign in to upload more.`;
  return new ApiError('quota_exceeded', message, undefined, 413);
}

/** The shop has no more room for guests' files just now (507; docs/decisions/0024). */
export function storageFull(): ApiError {
  return new ApiError('storage_full', 'The shop cannot take more files from guests just now. Please sign in to upload, or try again later.', undefined, 507);
}

/**
 * Reserves room for an upload before its bytes are read: `bytes` when its size is known
 * (a Content-Length, a multipart upload's declared size), or, for a body of unknown
 * length, as much as is left up to `bytes` but no less than `atLeast`; the upload is then
 * cut off at the hold's size. Refused with quotaExceeded or storageFull.
 *
 * Checked and recorded in one transaction under a lock (one per customer; one for all
 * guests, whose shop-wide total is checked too), so concurrent uploads — from several
 * processes on one PostgreSQL database too — can never together pass a limit. SQLite's
 * transactions already run one at a time on the one connection.
 */
export async function reserveUpload(deps: QuotaDeps, who: Uploader, want: { bytes: number; atLeast?: number }, now = new Date()): Promise<Hold> {
  const atLeast = Math.min(want.atLeast ?? want.bytes, want.bytes);
  let room = want.bytes;
  let cappedBy: Hold['cappedBy'] = null;
  const isGuest = who.customerId === null;
  if (isGuest && deps.quota.minFreeDiskBytes > 0) {
    // Read outside the transaction: it is a system call, and a near-full disk is a state,
    // not a race (concurrent guests are held to the shop-wide total below).
    const free = await deps.storage.freeBytes?.();
    if (free != null) {
      const spare = free - deps.quota.minFreeDiskBytes;
      if (spare < atLeast) throw storageFull();
      if (spare < room) [room, cappedBy] = [spare, 'shop'];
    }
  }
  const nowIso = now.toISOString();
  return deps.db.transaction().execute(async (trx) => {
    await lockForTransaction(trx, deps.dialect, QUOTA_LOCK_BASE + (who.customerId ?? 0));
    if (!isGuest) {
      const [used] = await repo.usedBytes(trx, [{ customerId: who.customerId! }], nowIso);
      const left = deps.quota.customerBytes - used!;
      if (left < atLeast) throw quotaExceeded(who, deps.quota.customerBytes, used!);
      if (left < room) [room, cappedBy] = [left, 'quota'];
    } else {
      const [mine, all] = await repo.usedBytes(trx, [{ guestAddress: who.address }, { allGuests: true }], nowIso);
      const left = deps.quota.guestBytes - mine!;
      if (left < atLeast) throw quotaExceeded(who, deps.quota.guestBytes, mine!);
      const shopLeft = deps.quota.guestTotalBytes - all!;
      if (shopLeft < atLeast) throw storageFull();
      if (left < room) [room, cappedBy] = [left, 'quota'];
      if (shopLeft < room) [room, cappedBy] = [shopLeft, 'shop'];
    }
    const id = await repo.insertHold(trx, {
      owner_customer_id: who.customerId,
      owner_address: isGuest ? who.address : null,
      bytes: room,
      created_at: nowIso,
      expires_at: new Date(now.getTime() + HOLD_LIFETIME_MS).toISOString(),
    });
    return { id, bytes: room, cappedBy };
  });
}

/** Gives the room back (the upload failed, was refused, or its file now counts instead). Releasing twice is harmless. */
export async function releaseHold(db: Kysely<Database>, hold: Hold | null | undefined): Promise<void> {
  if (hold) await repo.deleteHold(db, hold.id);
}

/** Keeps only `bytes` of a hold (the size became known). Giving room back needs no lock. */
export async function shrinkHold(db: Kysely<Database>, hold: Hold, bytes: number): Promise<void> {
  if (bytes >= hold.bytes) return;
  await repo.shrinkHold(db, hold.id, bytes);
  hold.bytes = bytes;
  hold.cappedBy = null;
}

/** The error for a body that ran past its hold: over the quota or the shop's room when the hold was cut short, else plainly too large. */
export function overHoldError(who: Uploader, hold: Hold, limits: QuotaLimits, tooLarge: () => ApiError): ApiError {
  if (hold.bytes >= UPLOAD.maxBytes || hold.cappedBy === null) return tooLarge();
  if (hold.cappedBy === 'shop') return storageFull();
  const limit = who.customerId !== null ? limits.customerBytes : limits.guestBytes;
  return quotaExceeded(who, limit, limit - hold.bytes);
}

// ---- pictures ----------------------------------------------------------------------------
//
// Bytes are not what a picture costs: 586 KB of JPEG can open into 100 million pixels. Each
// uploaded picture's pixels (every frame of an animation) are counted, in whole megapixels,
// against an hourly budget of its uploader — the customer, or the guests of the client
// address — in the rate-limit table, so the count holds across processes and restarts
// (docs/decisions/0050).

const PICTURE_WINDOW_MS = 60 * 60 * 1000;

/** Over the hour's budget of decoded pixels: 413 with Retry-After, the time until the hour's count starts again. */
export class PictureBudgetError extends ApiError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('image_quota_exceeded', message, undefined, 413);
  }
}

/**
 * Counts a picture's decoded pixels against the uploader's hourly budget, before it is
 * decoded; refused with PictureBudgetError (and not counted) when it does not fit.
 */
export async function chargePictureWork(deps: QuotaDeps, who: Uploader, pixels: number, now = new Date()): Promise<void> {
  const megapixels = Math.max(1, Math.ceil(pixels / 1_000_000));
  const isGuest = who.customerId === null;
  const budget = isGuest ? deps.quota.guestMegapixelsPerHour : deps.quota.customerMegapixelsPerHour;
  const key = isGuest ? `pictures:guest:${who.address}` : `pictures:customer:${who.customerId}`;
  const limiter = new DbRateLimiter(deps.db);
  // Counted first, taken back when over: uploads arriving at once cannot all pass a check.
  const state = await limiter.hit(key, PICTURE_WINDOW_MS, now, megapixels);
  if (state.hits <= budget) return;
  await limiter.undo(key, megapixels);
  const wait = retryAfterSeconds(state.resetAt, now);
  const minutes = Math.ceil(wait / 60);
  const later = `Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}`;
  throw new PictureBudgetError(
    isGuest
      ? `The pictures sent from your connection this hour come to the ${budget} megapixels a guest may send in an hour. ${later}, or sign in to upload more.`
      : `The pictures you sent this hour come to the ${budget} megapixels you may send in an hour. ${later}.`,
    wait,
  );
}
