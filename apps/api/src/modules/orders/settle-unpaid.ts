import type { TSaleStatus } from '@storefront/shared';
import { ApiError, conflict, notFound } from '../../lib/errors.ts';
import { ProviderError, VERIFIED_STATUSES } from '../payments/provider.ts';
import { checkBkash } from './bkash-verify.ts';
import { checkNagad } from './nagad-verify.ts';
import { confirmPayment } from './confirm-payment.ts';
import type { OrderDeps } from './deps.ts';
import { type Actor, addHistory, PAID_STATES, type PaymentOutcome } from './history.ts';
import * as repo from './repository.ts';
import type { PaymentRow, SaleRow } from './repository.ts';
import { releaseStock } from './stock.ts';

// A card order whose payment failed, was cancelled or ran out of time: its stock goes
// back, unless the gateway says the money arrived after all (decision 0017).

export type UnpaidOutcome = 'failed' | 'cancelled' | 'expired';

/** What the order's history says of each unpaid outcome. */
export const unpaidReason = (o: UnpaidOutcome) =>
  ({ failed: 'The payment failed', cancelled: 'The payment was cancelled', expired: 'The payment was not completed in time' })[o];

const SALE_STATUS_FOR: Record<UnpaidOutcome, TSaleStatus> = { failed: 'payment_failed', cancelled: 'payment_cancelled', expired: 'payment_expired' };

/**
 * PATCH /api/checkouts/failure and /cancel, the fail and cancel returns, FAILED or
 * CANCELLED notifications and the expiry of a forgotten session. The caller is either
 * authorised (the order's owner, a signed notification, the system) or shows the tran_id
 * of the order's open payment session, which only the payer's browser and the gateway
 * know. A paid order is refused with 409; anything already settled is left as it is.
 */
/**
 * A payment the provider would not start (refused, unreachable): the attempt fails and its
 * stock is released, and the shopper is answered with the order as it now stands (or as it
 * was, if settling it failed too: the expiry job will settle it later).
 */
export async function failUnstartedPayment(deps: OrderDeps, sale: SaleRow, tranId: string, reason: string): Promise<{ sale: SaleRow; url: null }> {
  const settled = await settleUnpaid(deps, { invoiceId: sale.invoice_id, tranId, outcome: 'failed', actor: 'system', authorised: true, reason }).catch(() => ({
    sale,
  }));
  return { sale: settled.sale, url: null };
}

export async function settleUnpaid(
  deps: OrderDeps,
  input: { invoiceId: string; tranId?: string | null; outcome: UnpaidOutcome; actor: Actor; authorised: boolean; reason?: string },
): Promise<PaymentOutcome> {
  const { kysely, dialect } = deps.db;
  const sale = await repo.saleByInvoice(kysely, input.invoiceId);
  if (!sale) throw notFound('The order');
  const payments = await repo.paymentsOf(kysely, sale.id);
  const named = input.tranId ? payments.find((p) => p.tran_id === input.tranId) : undefined;
  if (!input.authorised && !named) throw notFound('The order');
  if (sale.payment_method !== 'card' && sale.payment_method !== 'bkash' && sale.payment_method !== 'nagad')
    throw conflict('not_a_card_order', 'This order is not paid by card, bKash or Nagad');
  if (PAID_STATES.includes(sale.payment_status) || sale.status === 'confirmed' || sale.status === 'on_hold' || sale.status === 'fulfilled') {
    throw conflict('order_paid', 'This order has been paid, so it cannot be cancelled here. Please contact us if you want a refund.');
  }
  // The session this is about: the one named, else the newest still open.
  const payment: PaymentRow | undefined = named ?? [...payments].reverse().find((p) => p.status === 'initiated');
  // A late message about an older, already closed session must not undo a newer one.
  if (sale.status !== 'pending_payment' || (named && named.status !== 'initiated')) return { sale, changed: false };

  // Before letting the stock go: did the money arrive after all (a lost success return)?
  if (payment?.provider === 'bkash') {
    // bKash's status query: a Completed, matching payment is recorded instead of released.
    const check = await checkBkash(deps, sale, payment, 'provider');
    if (check.kind === 'paid') return check.outcome;
  } else if (payment?.provider === 'nagad') {
    // Nagad's verify/payment: a Success that matches the order is recorded instead of released (docs/decisions/0042).
    const check = await checkNagad(deps, sale, payment, 'provider');
    if (check.kind === 'paid') return check.outcome;
  } else if (payment) {
    try {
      const paid = (await deps.payments.queryByTranId(payment.tran_id)).find((t) => VERIFIED_STATUSES.has(t.status) && t.tranId === payment.tran_id);
      if (paid) return await confirmPayment(deps, { invoiceId: sale.invoice_id, valId: paid.valId, tranId: payment.tran_id, actor: 'provider' });
    } catch (err) {
      // The gateway cannot be asked now. Releasing is still right: should a payment be
      // confirmed later, applyVerifiedPayment takes the stock again or holds the order.
      if (!(err instanceof ProviderError) && !(err instanceof ApiError)) throw err;
      deps.log.warn({ err, invoiceId: sale.invoice_id }, 'could not ask the gateway before releasing an unpaid order');
    }
  }

  const now = new Date().toISOString();
  const status = SALE_STATUS_FOR[input.outcome];
  return kysely.transaction().execute(async (trx) => {
    await repo.lockSale(trx, dialect, sale.id);
    const moved = await repo.transitionSale(
      trx,
      sale.id,
      { fromStatuses: ['pending_payment'], fromPaymentStatuses: ['unpaid', 'pending'] },
      { status, payment_status: input.outcome, updated_at: now },
    );
    if (!moved) return { sale: (await repo.saleById(trx, sale.id))!, changed: false };
    const reason = input.reason ?? unpaidReason(input.outcome);
    await repo.closeOpenPayments(trx, sale.id, input.outcome, reason, now);
    let note = reason;
    if (await repo.flipStockHeld(trx, sale.id, 1, now)) {
      const units = await releaseStock(trx, sale.id, now);
      note += `; ${units} item${units === 1 ? '' : 's'} returned to stock`;
    }
    await addHistory(trx, sale.id, status, input.outcome, input.actor, note, now);
    return { sale: (await repo.saleById(trx, sale.id))!, changed: true };
  });
}
