import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: this file imports nothing from the app.
//
// What couriers paid the shop for the cash they collected on delivery (docs/decisions/0043):
// one row per payout the courier made, one per parcel line of its report, each matched to the
// consignment it names when there is one. The same payout reference of a courier is recorded
// once (whatever its case), and a consignment is settled by one line only.

export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = isPg ? 'serial' : 'integer';
  const pk = (c: any) => (isPg ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('courier_payouts')
    .addColumn('id', id, pk)
    // 'steadfast' or 'pathao'
    .addColumn('courier', 'text', (c) => c.notNull())
    // The courier's own payout reference (its payment id, or the bank transfer's).
    .addColumn('reference', 'text', (c) => c.notNull())
    // The day the courier paid, YYYY-MM-DD.
    .addColumn('paid_on', 'text', (c) => c.notNull())
    // Poisha: what the courier paid (the lines' net), what its riders collected, its charges.
    .addColumn('total', 'bigint', (c) => c.notNull())
    .addColumn('collected', 'bigint', (c) => c.notNull())
    .addColumn('charges', 'bigint', (c) => c.notNull())
    // 'csv' (an imported report) or 'manual'
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('recorded_by', 'integer')
    .addColumn('recorded_by_name', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // The same report imported twice is refused by the database too.
  await sql`create unique index courier_payouts_reference_idx on courier_payouts (courier, upper(reference))`.execute(db);
  await db.schema.createIndex('courier_payouts_paid_idx').on('courier_payouts').columns(['paid_on', 'id']).execute();

  await db.schema
    .createTable('courier_payout_lines')
    .addColumn('id', id, pk)
    .addColumn('payout_id', 'integer', (c) => c.notNull().references('courier_payouts.id').onDelete('cascade'))
    // The report's line number (the header is line 1), or the place of a line entered by hand.
    .addColumn('line_no', 'integer', (c) => c.notNull())
    // The parcel as the courier named it.
    .addColumn('given_consignment_id', 'text')
    .addColumn('given_tracking_code', 'text')
    .addColumn('given_invoice', 'text')
    // The consignment it matched (consignments.id), if any.
    .addColumn('consignment_ref', 'integer', (c) => c.references('consignments.id').onDelete('set null'))
    // paid, short, over, already_paid, not_delivered, unmatched
    .addColumn('outcome', 'text', (c) => c.notNull())
    // 1 when this line settles its consignment.
    .addColumn('counted', 'integer', (c) => c.notNull().defaultTo(0))
    // Poisha. The consignment's cash-on-delivery amount when the line was matched, then the report's.
    .addColumn('cod_amount', 'bigint')
    .addColumn('collected', 'bigint', (c) => c.notNull())
    .addColumn('delivery_charge', 'bigint', (c) => c.notNull())
    .addColumn('cod_charge', 'bigint', (c) => c.notNull())
    .addColumn('net', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('courier_payout_lines_payout_idx').on('courier_payout_lines').columns(['payout_id', 'line_no']).execute();
  await db.schema.createIndex('courier_payout_lines_outcome_idx').on('courier_payout_lines').columns(['outcome']).execute();
  // A consignment is settled once: two payouts recorded at the same moment cannot both count it.
  await sql`create unique index courier_payout_lines_settled_idx on courier_payout_lines (consignment_ref) where counted = 1`.execute(db);
  await db.schema.createIndex('courier_payout_lines_consignment_idx').on('courier_payout_lines').columns(['consignment_ref']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('courier_payout_lines').execute();
  await db.schema.dropTable('courier_payouts').execute();
}
