import type { TPaymentStatus, TSaleStatus } from '@storefront/shared';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { ApiError, conflict, notFound } from '../../lib/errors.ts';
import type { CheckoutDeps } from '../checkout/checkout-deps.ts';
import { sendOrderMail } from '../sales/order-notifications.ts';
import * as repo from '../sales/sales.repository.ts';
import type { PaymentRow, SaleRow } from '../sales/sales.repository.ts';
import { releaseStock, reserveStock } from '../sales/stock.service.ts';
import { type GatewayTransaction, ProviderError, VERIFIED_STATUSES } from './provider.ts';

// What happens to an order when its payment succeeds, fails, is cancelled or runs out of
// time (docs/decisions/0017). Rules:
// - an order is paid only when the gateway itself has confirmed the payment (validation
//   API by val_id, or transaction query by our tran_id) and tran_id, amount and currency
//   match the order; what a browser or a notification claims is only a hint;
// - every transition is guarded by a conditional update, so repeating a confirmation, a
//   notification or a cancellation changes nothing the second time;
// - failure, cancellation and expiry release the stock but never touch a paid order, and
//   before releasing, the gateway is asked whether the money arrived after all.

type Q = Kysely<Database> | Transaction<Database>;
export type Actor = 'customer' | 'guest' | 'provider' | 'system';

const OPEN_OR_CLOSED_UNPAID = ['initiated', 'failed', 'cancelled', 'expired'] as const;
const PAID_STATES: readonly string[] = ['paid', 'review'];

export const providerUnavailable = () =>
  new ApiError('payment_provider_unavailable', 'We could not reach the payment provider to check this payment. Please try again in a moment.', undefined, 503);

export async function addHistory(db: Q, saleId: number, status: string, paymentStatus: string, actor: Actor, note: string, now: string) {
  await repo.insertHistory(db, { sale_id: saleId, status, payment_status: paymentStatus, actor, note, created_at: now });
}

export interface PaymentOutcome {
  sale: SaleRow;
  /** False when nothing changed (a repeat, or the order was already in that state). */
  changed: boolean;
}

/**
 * PATCH /api/checkouts/confirm, the success return and a VALID notification all end here.
 * With a val_id the validation API is asked; without one, the transaction query for the
 * order's own tran_ids. Throws 409 when the gateway does not confirm a matching payment.
 */
export async function confirmPayment(
  deps: CheckoutDeps,
  input: { invoiceId: string; valId?: string | null; tranId?: string | null; actor: Actor },
): Promise<PaymentOutcome> {
  const db = deps.db.kysely;
  const sale = await repo.saleByInvoice(db, input.invoiceId);
  if (!sale) throw notFound('The order');
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

/** Records a payment the gateway confirmed, once. */
async function applyVerifiedPayment(deps: CheckoutDeps, saleId: number, paymentId: number, tx: GatewayTransaction, actor: Actor): Promise<PaymentOutcome> {
  const { kysely, dialect } = deps.db;
  const now = new Date().toISOString();
  let mail: 'paid' | 'held' | null = null;
  const outcome = await kysely.transaction().execute(async (trx): Promise<PaymentOutcome> => {
    const sale = (await repo.lockSale(trx, dialect, saleId))!;
    const review = tx.riskLevel === 1;
    const applied = await repo.transitionPayment(trx, paymentId, OPEN_OR_CLOSED_UNPAID, {
      status: review ? 'review' : 'valid',
      val_id: tx.valId,
      risk_level: tx.riskLevel,
      bank_tran_id: tx.bankTranId,
      card_type: tx.cardType,
      raw_verification: JSON.stringify(tx.raw).slice(0, 8000),
      verified_at: now,
      updated_at: now,
    });
    // Already recorded (a replayed notification, a second confirm): nothing to do.
    if (!applied) return { sale, changed: false };

    if (PAID_STATES.includes(sale.payment_status)) {
      await repo.transitionSale(trx, sale.id, { fromStatuses: [sale.status] }, { status: 'on_hold', updated_at: now });
      await addHistory(
        trx,
        sale.id,
        'on_hold',
        sale.payment_status,
        actor,
        'A second payment arrived for an order that was already paid: refund one of them',
        now,
      );
      return { sale: (await repo.saleById(trx, sale.id))!, changed: true };
    }

    const notes: string[] = [
      review ? 'Payment received; the provider rates it high risk, so the order is held for review' : 'Payment received and verified with the provider',
    ];
    let hold = review;
    if (sale.status === 'cancelled') {
      hold = true;
      notes.push('the order had been cancelled before the payment arrived: restore it or refund the payment');
    } else if (sale.stock_held === 0) {
      // The stock went back when the payment looked failed; take it again if it is there.
      const lines = await repo.linesOf(trx, [sale.id]);
      const res = await reserveStock(
        trx,
        dialect,
        sale.id,
        lines.map((l) => ({ skuId: l.sku_id, quantity: l.quantity })),
        sale.pickup_branch_id,
        now,
      );
      if (res.ok) await repo.flipStockHeld(trx, sale.id, 0, now);
      else {
        hold = true;
        notes.push('the items were released before the payment arrived and are no longer in stock: restock or refund');
      }
    }
    const status: TSaleStatus = hold ? 'on_hold' : 'confirmed';
    const paymentStatus: TPaymentStatus = review ? 'review' : 'paid';
    await repo.transitionSale(trx, sale.id, { fromStatuses: [sale.status] }, { status, payment_status: paymentStatus, paid_at: now, updated_at: now });
    await addHistory(trx, sale.id, status, paymentStatus, actor, notes.join('; '), now);
    mail = hold ? 'held' : 'paid';
    return { sale: (await repo.saleById(trx, sale.id))!, changed: true };
  });
  if (mail) await sendOrderMail(deps, outcome.sale.id, mail);
  return outcome;
}

export type UnpaidOutcome = 'failed' | 'cancelled' | 'expired';

const SALE_STATUS_FOR: Record<UnpaidOutcome, TSaleStatus> = { failed: 'payment_failed', cancelled: 'payment_cancelled', expired: 'payment_expired' };

/**
 * PATCH /api/checkouts/failure and /cancel, the fail and cancel returns, FAILED or
 * CANCELLED notifications and the expiry of a forgotten session. The caller is either
 * authorised (the order's owner, a signed notification, the system) or shows the tran_id
 * of the order's open payment session, which only the payer's browser and the gateway
 * know. A paid order is refused with 409; anything already settled is left as it is.
 */
export async function settleUnpaid(
  deps: CheckoutDeps,
  input: { invoiceId: string; tranId?: string | null; outcome: UnpaidOutcome; actor: Actor; authorised: boolean; reason?: string },
): Promise<PaymentOutcome> {
  const { kysely, dialect } = deps.db;
  const sale = await repo.saleByInvoice(kysely, input.invoiceId);
  if (!sale) throw notFound('The order');
  const payments = await repo.paymentsOf(kysely, sale.id);
  const named = input.tranId ? payments.find((p) => p.tran_id === input.tranId) : undefined;
  if (!input.authorised && !named) throw notFound('The order');
  if (sale.payment_method !== 'card') throw conflict('not_a_card_order', 'This order is not paid by card');
  if (PAID_STATES.includes(sale.payment_status) || sale.status === 'confirmed' || sale.status === 'on_hold' || sale.status === 'fulfilled') {
    throw conflict('order_paid', 'This order has been paid, so it cannot be cancelled here. Please contact us if you want a refund.');
  }
  // The session this is about: the one named, else the newest still open.
  const payment: PaymentRow | undefined = named ?? [...payments].reverse().find((p) => p.status === 'initiated');
  // A late message about an older, already closed session must not undo a newer one.
  if (sale.status !== 'pending_payment' || (named && named.status !== 'initiated')) return { sale, changed: false };

  // Before letting the stock go: did the money arrive after all (a lost success return)?
  if (payment) {
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
    const reason =
      input.reason ?? { failed: 'The payment failed', cancelled: 'The payment was cancelled', expired: 'The payment was not completed in time' }[input.outcome];
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

/**
 * Cancels a sale for good (the customer's cancel button, an unpaid order abandoned for
 * days, a booking not paid in time): releases its stock and its coupon and closes open
 * payment sessions. Paid, held and fulfilled sales are refused.
 */
export async function cancelSale(deps: CheckoutDeps, saleId: number, actor: Actor, note: string, onlyIf?: (sale: SaleRow) => boolean): Promise<PaymentOutcome> {
  const { kysely, dialect } = deps.db;
  const now = new Date().toISOString();
  return kysely.transaction().execute(async (trx) => {
    const sale = await repo.lockSale(trx, dialect, saleId);
    if (!sale) throw notFound('The order');
    if (sale.status === 'cancelled') return { sale, changed: false };
    // A caller's own condition, checked on the locked row (say, a booking's hold has ended
    // and no payment proof arrived meanwhile).
    if (onlyIf && !onlyIf(sale)) return { sale, changed: false };
    if (sale.status === 'fulfilled') throw conflict('already_fulfilled', 'This order has already been fulfilled, so it cannot be cancelled');
    if (PAID_STATES.includes(sale.payment_status) || sale.status === 'on_hold') {
      throw conflict('order_paid', 'This order has been paid, so it cannot be cancelled here. Please contact us if you want a refund.');
    }
    const moved = await repo.transitionSale(
      trx,
      sale.id,
      {
        fromStatuses: ['pending_payment', 'confirmed', 'booked', 'payment_failed', 'payment_cancelled', 'payment_expired'],
        fromPaymentStatuses: ['unpaid', 'pending', 'failed', 'cancelled', 'expired', 'proof_submitted'],
      },
      { status: 'cancelled', cancelled_at: now, updated_at: now },
    );
    if (!moved) return { sale, changed: false };
    await repo.closeOpenPayments(trx, sale.id, 'cancelled', 'The order was cancelled', now);
    let text = note;
    if (await repo.flipStockHeld(trx, sale.id, 1, now)) {
      const units = await releaseStock(trx, sale.id, now);
      text += `; ${units} item${units === 1 ? '' : 's'} returned to stock`;
    }
    if (await repo.releaseCouponHold(trx, sale)) text += `; coupon ${sale.coupon_code} released`;
    await addHistory(trx, sale.id, 'cancelled', sale.payment_status, actor, text, now);
    return { sale: (await repo.saleById(trx, sale.id))!, changed: true };
  });
}

/**
 * The gateway's server-to-server notification (IPN). Its signature must match; even then
 * it is only a hint: a VALID one is confirmed through the validation API like any other.
 */
export async function handleNotification(deps: CheckoutDeps, fields: Record<string, string>): Promise<{ result: string }> {
  if (!deps.payments.verifySignature(fields)) throw new ApiError('bad_signature', 'The notification signature does not match', undefined, 400);
  const tranId = fields.tran_id ?? '';
  const payment = tranId ? await repo.paymentByTranId(deps.db.kysely, tranId) : undefined;
  if (!payment) throw notFound('The transaction');
  const sale = (await repo.saleById(deps.db.kysely, payment.sale_id))!;
  const status = String(fields.status ?? '').toUpperCase();
  if (VERIFIED_STATUSES.has(status)) {
    if (!fields.val_id) throw new ApiError('bad_request', 'A VALID notification needs its val_id', undefined, 400);
    const r = await confirmPayment(deps, { invoiceId: sale.invoice_id, valId: fields.val_id, actor: 'provider' });
    return { result: r.changed ? 'paid' : 'unchanged' };
  }
  const outcome: UnpaidOutcome | null =
    status === 'FAILED' ? 'failed' : status === 'CANCELLED' ? 'cancelled' : status === 'UNATTEMPTED' || status === 'EXPIRED' ? 'expired' : null;
  if (!outcome) return { result: 'ignored' };
  try {
    const r = await settleUnpaid(deps, {
      invoiceId: sale.invoice_id,
      tranId,
      outcome,
      actor: 'provider',
      authorised: true,
      reason: fields.error ? `${outcomeText(outcome)}: ${fields.error.slice(0, 200)}` : undefined,
    });
    return { result: r.changed ? outcome : 'unchanged' };
  } catch (err) {
    // A failure notice for an order that is paid (say by a newer session) changes nothing.
    if (err instanceof ApiError && err.code === 'order_paid') return { result: 'unchanged' };
    throw err;
  }
}

const outcomeText = (o: UnpaidOutcome) =>
  ({ failed: 'The payment failed', cancelled: 'The payment was cancelled', expired: 'The payment was not completed in time' })[o];

/**
 * Housekeeping, every minute in each process (conditional updates keep the processes
 * from doing anything twice): payment sessions left open too long release their stock,
 * and unpaid card orders nobody paid again in days are cancelled for good.
 */
export async function expireStalePayments(deps: CheckoutDeps, now = new Date()): Promise<{ expired: number; cancelled: number }> {
  const db = deps.db.kysely;
  let expired = 0;
  let cancelled = 0;
  const staleBefore = new Date(now.getTime() - deps.config.payments.sessionTtlMs).toISOString();
  for (const s of await repo.stalePendingSales(db, staleBefore, 50)) {
    try {
      const r = await settleUnpaid(deps, { invoiceId: s.invoice_id, outcome: 'expired', actor: 'system', authorised: true });
      if (r.changed && r.sale.status === 'payment_expired') expired++;
    } catch (err) {
      deps.log.warn({ err, invoiceId: s.invoice_id }, 'could not expire a payment session');
    }
  }
  const abandonedBefore = new Date(now.getTime() - deps.config.payments.unpaidOrderTtlMs).toISOString();
  for (const s of await repo.abandonedSales(db, ['payment_failed', 'payment_cancelled', 'payment_expired'], abandonedBefore, 50)) {
    try {
      const r = await cancelSale(deps, s.id, 'system', 'Not paid in time');
      if (r.changed) cancelled++;
    } catch (err) {
      deps.log.warn({ err, invoiceId: s.invoice_id }, 'could not cancel an abandoned order');
    }
  }
  return { expired, cancelled };
}
