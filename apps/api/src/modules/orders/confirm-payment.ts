import { ApiError, conflict, notFound } from '../../lib/errors.ts';
import { type GatewayTransaction, ProviderError, VERIFIED_STATUSES } from '../payments/provider.ts';
import type { OrderDeps } from './deps.ts';
import { confirmWalletByQuery, isWallet } from './wallets.ts';
import { applyVerifiedPayment } from './apply-payment.ts';
import { type Actor, PAID_STATES, type PaymentOutcome } from './history.ts';
import * as repo from './repository.ts';

// What happens to an order when its payment succeeds, fails, is cancelled or runs out of
// time (docs/decisions/0017). Rules:
// - an order is paid only when the gateway itself has confirmed the payment (validation
//   API by val_id, or transaction query by our tran_id) and tran_id, amount and currency
//   match the order; what a browser or a notification claims is only a hint;
// - every transition is guarded by a conditional update, so repeating a confirmation, a
//   notification or a cancellation changes nothing the second time;
// - failure, cancellation and expiry release the stock but never touch a paid order, and
//   before releasing, the gateway is asked whether the money arrived after all.

export const providerUnavailable = () =>
  new ApiError('payment_provider_unavailable', 'We could not reach the payment provider to check this payment. Please try again in a moment.', undefined, 503);

/**
 * PATCH /api/checkouts/confirm, the success return and a VALID notification all end here.
 * With a val_id the validation API is asked; without one, the transaction query for the
 * order's own tran_ids. Throws 409 when the gateway does not confirm a matching payment.
 */
export async function confirmPayment(
  deps: OrderDeps,
  input: { invoiceId: string; valId?: string | null; tranId?: string | null; actor: Actor },
): Promise<PaymentOutcome> {
  const db = deps.db.kysely;
  const sale = await repo.saleByInvoice(db, input.invoiceId);
  if (!sale) throw notFound('The order');
  if (isWallet(sale.payment_method)) return confirmWalletByQuery(deps, sale, input.actor, sale.payment_method);
  if (sale.payment_method !== 'card') throw conflict('not_a_card_order', 'This order is not paid by card');
  const payments = await repo.paymentsOf(db, sale.id);

  let tx: GatewayTransaction | null = null;
  try {
    if (input.valId) {
      tx = await deps.payments.validate(input.valId);
    } else {
      const candidates = (input.tranId ? payments.filter((p) => p.tran_id === input.tranId) : payments).slice().reverse();
      for (const p of candidates) {
        tx = (await deps.payments.queryByTranId(p.tran_id)).find((t) => VERIFIED_STATUSES.has(t.status) && t.tranId === p.tran_id) ?? null;
        if (tx) break;
      }
    }
  } catch (err) {
    if (err instanceof ProviderError) throw providerUnavailable();
    throw err;
  }

  if (!tx || !VERIFIED_STATUSES.has(tx.status)) {
    // A confirmation after the notification already did the work is not an error.
    if (PAID_STATES.includes(sale.payment_status) && !input.valId) return { sale, changed: false };
    throw conflict('payment_not_verified', 'The payment provider has not confirmed a payment for this order');
  }
  const payment = payments.find((p) => p.tran_id === tx.tranId);
  if (!payment) {
    deps.log.warn({ invoiceId: sale.invoice_id, tranId: tx.tranId }, 'refused a payment confirmation: the transaction belongs to another order');
    throw conflict('payment_mismatch', 'This payment does not belong to this order');
  }
  if (tx.amount === null || tx.amount !== Number(payment.amount) || tx.amount !== Number(sale.total) || tx.currency !== 'BDT') {
    deps.log.warn(
      { invoiceId: sale.invoice_id, paid: tx.amount, currency: tx.currency, total: sale.total },
      'refused a payment confirmation: amount or currency differs',
    );
    throw conflict('payment_mismatch', 'The amount or currency paid does not match the order');
  }
  if (tx.valId) {
    const other = await repo.paymentByValId(db, tx.valId);
    if (other && other.id !== payment.id) throw conflict('payment_mismatch', 'This payment was already used for another order');
  }
  return applyVerifiedPayment(deps, sale.id, payment.id, tx, input.actor);
}
