import { MAX_ADDRESSES, type TAddress, type TAddressInput, type TPage, type TSearchRequest, normalizeMobile, validateAddress } from '@storefront/shared';
import type { Kysely, Transaction } from 'kysely';
import type { Db, Dialect } from '../../db/database.ts';
import { lockForTransaction } from '../../db/dialect/locks.ts';
import { isUniqueViolation } from '../../db/dialect/unique-violation.ts';
import type { Database } from '../../db/schema.ts';
import { ApiError, conflict, notFound } from '../../lib/errors.ts';
import { validationFailed } from '../accounts/accounts.service.ts';
import * as repo from './addresses.repository.ts';

type Row = {
  id: number;
  fullName: string;
  phone: string;
  division: string;
  district: string;
  area: string;
  addressLine: string;
  label: string | null;
  isDefault: number;
  dateCreated: string;
  dateUpdated: string;
};

const toAddress = (r: Row): TAddress => ({ ...r, isDefault: r.isDefault === 1 });
const iso = () => new Date().toISOString();
const clean = (s: string) => s.normalize('NFKC').trim().replace(/\s+/g, ' ');

function values(body: TAddressInput): repo.AddressValues {
  const err = validationFailed(validateAddress({ ...body, label: body.label ?? null }));
  if (err) throw err;
  return {
    full_name: clean(body.fullName),
    phone: normalizeMobile(body.phone)!,
    division: body.division,
    district: body.district,
    area: clean(body.area),
    address_line: body.addressLine.normalize('NFKC').trim(),
    label: body.label?.trim() ? clean(body.label) : null,
  };
}

const ADDRESS_LOCK_BASE = 7_030_000_000_000;

/**
 * One customer's address-book writes one at a time (PostgreSQL; SQLite's writes already
 * are): "is it saved already?", "is it the first?" and "how many are there?" are answered
 * and acted on before another write of the same book starts. The unique indexes on a
 * customer's identical addresses and on their default (docs/decisions/0052) hold the rules
 * whatever a write does.
 */
function lockBook(trx: Transaction<Database>, dialect: Dialect, customerId: number): Promise<void> {
  return lockForTransaction(trx, dialect, ADDRESS_LOCK_BASE + customerId);
}

const SAVED_ALREADY = 'This address is saved already';

/**
 * A customer's saved delivery addresses. The first one becomes the default; saving an
 * address that is already saved returns the saved one (so checkout can save what was
 * typed every time without filling the book with copies).
 */
export async function createAddress(db: Db, customerId: number, body: TAddressInput): Promise<{ address: TAddress; created: boolean }> {
  const v = values(body);
  const result = await db.kysely.transaction().execute(async (trx) => {
    await lockBook(trx, db.dialect, customerId);
    const same = await repo.findSameAddress(trx, customerId, v);
    if (same) {
      await repo.touchAddress(trx, customerId, same.id, iso());
      if (body.isDefault) await repo.setDefault(trx, customerId, same.id);
      return { id: same.id, created: false };
    }
    const count = await repo.countAddresses(trx, customerId);
    if (count >= MAX_ADDRESSES)
      throw new ApiError('too_many_addresses', `You can keep at most ${MAX_ADDRESSES} addresses. Please delete one first.`, undefined, 409);
    const { id } = await repo.insertAddress(trx, customerId, v, count === 0, iso());
    if (body.isDefault && count > 0) await repo.setDefault(trx, customerId, id);
    return { id, created: true };
  });
  return { address: await getAddress(db.kysely, customerId, result.id), created: result.created };
}

export async function getAddress(db: Kysely<Database>, customerId: number, id: number): Promise<TAddress> {
  const row = await repo.findAddress(db, customerId, id);
  if (!row) throw notFound('The address');
  return toAddress(row);
}

export async function updateAddress(db: Db, customerId: number, id: number, body: TAddressInput): Promise<TAddress> {
  const v = values(body);
  try {
    await db.kysely.transaction().execute(async (trx) => {
      await lockBook(trx, db.dialect, customerId);
      const same = await repo.findSameAddress(trx, customerId, v);
      if (same && same.id !== id) throw conflict('duplicate_address', SAVED_ALREADY, { addressLine: SAVED_ALREADY });
      if (!(await repo.updateAddress(trx, customerId, id, v, iso()))) throw notFound('The address');
      if (body.isDefault) await repo.setDefault(trx, customerId, id);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('duplicate_address', SAVED_ALREADY, { addressLine: SAVED_ALREADY });
    throw err;
  }
  return getAddress(db.kysely, customerId, id);
}

export async function deleteAddress(db: Db, customerId: number, id: number): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    await lockBook(trx, db.dialect, customerId);
    const row = await repo.findAddress(trx, customerId, id);
    if (!row) throw notFound('The address');
    await repo.deleteAddress(trx, customerId, id);
    // The book keeps a default while it has addresses.
    if (row.isDefault === 1) {
      const next = await repo.newestAddress(trx, customerId);
      if (next) await repo.setDefault(trx, customerId, next.id);
    }
  });
}

export async function searchAddresses(db: Kysely<Database>, customerId: number, req: TSearchRequest): Promise<TPage<TAddress>> {
  // Default order: the default address first, then the most recently used or changed.
  const sorted = req.sortParams.length
    ? req
    : {
        ...req,
        sortParams: [
          { field: 'isDefault', type: 'DESC' as const },
          { field: 'dateUpdated', type: 'DESC' as const },
        ],
      };
  const page = await repo.searchAddresses(db, customerId, sorted);
  return { ...page, list: page.list.map(toAddress) };
}
