import type { Locale } from '@storefront/shared';
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import type { CustomersTable, Database } from '../../db/schema.ts';

export type CustomerRow = Selectable<CustomersTable>;
type Q = Kysely<Database> | Transaction<Database>;

// All SQL of customers, sessions and password resets.

export function findCustomerById(db: Q, id: number) {
  return db.selectFrom('customers').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findCustomerByEmailKey(db: Q, emailKey: string) {
  return db.selectFrom('customers').selectAll().where('email_key', '=', emailKey).executeTakeFirst();
}

export function findCustomerByMobile(db: Q, mobile: string) {
  return db.selectFrom('customers').selectAll().where('mobile', '=', mobile).executeTakeFirst();
}

/** Which of an email and a mobile already belong to an account (other than `exceptId`). */
export async function takenBy(db: Q, emailKey: string | null, mobile: string | null, exceptId?: number) {
  const rows = await db
    .selectFrom('customers')
    .select(['id', 'email_key', 'mobile'])
    .where((eb) => {
      const ors = [];
      if (emailKey) ors.push(eb('email_key', '=', emailKey));
      if (mobile) ors.push(eb('mobile', '=', mobile));
      return eb.or(ors);
    })
    .$if(exceptId !== undefined, (q) => q.where('id', '!=', exceptId!))
    .execute();
  return { email: rows.some((r) => r.email_key === emailKey), mobile: rows.some((r) => r.mobile === mobile) };
}

export function insertCustomer(
  db: Q,
  c: { userId: string; fullName: string; email: string; emailKey: string; mobile: string; passwordHash: string; now: string; locale: Locale },
) {
  return db
    .insertInto('customers')
    .values({
      user_id: c.userId,
      full_name: c.fullName,
      email: c.email,
      email_key: c.emailKey,
      mobile: c.mobile,
      password_hash: c.passwordHash,
      image_url: null,
      image_file_uuid: null,
      created_at: c.now,
      updated_at: c.now,
      password_changed_at: c.now,
      locale: c.locale,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Gives a new account the orders its owner placed as a guest: those with no account whose
 * contact email (in any letter case) and mobile are both the account's. Both, not either:
 * sign-up verifies neither the email nor the mobile, so matching one alone would let a
 * stranger who knows someone's email or number sign up with it and read their orders,
 * delivery address included.
 */
export async function attachGuestSales(db: Q, customerId: number, emailKey: string, mobile: string): Promise<number> {
  const res = await db
    .updateTable('sales')
    .set({ customer_id: customerId })
    .where('customer_id', 'is', null)
    .where(sql<string>`lower(contact_email)`, '=', emailKey)
    .where('contact_mobile', '=', mobile)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

export function updateCustomerProfile(db: Q, id: number, p: { fullName: string; mobile: string; now: string }) {
  return db.updateTable('customers').set({ full_name: p.fullName, mobile: p.mobile, updated_at: p.now }).where('id', '=', id).execute();
}

/** The language the customer now uses the shop in, for their mails (docs/decisions/0038); a no-op when unchanged. */
export function updateCustomerLocale(db: Q, id: number, locale: Locale) {
  return db.updateTable('customers').set({ locale }).where('id', '=', id).where('locale', '!=', locale).execute();
}

export function updateCustomerImage(db: Q, id: number, p: { imageUrl: string; fileUuid: string; now: string }) {
  return db.updateTable('customers').set({ image_url: p.imageUrl, image_file_uuid: p.fileUuid, updated_at: p.now }).where('id', '=', id).execute();
}

export function updatePasswordHash(db: Q, id: number, passwordHash: string, now: string, changed = true) {
  return db
    .updateTable('customers')
    .set(changed ? { password_hash: passwordHash, password_changed_at: now, updated_at: now } : { password_hash: passwordHash })
    .where('id', '=', id)
    .execute();
}

/** The newsletter subscription of this customer or of their email. */
export async function isSubscribed(db: Q, customerId: number, emailKey: string): Promise<boolean> {
  const row = await db
    .selectFrom('email_subscriptions')
    .select('id')
    .where((eb) => eb.or([eb('customer_id', '=', customerId), eb('email_key', '=', emailKey)]))
    // An address that unsubscribed keeps its row (docs/decisions/0036) but is not subscribed.
    .where('unsubscribed_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return !!row;
}

// ---------------------------------------------------------------------------
// Sessions

export function insertSession(db: Q, s: { customerId: number; tokenHash: string; now: string; expiresAt: string; userAgent: string; ip: string }) {
  return db
    .insertInto('customer_sessions')
    .values({
      customer_id: s.customerId,
      token_hash: s.tokenHash,
      created_at: s.now,
      last_seen_at: s.now,
      expires_at: s.expiresAt,
      revoked_at: null,
      user_agent: s.userAgent,
      ip: s.ip,
    })
    .returning(['id'])
    .executeTakeFirstOrThrow();
}

/**
 * The live session with this token hash: not revoked, not past its absolute or idle expiry,
 * and of a customer staff have not blocked (blocking revokes their sessions too; this also
 * covers one made while the block was being written, docs/decisions/0032).
 */
export function findLiveSession(db: Q, tokenHash: string, now: string, idleSince: string) {
  return db
    .selectFrom('customer_sessions')
    .innerJoin('customers', 'customers.id', 'customer_sessions.customer_id')
    .select(['customer_sessions.id', 'customer_sessions.customer_id', 'customer_sessions.last_seen_at'])
    .where('customer_sessions.token_hash', '=', tokenHash)
    .where('customer_sessions.revoked_at', 'is', null)
    .where('customer_sessions.expires_at', '>', now)
    .where('customer_sessions.last_seen_at', '>', idleSince)
    .where('customers.blocked_at', 'is', null)
    .executeTakeFirst();
}

export function touchSession(db: Q, id: number, now: string) {
  return db.updateTable('customer_sessions').set({ last_seen_at: now }).where('id', '=', id).execute();
}

export function revokeSession(db: Q, id: number, now: string) {
  return db.updateTable('customer_sessions').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).execute();
}

/** Revokes every live session of a customer but `exceptId`; answers how many. */
export async function revokeCustomerSessions(db: Q, customerId: number, now: string, exceptId?: number | null): Promise<number> {
  const res = await db
    .updateTable('customer_sessions')
    .set({ revoked_at: now })
    .where('customer_id', '=', customerId)
    .where('revoked_at', 'is', null)
    .$if(exceptId != null, (q) => q.where('id', '!=', exceptId!))
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** Sessions that can never be used again are removed now and then. */
export function deleteDeadSessions(db: Q, before: string) {
  return db
    .deleteFrom('customer_sessions')
    .where((eb) => eb.or([eb('expires_at', '<', before), eb('revoked_at', '<', before)]))
    .execute();
}

// ---------------------------------------------------------------------------
// Password resets

/**
 * A reset for `customerId`, written with INSERT … SELECT: for an id that is no customer's
 * the same statement runs and writes nothing (forgot password does the same work for an
 * unknown email).
 */
export function insertResetIfCustomer(db: Q, r: { customerId: number; tokenHash: string; now: string; expiresAt: string }) {
  return db
    .insertInto('password_resets')
    .columns(['customer_id', 'token_hash', 'created_at', 'expires_at'])
    .expression(
      db
        .selectFrom('customers')
        .select([
          'id',
          // Typed, so that PostgreSQL knows the parameters' type in a select list.
          sql<string>`cast(${r.tokenHash} as text)`.as('token_hash'),
          sql<string>`cast(${r.now} as text)`.as('created_at'),
          sql<string>`cast(${r.expiresAt} as text)`.as('expires_at'),
        ])
        .where('id', '=', r.customerId),
    )
    .execute();
}

/** Only the newest link works: asking again retires the earlier ones. */
export function retireResets(db: Q, customerId: number, now: string) {
  return db.updateTable('password_resets').set({ used_at: now }).where('customer_id', '=', customerId).where('used_at', 'is', null).execute();
}

export function findUsableReset(db: Q, tokenHash: string, now: string) {
  return db
    .selectFrom('password_resets')
    .select(['id', 'customer_id'])
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Marks a reset used; answers false when another request used it first. */
export async function useReset(db: Q, id: number, now: string): Promise<boolean> {
  const res = await db.updateTable('password_resets').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
