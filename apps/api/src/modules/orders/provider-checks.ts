import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ClientAddress } from '../../lib/client-address.ts';
import { DbRateLimiter, retryAfterSeconds } from '../../lib/db-rate-limiter.ts';
import { RateLimitedError } from '../../lib/errors.ts';

// Confirm, cancel and failure of a card payment each ask the payment provider about the
// order (docs/decisions/0017). The checks are bounded per order AND per caller, counted
// only once it is known who is asking (docs/decisions/0022): what strangers do with an
// invoice id can never use up what the order's owner needs to confirm or cancel it.

/** Provider checks one caller may cause for one order in the window. A shopper's return needs one or two. */
export const PROVIDER_CHECKS_PER_ORDER = 20;
/** Provider checks all callers who are neither the owner nor the payer may cause together for one order. */
export const PROVIDER_CHECKS_PER_ORDER_BY_OTHERS = 3 * PROVIDER_CHECKS_PER_ORDER;
const WINDOW_MS = 10 * 60_000;

/**
 * Who is asking: the order's owner (its customer, or the guest holding its order token),
 * the payer showing the tran_id of one of its payment sessions (back from the gateway,
 * perhaps without cookies), or anyone else, by client address.
 */
export type ProviderCheckCaller = { kind: 'owner' } | { kind: 'payer'; tranId: string } | { kind: 'other'; address: ClientAddress };

export async function limitProviderChecks(db: Kysely<Database>, invoiceId: string, caller: ProviderCheckCaller, now = new Date()): Promise<void> {
  const limiter = new DbRateLimiter(db);
  const prefix = `provider-check:${invoiceId}`;
  const buckets: [string, number][] =
    caller.kind === 'owner'
      ? [[`${prefix}:owner`, PROVIDER_CHECKS_PER_ORDER]]
      : caller.kind === 'payer'
        ? [[`${prefix}:payer:${caller.tranId}`, PROVIDER_CHECKS_PER_ORDER]]
        : [
            [`${prefix}:address:${caller.address}`, PROVIDER_CHECKS_PER_ORDER],
            // Strangers from many addresses are bounded together, so the gateway is not
            // asked about one order without end; their share is not the owner's. Counted
            // only for a caller within their own allowance, so one stranger alone cannot
            // use it up.
            [`${prefix}:others`, PROVIDER_CHECKS_PER_ORDER_BY_OTHERS],
          ];
  for (const [key, limit] of buckets) {
    const { hits, resetAt } = await limiter.hit(key, WINDOW_MS, now);
    if (hits > limit) {
      const wait = retryAfterSeconds(resetAt, now);
      throw new RateLimitedError(`This order's payment was checked too often. Please try again in ${Math.ceil(wait / 60)} minutes.`, wait);
    }
  }
}
