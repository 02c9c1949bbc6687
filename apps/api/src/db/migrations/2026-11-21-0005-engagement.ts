import { type Kysely, PostgresAdapter } from 'kysely';

// Frozen in time: imports nothing from the app. Newsletter subscriptions and contact
// messages.

export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = isPg ? 'serial' : 'integer';
  const pk = (c: any) => (isPg ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('email_subscriptions')
    .addColumn('id', id, pk)
    // As the subscriber typed it (trimmed), for mail.
    .addColumn('email', 'text', (c) => c.notNull())
    // Trimmed and lower-cased: one subscription per address in any letter case. The unique
    // index is what makes ten identical requests at once create one row.
    .addColumn('email_key', 'text', (c) => c.notNull())
    // The signed-in customer who subscribed, or null for a guest. No foreign key: the
    // customers table belongs to the accounts module and a guest's row has none.
    .addColumn('customer_id', 'integer')
    .addColumn('offer', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('type', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('email_subscriptions_email_key_uq').on('email_subscriptions').column('email_key').unique().execute();
  await db.schema.createIndex('email_subscriptions_customer_idx').on('email_subscriptions').column('customer_id').execute();

  await db.schema
    .createTable('contact_messages')
    .addColumn('id', id, pk)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'integer')
    // The sender's address, for the rate limit.
    .addColumn('ip', 'text', (c) => c.notNull())
    // The mail_outbox row that carries it to the support mailbox (null until queued).
    .addColumn('mail_outbox_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('contact_messages_ip_idx').on('contact_messages').columns(['ip', 'created_at']).execute();
  await db.schema.createIndex('contact_messages_email_idx').on('contact_messages').columns(['email', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('contact_messages').execute();
  await db.schema.dropTable('email_subscriptions').execute();
}
