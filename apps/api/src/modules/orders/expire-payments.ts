import { cancelSale } from './cancel-order.ts';
import type { OrderDeps } from './deps.ts';
import * as repo from './repository.ts';
import { settleUnpaid } from './settle-unpaid.ts';

/**
 * Housekeeping, every minute in each process (conditional updates keep the processes
 * from doing anything twice): payment sessions left open too long release their stock,
 * and unpaid card orders nobody paid again in days are cancelled for good.
 */
export async function expireStalePayments(deps: OrderDeps, now = new Date()): Promise<{ expired: number; cancelled: number }> {
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
