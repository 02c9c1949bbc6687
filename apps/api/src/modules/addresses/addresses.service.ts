import { MAX_ADDRESSES, type TAddress, type TAddressInput, type TPage, type TSearchRequest, normalizeMobile, validateAddress } from '@storefront/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { ApiError, notFound } from '../../lib/errors.ts';
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

/**
 * A customer's saved delivery addresses. The first one becomes the default; saving an
 * address that is already saved returns the saved one (so checkout can save what was
 * typed every time without filling the book with copies).
 */
export async function createAddress(db: Kysely<Database>, customerId: number, body: TAddressInput): Promise<{ address: TAddress; created: boolean }> {
  const v = values(body);
  const result = await db.transaction().execute(async (trx) => {
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
  return { address: await getAddress(db, customerId, result.id), created: result.created };
}

export async function getAddress(db: Kysely<Database>, customerId: number, id: number): Promise<TAddress> {
  const row = await repo.findAddress(db, customerId, id);
  if (!row) throw notFound('The address');
  return toAddress(row);
}

export async function updateAddress(db: Kysely<Database>, customerId: number, id: number, body: TAddressInput): Promise<TAddress> {
  const v = values(body);
  await db.transaction().execute(async (trx) => {
    if (!(await repo.updateAddress(trx, customerId, id, v, iso()))) throw notFound('The address');
    if (body.isDefault) await repo.setDefault(trx, customerId, id);
  });
  return getAddress(db, customerId, id);
}

export async function deleteAddress(db: Kysely<Database>, customerId: number, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
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
