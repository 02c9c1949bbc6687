import { evaluateCoupon, normalizeCouponCode, type TCouponApplied, type TCouponReason, type TSearchRequest } from '@storefront/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ClientAddress } from '../../lib/client-address.ts';
import { DbRateLimiter, retryAfterSeconds } from '../../lib/db-rate-limiter.ts';
import { ApiError, RateLimitedError } from '../../lib/errors.ts';
import { booleanField, pagedSearch, textField } from '../../lib/paging.ts';
import * as repo from './pricing.repository.ts';
import { couponRule, type QuoteInput, quoteCart } from './quote.service.ts';

type Db = Kysely<Database>;

/** POST /api/discount/coupons/search: the coupons the shop advertises (never the private ones). */
export async function searchCoupons(db: Db, req: TSearchRequest, now = new Date()) {
  const textParams = req.textParams.map((p) => {
    if (p.field === 'code' && typeof p.value === 'string') return { ...p, value: p.value.trim().toUpperCase() };
    return p;
  });
  const page = await pagedSearch(
    repo.couponSearchQuery(db, now.toISOString()),
    { ...req, textParams },
    {
      filter: { code: textField('code'), discountType: textField('discount_type'), valid: booleanField('valid') },
      sort: { code: 'code', endsAt: 'ends_at', startsAt: 'starts_at', value: 'value', minimumOrder: 'minimum_order' },
      tieBreaker: 'id',
    },
  );
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
// many (docs/decisions/0014). Every code a client address tries, through the apply call,
// the cart quote or a checkout, is counted first, in one atomic step (checked first and
// counted after, many guesses sent at once would all pass); a code the shop has (any
// answer but the unknown one) is then taken back, so a shopper re-checking a good code is
// never slowed. After MISS_LIMIT codes answered as unknown in the window, the address is
// refused for the rest of it, whatever code it tries: a refusal must not tell codes apart.
const MISS_LIMIT = 20;
const MISS_WINDOW_MS = 10 * 60_000;
const missKey = (address: string) => `coupon-miss:${address}`;
/** Larger than any minimum order: whether a code answers as unknown never depends on the cart. */
const ANY_CART = 1_000_000_000_000;

/** Counts one coupon code tried by a client; 429 once the address has guessed too many. */
export async function countCouponAttempt(db: Db, input: { address: ClientAddress; code: string; customerId: number | null; now?: Date }): Promise<void> {
  const limiter = new DbRateLimiter(db);
  const key = missKey(input.address);
  const hit = await limiter.hit(key, MISS_WINDOW_MS);
  if (hit.hits > MISS_LIMIT) {
    const wait = retryAfterSeconds(hit.resetAt);
    throw new RateLimitedError('Too many coupon codes tried. Please try again in a few minutes.', wait);
  }
  if (!(await answersAsUnknown(db, input))) await limiter.undo(key);
}

/** Whether the shopper is told "not valid" for this code, as quoteCart would tell it. */
async function answersAsUnknown(db: Db, input: { code: string; customerId: number | null; now?: Date }): Promise<boolean> {
  const row = await repo.couponByCode(db, normalizeCouponCode(input.code));
  // Run for an unknown code too: both answers take the same work.
  const used = await repo.couponUseCounts(db, row?.id ?? 0, input.customerId);
  const outcome = evaluateCoupon(row ? couponRule(row) : null, {
    orderAmount: ANY_CART,
    now: input.now ?? new Date(),
    usedTotal: used.total,
    usedByCustomer: used.byCustomer,
    customerId: input.customerId,
  });
  return !outcome.ok && outcome.reason === 'unknown';
}

/** The cart page's quote: quoteCart, with the coupon code counted against guessing. */
export async function quoteForShopper(db: Db, input: QuoteInput & { address: ClientAddress }) {
  if (input.couponCode) await countCouponAttempt(db, { address: input.address, code: input.couponCode, customerId: input.customerId, now: input.now });
  return quoteCart(db, input);
}

/**
 * GET /api/discount/coupons/apply: the coupon amount for a cart, from the same quote as
 * checkout, or the reason the coupon does not apply as a typed error.
 */
export async function applyCoupon(
  db: Db,
  input: { code: string; lines: { skuCode: string; quantity: number }[]; customerId: number | null; address: ClientAddress },
): Promise<TCouponApplied> {
  const quote = await quoteForShopper(db, { lines: input.lines, couponCode: input.code, customerId: input.customerId, address: input.address });
  const c = quote.coupon!;
  if (!c.applied) {
    const fields: Record<string, string> = { code: c.message };
    if (c.reason === 'below_minimum' && c.minimumOrder != null) fields.minimumOrder = String(c.minimumOrder);
    throw new ApiError(`coupon_${c.reason}`, c.message, fields, REFUSAL[c.reason]);
  }
  return {
    code: c.code,
    title: c.title,
    discountType: c.discountType,
    value: c.value,
    minimumOrder: c.minimumOrder,
    couponAmount: c.amount,
    totals: quote.totals,
  };
}
