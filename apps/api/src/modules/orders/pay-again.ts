import { CHECKOUT_MESSAGES, canRetryPayment } from '@storefront/shared';
import { ApiError, conflict } from '../../lib/errors.ts';
import { checkCardAmount, insertNewPayment } from './card-payment.ts';
import type { OrderDeps } from './deps.ts';
import { addHistory } from './history.ts';
import { assertHoldRoom, clientKeys, lockHoldKeys } from './limits.ts';
import * as repo from './repository.ts';
import { saleState } from './sale-view.ts';
import { assertWalletOffered, isWallet, openPaymentFor } from './wallets.ts';
import type { PaymentRow, SaleLineRow, SaleRow } from './repository.ts';
import { reserveAgain, shortageError, StockConflictError } from './stock.ts';

/**
 * Pays an unpaid card or wallet order again (a new payment session, with the order's own
 * method: a bKash order pays again through bKash). If its stock was released, it is
 * reserved again first; a shortage is a 409 and nothing changes.
 */
export async function newPaymentSession(deps: OrderDeps, saleId: number, actor: 'customer' | 'guest'): Promise<{ sale: SaleRow; url: string }> {
  const { kysely, dialect } = deps.db;
  const nowIso = new Date().toISOString();
  const known = await repo.saleById(kysely, saleId);
  if (!known) throw new ApiError('not_found', 'The order was not found');
  // Reserving again counts against the same unpaid holds as a new checkout
  // (docs/decisions/0022): paying again must not be a way round them.
  const keys = clientKeys({ address: known.client_address }, known.customer_id, { email: known.contact_email, mobile: known.contact_mobile });
  let created: { sale: SaleRow; payment: PaymentRow; lines: SaleLineRow[] };
  try {
    created = await kysely.transaction().execute(async (trx) => {
      // The client's hold keys before the sale's row: the lock order of a checkout.
      await lockHoldKeys(trx, dialect, keys);
      const sale = await repo.lockSale(trx, dialect, saleId);
      if (!sale) throw new ApiError('not_found', 'The order was not found');
      if (!canRetryPayment(saleState(sale)))
        throw conflict('cannot_pay', sale.payment_method === 'card' ? 'This order cannot be paid by card now' : 'This order cannot be paid now');
      if (isWallet(sale.payment_method)) assertWalletOffered(deps, sale.payment_method);
      else checkCardAmount(deps.payments, Number(sale.total));
      const lines = await repo.linesOf(trx, [sale.id]);
      let note = 'A new payment session was opened';
      if (sale.stock_held === 0) {
        await assertHoldRoom(
          trx,
          keys,
          lines.reduce((n, l) => n + l.quantity, 0),
          deps.config.orders,
          sale.id,
        );
        const res = await reserveAgain(trx, dialect, sale, lines, nowIso);
        if (!res.ok) {
          const bySku = new Map(lines.map((l, i) => [l.sku_id, { index: i, code: l.sku_code, title: l.title }]));
          throw shortageError(res.shortages, bySku);
        }
        await repo.flipStockHeld(trx, sale.id, 0, nowIso);
        note += '; items reserved again';
      }
      await repo.closeOpenPayments(trx, sale.id, 'cancelled', 'Replaced by a new payment session', nowIso);
      const wallet = isWallet(sale.payment_method) ? sale.payment_method : undefined;
      const payment = await insertNewPayment(trx, deps, sale.id, Number(sale.total), nowIso, wallet);
      await repo.transitionSale(trx, sale.id, { fromStatuses: [sale.status] }, { status: 'pending_payment', payment_status: 'pending', updated_at: nowIso });
      await addHistory(trx, sale.id, 'pending_payment', 'pending', actor, note, nowIso);
      return { sale: (await repo.saleById(trx, sale.id))!, payment, lines };
    });
  } catch (err) {
    if (err instanceof StockConflictError) throw conflict('out_of_stock', CHECKOUT_MESSAGES.outOfStock);
    throw err;
  }
  const { sale, payment, lines } = created;
  const opened = await openPaymentFor(deps, sale, payment, lines);
  if (!opened.url)
    throw new ApiError('payment_provider_unavailable', 'The payment provider could not start the payment. Please try again in a moment.', undefined, 503);
  return { sale: opened.sale, url: opened.url };
}
