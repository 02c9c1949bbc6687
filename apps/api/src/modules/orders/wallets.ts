import { ApiError, badRequest, conflict } from '../../lib/errors.ts';
import { openBkashSession } from './bkash-payment.ts';
import { checkBkash } from './bkash-verify.ts';
import type { OrderDeps } from './deps.ts';
import { type Actor, PAID_STATES, type PaymentOutcome } from './history.ts';
import { openNagadSession } from './nagad-payment.ts';
import { checkNagad } from './nagad-verify.ts';
import { openPaymentSession } from './open-payment-session.ts';
import * as repo from './repository.ts';
import type { PaymentRow, SaleLineRow, SaleRow } from './repository.ts';

// What the two wallets share (docs/decisions/0041, 0042): offered only when configured,
// a payment opened with the order's own method, and an order confirmed by asking the wallet
// about each of its attempts. Each wallet's protocol stays in its own module.

export type Wallet = 'bkash' | 'nagad';
const NAMES: Record<Wallet, string> = { bkash: 'bKash', nagad: 'Nagad' };

export const isWallet = (method: string): method is Wallet => method === 'bkash' || method === 'nagad';

/** Refuses a wallet the shop has no credentials for (BKASH_*, NAGAD_*). */
export function assertWalletOffered(deps: OrderDeps, wallet: Wallet): void {
  if (!deps[wallet]) {
    throw badRequest(`${NAMES[wallet]} is not available at the moment. Please choose another payment method.`, {
      paymentMethod: `${NAMES[wallet]} is not available at the moment`,
    });
  }
}

/** Opens the payment page for a payment row with the order's method: a wallet's, or the card gateway's. */
export function openPaymentFor(deps: OrderDeps, sale: SaleRow, payment: PaymentRow, lines: SaleLineRow[]): Promise<{ sale: SaleRow; url: string | null }> {
  if (sale.payment_method === 'bkash') return openBkashSession(deps, sale, payment);
  if (sale.payment_method === 'nagad') return openNagadSession(deps, sale, payment);
  return openPaymentSession(deps, sale, payment, lines);
}

/**
 * PATCH /api/checkouts/confirm for a wallet order: the order's own payments with that wallet are
 * asked about, newest first. 409 unless the wallet confirms a matching payment.
 */
export async function confirmWalletByQuery(deps: OrderDeps, sale: SaleRow, actor: Actor, wallet: Wallet): Promise<PaymentOutcome> {
  const check = wallet === 'bkash' ? checkBkash : checkNagad;
  const payments = (await repo.paymentsOf(deps.db.kysely, sale.id)).filter((p) => p.provider === wallet).reverse();
  let unreachable = false;
  for (const p of payments) {
    const c = await check(deps, sale, p, actor);
    if (c.kind === 'paid') return c.outcome;
    if (c.kind === 'unknown') unreachable = true;
  }
  if (PAID_STATES.includes(sale.payment_status)) return { sale, changed: false };
  if (unreachable)
    throw new ApiError(
      'payment_provider_unavailable',
      `We could not reach ${NAMES[wallet]} to check this payment. Please try again in a moment.`,
      undefined,
      503,
    );
  throw conflict('payment_not_verified', `${NAMES[wallet]} has not confirmed a payment for this order`);
}
