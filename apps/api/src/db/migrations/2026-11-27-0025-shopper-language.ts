import type { Kysely } from 'kysely';

// Frozen in time: this file imports nothing from the app.
//
// The language each shopper reads (docs/decisions/0038), so that every mail the shop sends
// them is in Bangla or English as they use the shop: the customer's latest language, the
// language an order was placed in (the mails about it, even those staff set off, follow it),
// and the language of a subscriber and of a contact message, whose senders have no customer
// row. 'en' or 'bn'; rows from before are English.

const TABLES = ['customers', 'sales', 'email_subscriptions', 'contact_messages'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    await db.schema
      .alterTable(table)
      .addColumn('locale', 'text', (c) => c.notNull().defaultTo('en'))
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) await db.schema.alterTable(table).dropColumn('locale').execute();
}
