import { createHash } from 'node:crypto';
import type { Locale } from '@storefront/shared';
import type { Kysely, Transaction } from 'kysely';
import type { OrdersConfig } from '../../config.ts';
import type { Dialect } from '../../db/database.ts';
import { lockForTransaction } from '../../db/dialect/locks.ts';
import type { Database } from '../../db/schema.ts';
import type { ClientAddress } from '../../lib/client-address.ts';
import { DbRateLimiter, retryAfterSeconds } from '../../lib/db-rate-limiter.ts';
import { ApiError, conflict, RateLimitedError } from '../../lib/errors.ts';
import * as repo from './repository.ts';

// What one client may place and hold (docs/decisions/0022). Orders and bookings reserve
// stock, so without limits one anonymous client could hold the whole shop: a cap per
// line and per order, checkouts counted per client address, customer and guest contact
// (in the database, so the count holds across processes), and a cap on the units that
// the unpaid sales of one client may hold at once, checked under a lock in the order's
// own transaction.

type Q = Kysely<Database> | Transaction<Database>;

/** Who is checking out, as the route sees it (plain values, no request). */
export interface CheckoutClient {
  /** The client as per-address limits count it (request.clientAddress, docs/decisions/0049). */
  address: ClientAddress;
  /**
   * The browser's device id (the web app sends `x-device-id` on every call, a random
   * UUID kept in local storage); null when absent or not one.
   */
  deviceId: string | null;
  /** The language the shop is used in (the `lang` cookie), when the request says: the order's mails are in it. */
  locale?: Locale | null;
}

const DEVICE_ID = /^[A-Za-z0-9_-]{16,100}$/;

export function deviceIdFrom(header: unknown): string | null {
  return typeof header === 'string' && DEVICE_ID.test(header) ? header : null;
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex').slice(0, 32);

/**
 * Whose idempotency key this is (docs/decisions/0021, 0022): a customer by id; a guest by
 * the device id the web app sends (so a phone that changes networks is still the same
 * guest), else by client address. Stored hashed.
 */
export function keyOwner(customerId: number | null, client: CheckoutClient): string {
  if (customerId !== null) return `customer:${customerId}`;
  return client.deviceId ? `guest:device:${digest(client.deviceId)}` : `guest:address:${digest(client.address)}`;
}

/**
 * The per-line and per-order caps, on lines already merged by sku. `firstIndex` maps a
 * sku code to its first line in the request, so the error names the line the shopper sent.
 */
export function checkQuantities(
  items: readonly { skuCode: string; quantity: number }[],
  firstIndex: (code: string) => number,
  limits: Pick<OrdersConfig, 'maxLineQuantity' | 'maxUnits'>,
): void {
  const over = items.filter((i) => i.quantity > limits.maxLineQuantity);
  if (over.length) {
    const perLine = `At most ${limits.maxLineQuantity} of one item per order`;
    throw new ApiError(
      'quantity_limit',
      `${perLine}: ${over.map((i) => `${i.skuCode} has ${i.quantity}`).join('; ')}. Please call us for a larger order.`,
      Object.fromEntries(over.map((i) => [`items.${firstIndex(i.skuCode)}.quantity`, perLine])),
      400,
    );
  }
  const units = items.reduce((n, i) => n + i.quantity, 0);
  if (units > limits.maxUnits) {
    throw new ApiError(
      'quantity_limit',
      `At most ${limits.maxUnits} items per order; this order has ${units}. Please split it or call us for a larger order.`,
      { items: `At most ${limits.maxUnits} items per order; this order has ${units}` },
      400,
    );
  }
}

/** Whose allowances a checkout uses: the address always, then the customer, or a guest's email and mobile. */
export interface ClientKeys {
  /** Null only for sales placed before addresses were recorded. */
  address: string | null;
  customerId: number | null;
  /** A guest's contact email, lower-cased; null for a customer. */
  email: string | null;
  /** A guest's contact mobile, normalised; null for a customer. */
  mobile: string | null;
}

export function clientKeys(client: { address: string | null }, customerId: number | null, contact: { email: string; mobile: string }): ClientKeys {
  const guest = customerId === null;
  return {
    address: client.address,
    customerId,
    // A stranger may type a customer's email into a guest checkout: a customer is counted
    // by account, so that cannot lock the customer out.
    email: guest ? contact.email.trim().toLowerCase() : null,
    mobile: guest ? contact.mobile : null,
  };
}

/**
 * Counts this checkout against every allowance it uses, before anything is placed. Call
 * in the order's transaction after lockHoldKeys: each count is an atomic upsert, checkouts
 * of one client are counted one after the other, and a checkout that places nothing (out
 * of stock, a bad coupon, over a limit) rolls its counts back with everything else, so a
 * refused request uses nobody's allowance, not even that of an email a stranger typed.
 * Over any limit: 429 with Retry-After.
 */
export async function countCheckout(trx: Q, keys: ClientKeys, limits: OrdersConfig, now = new Date()): Promise<void> {
  const limiter = new DbRateLimiter(trx, { prune: false });
  const counted: [string, number][] = [[`checkout:address:${keys.address ?? 'unknown'}`, limits.perAddress]];
  if (keys.customerId !== null) counted.push([`checkout:customer:${keys.customerId}`, limits.perCustomer]);
  if (keys.email) counted.push([`checkout:email:${digest(keys.email)}`, limits.perContact]);
  if (keys.mobile) counted.push([`checkout:mobile:${digest(keys.mobile)}`, limits.perContact]);
  let wait = 0;
  for (const [key, limit] of counted) {
    const { hits, resetAt } = await limiter.hit(key, limits.limitWindowMs, now);
    if (hits > limit) wait = Math.max(wait, retryAfterSeconds(resetAt, now));
  }
  if (wait) throw new RateLimitedError(`Too many orders in a short time. Please try again in ${Math.ceil(wait / 60)} minutes, or call us.`, wait);
}

/** Now and then, outside any transaction: windows long past are removed. */
export function pruneCounts(db: Kysely<Database>): void {
  if (Math.random() < 0.01) void new DbRateLimiter(db).prune().catch(() => {});
}

const HOLD_LOCK_BASE = 7_100_000_000;

function lockKey(text: string): number {
  let h = 0;
  for (const ch of text) h = (Math.imul(h, 31) + ch.charCodeAt(0)) >>> 0;
  return HOLD_LOCK_BASE + h;
}

/**
 * Serialises the checkouts of one client: on PostgreSQL an advisory lock per key (address,
 * customer, email, mobile) in one order, taken first in the order's transaction (before
 * the coupon and stock locks), so that its counts and its unpaid holds are read with every
 * earlier checkout of the same client committed. SQLite runs the transactions of a process
 * one at a time anyway.
 */
export async function lockHoldKeys(trx: Q, dialect: Dialect, keys: ClientKeys): Promise<void> {
  const named = [
    keys.address !== null ? `address:${keys.address}` : null,
    keys.customerId !== null ? `customer:${keys.customerId}` : null,
    keys.email ? `email:${keys.email}` : null,
    keys.mobile ? `mobile:${keys.mobile}` : null,
  ].filter((k): k is string => k !== null);
  for (const key of [...new Set(named.map(lockKey))].sort((a, b) => a - b)) await lockForTransaction(trx, dialect, key);
}

/**
 * Refuses (409 `unpaid_limit`) a sale whose units would take the unpaid holds of its
 * client over the caps. Call with the client's keys locked (lockHoldKeys).
 */
export async function assertHoldRoom(trx: Q, keys: ClientKeys, units: number, limits: OrdersConfig, excludeSaleId: number | null = null): Promise<void> {
  const held = await repo.heldUnits(trx, keys, excludeSaleId);
  const refuse = (already: number, cap: number, whose: string) => {
    if (already + units <= cap) return;
    throw conflict(
      'unpaid_limit',
      `${whose} already hold ${already} item${already === 1 ? '' : 's'} and this order has ${units}; at most ${cap} can be held unpaid at once. Please pay for or cancel one of them first, or call us for a larger order.`,
    );
  };
  refuse(held.address, limits.holdMaxUnitsPerAddress, 'Unpaid orders and bookings placed from your connection');
  if (keys.customerId !== null) refuse(held.customer, limits.holdMaxUnits, 'Your unpaid orders and bookings');
  refuse(held.email, limits.holdMaxUnits, 'Unpaid orders and bookings for this email address');
  refuse(held.mobile, limits.holdMaxUnits, 'Unpaid orders and bookings for this mobile number');
}
