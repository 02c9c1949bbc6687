import { type Kysely, PostgresAdapter } from 'kysely';

// Frozen in time: this file imports nothing from the app.
//
// Staff invitations (docs/decisions/0031): an owner adds a member by mail; the member
// chooses their own password through a one-use link. Until then the account has no
// password (an empty hash, which no password matches).

export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('staff_invites')
    .addColumn('id', isPg ? 'serial' : 'integer', (c) => (isPg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff.id').onDelete('cascade'))
    // sha-256 of the token mailed; the token itself is never stored.
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('staff_invites_staff').on('staff_invites').column('staff_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('staff_invites').execute();
}
