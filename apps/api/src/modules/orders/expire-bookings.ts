import type { OrderDeps } from './deps.ts';
import { cancelSale } from './cancel-order.ts';
import { sendOrderMail } from './notify.ts';
import * as repo from './repository.ts';

// A booking holds its stock until it is paid (docs/decisions/0022): one that neither got a
// payment proof nor was confirmed by a person within BOOKING_HOLD_HOURS of being placed
// (its hold_until) is cancelled and its stock goes back, so nobody can hold the shop's
// stock for free. Run every minute by each process (plugins/payments.ts), like the
// payment-session expiry: the row lock and the condition checked on the locked row make
// two processes release a booking once, and a proof arriving meanwhile keeps it.

const BATCH = 50;
/** At most this many batches per run; the next run continues. */
const MAX_BATCHES = 10;

export async function expireStaleBookings(deps: OrderDeps, now = new Date()): Promise<{ released: number }> {
  const nowIso = now.toISOString();
  let released = 0;
  const seen = new Set<number>();
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const due = (await repo.overdueBookings(deps.db.kysely, nowIso, BATCH)).filter((b) => !seen.has(b.id));
    if (!due.length) break;
    for (const b of due) {
      seen.add(b.id);
      const hours = Math.round((new Date(b.hold_until!).getTime() - new Date(b.created_at).getTime()) / 3_600_000);
      try {
        const r = await cancelSale(
          deps,
          b.id,
          'system',
          `Booking released: not paid within ${hours} hours`,
          (sale) =>
            sale.status === 'booked' &&
            (sale.payment_status === 'unpaid' || sale.payment_status === 'proof_rejected') &&
            Number(sale.amount_paid) === 0 &&
            sale.hold_until !== null &&
            sale.hold_until <= nowIso,
        );
        if (r.changed) {
          released++;
          await sendOrderMail(deps, b.id, 'released');
        }
      } catch (err) {
        deps.log.warn({ err, invoiceId: b.invoice_id }, 'could not release an unpaid booking');
      }
    }
  }
  return { released };
}
