import type { Locale } from '@storefront/shared';
import { type Insertable, type Kysely, type Selectable, sql, type Transaction, type Updateable } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import { forUpdate } from '../../db/dialect/row-locks.ts';
import type { Database, PaymentsTable, SaleLinesTable, SalesTable, StockReservationsTable } from '../../db/schema.ts';

// All SQL of sales (orders and bookings), their lines, history, stock reservations,
// payments and attachments.

type Q = Kysely<Database> | Transaction<Database>;
export type SaleRow = Selectable<SalesTable>;
export type SaleLineRow = Selectable<SaleLinesTable>;
export type PaymentRow = Selectable<PaymentsTable>;

// ---- sales ---------------------------------------------------------------------------------

export function insertSale(db: Q, row: Insertable<SalesTable>) {
  return db.insertInto('sales').values(row).returningAll().executeTakeFirstOrThrow();
}

export function saleByInvoice(db: Q, invoiceId: string) {
  return db.selectFrom('sales').selectAll().where('invoice_id', '=', invoiceId).executeTakeFirst();
}

export function saleById(db: Q, id: number) {
  return db.selectFrom('sales').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The sale, its row locked until the transaction ends (PostgreSQL). */
export function lockSale(db: Q, dialect: Dialect, id: number) {
  return forUpdate(db.selectFrom('sales').selectAll().where('id', '=', id), dialect).executeTakeFirst();
}

/**
 * Changes a sale only if it is still in one of `fromStatuses` (and, when given, one of
 * `fromPaymentStatuses`): the guard that makes every transition happen once however many
 * requests race. Returns whether it changed.
 */
export async function transitionSale(
  db: Q,
  id: number,
  guard: { fromStatuses: readonly string[]; fromPaymentStatuses?: readonly string[] },
  set: Updateable<SalesTable>,
): Promise<boolean> {
  let q = db
    .updateTable('sales')
    .set(set)
    .where('id', '=', id)
    .where('status', 'in', [...guard.fromStatuses]);
  if (guard.fromPaymentStatuses) q = q.where('payment_status', 'in', [...guard.fromPaymentStatuses]);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Flips stock_held 1 → 0 (or 0 → 1); true only for the one caller that flipped it. */
export async function flipStockHeld(db: Q, id: number, from: 0 | 1, now: string): Promise<boolean> {
  const r = await db
    .updateTable('sales')
    .set({ stock_held: from === 1 ? 0 : 1, updated_at: now })
    .where('id', '=', id)
    .where('stock_held', '=', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function releaseCouponHold(db: Q, sale: Pick<SaleRow, 'id' | 'invoice_id'>): Promise<boolean> {
  const r = await db.updateTable('sales').set({ coupon_held: 0 }).where('id', '=', sale.id).where('coupon_held', '=', 1).executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) return false;
  // The coupon counts one use fewer: the order that used it will never be paid.
  await db.deleteFrom('coupon_usages').where('order_ref', '=', sale.invoice_id).execute();
  return true;
}

export function insertLines(db: Q, rows: Insertable<SaleLinesTable>[]) {
  return db.insertInto('sale_lines').values(rows).execute();
}

export function linesOf(db: Q, saleIds: number[]) {
  if (!saleIds.length) return Promise.resolve([] as SaleLineRow[]);
  return db.selectFrom('sale_lines').selectAll().where('sale_id', 'in', saleIds).orderBy('sale_id').orderBy('line_no').execute();
}

export function insertHistory(db: Q, row: { sale_id: number; status: string; payment_status: string; actor: string; note: string; created_at: string }) {
  return db.insertInto('sale_status_history').values(row).execute();
}

export function historyOf(db: Q, saleId: number) {
  return db
    .selectFrom('sale_status_history')
    .select(['status', 'payment_status', 'actor', 'note', 'created_at'])
    .where('sale_id', '=', saleId)
    .orderBy('id')
    .execute();
}

/** The paged list's base query: one customer's sales, or the given ids (a guest's). */
export function salesQuery(db: Q, owner: { customerId: number } | { saleIds: number[] }) {
  const q = db.selectFrom('sales').selectAll();
  if ('customerId' in owner) return q.where('customer_id', '=', owner.customerId);
  return q.where('id', 'in', owner.saleIds.length ? owner.saleIds : [-1]).where('customer_id', 'is', null);
}

/** Guest sales by invoice id, with their token hashes (for the access cookie). */
export function guestSalesByInvoice(db: Q, invoiceIds: string[]) {
  if (!invoiceIds.length) return Promise.resolve([]);
  return db
    .selectFrom('sales')
    .select(['id', 'invoice_id', 'access_token_hash'])
    .where('invoice_id', 'in', invoiceIds)
    .where('customer_id', 'is', null)
    .execute();
}

/** Card orders whose payment session has been open longer than allowed. */
export function stalePendingSales(db: Q, before: string, limit: number) {
  return db.selectFrom('sales').selectAll().where('status', '=', 'pending_payment').where('updated_at', '<', before).orderBy('id').limit(limit).execute();
}

/** Unpaid card orders nobody paid again in time. */
export function abandonedSales(db: Q, statuses: readonly string[], before: string, limit: number) {
  return db
    .selectFrom('sales')
    .selectAll()
    .where('status', 'in', [...statuses])
    .where('updated_at', '<', before)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Units held by unpaid sales — card orders waiting for their payment, cash-on-delivery
 * orders not yet delivered, open bookings — per key of one client (docs/decisions/0022).
 * Email and mobile count guest sales only.
 */
export async function heldUnits(
  db: Q,
  keys: { address: string | null; customerId: number | null; email: string | null; mobile: string | null },
  excludeSaleId: number | null = null,
): Promise<{ address: number; customer: number; email: number; mobile: number }> {
  const held = () => {
    let q = db
      .selectFrom('sales')
      .innerJoin('sale_lines', 'sale_lines.sale_id', 'sales.id')
      .select((eb) => eb.fn.sum<number>('sale_lines.quantity').as('units'))
      .where('sales.stock_held', '=', 1)
      .where('sales.status', 'in', ['pending_payment', 'placed', 'confirmed', 'packed', 'shipped', 'booked'])
      .where('sales.payment_status', 'in', ['unpaid', 'pending', 'proof_submitted', 'proof_rejected']);
    if (excludeSaleId !== null) q = q.where('sales.id', '<>', excludeSaleId);
    return q;
  };
  const units = async (q: ReturnType<typeof held> | null) => (q ? Number((await q.executeTakeFirst())?.units ?? 0) : 0);
  return {
    address: await units(keys.address === null ? null : held().where('sales.client_address', '=', keys.address)),
    customer: await units(keys.customerId === null ? null : held().where('sales.customer_id', '=', keys.customerId)),
    email: await units(
      keys.email === null ? null : held().where('sales.customer_id', 'is', null).where(sql<string>`lower(sales.contact_email)`, '=', keys.email),
    ),
    mobile: await units(keys.mobile === null ? null : held().where('sales.customer_id', 'is', null).where('sales.contact_mobile', '=', keys.mobile)),
  };
}

/** Open bookings with no payment proof whose hold has ended (docs/decisions/0022). */
export function overdueBookings(db: Q, now: string, limit: number) {
  return db
    .selectFrom('sales')
    .select(['id', 'invoice_id', 'created_at', 'hold_until'])
    .where('status', '=', 'booked')
    .where('kind', '=', 'booking')
    .where('payment_status', 'in', ['unpaid', 'proof_rejected'])
    .where('hold_until', 'is not', null)
    .where('hold_until', '<=', now)
    .orderBy('hold_until')
    .orderBy('id')
    .limit(limit)
    .execute();
}

// ---- stock ---------------------------------------------------------------------------------

/**
 * The stock rows of these skus with their branch order, locked in one global order
 * (sku, then branch) so that concurrent checkouts queue instead of deadlocking.
 */
export function lockStockRows(db: Q, dialect: Dialect, skuIds: number[]) {
  if (!skuIds.length) return Promise.resolve([]);
  const q = db
    .selectFrom('stocks')
    .innerJoin('branches', 'branches.id', 'stocks.branch_id')
    .select(['stocks.sku_id', 'stocks.branch_id', 'stocks.quantity', 'branches.sort_order'])
    .where('stocks.sku_id', 'in', skuIds)
    .orderBy('stocks.sku_id')
    .orderBy('stocks.branch_id');
  // Lock the stock rows, not the branches every checkout joins.
  return forUpdate(q, dialect, ['stocks']).execute();
}

/**
 * Takes units only if they are there: the conditional update, with the CHECK
 * (quantity >= 0) of the table behind it as the last line of defence.
 */
export async function takeStock(db: Q, skuId: number, branchId: number, quantity: number): Promise<boolean> {
  const r = await db
    .updateTable('stocks')
    .set((eb) => ({ quantity: eb('quantity', '-', quantity) }))
    .where('sku_id', '=', skuId)
    .where('branch_id', '=', branchId)
    .where('quantity', '>=', quantity)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function returnStock(db: Q, skuId: number, branchId: number, quantity: number): Promise<void> {
  const r = await db
    .updateTable('stocks')
    .set((eb) => ({ quantity: eb('quantity', '+', quantity) }))
    .where('sku_id', '=', skuId)
    .where('branch_id', '=', branchId)
    .executeTakeFirst();
  // The row was removed meanwhile (a branch closed its listing): the units still exist.
  if (Number(r.numUpdatedRows) === 0) await db.insertInto('stocks').values({ sku_id: skuId, branch_id: branchId, quantity }).execute();
}

export function insertReservations(db: Q, rows: Insertable<StockReservationsTable>[]) {
  if (!rows.length) return Promise.resolve();
  return db
    .insertInto('stock_reservations')
    .values(rows)
    .execute()
    .then(() => undefined);
}

export function heldReservations(db: Q, saleId: number) {
  return db
    .selectFrom('stock_reservations')
    .select(['id', 'sku_id', 'branch_id', 'quantity'])
    .where('sale_id', '=', saleId)
    .where('released_at', 'is', null)
    .orderBy('sku_id')
    .orderBy('branch_id')
    .execute();
}

export function markReservationsReleased(db: Q, ids: number[], now: string) {
  if (!ids.length) return Promise.resolve();
  return db
    .updateTable('stock_reservations')
    .set({ released_at: now })
    .where('id', 'in', ids)
    .where('released_at', 'is', null)
    .execute()
    .then(() => undefined);
}

// ---- payments ------------------------------------------------------------------------------

export function insertPayment(db: Q, row: Insertable<PaymentsTable>) {
  return db.insertInto('payments').values(row).returningAll().executeTakeFirstOrThrow();
}

export function paymentsOf(db: Q, saleId: number) {
  return db.selectFrom('payments').selectAll().where('sale_id', '=', saleId).orderBy('id').execute();
}

export function paymentByTranId(db: Q, tranId: string) {
  return db.selectFrom('payments').selectAll().where('tran_id', '=', tranId).executeTakeFirst();
}

export function paymentByValId(db: Q, valId: string) {
  return db.selectFrom('payments').selectAll().where('val_id', '=', valId).executeTakeFirst();
}

/** Changes a payment only from one of `from`; true for the one caller that changed it. */
export async function transitionPayment(db: Q, id: number, from: readonly string[], set: Updateable<PaymentsTable>): Promise<boolean> {
  const r = await db
    .updateTable('payments')
    .set(set)
    .where('id', '=', id)
    .where('status', 'in', [...from])
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export function closeOpenPayments(db: Q, saleId: number, status: string, reason: string, now: string) {
  return db
    .updateTable('payments')
    .set({ status, failure_reason: reason, updated_at: now })
    .where('sale_id', '=', saleId)
    .where('status', '=', 'initiated')
    .execute();
}

// ---- attachments ---------------------------------------------------------------------------

export function insertAttachment(db: Q, row: { sale_id: number; file_uuid: string; kind: string; note: string; created_at: string }) {
  return db
    .insertInto('sale_attachments')
    .values(row)
    .onConflict((oc) => oc.columns(['sale_id', 'file_uuid']).doNothing())
    .execute();
}

export function attachmentsOf(db: Q, saleId: number) {
  return db
    .selectFrom('sale_attachments')
    .leftJoin('files', 'files.uuid', 'sale_attachments.file_uuid')
    .select([
      'sale_attachments.file_uuid',
      'sale_attachments.kind',
      'sale_attachments.note',
      'sale_attachments.created_at',
      'sale_attachments.review_status',
      'sale_attachments.review_note',
      'files.name',
      'files.mime_type',
      'files.size',
    ])
    .where('sale_attachments.sale_id', '=', saleId)
    .orderBy('sale_attachments.id')
    .execute();
}

// ---- lookups for checkout ------------------------------------------------------------------

/** The language a customer last used the shop in (docs/decisions/0038). */
export async function customerLocale(db: Q, customerId: number): Promise<string | null> {
  return (await db.selectFrom('customers').select('locale').where('id', '=', customerId).executeTakeFirst())?.locale ?? null;
}

/** A customer placed an order in this language: their later mails follow it. */
export function setCustomerLocale(db: Q, customerId: number, locale: Locale) {
  return db.updateTable('customers').set({ locale }).where('id', '=', customerId).where('locale', '!=', locale).execute();
}

export function customerContact(db: Q, customerId: number) {
  return db.selectFrom('customers').select(['id', 'full_name', 'email', 'mobile']).where('id', '=', customerId).executeTakeFirst();
}

export function customerAddress(db: Q, customerId: number, addressId: number) {
  return db
    .selectFrom('addresses')
    .select(['id', 'full_name', 'phone', 'division', 'district', 'area', 'address_line'])
    .where('id', '=', addressId)
    .where('customer_id', '=', customerId)
    .executeTakeFirst();
}

export function branchById(db: Q, id: number) {
  // A hidden branch is not offered for pickup (docs/decisions/0035).
  return db
    .selectFrom('branches')
    .select(['id', 'name', 'kind', 'address', 'city', 'phone', 'hours'])
    .where('id', '=', id)
    .where('hidden', '=', 0)
    .executeTakeFirst();
}

export function skuIdsByCode(db: Q, codes: string[]) {
  if (!codes.length) return Promise.resolve([]);
  return db.selectFrom('skus').select(['id', 'code']).where('code', 'in', codes).execute();
}
