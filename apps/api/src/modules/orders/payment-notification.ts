import { ApiError, notFound } from '../../lib/errors.ts';
import { VERIFIED_STATUSES } from '../payments/provider.ts';
import { confirmPayment } from './confirm-payment.ts';
import type { OrderDeps } from './deps.ts';
import * as repo from './repository.ts';
import { settleUnpaid, type UnpaidOutcome, unpaidReason } from './settle-unpaid.ts';

/**
 * The gateway's server-to-server notification (IPN). Its signature must match; even then
 * it is only a hint: a VALID one is confirmed through the validation API like any other.
 */
export async function handleNotification(deps: OrderDeps, fields: Record<string, string>): Promise<{ result: string }> {
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
      reason: fields.error ? `${unpaidReason(outcome)}: ${fields.error.slice(0, 200)}` : undefined,
    });
    return { result: r.changed ? outcome : 'unchanged' };
  } catch (err) {
    // A failure notice for an order that is paid (say by a newer session) changes nothing.
    if (err instanceof ApiError && err.code === 'order_paid') return { result: 'unchanged' };
    throw err;
  }
}
