import type { TCouponApplied, TCouponReason, TSearchRequest } from '@storefront/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { DbRateLimiter } from '../../lib/db-rate-limiter.ts';
import { ApiError } from '../../lib/errors.ts';
import { pagedSearch } from '../../lib/paging.ts';
import * as repo from './pricing.repository.ts';
import { type QuoteInput, quoteCart } from './quote.service.ts';

type Db = Kysely<Database>;

/** POST /api/discount/coupons/search: the coupons the shop advertises (never the private ones). */
export async function searchCoupons(db: Db, req: TSearchRequest, now = new Date()) {
  const textParams = req.textParams.map((p) => {
    if (p.field === 'valid') return { ...p, value: p.value === true || p.value === 'true' || p.value === 1 || p.value === '1' ? 1 : 0 };
    if (p.field === 'code' && typeof p.value === 'string') return { ...p, value: p.value.trim().toUpperCase() };
    return p;
  });
  const page = await pagedSearch(repo.couponSearchQuery(db, now.toISOString()), { ...req, textParams }, {
    filter: { code: 'code', discountType: 'discount_type', valid: 'valid' },
    sort: { code: 'code', endsAt: 'ends_at', startsAt: 'starts_at', value: 'value', minimumOrder: 'minimum_order' },
    tieBreaker: 'id',
  });
  return {
    ...page,
    list: page.list.map((c) => ({
      id: c.id,
      code: c.code,
      title: c.title,
      discountType: c.discount_type as 'PERCENTAGE' | 'AMOUNT',
      value: c.value,
      minimumOrder: c.minimum_order,
      maxAmount: c.max_amount,
      startsAt: c.starts_at,
      endsAt: c.ends_at,
      perCustomerLimit: c.per_customer_limit,
      valid: Number(c.valid) === 1,
    })),
  };
}

/** The error code and status a refused coupon answers with (documented on the route). */
const REFUSAL: Record<TCouponReason, number> = {
  unknown: 404,
  not_started: 422,
  expired: 422,
  below_minimum: 422,
  empty_cart: 422,
  used_up: 409,
  used_up_by_customer: 409,
  sign_in_required: 401,
};

// Private coupons work for whoever has the code, so codes must not be guessable by trying
// many: a client address that has tried this many unknown codes in the window is refused
// for the rest of it. Only misses count; a shopper re-checking a good code is never slowed.
const MISS_LIMIT = 20;
const MISS_WINDOW_MS = 10 * 60_000;
const missKey = (ip: string) => `coupon-miss:${ip}`;

async function refuseGuessers(db: Db, ip: string) {
  const state = await new DbRateLimiter(db).peek(missKey(ip), MISS_WINDOW_MS);
  if (state.hits >= MISS_LIMIT) throw new ApiError('rate_limited', 'Too many coupon codes tried. Please try again in a few minutes.', undefined, 429);
}

async function countMiss(db: Db, ip: string) {
  await new DbRateLimiter(db).hit(missKey(ip), MISS_WINDOW_MS);
}

/** The cart page's quote: quoteCart, with unknown coupon codes counted against guessing. */
export async function quoteForShopper(db: Db, input: QuoteInput & { ip: string }) {
  if (input.couponCode) await refuseGuessers(db, input.ip);
  const quote = await quoteCart(db, input);
  if (quote.coupon && !quote.coupon.applied && quote.coupon.reason === 'unknown') await countMiss(db, input.ip);
  return quote;
}

/**
 * GET /api/discount/coupons/apply: the coupon amount for a cart, from the same quote as
 * checkout, or the reason the coupon does not apply as a typed error.
 */
export async function applyCoupon(db: Db, input: { code: string; lines: { skuCode: string; quantity: number }[]; customerId: number | null; ip: string }): Promise<TCouponApplied> {
  const quote = await quoteForShopper(db, { lines: input.lines, couponCode: input.code, customerId: input.customerId, ip: input.ip });
  const c = quote.coupon!;
  if (!c.applied) {
    const fields: Record<string, string> = { code: c.message };
    if (c.reason === 'below_minimum' && c.minimumOrder != null) fields.minimumOrder = String(c.minimumOrder);
    throw new ApiError(`coupon_${c.reason}`, c.message, fields, REFUSAL[c.reason]);
  }
  return { code: c.code, title: c.title, discountType: c.discountType, value: c.value, minimumOrder: c.minimumOrder, couponAmount: c.amount, totals: quote.totals };
}
