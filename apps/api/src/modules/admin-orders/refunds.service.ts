import { createHash } from 'node:crypto';
import { formatMoney, paymentStatusAfterRefund, type TAdminRefund, type TRefundBody, type TSaleStatus } from '@storefront/shared';
import type { Selectable, Transaction } from 'kysely';
import type { Database, RefundsTable } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/dialect/unique-violation.ts';
import { ApiError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import { recordAudit } from '../staff/audit.ts';
import { ProviderError, type RefundAnswer, type RefundState } from '../payments/provider.ts';
import type { OrderDeps } from '../orders/deps.ts';
import { sendStaffMail } from '../orders/notify.ts';
import * as repo from '../orders/repository.ts';
import type { SaleRow } from '../orders/repository.ts';
import { heldMoney } from './fulfilment.service.ts';
import { type StaffActor, staffHistory } from './staff-history.ts';

// Refunds (docs/decisions/0032). The rules:
// - a refund never exceeds what was received and not yet handed back: the amount is taken
//   from the sale's refundable balance (refunded_total) in the same locked transaction that
//   records the refund, before the gateway is asked, so two refunds racing cannot both fit;
// - the same idempotency key is the same refund: a retried request answers the first one,
//   and the gateway gets our refund's id as refe_id, so it too refunds once; the key with
//   another request (amount, lines, method, reason, reference) is refused, as checkouts do
//   (docs/decisions/0021), since answering the first refund would hide that the second was
//   never made;
// - a card payment goes back through its gateway (SSLCommerz's refund API, or the sandbox's
//   imitation of it); a refund the gateway refuses gives the balance back; one it is still
//   processing is asked about again (refreshRefund) until it is refunded or dropped;
// - bank, cash and wallet refunds made by hand are recorded with their reference.

type Trx = Transaction<Database>;
type RefundRow = Selectable<RefundsTable>;

export function toRefund(r: RefundRow): TAdminRefund {
  return {
    id: Number(r.id),
    method: r.method as TAdminRefund['method'],
    amount: Number(r.amount),
    lines: r.lines ? JSON.parse(r.lines) : null,
    reason: r.reason,
    reference: r.reference,
    status: r.status as TAdminRefund['status'],
    failureReason: r.failure_reason,
    staffName: r.staff_name,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** The amount of a refund by line: each line's charged price per unit, times the units. */
async function amountOfLines(trx: Trx, sale: SaleRow, wanted: NonNullable<TRefundBody['lines']>): Promise<number> {
  const lines = await repo.linesOf(trx, [sale.id]);
  const earlier = await trx.selectFrom('refunds').select('lines').where('sale_id', '=', sale.id).where('status', '<>', 'failed').execute();
  const refundedUnits = new Map<number, number>();
  for (const r of earlier)
    for (const l of (r.lines ? JSON.parse(r.lines) : []) as { lineNo: number; quantity: number }[])
      refundedUnits.set(l.lineNo, (refundedUnits.get(l.lineNo) ?? 0) + l.quantity);
  let total = 0;
  wanted.forEach((w, i) => {
    const line = lines.find((l) => l.line_no === w.lineNo);
    if (!line) throw badRequest(`This order has no line ${w.lineNo}`, { [`lines.${i}.lineNo`]: 'No such line' });
    const left = line.quantity - (refundedUnits.get(w.lineNo) ?? 0);
    if (w.quantity > left) {
      const message = left ? `Only ${left} of ${line.title} can still be refunded` : `${line.title} has already been refunded`;
      throw conflict('refund_too_large', message, { [`lines.${i}.quantity`]: message });
    }
    refundedUnits.set(w.lineNo, (refundedUnits.get(w.lineNo) ?? 0) + w.quantity);
    // The last units of a line take what is left of its total, so the parts add up exactly.
    const perUnit = Math.floor(Number(line.line_total) / line.quantity);
    total += w.quantity === line.quantity ? Number(line.line_total) : perUnit * w.quantity;
  });
  return total;
}

export async function createRefund(
  deps: OrderDeps,
  saleId: number,
  body: TRefundBody,
  staff: StaffActor,
): Promise<{ refund: TAdminRefund; replayed: boolean }> {
  const requestHash = createHash('sha256').update(JSON.stringify(body)).digest('hex');
  const existing = await deps.db.kysely.selectFrom('refunds').selectAll().where('idempotency_key', '=', body.idempotencyKey).executeTakeFirst();
  if (existing) return replay(existing, saleId, requestHash);
  if ((body.amount === undefined) === !body.lines?.length) {
    throw badRequest('Refund either an amount or some lines', { amount: 'Give an amount, or choose lines' });
  }
  const reason = body.reason.trim();
  if (!reason) throw badRequest('Say why the money goes back', { reason: 'Please give a reason' });
  const reference = body.reference?.trim() || null;
  if (body.method !== 'gateway' && !reference) {
    throw badRequest('Give the reference of the bank transfer, cash receipt or wallet transaction', { reference: 'Please give the reference' });
  }
  const now = new Date().toISOString();
  let row: RefundRow;
  let payment: repo.PaymentRow | undefined;
  try {
    ({ row, payment } = await deps.db.kysely.transaction().execute(async (trx) => {
      const sale = await repo.lockSale(trx, deps.db.dialect, saleId);
      if (!sale) throw notFound('The order');
      const amount = body.lines?.length ? await amountOfLines(trx, sale, body.lines) : body.amount!;
      const refundable = heldMoney(sale);
      if (amount <= 0) throw badRequest('A refund must be more than nothing', { amount: 'Give an amount above zero' });
      if (amount > refundable) {
        const message =
          refundable > 0
            ? `At most ${formatMoney(refundable)} can be refunded: what was paid and not yet refunded`
            : 'Nothing paid for this order is left to refund';
        throw conflict('refund_too_large', message, { amount: message });
      }
      let payment: repo.PaymentRow | undefined;
      if (body.method === 'gateway') {
        payment = (await repo.paymentsOf(trx, sale.id)).reverse().find((p) => (p.status === 'valid' || p.status === 'review') && p.bank_tran_id);
        if (!payment)
          throw conflict('no_gateway_payment', 'This order has no card payment to refund through the gateway: record a bank, cash or wallet refund');
        // Nagad publishes no refund API (docs/decisions/0042): the money goes back from Nagad's
        // merchant portal, and the refund is recorded here by hand with its reference.
        if (payment.provider === 'nagad')
          throw conflict(
            'refund_not_supported',
            'Nagad payments cannot be refunded through the gateway: refund the payer from the Nagad merchant portal, then record a wallet refund with its reference',
            { method: 'Record a wallet refund for Nagad payments' },
          );
        // One gateway payment cannot give back more than it took.
        const fromIt = await trx
          .selectFrom('refunds')
          .select((eb) => eb.fn.sum<number>('amount').as('n'))
          .where('payment_id', '=', payment.id)
          .where('status', '<>', 'failed')
          .executeTakeFirst();
        if (Number(fromIt?.n ?? 0) + amount > Number(payment.amount))
          throw conflict('refund_too_large', 'The card payment cannot give back more than it took', { amount: 'Too much for the card payment' });
      }
      const row = await trx
        .insertInto('refunds')
        .values({
          sale_id: sale.id,
          payment_id: payment?.id ?? null,
          method: body.method,
          amount,
          lines: body.lines?.length ? JSON.stringify(body.lines) : null,
          reason,
          reference,
          status: body.method === 'gateway' ? 'processing' : 'refunded',
          failure_reason: null,
          raw: null,
          idempotency_key: body.idempotencyKey,
          request_hash: requestHash,
          staff_id: staff.staffId,
          staff_name: staff.name,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await settleBalance(
        trx,
        sale,
        amount,
        staff,
        `Refund of ${formatMoney(amount)} ${body.method === 'gateway' ? 'sent to the card gateway' : `by ${body.method}${reference ? ` (${reference})` : ''}`}: ${reason}`,
        now,
      );
      await recordAudit(trx, staff, {
        action: 'refund',
        entity: 'order',
        entityId: sale.invoice_id,
        before: { refunded: Number(sale.refunded_total) },
        after: { refunded: Number(sale.refunded_total) + amount, amount, method: body.method, reference, lines: body.lines ?? null },
      });
      return { row, payment };
    }));
  } catch (err) {
    // The same key in a racing request: that request's refund is this one.
    if (isUniqueViolation(err)) {
      const first = await deps.db.kysely.selectFrom('refunds').selectAll().where('idempotency_key', '=', body.idempotencyKey).executeTakeFirst();
      if (first) return replay(first, saleId, requestHash);
    }
    throw err;
  }
  if (payment) row = await askGateway(deps, row, payment, staff);
  if (row.status !== 'failed') await sendStaffMail(deps, saleId, { kind: 'refunded', note: '', amount: Number(row.amount) });
  return { refund: toRefund(row), replayed: false };
}

function replay(existing: RefundRow, saleId: number, requestHash: string) {
  if (existing.sale_id !== saleId) throw conflict('idempotency_key_reused', 'This key was used for another order’s refund');
  if (existing.request_hash !== null && existing.request_hash !== requestHash)
    throw conflict('idempotency_key_reused', 'This key was used for another refund. Send a new key for a new refund.');
  return { refund: toRefund(existing), replayed: true };
}

/** Takes a refund off (or, negative, gives back to) the refundable balance, and sets what the shopper reads. */
async function settleBalance(trx: Trx, sale: SaleRow, amount: number, staff: StaffActor, note: string, now: string) {
  const refunded = Number(sale.refunded_total) + amount;
  const paymentStatus = refunded > 0 ? paymentStatusAfterRefund(Number(sale.amount_paid), refunded, sale.status as TSaleStatus) : restoredStatus(sale);
  await trx.updateTable('sales').set({ refunded_total: refunded, payment_status: paymentStatus, updated_at: now }).where('id', '=', sale.id).execute();
  await staffHistory(trx, sale.id, sale.status, paymentStatus, staff, note, now);
}

/** The payment status before any refund, when a refused refund gives the whole balance back. */
function restoredStatus(sale: SaleRow) {
  if (sale.status === 'cancelled' || sale.status === 'returned') return 'refund_pending' as const;
  return 'paid' as const;
}

async function askGateway(deps: OrderDeps, row: RefundRow, payment: repo.PaymentRow, staff: StaffActor): Promise<RefundRow> {
  if (payment.provider === 'bkash') return askBkash(deps, row, payment, staff);
  let answer: RefundAnswer;
  try {
    answer = await deps.payments.refund({
      bankTranId: payment.bank_tran_id!,
      amount: Number(row.amount),
      remarks: row.reason,
      refeId: `R${row.id}-${row.idempotency_key}`.slice(0, 50),
    });
  } catch (err) {
    // Unreachable: the refund stays "processing" and is asked about again; nothing is lost.
    if (err instanceof ProviderError) {
      deps.log.warn({ refundId: row.id, err: err.message }, 'could not reach the gateway for a refund; it stays processing');
      return row;
    }
    throw err;
  }
  const now = new Date().toISOString();
  if (answer.status === 'failed') return failRefund(deps, row.id, answer.reason ?? 'The gateway refused the refund', answer.raw, staff);
  return deps.db.kysely
    .updateTable('refunds')
    .set({ reference: answer.refundRefId, raw: JSON.stringify(answer.raw).slice(0, 4000), updated_at: now })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * A bKash payment goes back through bKash's refund API (paymentID, trxID, amount, sku,
 * reason; partial refunds allowed until the payment's amount is used up). bKash answers a
 * refund Completed at once, or refuses it with a code (2026 more than was paid, 2034
 * already reversed, 2071 too late …), which gives the balance back.
 */
async function askBkash(deps: OrderDeps, row: RefundRow, payment: repo.PaymentRow, staff: StaffActor): Promise<RefundRow> {
  if (!deps.bkash || !payment.session_key || !payment.bank_tran_id) {
    deps.log.warn({ refundId: row.id }, 'bKash is not configured: the refund stays processing');
    return row;
  }
  let answer: Awaited<ReturnType<NonNullable<OrderDeps['bkash']>['refund']>>;
  try {
    answer = await deps.bkash.refund({
      paymentId: payment.session_key,
      trxId: payment.bank_tran_id,
      amount: Number(row.amount),
      reason: row.reason,
      sku: `refund-${row.id}`,
    });
  } catch (err) {
    // Unreachable: the refund stays processing; refreshRefund asks bKash's refund status first.
    if (err instanceof ProviderError) {
      deps.log.warn({ refundId: row.id, err: err.message }, 'could not reach bKash for a refund; it stays processing');
      return row;
    }
    throw err;
  }
  if (answer.status === 'refused') return failRefund(deps, row.id, `bKash refused the refund: ${answer.code} ${answer.message}`, answer.raw, staff);
  const now = new Date().toISOString();
  return deps.db.kysely
    .updateTable('refunds')
    .set({
      status: answer.status === 'refunded' ? 'refunded' : 'processing',
      reference: answer.refundTrxId,
      raw: JSON.stringify(answer.raw).slice(0, 4000),
      updated_at: now,
    })
    .where('id', '=', row.id)
    .where('status', '=', 'processing')
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** bKash's refund status for a refund it is processing: its refundTrxID among the payment's refunds. */
async function refreshBkashRefund(deps: OrderDeps, row: RefundRow): Promise<RefundRow> {
  const payment = row.payment_id ? (await repo.paymentsOf(deps.db.kysely, row.sale_id)).find((p) => p.id === row.payment_id) : undefined;
  if (!payment || !deps.bkash || !payment.session_key || !payment.bank_tran_id) throw conflict('no_gateway_payment', 'This refund has no bKash payment');
  // The refund request was never answered: asking again could refund twice, so a person checks
  // bKash's merchant portal first (bKash's refund API takes no idempotency reference).
  if (!row.reference) {
    throw conflict('refund_unknown', 'bKash did not answer this refund: check the bKash merchant portal before refunding again');
  }
  let state: Awaited<ReturnType<NonNullable<OrderDeps['bkash']>['refundStatus']>>;
  try {
    state = await deps.bkash.refundStatus({ paymentId: payment.session_key, trxId: payment.bank_tran_id });
  } catch (err) {
    if (err instanceof ProviderError)
      throw new ApiError('payment_provider_unavailable', 'We could not reach bKash. Please try again in a moment.', undefined, 503);
    throw err;
  }
  const line = state.status === 'found' ? state.refunds.find((r) => r.refundTrxId === row.reference) : undefined;
  if (!line || !/^completed$/i.test(line.transactionStatus)) return row;
  const done = await deps.db.kysely
    .updateTable('refunds')
    .set({ status: 'refunded', raw: JSON.stringify(state.raw).slice(0, 4000), updated_at: new Date().toISOString() })
    .where('id', '=', row.id)
    .where('status', '=', 'processing')
    .returningAll()
    .executeTakeFirst();
  return done ?? row;
}

/** A refund the gateway refused or dropped: its amount goes back to the refundable balance. */
async function failRefund(deps: OrderDeps, refundId: number, reason: string, raw: unknown, staff: StaffActor) {
  return deps.db.kysely.transaction().execute(async (trx) => {
    const refund = await trx.selectFrom('refunds').selectAll().where('id', '=', refundId).executeTakeFirstOrThrow();
    const sale = (await repo.lockSale(trx, deps.db.dialect, refund.sale_id))!;
    const now = new Date().toISOString();
    const moved = await trx
      .updateTable('refunds')
      .set({ status: 'failed', failure_reason: reason.slice(0, 300), raw: JSON.stringify(raw).slice(0, 4000), updated_at: now })
      .where('id', '=', refundId)
      .where('status', '=', 'processing')
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 1)
      await settleBalance(trx, sale, -Number(refund.amount), staff, `Refund of ${formatMoney(Number(refund.amount))} failed: ${reason}`, now);
    return trx.selectFrom('refunds').selectAll().where('id', '=', refundId).executeTakeFirstOrThrow();
  });
}

/** Asks the gateway about a refund it is processing (the refund query API), and records the answer. */
export async function refreshRefund(deps: OrderDeps, saleId: number, refundId: number, staff: StaffActor): Promise<TAdminRefund> {
  const row = await deps.db.kysely.selectFrom('refunds').selectAll().where('id', '=', refundId).where('sale_id', '=', saleId).executeTakeFirst();
  if (!row) throw notFound('The refund');
  if (row.status !== 'processing') return toRefund(row);
  if (row.payment_id && (await repo.paymentsOf(deps.db.kysely, saleId)).find((p) => p.id === row.payment_id)?.provider === 'bkash') {
    return toRefund(await refreshBkashRefund(deps, row));
  }
  if (!row.reference) {
    // The gateway was never reached: ask again with the same refe_id (it refunds once).
    const payment = row.payment_id ? (await repo.paymentsOf(deps.db.kysely, saleId)).find((p) => p.id === row.payment_id) : undefined;
    if (!payment) throw conflict('no_gateway_payment', 'This refund has no card payment');
    return toRefund(await askGateway(deps, row, payment, staff));
  }
  let state: RefundState;
  try {
    state = await deps.payments.refundStatus(row.reference);
  } catch (err) {
    if (err instanceof ProviderError)
      throw new ApiError('payment_provider_unavailable', 'We could not reach the payment gateway. Please try again in a moment.', undefined, 503);
    throw err;
  }
  const now = new Date().toISOString();
  if (state.status === 'refunded') {
    const done = await deps.db.kysely
      .updateTable('refunds')
      .set({ status: 'refunded', raw: JSON.stringify(state.raw).slice(0, 4000), updated_at: now })
      .where('id', '=', row.id)
      .where('status', '=', 'processing')
      .returningAll()
      .executeTakeFirst();
    return toRefund(done ?? (await deps.db.kysely.selectFrom('refunds').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow()));
  }
  if (state.status === 'cancelled') return toRefund(await failRefund(deps, row.id, 'The gateway cancelled the refund', state.raw, staff));
  return toRefund(row);
}
