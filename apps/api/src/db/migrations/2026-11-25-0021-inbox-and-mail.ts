import { type Kysely, PostgresAdapter } from 'kysely';

// Frozen in time: this file imports nothing from the app.
//
// Subscribers, the contact inbox and the mail outbox in the back office
// (docs/decisions/0036). An unsubscribed address keeps its row with the time it left (a
// record that it asked to stop, which a later mailing must honour), rather than vanishing;
// contact messages learn when they were first read and last answered; each answer staff
// send is a row of its own, with who wrote it and the outbox row that carries it.

export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema.alterTable('email_subscriptions').addColumn('unsubscribed_at', 'text').execute();
  // 'link' (the subscriber's own, from a mail) or 'staff' (the back office, audited).
  await db.schema.alterTable('email_subscriptions').addColumn('unsubscribed_by', 'text').execute();
  await db.schema.createIndex('email_subscriptions_created_idx').on('email_subscriptions').columns(['created_at', 'id']).execute();

  await db.schema.alterTable('contact_messages').addColumn('read_at', 'text').execute();
  await db.schema.alterTable('contact_messages').addColumn('answered_at', 'text').execute();
  await db.schema.createIndex('contact_messages_created_idx').on('contact_messages').columns(['created_at', 'id']).execute();

  await db.schema
    .createTable('contact_replies')
    .addColumn('id', isPg ? 'serial' : 'integer', (c) => (isPg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('message_id', 'integer', (c) => c.notNull().references('contact_messages.id').onDelete('cascade'))
    // No foreign key to staff: a reply stays when its writer's account is removed; the name is kept as written.
    .addColumn('staff_id', 'integer')
    .addColumn('staff_name', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    // The mail_outbox row that carries the answer to the sender.
    .addColumn('mail_outbox_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('contact_replies_message_idx').on('contact_replies').columns(['message_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('contact_replies').execute();
  await db.schema.dropIndex('contact_messages_created_idx').execute();
  await db.schema.alterTable('contact_messages').dropColumn('answered_at').execute();
  await db.schema.alterTable('contact_messages').dropColumn('read_at').execute();
  await db.schema.dropIndex('email_subscriptions_created_idx').execute();
  await db.schema.alterTable('email_subscriptions').dropColumn('unsubscribed_by').execute();
  await db.schema.alterTable('email_subscriptions').dropColumn('unsubscribed_at').execute();
}
