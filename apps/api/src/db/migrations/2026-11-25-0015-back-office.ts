import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: this file imports nothing from the app.
//
// The back office (docs/decisions/0031): staff are not customers. They have their own
// accounts, sessions and two-factor recovery codes; every write they make is kept in the
// audit log. Products gain a status (only published ones reach shoppers), a version for
// optimistic locking, and the slugs they had before (old addresses keep working). Stock
// changes made by staff are kept as movements, never as silent overwrites. The read side's
// version tells every process sharing the database that the catalogue changed.

export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = isPg ? 'serial' : 'integer';
  const pk = (c: any) => (isPg ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('staff')
    .addColumn('id', id, pk)
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_key', 'text', (c) => c.notNull().unique())
    .addColumn('full_name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('owner', 'manager', 'staff', 'read_only')`))
    .addColumn('password_hash', 'text', (c) => c.notNull())
    // Base32 TOTP secret (RFC 6238); set while being enrolled, confirmed by totp_enabled_at.
    .addColumn('totp_secret', 'text')
    .addColumn('totp_enabled_at', 'text')
    // The last time step a code was accepted for: a code works once.
    .addColumn('totp_last_step', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('disabled_at', 'text')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('password_changed_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('staff_sessions')
    .addColumn('id', id, pk)
    .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('staff_sessions_staff_idx').on('staff_sessions').columns(['staff_id', 'revoked_at']).execute();

  await db.schema
    .createTable('staff_recovery_codes')
    .addColumn('id', id, pk)
    .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('staff_recovery_codes_staff_idx').on('staff_recovery_codes').columns(['staff_id', 'code_hash']).execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', id, pk)
    .addColumn('staff_id', 'integer')
    .addColumn('staff_email', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('entity', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    // JSON: the entity before and after the write, and the fields that changed.
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .addColumn('diff', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_created_idx').on('audit_log').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('audit_log_entity_idx').on('audit_log').columns(['entity', 'entity_id', 'id']).execute();

  await db.schema
    .alterTable('products')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('published'))
    .execute();
  await db.schema
    .alterTable('products')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('products').addColumn('updated_at', 'text').execute();
  // Categories and attributes are edited in the back office too, with the same check.
  await db.schema
    .alterTable('categories')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('attributes')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.createIndex('products_status_idx').on('products').columns(['status', 'id']).execute();

  await db.schema
    .createTable('product_slug_redirects')
    .addColumn('slug', 'text', (c) => c.primaryKey())
    .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema.alterTable('skus').addColumn('low_stock_threshold', 'integer').execute();

  // A product picture uploaded through the files endpoints: the file is the product's now,
  // and the sweep of unreferenced guest files must leave it alone.
  await db.schema.alterTable('product_images').addColumn('file_uuid', 'text').execute();
  await db.schema.createIndex('product_images_file_idx').on('product_images').column('file_uuid').execute();

  await db.schema
    .createTable('stock_movements')
    .addColumn('id', id, pk)
    .addColumn('sku_id', 'integer', (c) => c.notNull().references('skus.id').onDelete('cascade'))
    .addColumn('branch_id', 'integer', (c) => c.notNull().references('branches.id').onDelete('cascade'))
    .addColumn('delta', 'integer', (c) => c.notNull())
    .addColumn('quantity_after', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull().check(sql`reason in ('received', 'sold', 'returned', 'correction')`))
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('staff_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('stock_movements_sku_idx').on('stock_movements').columns(['sku_id', 'id']).execute();

  // "Has this product or sku been ordered?" decides whether it may be removed.
  await db.schema.createIndex('sale_lines_product_idx').on('sale_lines').column('product_id').execute();
  await db.schema.createIndex('sale_lines_sku_idx').on('sale_lines').column('sku_id').execute();

  // A back-office write replaces one product's rows of the category listings.
  await db.schema.createIndex('category_listing_product_idx').on('category_listing').column('product_id').execute();

  await db.schema
    .createTable('read_side_version')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('changed_at', 'text', (c) => c.notNull())
    .execute();
  await sql`insert into read_side_version (id, version, changed_at) values (1, 0, '1970-01-01T00:00:00.000Z')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('read_side_version').execute();
  await db.schema.dropIndex('category_listing_product_idx').execute();
  await db.schema.dropIndex('sale_lines_sku_idx').execute();
  await db.schema.dropIndex('sale_lines_product_idx').execute();
  await db.schema.dropTable('stock_movements').execute();
  await db.schema.dropIndex('product_images_file_idx').execute();
  await db.schema.alterTable('product_images').dropColumn('file_uuid').execute();
  await db.schema.alterTable('skus').dropColumn('low_stock_threshold').execute();
  await db.schema.dropTable('product_slug_redirects').execute();
  await db.schema.dropIndex('products_status_idx').execute();
  await db.schema.alterTable('attributes').dropColumn('version').execute();
  await db.schema.alterTable('categories').dropColumn('version').execute();
  await db.schema.alterTable('products').dropColumn('updated_at').execute();
  await db.schema.alterTable('products').dropColumn('version').execute();
  await db.schema.alterTable('products').dropColumn('status').execute();
  await db.schema.dropTable('audit_log').execute();
  await db.schema.dropTable('staff_recovery_codes').execute();
  await db.schema.dropTable('staff_sessions').execute();
  await db.schema.dropTable('staff').execute();
}
