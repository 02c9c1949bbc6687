import type { Kysely } from 'kysely';

// Frozen in time: this file imports nothing from the app.
//
// The shop's settings and currencies in the back office (docs/decisions/0037). The settings
// stay in kvps, which the storefront reads; each group of them (brand, contact, social,
// company, payments) gets a row carrying its version, for optimistic locking, and who
// changed it last. Currencies can be disabled (hidden from the storefront) and carry the
// same version and last-change columns.

const GROUPS = ['brand', 'contact', 'social', 'company', 'payments'];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('settings_groups')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('updated_at', 'text')
    .addColumn('updated_by', 'text')
    .execute();
  await db
    .insertInto('settings_groups')
    .values(GROUPS.map((name) => ({ name, version: 1, updated_at: null, updated_by: null })))
    .execute();

  await db.schema
    .alterTable('currencies')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('currencies')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('currencies').addColumn('updated_at', 'text').execute();
  // The staff member's email: kept as text so the line still reads after their account goes.
  await db.schema.alterTable('currencies').addColumn('updated_by', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const col of ['updated_by', 'updated_at', 'version', 'enabled']) await db.schema.alterTable('currencies').dropColumn(col).execute();
  await db.schema.dropTable('settings_groups').execute();
}
