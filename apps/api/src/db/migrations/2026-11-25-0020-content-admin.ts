import type { Kysely } from 'kysely';

// Frozen in time: this file imports nothing from the app.
//
// Content, pages and showrooms in the back office (docs/decisions/0035):
// - cms_content gets `version` (optimistic locking), `active` (on/off, 0/1) and a schedule
//   (`shown_from`, `shown_until`: ISO 8601 UTC text, null for open-ended). The storefront
//   serves only active items inside their window.
// - branches get `hidden` (a branch that stock or orders still refer to cannot be removed;
//   hiding takes it off the storefront) and `version`.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('cms_content')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('cms_content')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('cms_content').addColumn('shown_from', 'text').execute();
  await db.schema.alterTable('cms_content').addColumn('shown_until', 'text').execute();
  // The storefront reads content by type, in order (the home page, the pop-ups, the pages).
  await db.schema.createIndex('cms_content_type_order').ifNotExists().on('cms_content').columns(['type', 'sort_order', 'id']).execute();

  await db.schema
    .alterTable('branches')
    .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('branches')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('cms_content_type_order').ifExists().execute();
  for (const col of ['shown_until', 'shown_from', 'active', 'version']) await db.schema.alterTable('cms_content').dropColumn(col).execute();
  for (const col of ['version', 'hidden']) await db.schema.alterTable('branches').dropColumn(col).execute();
}
