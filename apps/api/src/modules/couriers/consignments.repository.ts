import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { ConsignmentEventsTable, ConsignmentsTable, Database } from '../../db/schema.ts';
import type { CourierName } from './courier.ts';

// Every query about consignments and their status history (docs/decisions/0040).

type Q = Kysely<Database> | Transaction<Database>;

export type ConsignmentRow = Selectable<ConsignmentsTable>;
export type ConsignmentEventRow = Selectable<ConsignmentEventsTable>;

export function liveConsignmentOf(db: Q, saleId: number) {
  return db.selectFrom('consignments').selectAll().where('sale_id', '=', saleId).where('active', '=', 1).orderBy('id', 'desc').executeTakeFirst();
}

/** The order's newest consignment, live or not. */
export function latestConsignmentOf(db: Q, saleId: number) {
  return db.selectFrom('consignments').selectAll().where('sale_id', '=', saleId).orderBy('id', 'desc').executeTakeFirst();
}

export function consignmentByCourierId(db: Q, courier: CourierName, consignmentId: string) {
  return db
    .selectFrom('consignments')
    .selectAll()
    .where('courier', '=', courier)
    .where('consignment_id', '=', consignmentId)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export async function insertConsignment(db: Q, row: Insertable<ConsignmentsTable>): Promise<number> {
  const r = await db.insertInto('consignments').values(row).returning('id').executeTakeFirstOrThrow();
  return r.id;
}

/** How many consignments the order has had with this courier (the claim being made not counted). */
export async function consignmentCount(db: Q, saleId: number, courier: CourierName): Promise<number> {
  const r = await db
    .selectFrom('consignments')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('sale_id', '=', saleId)
    .where('courier', '=', courier)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

export function deleteConsignment(db: Q, id: number) {
  return db.deleteFrom('consignments').where('id', '=', id).execute();
}

export function markBooked(
  db: Q,
  id: number,
  set: { consignment_id: string; tracking_code: string | null; status: string; courier_status: string; delivery_fee: number | null; updated_at: string },
) {
  return db.updateTable('consignments').set(set).where('id', '=', id).execute();
}

/**
 * The courier's new status, only if it differs from the one recorded: a replayed webhook, or
 * a poll that hears what the webhook already said, changes nothing. Returns whether it changed.
 */
export async function changeStatus(db: Q, id: number, courierStatus: string, set: { status: string; active: number; updated_at: string }): Promise<boolean> {
  const r = await db
    .updateTable('consignments')
    .set({ ...set, courier_status: courierStatus })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('courier_status', 'is', null), eb('courier_status', '<>', courierStatus)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Adds one line to a consignment's history; the same key twice is kept once. */
export async function insertEvent(db: Q, row: Insertable<ConsignmentEventsTable>): Promise<void> {
  await db
    .insertInto('consignment_events')
    .values(row)
    .onConflict((oc) => oc.columns(['consignment_id', 'dedupe_key']).doNothing())
    .execute();
}

export function eventsOf(db: Q, consignmentIds: number[]) {
  if (!consignmentIds.length) return Promise.resolve([] as ConsignmentEventRow[]);
  return db.selectFrom('consignment_events').selectAll().where('consignment_id', 'in', consignmentIds).orderBy('at').orderBy('id').execute();
}

/** The newest consignment of each of these orders. */
export async function latestConsignmentsOf(db: Q, saleIds: number[]): Promise<ConsignmentRow[]> {
  if (!saleIds.length) return [];
  const rows = await db.selectFrom('consignments').selectAll().where('sale_id', 'in', saleIds).orderBy('id', 'desc').execute();
  const newest = new Map<number, ConsignmentRow>();
  for (const r of rows) if (!newest.has(r.sale_id)) newest.set(r.sale_id, r);
  return [...newest.values()];
}

/** Live consignments not heard of since `before`, for the poller, oldest first. */
export function staleConsignments(db: Q, courier: CourierName, before: string, now: string, limit: number) {
  return db
    .selectFrom('consignments')
    .select(['id', 'consignment_id'])
    .where('courier', '=', courier)
    .where('active', '=', 1)
    .where('consignment_id', 'is not', null)
    .where('updated_at', '<', before)
    .where((eb) => eb.or([eb('polled_at', 'is', null), eb('polled_at', '<', before)]))
    .where((eb) => eb.or([eb('poll_claimed_until', 'is', null), eb('poll_claimed_until', '<', now)]))
    .orderBy('updated_at')
    .limit(limit)
    .execute();
}

/** Takes a consignment for one poller until `until`, if no other poller holds it now. */
export async function claimForPoll(db: Q, id: number, now: string, until: string): Promise<boolean> {
  const r = await db
    .updateTable('consignments')
    .set({ poll_claimed_until: until })
    .where('id', '=', id)
    .where('active', '=', 1)
    .where((eb) => eb.or([eb('poll_claimed_until', 'is', null), eb('poll_claimed_until', '<', now)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export function releasePoll(db: Q, id: number, polledAt: string) {
  return db.updateTable('consignments').set({ poll_claimed_until: null, polled_at: polledAt }).where('id', '=', id).execute();
}
