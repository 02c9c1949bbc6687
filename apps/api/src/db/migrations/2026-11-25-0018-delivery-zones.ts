import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: this file imports nothing from the app.
//
// Delivery zones (docs/decisions/0033): the fee, the free-delivery threshold and the
// estimated days of home delivery are data the back office edits, by district. Every shop
// starts with the three zones its pages describe; the zone with no districts is everywhere
// else.

export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('delivery_zones')
    .addColumn('id', isPg ? 'serial' : 'integer', (c) => (isPg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('name', 'text', (c) => c.notNull())
    // JSON array of district names; [] is the zone for every district no other zone names.
    .addColumn('districts', 'text', (c) => c.notNull())
    .addColumn('fee', 'bigint', (c) => c.notNull().check(sql`fee >= 0`))
    // Items worth at least this (poisha) are delivered free; null: never free.
    .addColumn('free_from', 'bigint', (c) => c.check(sql`free_from is null or free_from >= 0`))
    .addColumn('eta_min_days', 'integer', (c) => c.notNull().check(sql`eta_min_days >= 0`))
    .addColumn('eta_max_days', 'integer', (c) => c.notNull().check(sql`eta_max_days >= eta_min_days`))
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  const now = new Date().toISOString();
  await db
    .insertInto('delivery_zones')
    .values([
      {
        name: 'Dhaka city',
        districts: JSON.stringify(['Dhaka']),
        fee: 50_000,
        free_from: 2_000_000,
        eta_min_days: 1,
        eta_max_days: 3,
        sort_order: 0,
        updated_at: now,
      },
      {
        name: 'Dhaka suburbs',
        districts: JSON.stringify(['Gazipur', 'Narayanganj', 'Munshiganj', 'Manikganj', 'Narsingdi']),
        fee: 100_000,
        free_from: null,
        eta_min_days: 2,
        eta_max_days: 4,
        sort_order: 1,
        updated_at: now,
      },
      { name: 'Other districts', districts: '[]', fee: 150_000, free_from: null, eta_min_days: 3, eta_max_days: 7, sort_order: 2, updated_at: now },
    ])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('delivery_zones').execute();
}
