import { type Kysely, PostgresAdapter } from 'kysely';

// Upload quotas (docs/decisions/0024): the client address a guest's file or multipart
// upload came from (a guest's quota is per address), and holds: room reserved for an
// upload whose bytes are still arriving, counted against the quota until the file is
// stored or the upload fails. A hold has an expiry, so one left behind by a process that
// died mid-upload stops counting by itself.

export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema.alterTable('files').addColumn('owner_address', 'text').execute();
  await db.schema.alterTable('file_uploads').addColumn('owner_address', 'text').execute();
  // A guest's usage is summed by address; the sweep reads guest files by age
  // (files_owner_idx on owner_customer_id, created_at serves it).
  await db.schema.createIndex('files_owner_address_idx').on('files').columns(['owner_address']).execute();
  await db.schema.createIndex('file_uploads_owner_idx').on('file_uploads').columns(['owner_customer_id', 'owner_address']).execute();

  await db.schema
    .createTable('file_quota_holds')
    .addColumn('id', isPg ? 'serial' : 'integer', (c) => (isPg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    // A customer's hold has the customer; a guest's has none and the client address.
    .addColumn('owner_customer_id', 'integer')
    .addColumn('owner_address', 'text')
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('file_quota_holds_owner_idx').on('file_quota_holds').columns(['owner_customer_id', 'owner_address']).execute();
  await db.schema.createIndex('file_quota_holds_expiry_idx').on('file_quota_holds').columns(['expires_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('file_quota_holds').execute();
  await db.schema.dropIndex('file_uploads_owner_idx').execute();
  await db.schema.dropIndex('files_owner_address_idx').execute();
  await db.schema.alterTable('file_uploads').dropColumn('owner_address').execute();
  await db.schema.alterTable('files').dropColumn('owner_address').execute();
}
