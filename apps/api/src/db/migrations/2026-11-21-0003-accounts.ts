import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: imports nothing from the app. Customer accounts: customers,
// their sessions and password-reset tokens, delivery addresses, the wishlist, and the
// counters behind rate limits (kept in the database so that a limit holds across a
// restart and across several server processes on one PostgreSQL database).

export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = isPg ? 'serial' : 'integer';
  const pk = (c: any) => (isPg ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('customers')
    .addColumn('id', id, pk)
    // The public id (spec §3 userId): random, so ids say nothing about how many customers there are.
    .addColumn('user_id', 'text', (c) => c.notNull().unique())
    .addColumn('full_name', 'text', (c) => c.notNull())
    // As typed (NFKC, trimmed), for mail; email_key (also lower-cased) is what is compared.
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_key', 'text', (c) => c.notNull().unique())
    // One form: +8801XXXXXXXXX for Bangladeshi mobiles, E.164 otherwise.
    .addColumn('mobile', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('image_url', 'text')
    .addColumn('image_file_uuid', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('password_changed_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('customer_sessions')
    .addColumn('id', id, pk)
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    // sha-256 of the token; the token itself is never stored.
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    // Absolute expiry; the idle expiry is last_seen_at plus the idle lifetime.
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('customer_sessions_customer_idx').on('customer_sessions').columns(['customer_id', 'revoked_at']).execute();

  await db.schema
    .createTable('password_resets')
    .addColumn('id', id, pk)
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('password_resets_customer_idx').on('password_resets').column('customer_id').execute();

  await db.schema
    .createTable('addresses')
    .addColumn('id', id, pk)
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('full_name', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('division', 'text', (c) => c.notNull())
    .addColumn('district', 'text', (c) => c.notNull())
    .addColumn('area', 'text', (c) => c.notNull())
    .addColumn('address_line', 'text', (c) => c.notNull())
    .addColumn('label', 'text')
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0).check(sql`is_default in (0, 1)`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('addresses_customer_idx').on('addresses').columns(['customer_id', 'created_at']).execute();

  await db.schema
    .createTable('wishlists')
    .addColumn('id', id, pk)
    .addColumn('customer_id', 'integer', (c) => c.notNull().unique().references('customers.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('wishlist_items')
    .addColumn('id', id, pk)
    .addColumn('wishlist_id', 'integer', (c) => c.notNull().references('wishlists.id').onDelete('cascade'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id').onDelete('cascade'))
    .addColumn('sku_code', 'text', (c) => c.notNull().references('skus.code').onDelete('cascade').onUpdate('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('wishlist_items_item_uq', ['wishlist_id', 'product_id', 'sku_code'])
    .execute();
  await db.schema.createIndex('wishlist_items_customer_idx').on('wishlist_items').columns(['customer_id', 'created_at']).execute();

  await db.schema
    .createTable('rate_limits')
    // What is limited and for whom, such as 'signin:account:<email>' or 'signin:ip:<address>'.
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('window_start', 'text', (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_limits_window_idx').on('rate_limits').column('window_start').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['rate_limits', 'wishlist_items', 'wishlists', 'addresses', 'password_resets', 'customer_sessions', 'customers']) {
    await db.schema.dropTable(t).execute();
  }
}
