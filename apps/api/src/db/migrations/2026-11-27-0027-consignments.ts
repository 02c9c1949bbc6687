import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: this file imports nothing from the app.
//
// Parcels handed to a courier (Steadfast, later Pathao) for an order, and every status the
// courier reported for them, from its webhook, from polling, or set by staff. An order has at
// most one live consignment per courier; a cancelled one stays on record (active = 0) and the
// order may be booked again.

export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = isPg ? 'serial' : 'integer';
  const pk = (c: any) => (isPg ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('consignments')
    .addColumn('id', id, pk)
    .addColumn('sale_id', 'integer', (c) => c.notNull().references('sales.id').onDelete('cascade'))
    // 'steadfast' or 'pathao'
    .addColumn('courier', 'text', (c) => c.notNull())
    // The courier's id; null while the booking request is on its way to the courier.
    .addColumn('consignment_id', 'text')
    .addColumn('tracking_code', 'text')
    // The shop's words (booked, picked_up, in_transit, delivered, …) and the courier's own.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('courier_status', 'text')
    // What the rider collects, in poisha.
    .addColumn('cod_amount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('booked_by', 'integer')
    .addColumn('booked_by_name', 'text')
    // 1 while the parcel is with the courier; 0 once it is delivered, back or cancelled.
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    // A poller holds the row until this instant, so two processes never ask about it at once.
    .addColumn('poll_claimed_until', 'text')
    .addColumn('polled_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // One live consignment per order and courier: a second booking is refused by the database too.
  await sql`create unique index consignments_live_idx on consignments (sale_id, courier) where active = 1`.execute(db);
  await db.schema.createIndex('consignments_courier_id_idx').on('consignments').columns(['courier', 'consignment_id']).execute();
  await db.schema.createIndex('consignments_poll_idx').on('consignments').columns(['active', 'updated_at']).execute();

  await db.schema
    .createTable('consignment_events')
    .addColumn('id', id, pk)
    .addColumn('consignment_id', 'integer', (c) => c.notNull().references('consignments.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('courier_status', 'text')
    .addColumn('message', 'text')
    // 'webhook', 'poll' or 'staff'
    .addColumn('source', 'text', (c) => c.notNull())
    // The same update told twice (a replayed webhook) has the same key and is kept once.
    .addColumn('dedupe_key', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('consignment_events_key_idx').on('consignment_events').columns(['consignment_id', 'dedupe_key']).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('consignment_events').execute();
  await db.schema.dropTable('consignments').execute();
}
