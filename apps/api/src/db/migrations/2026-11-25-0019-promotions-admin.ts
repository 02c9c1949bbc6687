import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the app.
//
// Promotions in the back office (docs/decisions/0034): global discounts and coupons are
// edited with optimistic locking, so each gets a version and the time of its last change;
// coupon codes are unique whatever their case (shoppers' codes are upper-cased before
// lookup, so "save10" beside "SAVE10" could never be used), kept by an index on the
// upper-cased code as well as by the service.

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['global_discounts', 'coupons']) {
    await db.schema
      .alterTable(table)
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema.alterTable(table).addColumn('updated_at', 'text').execute();
  }
  await db.schema.createIndex('coupons_code_upper_uq').on('coupons').expression(sql`upper(code)`).unique().execute();
  // The usage view lists a coupon's uses newest first.
  await db.schema.createIndex('coupon_usages_coupon_created_idx').on('coupon_usages').columns(['coupon_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('coupon_usages_coupon_created_idx').execute();
  await db.schema.dropIndex('coupons_code_upper_uq').execute();
  for (const table of ['global_discounts', 'coupons']) {
    await db.schema.alterTable(table).dropColumn('updated_at').execute();
    await db.schema.alterTable(table).dropColumn('version').execute();
  }
}
