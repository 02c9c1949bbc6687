import type { TConsignmentCourier } from '@storefront/shared';
import type { TCodLineOutcome } from '@storefront/shared/cod-schemas';
import { type Insertable, type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import type { CourierPayoutLinesTable, CourierPayoutsTable, Database } from '../../db/schema.ts';

// Every query of cash-on-delivery reconciliation (docs/decisions/0043): couriers' payouts and
// their lines, and the consignments they are matched to (read here, never written: the
// consignments belong to modules/couriers).

type Q = Kysely<Database> | Transaction<Database>;
export type PayoutRow = Selectable<CourierPayoutsTable>;
export type PayoutLineRow = Selectable<CourierPayoutLinesTable>;

/** Where a parcel is done and its cash collected: a payout line may settle it. */
export const DELIVERED = ['delivered', 'partly_delivered'] as const;

/** A consignment as reconciliation reads it: with its order's invoice. */
export interface ParcelRow {
  id: number;
  sale_id: number;
  invoice_id: string;
  courier: TConsignmentCourier;
  consignment_id: string | null;
  tracking_code: string | null;
  status: string;
  cod_amount: number;
  updated_at: string;
}

// Lists in `in (…)` stay well below either database's limit on bound values.
const CHUNK = 500;
async function chunked<T, R>(values: T[], run: (part: T[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  const unique = [...new Set(values)];
  for (let i = 0; i < unique.length; i += CHUNK) out.push(...(await run(unique.slice(i, i + CHUNK))));
  return out;
}

function parcels(db: Q) {
  return db
    .selectFrom('consignments as c')
    .innerJoin('sales as s', 's.id', 'c.sale_id')
    .select(['c.id', 'c.sale_id', 's.invoice_id', 'c.courier', 'c.consignment_id', 'c.tracking_code', 'c.status', 'c.cod_amount', 'c.updated_at']);
}

export function parcelsByCourierId(db: Q, courier: TConsignmentCourier, ids: string[]): Promise<ParcelRow[]> {
  return chunked(ids, (part) => parcels(db).where('c.courier', '=', courier).where('c.consignment_id', 'in', part).orderBy('c.id').execute());
}

export function parcelsByTrackingCode(db: Q, courier: TConsignmentCourier, codes: string[]): Promise<ParcelRow[]> {
  return chunked(codes, (part) => parcels(db).where('c.courier', '=', courier).where('c.tracking_code', 'in', part).orderBy('c.id').execute());
}

/** The courier's consignments of the orders with these invoices, oldest first. */
export function parcelsByInvoice(db: Q, courier: TConsignmentCourier, invoices: string[]): Promise<ParcelRow[]> {
  return chunked(invoices, (part) => parcels(db).where('c.courier', '=', courier).where('s.invoice_id', 'in', part).orderBy('c.id').execute());
}

/** Which of these consignments a payout line already settles. */
export async function settledConsignments(db: Q, refs: number[]): Promise<Set<number>> {
  const rows = await chunked(refs, (part) =>
    db.selectFrom('courier_payout_lines').select('consignment_ref').where('counted', '=', 1).where('consignment_ref', 'in', part).execute(),
  );
  return new Set(rows.map((r) => Number(r.consignment_ref)));
}

/**
 * The courier's payout with this reference, whatever its case: both sides go through the
 * database's own upper(), as the unique index compares them.
 */
export function payoutByReference(db: Q, courier: TConsignmentCourier, reference: string) {
  return db
    .selectFrom('courier_payouts')
    .select(['id', 'reference', 'paid_on'])
    .where('courier', '=', courier)
    .where(sql<string>`upper(reference)`, '=', sql<string>`upper(${reference})`)
    .executeTakeFirst();
}

export async function insertPayout(db: Q, row: Insertable<CourierPayoutsTable>): Promise<number> {
  const r = await db.insertInto('courier_payouts').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(r.id);
}

export async function insertLines(db: Q, rows: Insertable<CourierPayoutLinesTable>[]): Promise<void> {
  // 100 rows of 13 values a statement: well inside SQLite's and PostgreSQL's bound-value limits.
  for (let i = 0; i < rows.length; i += 100)
    await db
      .insertInto('courier_payout_lines')
      .values(rows.slice(i, i + 100))
      .execute();
}

export async function payoutPage(db: Q, courier: TConsignmentCourier | undefined, page: number, size: number) {
  let q = db.selectFrom('courier_payouts');
  if (courier) q = q.where('courier', '=', courier);
  const [items, count] = await Promise.all([
    q
      .selectAll()
      .orderBy('paid_on', 'desc')
      .orderBy('id', 'desc')
      .limit(size)
      .offset((page - 1) * size)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(count.n) };
}

export function payoutById(db: Q, id: number) {
  return db.selectFrom('courier_payouts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A line with the consignment it matched (its order's invoice, where the parcel is now). */
function linesWithParcels(db: Q) {
  return db
    .selectFrom('courier_payout_lines as l')
    .innerJoin('courier_payouts as p', 'p.id', 'l.payout_id')
    .leftJoin('consignments as c', 'c.id', 'l.consignment_ref')
    .leftJoin('sales as s', 's.id', 'c.sale_id')
    .selectAll('l')
    .select([
      'p.courier',
      'p.reference',
      'p.paid_on',
      'c.sale_id as parcel_sale_id',
      's.invoice_id as parcel_invoice',
      'c.consignment_id as parcel_consignment_id',
      'c.tracking_code as parcel_tracking_code',
      'c.status as parcel_status',
      'c.cod_amount as parcel_cod_amount',
    ]);
}
export type LineWithParcel = Awaited<ReturnType<ReturnType<typeof linesWithParcels>['execute']>>[number];

export function linesOfPayouts(db: Q, payoutIds: number[]): Promise<LineWithParcel[]> {
  return chunked(payoutIds, (part) =>
    linesWithParcels(db).where('l.payout_id', 'in', part).orderBy('l.payout_id').orderBy('l.line_no').orderBy('l.id').execute(),
  );
}

/** Lines of these outcomes over every payout (of one courier), newest payout first, at most `limit`. */
export async function linesByOutcome(db: Q, outcomes: TCodLineOutcome[], courier: TConsignmentCourier | undefined, limit: number) {
  let q = linesWithParcels(db).where('l.outcome', 'in', outcomes);
  if (courier) q = q.where('p.courier', '=', courier);
  return q.orderBy('p.paid_on', 'desc').orderBy('p.id', 'desc').orderBy('l.line_no').limit(limit).execute();
}

/** How many lines of these outcomes, what they collected, and by how much they fell short. */
export async function lineTotals(db: Q, outcomes: TCodLineOutcome[], courier: TConsignmentCourier | undefined) {
  let q = db.selectFrom('courier_payout_lines as l').innerJoin('courier_payouts as p', 'p.id', 'l.payout_id').where('l.outcome', 'in', outcomes);
  if (courier) q = q.where('p.courier', '=', courier);
  const r = await q
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      eb.fn.coalesce(eb.fn.sum<number>('l.collected'), sql<number>`0`).as('collected'),
      eb.fn.coalesce(eb.fn.sum<number>(sql`coalesce(l.cod_amount, 0) - l.collected`), sql<number>`0`).as('difference'),
    ])
    .executeTakeFirstOrThrow();
  return { count: Number(r.n), collected: Number(r.collected), difference: Number(r.difference) };
}

/** Delivered cash-on-delivery consignments no payout line settles. */
function owedParcels(db: Q, courier: TConsignmentCourier | undefined) {
  let q = db
    .selectFrom('consignments as c')
    .innerJoin('sales as s', 's.id', 'c.sale_id')
    .where('c.status', 'in', DELIVERED)
    .where('c.cod_amount', '>', 0)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('courier_payout_lines as l').select('l.id').whereRef('l.consignment_ref', '=', 'c.id').where('l.counted', '=', 1))),
    );
  if (courier) q = q.where('c.courier', '=', courier);
  return q;
}

export async function owed(db: Q, courier: TConsignmentCourier | undefined, limit: number) {
  const [items, totals] = await Promise.all([
    owedParcels(db, courier)
      .select(['c.id', 'c.sale_id', 's.invoice_id', 'c.courier', 'c.consignment_id', 'c.tracking_code', 'c.status', 'c.cod_amount', 'c.updated_at'])
      .orderBy('c.updated_at')
      .orderBy('c.id')
      .limit(limit)
      .execute(),
    owedParcels(db, courier)
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.coalesce(eb.fn.sum<number>('c.cod_amount'), sql<number>`0`).as('total')])
      .executeTakeFirstOrThrow(),
  ]);
  return { items: items as ParcelRow[], count: Number(totals.n), total: Number(totals.total) };
}

/** Over every payout (of one courier): how many, what was paid, collected and charged. */
export async function payoutTotals(db: Q, courier: TConsignmentCourier | undefined) {
  let p = db.selectFrom('courier_payouts');
  if (courier) p = p.where('courier', '=', courier);
  let l = db.selectFrom('courier_payout_lines as l').innerJoin('courier_payouts as p', 'p.id', 'l.payout_id');
  if (courier) l = l.where('p.courier', '=', courier);
  const zero = sql<number>`0`;
  const [payouts, lines] = await Promise.all([
    p.select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.coalesce(eb.fn.sum<number>('total'), zero).as('received')]).executeTakeFirstOrThrow(),
    l
      .select((eb) => [
        eb.fn.coalesce(eb.fn.sum<number>('l.collected'), zero).as('collected'),
        eb.fn.coalesce(eb.fn.sum<number>('l.delivery_charge'), zero).as('delivery'),
        eb.fn.coalesce(eb.fn.sum<number>('l.cod_charge'), zero).as('cod'),
      ])
      .executeTakeFirstOrThrow(),
  ]);
  return {
    payouts: Number(payouts.n),
    received: Number(payouts.received),
    collected: Number(lines.collected),
    deliveryCharges: Number(lines.delivery),
    codCharges: Number(lines.cod),
  };
}
