import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: this file imports nothing from the app.
//
// The life of an order in the back office (docs/decisions/0032): fulfilment steps with who
// took them, staff notes, payment proofs checked by staff, cash collected on delivery,
// returned lines, refunds (through the card gateway or recorded by hand), and customers
// whose sign-in staff have blocked.

export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = isPg ? 'serial' : 'integer';
  const pk = (c: any) => (isPg ? c.primaryKey() : c.primaryKey().autoIncrement());

  // What has been received and handed back, in poisha: card payments verified, proofs
  // accepted, cash collected; refunds recorded. A refund never exceeds amount_paid - refunded_total.
  await db.schema
    .alterTable('sales')
    .addColumn('amount_paid', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('sales')
    .addColumn('refunded_total', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('sales').addColumn('confirmed_at', 'text').execute();
  await db.schema.alterTable('sales').addColumn('packed_at', 'text').execute();
  await db.schema.alterTable('sales').addColumn('shipped_at', 'text').execute();
  await db.schema.alterTable('sales').addColumn('returned_at', 'text').execute();
  await db.schema.alterTable('sales').addColumn('cod_collected_at', 'text').execute();
  await db.schema.alterTable('sales').addColumn('cod_collected_by', 'text').execute();
  await sql`update sales set amount_paid = total where payment_status in ('paid', 'review')`.execute(db);
  await db.schema.createIndex('sales_created_idx').on('sales').column('created_at').execute();

  await db.schema
    .alterTable('sale_lines')
    .addColumn('returned_quantity', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  // Who moved the order: a staff member's id and name (kept if the account is later removed).
  await db.schema.alterTable('sale_status_history').addColumn('staff_id', 'integer').execute();
  await db.schema.alterTable('sale_status_history').addColumn('staff_name', 'text').execute();

  // A payment proof is checked by staff: accepted (with the amount received) or rejected
  // with a reason the shopper reads.
  await db.schema
    .alterTable('sale_attachments')
    .addColumn('review_status', 'text', (c) => c.notNull().defaultTo('pending'))
    .execute();
  await db.schema.alterTable('sale_attachments').addColumn('review_note', 'text').execute();
  await db.schema.alterTable('sale_attachments').addColumn('reviewed_at', 'text').execute();
  await db.schema.alterTable('sale_attachments').addColumn('reviewed_by', 'text').execute();
  await db.schema.alterTable('sale_attachments').addColumn('amount', 'bigint').execute();

  await db.schema
    .createTable('sale_notes')
    .addColumn('id', id, pk)
    .addColumn('sale_id', 'integer', (c) => c.notNull().references('sales.id').onDelete('cascade'))
    .addColumn('staff_id', 'integer')
    .addColumn('staff_name', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sale_notes_sale_idx').on('sale_notes').columns(['sale_id', 'id']).execute();

  await db.schema
    .createTable('refunds')
    .addColumn('id', id, pk)
    .addColumn('sale_id', 'integer', (c) => c.notNull().references('sales.id').onDelete('cascade'))
    // The card payment refunded through its gateway; null for a refund recorded by hand.
    .addColumn('payment_id', 'integer', (c) => c.references('payments.id'))
    // 'gateway', 'bank', 'cash' or 'wallet'
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount > 0`))
    // JSON [{ lineNo, quantity }] when refunded by line; null for an amount.
    .addColumn('lines', 'text')
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    // The bank or cash reference staff typed, or the gateway's refund reference.
    .addColumn('reference', 'text')
    // 'processing' (the gateway has it), 'refunded', 'failed'
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('failure_reason', 'text')
    .addColumn('raw', 'text')
    // The same key twice is the same refund (a double click, a retried request).
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('staff_id', 'integer')
    .addColumn('staff_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('refunds_sale_idx').on('refunds').columns(['sale_id', 'id']).execute();
  await db.schema.createIndex('refunds_created_idx').on('refunds').column('created_at').execute();

  // The sandbox gateway's own record of refunds (it imitates SSLCommerz's refund API).
  await db.schema
    .createTable('sandbox_refunds')
    .addColumn('id', id, pk)
    .addColumn('refund_ref_id', 'text', (c) => c.notNull().unique())
    .addColumn('bank_tran_id', 'text', (c) => c.notNull())
    .addColumn('refe_id', 'text')
    .addColumn('amount', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema.alterTable('customers').addColumn('blocked_at', 'text').execute();
  await db.schema.alterTable('customers').addColumn('blocked_reason', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sandbox_refunds').execute();
  await db.schema.dropTable('refunds').execute();
  await db.schema.dropTable('sale_notes').execute();
}
