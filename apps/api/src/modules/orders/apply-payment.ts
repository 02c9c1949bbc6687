import type { TPaymentStatus, TSaleStatus } from '@storefront/shared';
import type { GatewayTransaction } from '../payments/provider.ts';
import type { OrderDeps } from './deps.ts';
import { type Actor, addHistory, PAID_STATES, type PaymentOutcome } from './history.ts';
import { notifyShop, sendOrderMail } from './notify.ts';
import * as repo from './repository.ts';
import { reserveAgain } from './stock.ts';

// The one place a payment the provider confirmed is recorded, whoever confirmed it (the card
// gateway's validation or query API, or bKash's execute or query answer): the payment row
// and the sale each move once, under the sale's lock (docs/decisions/0017).

const OPEN_OR_CLOSED_UNPAID = ['initiated', 'failed', 'cancelled', 'expired'] as const;

/** Records a payment the gateway confirmed, once. */
export async function applyVerifiedPayment(deps: OrderDeps, saleId: number, paymentId: number, tx: GatewayTransaction, actor: Actor): Promise<PaymentOutcome> {
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

    // What arrived is counted, so that a refund can hand back all of it and never more.
    const received = Number(sale.amount_paid) + Number(tx.amount);
    if (PAID_STATES.includes(sale.payment_status)) {
      await repo.transitionSale(trx, sale.id, { fromStatuses: [sale.status] }, { status: 'on_hold', amount_paid: received, updated_at: now });
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
      const res = await reserveAgain(trx, dialect, sale, lines, now);
      if (res.ok) await repo.flipStockHeld(trx, sale.id, 0, now);
      else {
        hold = true;
        notes.push('the items were released before the payment arrived and are no longer in stock: restock or refund');
      }
    }
    const status: TSaleStatus = hold ? 'on_hold' : 'confirmed';
    const paymentStatus: TPaymentStatus = review ? 'review' : 'paid';
    await repo.transitionSale(
      trx,
      sale.id,
      { fromStatuses: [sale.status] },
      {
        status,
        payment_status: paymentStatus,
        amount_paid: received,
        paid_at: now,
        confirmed_at: hold ? null : now,
        updated_at: now,
      },
    );
    await addHistory(trx, sale.id, status, paymentStatus, actor, notes.join('; '), now);
    mail = hold ? 'held' : 'paid';
    return { sale: (await repo.saleById(trx, sale.id))!, changed: true };
  });
  if (mail) {
    await sendOrderMail(deps, outcome.sale.id, mail);
    // A card order reaches the shop when its money has (docs/decisions/0032).
    await notifyShop(deps, outcome.sale.id, 'new_sale');
  }
  return outcome;
}
