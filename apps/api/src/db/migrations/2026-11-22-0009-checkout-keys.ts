import type { Kysely } from 'kysely';

// Idempotency keys of POST /api/checkouts: a checkout sent again with the same key (a
// retry after a lost answer, a second click, another tab) answers the order the first one
// placed instead of placing a second. Frozen in time: this file imports nothing from the app.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('checkout_keys')
    // The client's key, as sent in the Idempotency-Key header.
    .addColumn('key', 'text', (c) => c.primaryKey())
    // 'customer:<id>' or 'guest': a key is only ever replayed to whoever placed the order.
    .addColumn('owner', 'text', (c) => c.notNull())
    // SHA-256 of the request as parsed: the same key with another request is refused.
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('sale_id', 'integer', (c) => c.notNull().references('sales.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('checkout_keys_created_idx').on('checkout_keys').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('checkout_keys').execute();
}
