import { type Kysely, sql } from 'kysely';

// Limits on what one client may hold in unpaid orders and bookings, and bookings that
// release their stock when they are not paid in time (docs/decisions/0022). Frozen in
// time: this file imports nothing from the app.

export async function up(db: Kysely<any>): Promise<void> {
  // The client address that placed the sale: units held by unpaid sales are capped per address.
  await db.schema.alterTable('sales').addColumn('client_address', 'text').execute();
  // When an unpaid booking with no payment proof is released; null never (orders, and
  // bookings a person has confirmed).
  await db.schema.alterTable('sales').addColumn('hold_until', 'text').execute();
  await db.schema.createIndex('sales_client_address_idx').on('sales').column('client_address').execute();
  await db.schema.createIndex('sales_contact_email_idx').on('sales').expression(sql`lower(contact_email)`).execute();
  await db.schema.createIndex('sales_contact_mobile_idx').on('sales').column('contact_mobile').execute();
  await db.schema.createIndex('sales_hold_until_idx').on('sales').columns(['status', 'hold_until']).execute();
  // Bookings already open keep their stock for the default hold from now on, not from
  // when they were placed: nobody's booking ends the moment this ships.
  const until = new Date(Date.now() + 48 * 3_600_000).toISOString();
  await db
    .updateTable('sales')
    .set({ hold_until: until })
    .where('kind', '=', 'booking')
    .where('status', '=', 'booked')
    .where('payment_status', '=', 'unpaid')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of ['sales_hold_until_idx', 'sales_contact_mobile_idx', 'sales_contact_email_idx', 'sales_client_address_idx']) {
    await db.schema.dropIndex(index).execute();
  }
  await db.schema.alterTable('sales').dropColumn('hold_until').execute();
  await db.schema.alterTable('sales').dropColumn('client_address').execute();
}
