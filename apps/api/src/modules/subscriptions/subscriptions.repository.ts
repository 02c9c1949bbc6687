import type { Locale } from '@storefront/shared';
import type { Insertable, Kysely } from 'kysely';
import type { Database, EmailSubscriptionsTable } from '../../db/schema.ts';

const COLUMNS = ['id', 'email', 'email_key', 'customer_id', 'offer', 'type', 'created_at'] as const;

/**
 * Inserts unless the address is already there (in any letter case). ON CONFLICT DO
 * NOTHING on the unique email_key: concurrent identical requests never fail with a
 * constraint error, exactly one of them gets the row back.
 */
export function insertSubscriptionIfNew(db: Kysely<Database>, row: Insertable<EmailSubscriptionsTable>) {
  return db
    .insertInto('email_subscriptions')
    .values(row)
    .onConflict((oc) => oc.column('email_key').doNothing())
    .returning(COLUMNS)
    .executeTakeFirst();
}

/** A guest's subscription becomes the customer's when they subscribe again signed in. */
export function claimGuestSubscription(db: Kysely<Database>, emailKey: string, customerId: number) {
  return db.updateTable('email_subscriptions').set({ customer_id: customerId }).where('email_key', '=', emailKey).where('customer_id', 'is', null).execute();
}

/**
 * An address that unsubscribed (docs/decisions/0036) subscribes again: its row is reused,
 * with the new offer. Conditional on it being unsubscribed, so of several requests at once
 * exactly one gets the row back (the others answer 409, as for a new row).
 */
export function resubscribe(db: Kysely<Database>, emailKey: string, row: { customerId: number | null; offer: string; type: string; locale: Locale | null }) {
  return db
    .updateTable('email_subscriptions')
    .set((eb) => ({
      unsubscribed_at: null,
      unsubscribed_by: null,
      offer: row.offer,
      type: row.type,
      // Subscribing again in a language says which one its mails should use; without one, the old stays.
      ...(row.locale ? { locale: row.locale } : {}),
      customer_id: row.customerId === null ? eb.ref('customer_id') : eb.fn.coalesce('customer_id', eb.val(row.customerId)),
    }))
    .where('email_key', '=', emailKey)
    .where('unsubscribed_at', 'is not', null)
    .returning(COLUMNS)
    .executeTakeFirst();
}

// Only subscriptions in force: an address that unsubscribed is no longer subscribed.
export function findSubscriptionByCustomer(db: Kysely<Database>, customerId: number) {
  return db
    .selectFrom('email_subscriptions')
    .select(COLUMNS)
    .where('customer_id', '=', customerId)
    .where('unsubscribed_at', 'is', null)
    .orderBy('id')
    .executeTakeFirst();
}

export function findSubscriptionByEmailKey(db: Kysely<Database>, emailKey: string) {
  return db.selectFrom('email_subscriptions').select(COLUMNS).where('email_key', '=', emailKey).where('unsubscribed_at', 'is', null).executeTakeFirst();
}

/** The address of a customer's account (the accounts module's table). */
export function findCustomerEmail(db: Kysely<Database>, customerId: number) {
  return db.selectFrom('customers').select('email').where('id', '=', customerId).executeTakeFirst();
}
