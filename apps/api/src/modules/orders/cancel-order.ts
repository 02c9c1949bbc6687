import type { TSale } from '@storefront/shared';
import { conflict, notFound } from '../../lib/errors.ts';
import type { OrderViewer } from './access.ts';
import type { OrderDeps } from './deps.ts';
import { type Actor, addHistory, PAID_STATES, type PaymentOutcome } from './history.ts';
import * as repo from './repository.ts';
import type { SaleRow } from './repository.ts';
import { releaseStock } from './stock.ts';
import { accessibleSale, getSale } from './view-orders.ts';

/**
 * Cancels a sale for good (the customer's cancel button, an unpaid order abandoned for
 * days, a booking not paid in time): releases its stock and its coupon and closes open
 * payment sessions. Paid, held and fulfilled sales are refused.
 */
export async function cancelSale(deps: OrderDeps, saleId: number, actor: Actor, note: string, onlyIf?: (sale: SaleRow) => boolean): Promise<PaymentOutcome> {
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
    const owed = Number(sale.amount_paid) - Number(sale.refunded_total);
    const moved = await repo.transitionSale(
      trx,
      sale.id,
      {
        fromStatuses: ['pending_payment', 'placed', 'confirmed', 'booked', 'payment_failed', 'payment_cancelled', 'payment_expired'],
        fromPaymentStatuses: ['unpaid', 'pending', 'failed', 'cancelled', 'expired', 'proof_submitted', 'proof_rejected'],
      },
      // A deposit staff accepted is owed back to the shopper (docs/decisions/0032).
      { status: 'cancelled', cancelled_at: now, updated_at: now, ...(owed > 0 ? { payment_status: 'refund_pending' } : {}) },
    );
    if (!moved) return { sale, changed: false };
    await repo.closeOpenPayments(trx, sale.id, 'cancelled', 'The order was cancelled', now);
    let text = note;
    if (await repo.flipStockHeld(trx, sale.id, 1, now)) {
      const units = await releaseStock(trx, sale.id, now);
      text += `; ${units} item${units === 1 ? '' : 's'} returned to stock`;
    }
    if (await repo.releaseCouponHold(trx, sale)) text += `; coupon ${sale.coupon_code} released`;
    if (owed > 0) text += '; the payment received is to be refunded';
    await addHistory(trx, sale.id, 'cancelled', owed > 0 ? 'refund_pending' : sale.payment_status, actor, text, now);
    return { sale: (await repo.saleById(trx, sale.id))!, changed: true };
  });
}

/** PATCH /api/sales?id: the owner cancels a booking (or an unpaid order) before it is fulfilled. */
export async function cancelOwnSale(deps: OrderDeps, viewer: OrderViewer, id: number, reason?: string): Promise<TSale> {
  const row = await accessibleSale(deps, viewer, { id });
  const actor = viewer.customerId !== null ? 'customer' : 'guest';
  await cancelSale(deps, row.id, actor, reason?.trim() ? `Cancelled by the ${actor}: ${reason.trim().slice(0, 200)}` : `Cancelled by the ${actor}`);
  return getSale(deps, viewer, { id: row.id });
}
