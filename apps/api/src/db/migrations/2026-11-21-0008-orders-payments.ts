import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Orders, bookings, their payments and the stock they hold. Frozen in time:
// this file imports nothing from the app.

export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = isPg ? 'serial' : 'integer';
  const pk = (c: any) => (isPg ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('sales')
    .addColumn('id', id, pk)
    .addColumn('invoice_id', 'text', (c) => c.notNull().unique())
    // 'order' or 'booking' (pay later)
    .addColumn('kind', 'text', (c) => c.notNull())
    // null for a guest; a guest's contact details are below
    .addColumn('customer_id', 'integer', (c) => c.references('customers.id'))
    .addColumn('contact_name', 'text', (c) => c.notNull())
    .addColumn('contact_mobile', 'text', (c) => c.notNull())
    .addColumn('contact_email', 'text', (c) => c.notNull())
    // sha256 of the guest's order-access token (decision 0018); null for customers
    .addColumn('access_token_hash', 'text')
    .addColumn('delivery_method', 'text', (c) => c.notNull())
    // JSON snapshot: the address as it was when the order was placed
    .addColumn('delivery_address', 'text', (c) => c.notNull())
    .addColumn('pickup_branch_id', 'integer', (c) => c.references('branches.id'))
    // the branch that supplied most of the reserved stock (details in stock_reservations)
    .addColumn('branch_id', 'integer', (c) => c.references('branches.id'))
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('BDT'))
    .addColumn('subtotal', 'bigint', (c) => c.notNull().check(sql`subtotal >= 0`))
    .addColumn('discount_total', 'bigint', (c) => c.notNull().check(sql`discount_total >= 0`))
    .addColumn('coupon_code', 'text')
    .addColumn('coupon_discount', 'bigint', (c) => c.notNull().defaultTo(0).check(sql`coupon_discount >= 0`))
    .addColumn('delivery_fee', 'bigint', (c) => c.notNull().defaultTo(0).check(sql`delivery_fee >= 0`))
    .addColumn('total', 'bigint', (c) => c.notNull().check(sql`total >= 0`))
    // 'card', 'cod' or 'later'
    .addColumn('payment_method', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('payment_status', 'text', (c) => c.notNull())
    // 1 while the sale holds stock; flipped with a conditional update so that stock is
    // released exactly once however many cancellations race
    .addColumn('stock_held', 'integer', (c) => c.notNull().defaultTo(0))
    // 1 while the sale counts as a use of its coupon
    .addColumn('coupon_held', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('note', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('paid_at', 'text')
    .addColumn('cancelled_at', 'text')
    .addColumn('fulfilled_at', 'text')
    .execute();
  await db.schema.createIndex('sales_customer_idx').on('sales').columns(['customer_id', 'created_at']).execute();
  await db.schema.createIndex('sales_status_idx').on('sales').columns(['status', 'updated_at']).execute();

  await db.schema
    .createTable('sale_lines')
    .addColumn('id', id, pk)
    .addColumn('sale_id', 'integer', (c) => c.notNull().references('sales.id').onDelete('cascade'))
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('sku_id', 'integer', (c) => c.notNull().references('skus.id'))
    .addColumn('sku_code', 'text', (c) => c.notNull())
    .addColumn('product_id', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('variant', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('image_url', 'text')
    .addColumn('source_type', 'text')
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    // list price of one unit
    .addColumn('unit_price', 'bigint', (c) => c.notNull().check(sql`unit_price >= 0`))
    // what global discounts took off the whole line
    .addColumn('discount', 'bigint', (c) => c.notNull().check(sql`discount >= 0`))
    // unit_price * quantity - discount
    .addColumn('line_total', 'bigint', (c) => c.notNull().check(sql`line_total >= 0`))
    .addUniqueConstraint('sale_lines_sale_line_uq', ['sale_id', 'line_no'])
    .execute();

  await db.schema
    .createTable('sale_status_history')
    .addColumn('id', id, pk)
    .addColumn('sale_id', 'integer', (c) => c.notNull().references('sales.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('payment_status', 'text', (c) => c.notNull())
    // 'customer', 'guest', 'provider', 'system'
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sale_status_history_sale_idx').on('sale_status_history').columns(['sale_id', 'id']).execute();

  await db.schema
    .createTable('stock_reservations')
    .addColumn('id', id, pk)
    .addColumn('sale_id', 'integer', (c) => c.notNull().references('sales.id').onDelete('cascade'))
    .addColumn('sku_id', 'integer', (c) => c.notNull())
    .addColumn('branch_id', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('released_at', 'text')
    .execute();
  await db.schema.createIndex('stock_reservations_sale_idx').on('stock_reservations').columns(['sale_id', 'released_at']).execute();

  await db.schema
    .createTable('payments')
    .addColumn('id', id, pk)
    .addColumn('sale_id', 'integer', (c) => c.notNull().references('sales.id').onDelete('cascade'))
    // 'sandbox' or 'sslcommerz'
    .addColumn('provider', 'text', (c) => c.notNull())
    // ours, random, sent to the provider; the key every notification is matched by
    .addColumn('tran_id', 'text', (c) => c.notNull().unique())
    // the provider's validation id; unique so that one payment can never pay two orders
    .addColumn('val_id', 'text', (c) => c.unique())
    .addColumn('session_key', 'text')
    .addColumn('gateway_url', 'text')
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount >= 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    // 'initiated', 'valid', 'review', 'failed', 'cancelled', 'expired'
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('risk_level', 'integer')
    .addColumn('bank_tran_id', 'text')
    .addColumn('card_type', 'text')
    // JSON: what the provider's validation answered (secrets removed)
    .addColumn('raw_verification', 'text')
    .addColumn('failure_reason', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('verified_at', 'text')
    .execute();
  await db.schema.createIndex('payments_sale_idx').on('payments').columns(['sale_id', 'id']).execute();

  await db.schema
    .createTable('sale_attachments')
    .addColumn('id', id, pk)
    .addColumn('sale_id', 'integer', (c) => c.notNull().references('sales.id').onDelete('cascade'))
    .addColumn('file_uuid', 'text', (c) => c.notNull())
    // 'payment_proof'
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('sale_attachments_sale_file_uq', ['sale_id', 'file_uuid'])
    .execute();

  // The built-in sandbox gateway's own records (decision 0017): what a real gateway keeps
  // on its side, here in our database so that several server processes share it.
  await db.schema
    .createTable('sandbox_payment_sessions')
    .addColumn('id', id, pk)
    .addColumn('session_key', 'text', (c) => c.notNull().unique())
    .addColumn('tran_id', 'text', (c) => c.notNull().unique())
    .addColumn('val_id', 'text', (c) => c.unique())
    // the decimal text the merchant sent, as a gateway keeps it ("1234.50")
    .addColumn('amount', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('success_url', 'text', (c) => c.notNull())
    .addColumn('fail_url', 'text', (c) => c.notNull())
    .addColumn('cancel_url', 'text', (c) => c.notNull())
    .addColumn('ipn_url', 'text')
    .addColumn('customer_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('product_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('value_a', 'text')
    // 'PENDING', 'VALID', 'VALIDATED', 'FAILED', 'CANCELLED'
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('risk_level', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['sandbox_payment_sessions', 'sale_attachments', 'payments', 'stock_reservations', 'sale_status_history', 'sale_lines', 'sales']) {
    await db.schema.dropTable(t).execute();
  }
}
