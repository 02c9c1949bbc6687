import type { TSearchRequest } from '@storefront/shared';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { pagedSearch, textField } from '../../lib/paging.ts';

type Q = Kysely<Database> | Transaction<Database>;

// All SQL of delivery addresses. Every query names the customer: an address id alone
// never reaches another customer's row.

export interface AddressValues {
  full_name: string;
  phone: string;
  division: string;
  district: string;
  area: string;
  address_line: string;
  label: string | null;
}

const COLUMNS = [
  'id',
  'full_name as fullName',
  'phone',
  'division',
  'district',
  'area',
  'address_line as addressLine',
  'label',
  'is_default as isDefault',
  'created_at as dateCreated',
  'updated_at as dateUpdated',
] as const;

export function searchAddresses(db: Q, customerId: number, req: TSearchRequest) {
  const q = db.selectFrom('addresses').select(COLUMNS).where('customer_id', '=', customerId);
  return pagedSearch(q, req, {
    filter: { division: textField('division'), district: textField('district'), label: textField('label') },
    sort: { dateCreated: 'created_at', dateUpdated: 'updated_at', isDefault: 'is_default', fullName: 'full_name' },
    tieBreaker: 'id',
  });
}

export function findAddress(db: Q, customerId: number, id: number) {
  return db.selectFrom('addresses').select(COLUMNS).where('customer_id', '=', customerId).where('id', '=', id).executeTakeFirst();
}

/** An address of this customer with exactly these values, if one is saved already. */
export function findSameAddress(db: Q, customerId: number, v: AddressValues) {
  return db
    .selectFrom('addresses')
    .select('id')
    .where('customer_id', '=', customerId)
    .where('full_name', '=', v.full_name)
    .where('phone', '=', v.phone)
    .where('division', '=', v.division)
    .where('district', '=', v.district)
    .where('area', '=', v.area)
    .where('address_line', '=', v.address_line)
    .executeTakeFirst();
}

export async function countAddresses(db: Q, customerId: number): Promise<number> {
  const r = await db
    .selectFrom('addresses')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('customer_id', '=', customerId)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

export function insertAddress(db: Q, customerId: number, v: AddressValues, isDefault: boolean, now: string) {
  return db
    .insertInto('addresses')
    .values({ ...v, customer_id: customerId, is_default: isDefault ? 1 : 0, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export async function updateAddress(db: Q, customerId: number, id: number, v: AddressValues, now: string): Promise<boolean> {
  const r = await db
    .updateTable('addresses')
    .set({ ...v, updated_at: now })
    .where('customer_id', '=', customerId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Makes one address the default and every other one not: the old mark is taken off first,
 * since the unique index on a customer's default is checked row by row, not at the end of a
 * statement.
 */
export async function setDefault(db: Q, customerId: number, id: number) {
  await db.updateTable('addresses').set({ is_default: 0 }).where('customer_id', '=', customerId).where('id', '<>', id).where('is_default', '=', 1).execute();
  await db.updateTable('addresses').set({ is_default: 1 }).where('customer_id', '=', customerId).where('id', '=', id).execute();
}

export async function deleteAddress(db: Q, customerId: number, id: number): Promise<boolean> {
  const r = await db.deleteFrom('addresses').where('customer_id', '=', customerId).where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

/** The newest remaining address, to become the default when the default one is deleted. */
export function newestAddress(db: Q, customerId: number) {
  return db
    .selectFrom('addresses')
    .select('id')
    .where('customer_id', '=', customerId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export function touchAddress(db: Q, customerId: number, id: number, now: string) {
  return db.updateTable('addresses').set({ updated_at: now }).where('customer_id', '=', customerId).where('id', '=', id).execute();
}
