import { normalizeMobile, type TAdminCustomerQuery } from '@storefront/shared';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

type Q = Kysely<Database> | Transaction<Database>;

// All SQL of the back office's customers (docs/decisions/0032). Every select names its
// columns: a customer's password hash never leaves the database through here.

/** What staff may see of a customer's own row. */
const PROFILE_COLUMNS = [
  'customers.id',
  'customers.user_id',
  'customers.full_name',
  'customers.email',
  'customers.mobile',
  'customers.image_url',
  'customers.created_at',
  'customers.blocked_at',
  'customers.blocked_reason',
  'customers.email_key',
] as const;

/** `text` as a LIKE pattern that matches it anywhere, its own % and _ taken literally. */
function contains(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function filtered(db: Q, f: Pick<TAdminCustomerQuery, 'q' | 'blocked'>) {
  let q = db.selectFrom('customers');
  if (f.blocked === 'true') q = q.where('customers.blocked_at', 'is not', null);
  if (f.blocked === 'false') q = q.where('customers.blocked_at', 'is', null);
  const text = f.q?.trim();
  if (text) {
    const like = contains(text);
    // Mobiles are kept as +8801XXXXXXXXX: what staff type (017…, +88017…, with spaces) is
    // normalised the way sign-up did; a run of digits also finds a part of one.
    const mobile = normalizeMobile(text);
    const digits = text.replace(/[\s\-()]/g, '');
    q = q.where((eb) =>
      eb.or([
        eb(sql<string>`lower(customers.full_name)`, 'like', sql<string>`${like} escape '\\'`),
        eb('customers.email_key', 'like', sql<string>`${like} escape '\\'`),
        ...(mobile ? [eb('customers.mobile', '=', mobile)] : []),
        ...(/^\+?\d{4,}$/.test(digits) ? [eb('customers.mobile', 'like', sql<string>`${contains(digits)} escape '\\'`)] : []),
      ]),
    );
  }
  return q;
}

export async function listCustomers(db: Q, query: TAdminCustomerQuery) {
  const { page, size, sort } = query;
  const base = filtered(db, query);
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    base
      .select([
        'customers.id',
        'customers.user_id',
        'customers.full_name',
        'customers.email',
        'customers.mobile',
        'customers.created_at',
        'customers.blocked_at',
      ])
      .select((eb) =>
        eb
          .selectFrom('sales')
          .select((s) => s.fn.countAll<number>().as('n'))
          .whereRef('sales.customer_id', '=', 'customers.id')
          .as('order_count'),
      )
      .$if(sort === 'name', (q) => q.orderBy(sql`lower(customers.full_name)`, 'asc').orderBy('customers.id', 'asc'))
      .$if(sort === 'newest', (q) => q.orderBy('customers.created_at', 'desc').orderBy('customers.id', 'desc'))
      .offset((page - 1) * size)
      .limit(size)
      .execute(),
  ]);
  return { rows, total: Number(count?.n ?? 0) };
}

export function customerProfile(db: Q, id: number) {
  return db.selectFrom('customers').select(PROFILE_COLUMNS).where('customers.id', '=', id).executeTakeFirst();
}

export function salesOf(db: Q, customerId: number, limit: number) {
  return db
    .selectFrom('sales')
    .select(['id', 'invoice_id', 'kind', 'status', 'payment_status', 'total', 'created_at'])
    .where('customer_id', '=', customerId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function countSalesOf(db: Q, customerId: number): Promise<number> {
  const r = await db
    .selectFrom('sales')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('customer_id', '=', customerId)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

export function addressesOf(db: Q, customerId: number) {
  return db
    .selectFrom('addresses')
    .select(['id', 'full_name', 'phone', 'division', 'district', 'area', 'address_line', 'label', 'is_default', 'created_at', 'updated_at'])
    .where('customer_id', '=', customerId)
    .orderBy('is_default', 'desc')
    .orderBy('id')
    .execute();
}

/** Sessions that would still let the customer in: not revoked, not past either expiry. */
export async function countLiveSessions(db: Q, customerId: number, now: string, idleSince: string): Promise<number> {
  const r = await db
    .selectFrom('customer_sessions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('customer_id', '=', customerId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .where('last_seen_at', '>', idleSince)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

export function setBlocked(db: Q, id: number, v: { blockedAt: string | null; reason: string | null; now: string }) {
  return db.updateTable('customers').set({ blocked_at: v.blockedAt, blocked_reason: v.reason, updated_at: v.now }).where('id', '=', id).execute();
}
