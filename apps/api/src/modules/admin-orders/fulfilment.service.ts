import {
  ACTION_TARGET,
  formatMoney,
  refusalOf,
  type TDeliveryMethod,
  type TFulfilmentState,
  type TOrderAction,
  type TOrderActionBody,
  type TPaymentMethod,
  type TPaymentStatus,
  type TSaleStatus,
  canCollectCash,
} from '@storefront/shared';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { recordAudit } from '../staff/audit.ts';
import type { OrderDeps } from '../orders/deps.ts';
import { type StaffMail, sendStaffMail } from '../orders/notify.ts';
import * as repo from '../orders/repository.ts';
import type { SaleRow } from '../orders/repository.ts';
import { recordMovement, releaseStock } from '../orders/stock.ts';
import { dhakaDayStart, type StaffActor, staffHistory } from './staff-history.ts';

// What staff do to an order (docs/decisions/0032): the fulfilment steps of
// packages/shared fulfilment.ts, cash collected on delivery, payment proofs checked, notes.
// Every change locks the sale's row, checks the step against the locked row (a step not
// allowed is a 409 that says why), writes the history line and the audit entry in the same
// transaction, and mails the shopper after the commit.

type Trx = Transaction<Database>;

export function fulfilmentState(
  row: Pick<SaleRow, 'kind' | 'status' | 'payment_status' | 'payment_method' | 'delivery_method' | 'shipped_at'>,
): TFulfilmentState {
  return {
    kind: row.kind as 'order' | 'booking',
    status: row.status as TSaleStatus,
    paymentStatus: row.payment_status as TPaymentStatus,
    paymentMethod: row.payment_method as TPaymentMethod,
    deliveryMethod: row.delivery_method as TDeliveryMethod,
    shipped: row.shipped_at !== null,
  };
}

/** Money received and not handed back, poisha. */
export const heldMoney = (row: Pick<SaleRow, 'amount_paid' | 'refunded_total'>) => Number(row.amount_paid) - Number(row.refunded_total);

const snapshot = (row: SaleRow) => ({ kind: row.kind, status: row.status, paymentStatus: row.payment_status, amountPaid: Number(row.amount_paid) });

async function locked(deps: OrderDeps, trx: Trx, saleId: number): Promise<SaleRow> {
  const sale = await repo.lockSale(trx, deps.db.dialect, saleId);
  if (!sale) throw notFound('The order');
  return sale;
}

const STEP_NOTES: Record<TOrderAction, string> = {
  confirm: 'Order confirmed',
  pack: 'Packed',
  ship: 'Shipped',
  deliver: 'Delivered',
  return: 'Returned',
  cancel: 'Cancelled by the shop',
  convert: 'Booking converted to an order',
};

/**
 * One fulfilment step. Cancelling gives back the stock and the coupon the order holds (each
 * unit a line of the stock ledger); money already received stays owed to the shopper
 * ("refund pending") until staff record the refund. A return, or units refused at the door,
 * go back to stock as ledger lines.
 */
export async function applyOrderAction(deps: OrderDeps, saleId: number, body: TOrderActionBody, staff: StaffActor): Promise<void> {
  const now = new Date().toISOString();
  const mail = await deps.db.kysely.transaction().execute(async (trx) => takeStep(trx, await locked(deps, trx, saleId), body, staff, now));
  await sendStaffMail(deps, saleId, mail);
}

/** A courier whose report moved the order (docs/decisions/0040): the history says so, no staff member did. */
export interface CourierActor {
  courier: string;
}

/**
 * One fulfilment step on a sale row the caller has locked, inside the caller's transaction:
 * staff through the order screen, or a courier's status update. Returns the shopper's mail,
 * for the caller to send after the commit.
 */
export async function takeStep(trx: Trx, sale: SaleRow, body: TOrderActionBody, by: StaffActor | CourierActor, now: string): Promise<StaffMail> {
  const note = body.note?.trim() ?? '';
  const staff: StaffActor | null = 'courier' in by ? null : by;
  const staffId = staff?.staffId ?? null;
  const refusal = refusalOf(body.action, fulfilmentState(sale));
  if (refusal) throw conflict('transition_not_allowed', refusal);
  let status: TSaleStatus = ACTION_TARGET[body.action];
  let paymentStatus = sale.payment_status as TPaymentStatus;
  const set: Record<string, unknown> = { updated_at: now };
  const text = [STEP_NOTES[body.action]];

  switch (body.action) {
    case 'confirm':
      set.confirmed_at = now;
      break;
    case 'pack':
      set.packed_at = now;
      break;
    case 'ship':
      set.shipped_at = now;
      break;
    case 'deliver': {
      set.fulfilled_at = now;
      if (body.lines?.length) {
        const back = await restockLines(trx, sale, body.lines, staffId, now, 'refused at delivery');
        if (back.allReturned) throw conflict('transition_not_allowed', 'Every item came back: record a return instead of a delivery');
        text.push(`${back.units} item${back.units === 1 ? '' : 's'} refused at the door went back to stock`);
      }
      break;
    }
    case 'return': {
      const lines = await repo.linesOf(trx, [sale.id]);
      const wanted = body.lines?.length
        ? body.lines
        : lines.filter((l) => l.quantity > Number(l.returned_quantity)).map((l) => ({ lineNo: l.line_no, quantity: l.quantity - Number(l.returned_quantity) }));
      if (!wanted.length) throw conflict('transition_not_allowed', 'Every item of this order has already come back');
      const back = await restockLines(trx, sale, wanted, staffId, now, 'returned');
      text[0] = `${back.units} item${back.units === 1 ? '' : 's'} returned and back in stock`;
      if (back.allReturned) {
        set.returned_at = now;
        if (heldMoney(sale) > 0) paymentStatus = 'refund_pending';
      } else {
        // Some units came back: a shipped order was delivered in part, a delivered one stays delivered.
        status = 'fulfilled';
        if (sale.status !== 'fulfilled') set.fulfilled_at = now;
      }
      break;
    }
    case 'cancel': {
      set.cancelled_at = now;
      await repo.closeOpenPayments(trx, sale.id, 'cancelled', 'The order was cancelled', now);
      if (await repo.flipStockHeld(trx, sale.id, 1, now)) {
        const units = await releaseStock(trx, sale.id, now, { note: `${sale.invoice_id} cancelled`, staffId });
        if (units) text.push(`${units} item${units === 1 ? '' : 's'} returned to stock`);
      }
      if (await repo.releaseCouponHold(trx, sale)) text.push(`coupon ${sale.coupon_code} released`);
      if (heldMoney(sale) > 0) {
        paymentStatus = 'refund_pending';
        text.push(`${formatMoney(heldMoney(sale))} received is to be refunded`);
      } else if (paymentStatus === 'pending') paymentStatus = 'cancelled';
      break;
    }
    case 'convert':
      set.kind = 'order';
      set.confirmed_at = now;
      // An order is not released for want of payment: the shop has taken it on.
      set.hold_until = null;
      break;
  }
  if (note) text.push(note);
  const moved = await repo.transitionSale(trx, sale.id, { fromStatuses: [sale.status] }, { ...set, status, payment_status: paymentStatus });
  if (!moved) throw conflict('transition_not_allowed', 'This order changed meanwhile; reload it');
  if (staff) {
    await staffHistory(trx, sale.id, status, paymentStatus, staff, text.join('; '), now);
    const after = (await repo.saleById(trx, sale.id))!;
    await recordAudit(trx, staff, {
      action: `order_${body.action}`,
      entity: 'order',
      entityId: sale.invoice_id,
      before: snapshot(sale),
      after: { ...snapshot(after), note },
    });
  } else {
    await repo.insertHistory(trx, {
      sale_id: sale.id,
      status,
      payment_status: paymentStatus,
      actor: 'courier',
      note: text.join('; ').slice(0, 1000),
      created_at: now,
    });
  }
  return { kind: body.action, note } as StaffMail;
}

/**
 * Units of some lines back into stock, at the branch that supplied them, each a ledger line;
 * the lines remember how many came back. Says whether the whole order has now come back.
 */
async function restockLines(
  trx: Trx,
  sale: SaleRow,
  wanted: readonly { lineNo: number; quantity: number }[],
  staffId: number | null,
  now: string,
  why: string,
): Promise<{ units: number; allReturned: boolean }> {
  const lines = await repo.linesOf(trx, [sale.id]);
  const reservations = await trx.selectFrom('stock_reservations').select(['sku_id', 'branch_id']).where('sale_id', '=', sale.id).orderBy('id').execute();
  const merged = new Map<number, number>();
  for (const w of wanted) merged.set(w.lineNo, (merged.get(w.lineNo) ?? 0) + w.quantity);
  let units = 0;
  for (const [lineNo, quantity] of merged) {
    const line = lines.find((l) => l.line_no === lineNo);
    const index = wanted.findIndex((w) => w.lineNo === lineNo);
    if (!line) throw badRequest(`This order has no line ${lineNo}`, { [`lines.${index}.lineNo`]: 'No such line' });
    const left = line.quantity - Number(line.returned_quantity);
    if (quantity > left) {
      const message = left ? `Only ${left} of ${line.title} can come back` : `${line.title} has already come back`;
      throw conflict('too_many_returned', message, { [`lines.${index}.quantity`]: message });
    }
    const branchId = reservations.find((r) => r.sku_id === line.sku_id)?.branch_id ?? sale.branch_id ?? sale.pickup_branch_id;
    if (branchId == null) throw conflict('no_branch', 'This order has no branch to put the items back in');
    await repo.returnStock(trx, line.sku_id, branchId, quantity);
    await recordMovement(trx, line.sku_id, branchId, quantity, 'returned', `${sale.invoice_id} ${why}`, staffId, now);
    await trx
      .updateTable('sale_lines')
      .set((eb) => ({ returned_quantity: eb('returned_quantity', '+', quantity) }))
      .where('id', '=', line.id)
      .execute();
    units += quantity;
  }
  const after = await repo.linesOf(trx, [sale.id]);
  return { units, allReturned: after.every((l) => Number(l.returned_quantity) >= l.quantity) };
}

/** Cash on delivery, collected: the order is paid with what was collected, by whom and when. */
export async function collectCash(deps: OrderDeps, saleId: number, body: { amount: number; collectedOn?: string }, staff: StaffActor): Promise<void> {
  const now = new Date().toISOString();
  const at = body.collectedOn ? dhakaDayStart(body.collectedOn) : now;
  if (body.collectedOn && (Number.isNaN(Date.parse(at)) || at > now))
    throw badRequest('The day cannot be in the future', { collectedOn: 'The day cannot be in the future' });
  await deps.db.kysely.transaction().execute(async (trx) => {
    const sale = await locked(deps, trx, saleId);
    if (!canCollectCash(fulfilmentState(sale))) {
      throw conflict(
        'transition_not_allowed',
        sale.payment_method !== 'cod'
          ? 'This order is not paid in cash on delivery'
          : sale.payment_status !== 'unpaid'
            ? 'The cash for this order has already been recorded'
            : 'Record the cash when the order is on its way or delivered',
      );
    }
    if (body.amount > Number(sale.total)) {
      throw badRequest(`The order's total is ${formatMoney(Number(sale.total))}: more cannot be collected`, {
        amount: `At most ${formatMoney(Number(sale.total))}`,
      });
    }
    const short = Number(sale.total) - body.amount;
    await repo.transitionSale(
      trx,
      sale.id,
      { fromStatuses: [sale.status], fromPaymentStatuses: ['unpaid'] },
      { payment_status: 'paid', amount_paid: body.amount, paid_at: at, cod_collected_at: at, cod_collected_by: staff.name, updated_at: now },
    );
    await staffHistory(
      trx,
      sale.id,
      sale.status,
      'paid',
      staff,
      `Cash collected: ${formatMoney(body.amount)}${short > 0 ? ` (${formatMoney(short)} short of the total)` : ''}`,
      now,
    );
    await recordAudit(trx, staff, {
      action: 'order_cash_collected',
      entity: 'order',
      entityId: sale.invoice_id,
      before: { paymentStatus: sale.payment_status, amountPaid: Number(sale.amount_paid) },
      after: { paymentStatus: 'paid', amountPaid: body.amount, collectedAt: at },
    });
  });
  await sendStaffMail(deps, saleId, { kind: 'cash_collected', note: '' });
}

/**
 * A booking's payment proof, checked. Accepting records what it shows was paid: a booking
 * paid in full is "Paid" and is no longer released for want of payment (a deposit keeps it
 * too). Rejecting gives the shopper the reason and a fresh hold to send another proof.
 */
export async function reviewProof(
  deps: OrderDeps,
  saleId: number,
  proofId: number,
  body: { decision: 'accept' | 'reject'; amount?: number; reason?: string },
  staff: StaffActor,
): Promise<void> {
  const now = new Date().toISOString();
  const reason = body.reason?.trim() ?? '';
  if (body.decision === 'reject' && !reason) throw badRequest('Say why the proof is not accepted: the shopper reads it', { reason: 'Please give a reason' });
  const kind = await deps.db.kysely.transaction().execute(async (trx) => {
    const sale = await locked(deps, trx, saleId);
    const proof = await trx
      .selectFrom('sale_attachments')
      .selectAll()
      .where('id', '=', proofId)
      .where('sale_id', '=', sale.id)
      .where('kind', '=', 'payment_proof')
      .executeTakeFirst();
    if (!proof) throw notFound('The payment proof');
    if (proof.review_status !== 'pending') throw conflict('already_reviewed', `This proof was already ${proof.review_status}`);
    if (sale.kind !== 'booking' || sale.status !== 'booked') throw conflict('transition_not_allowed', 'Only the proof of an open booking can be checked');
    if (body.decision === 'accept') {
      const owed = Number(sale.total) - Number(sale.amount_paid);
      const amount = body.amount ?? owed;
      if (amount <= 0 || amount > owed) {
        const message = owed > 0 ? `At most ${formatMoney(owed)} is still owed` : 'This booking is already paid in full';
        throw badRequest(message, { amount: message });
      }
      const paid = Number(sale.amount_paid) + amount;
      const full = paid >= Number(sale.total);
      const pending = await otherPendingProofs(trx, sale.id, proof.id);
      const paymentStatus: TPaymentStatus = full ? 'paid' : pending ? 'proof_submitted' : 'unpaid';
      await trx
        .updateTable('sale_attachments')
        .set({ review_status: 'accepted', reviewed_at: now, reviewed_by: staff.name, amount })
        .where('id', '=', proof.id)
        .execute();
      await repo.transitionSale(
        trx,
        sale.id,
        { fromStatuses: ['booked'] },
        { payment_status: paymentStatus, amount_paid: paid, paid_at: full ? now : sale.paid_at, hold_until: null, updated_at: now },
      );
      await staffHistory(
        trx,
        sale.id,
        'booked',
        paymentStatus,
        staff,
        `Payment proof accepted: ${formatMoney(amount)} received${full ? '' : `, ${formatMoney(Number(sale.total) - paid)} still to pay`}`,
        now,
      );
      await recordAudit(trx, staff, {
        action: 'proof_accepted',
        entity: 'order',
        entityId: sale.invoice_id,
        before: { paymentStatus: sale.payment_status, amountPaid: Number(sale.amount_paid) },
        after: { paymentStatus, amountPaid: paid, proof: proof.file_uuid },
      });
      return 'proof_accepted' as const;
    }
    await trx
      .updateTable('sale_attachments')
      .set({ review_status: 'rejected', review_note: reason, reviewed_at: now, reviewed_by: staff.name })
      .where('id', '=', proof.id)
      .execute();
    const pending = await otherPendingProofs(trx, sale.id, proof.id);
    const paymentStatus: TPaymentStatus = pending ? 'proof_submitted' : Number(sale.amount_paid) > 0 ? 'unpaid' : 'proof_rejected';
    // The shopper gets a fresh hold to pay and send another proof (docs/decisions/0022).
    const holdUntil = new Date(Date.now() + deps.config.orders.bookingHoldMs).toISOString();
    await repo.transitionSale(
      trx,
      sale.id,
      { fromStatuses: ['booked'] },
      { payment_status: paymentStatus, hold_until: Number(sale.amount_paid) > 0 ? sale.hold_until : holdUntil, updated_at: now },
    );
    await staffHistory(trx, sale.id, 'booked', paymentStatus, staff, `Payment proof not accepted: ${reason}`, now);
    await recordAudit(trx, staff, {
      action: 'proof_rejected',
      entity: 'order',
      entityId: sale.invoice_id,
      before: { paymentStatus: sale.payment_status },
      after: { paymentStatus, proof: proof.file_uuid, reason },
    });
    return 'proof_rejected' as const;
  });
  await sendStaffMail(deps, saleId, { kind, note: reason });
}

async function otherPendingProofs(trx: Trx, saleId: number, exceptId: number): Promise<boolean> {
  const row = await trx
    .selectFrom('sale_attachments')
    .select('id')
    .where('sale_id', '=', saleId)
    .where('kind', '=', 'payment_proof')
    .where('review_status', '=', 'pending')
    .where('id', '<>', exceptId)
    .executeTakeFirst();
  return !!row;
}

/** A note for staff: never shown to the shopper. */
export async function addOrderNote(deps: OrderDeps, saleId: number, body: string, staff: StaffActor): Promise<void> {
  const text = body.trim();
  if (!text) throw badRequest('Write the note first', { body: 'Write the note first' });
  await deps.db.kysely.transaction().execute(async (trx) => {
    const sale = await locked(deps, trx, saleId);
    const now = new Date().toISOString();
    await trx.insertInto('sale_notes').values({ sale_id: sale.id, staff_id: staff.staffId, staff_name: staff.name, body: text, created_at: now }).execute();
    await recordAudit(trx, staff, { action: 'order_note', entity: 'order', entityId: sale.invoice_id, before: null, after: { note: text } });
  });
}
