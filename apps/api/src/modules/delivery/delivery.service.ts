import { ALL_DISTRICTS, formatMoney, type TAdminDeliveryZone, type TDeliveryZone, type TDeliveryZoneInput } from '@storefront/shared';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, DeliveryZonesTable } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/dialect/unique-violation.ts';
import { ApiError, badRequest, conflict, fieldError, notFound } from '../../lib/errors.ts';
import { bumpReadSideVersion } from '../catalogue/search-index.ts';
import { type Actor, recordAudit } from '../staff/audit.ts';

// Delivery zones (docs/decisions/0033): read by checkout on every order and by the checkout
// page, kept with the page shell for the product page; written by the back office with
// optimistic locking and an audit entry, moving the read side's version so that every
// process's shell shows the change on its next page.
//
// A district belongs to one zone and one zone is for every other district: the database
// holds both rules (delivery_zone_districts keyed by district, a unique index on the zone
// with no districts; docs/decisions/0052), so two staff saving at once cannot both pass the
// check below. The loser is answered as the check answers, 409 on `districts`.

type Q = Kysely<Database> | Transaction<Database>;
type Row = Selectable<DeliveryZonesTable>;

function parseDistricts(text: string): string[] {
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export function toZone(r: Row): TDeliveryZone {
  return {
    id: r.id,
    name: r.name,
    districts: parseDistricts(r.districts),
    fee: Number(r.fee),
    freeFrom: r.free_from === null ? null : Number(r.free_from),
    etaMinDays: r.eta_min_days,
    etaMaxDays: r.eta_max_days,
  };
}

const toAdmin = (r: Row): TAdminDeliveryZone => ({ ...toZone(r), sortOrder: r.sort_order, version: r.version, updatedAt: r.updated_at });

/** The zones in their order (the first that names a district wins). */
export async function deliveryZones(db: Q): Promise<TDeliveryZone[]> {
  return (await db.selectFrom('delivery_zones').selectAll().orderBy('sort_order').orderBy('id').execute()).map(toZone);
}

export async function adminZones(db: Q): Promise<TAdminDeliveryZone[]> {
  return (await db.selectFrom('delivery_zones').selectAll().orderBy('sort_order').orderBy('id').execute()).map(toAdmin);
}

/** The rules a zone must keep, each reported on its field. */
function checked(input: TDeliveryZoneInput, others: TDeliveryZone[]) {
  const name = input.name.trim();
  if (!name) throw fieldError('name', 'Please give the zone a name');
  if (input.fee < 0) throw fieldError('fee', 'A fee cannot be negative');
  if (input.freeFrom !== null && input.freeFrom < 0) throw fieldError('freeFrom', 'A threshold cannot be negative');
  if (input.etaMinDays < 0) throw fieldError('etaMinDays', 'Days cannot be negative');
  if (input.etaMaxDays < input.etaMinDays) throw fieldError('etaMaxDays', 'The longest time cannot be shorter than the shortest');
  const districts = [...new Set(input.districts.map((d) => d.trim()).filter(Boolean))];
  const known = new Map(ALL_DISTRICTS.map((d) => [d.toLowerCase(), d]));
  const unknown = districts.filter((d) => !known.has(d.toLowerCase()));
  if (unknown.length) throw fieldError('districts', `Not a district of Bangladesh: ${unknown.join(', ')}`);
  const canonical = districts.map((d) => known.get(d.toLowerCase())!);
  for (const o of others) {
    const taken = canonical.filter((d) => o.districts.includes(d));
    if (taken.length) throw districtTaken(`Already in “${o.name}”: ${taken.join(', ')}`);
    if (!canonical.length && !o.districts.length) throw districtTaken(`“${o.name}” is already the zone for every other district`);
  }
  return { name: name.slice(0, 80), districts: canonical };
}

const districtTaken = (message: string) => conflict('district_taken', message, { districts: message });

/** The zone's districts as its rows in delivery_zone_districts, where the database keeps each district to one zone. */
async function claimDistricts(trx: Transaction<Database>, zoneId: number, districts: string[]): Promise<void> {
  await trx.deleteFrom('delivery_zone_districts').where('zone_id', '=', zoneId).execute();
  if (districts.length)
    await trx
      .insertInto('delivery_zone_districts')
      .values(districts.map((district) => ({ district, zone_id: zoneId })))
      .execute();
}

/**
 * A write that met the unique index: another zone took a district (or became the zone for
 * every other district) after this one's check. The check again, now that the other has
 * committed, names the district and the zone.
 */
async function clash(db: Kysely<Database>, input: TDeliveryZoneInput, id: number | null): Promise<ApiError> {
  try {
    checked(
      input,
      (await deliveryZones(db)).filter((z) => z.id !== id),
    );
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  return districtTaken('Another zone took one of these districts meanwhile: reload the zones and try again');
}

const snapshot = (z: TDeliveryZone) => ({ ...z, fee: formatMoney(z.fee), freeFrom: z.freeFrom === null ? null : formatMoney(z.freeFrom) });

export async function createZone(db: Kysely<Database>, input: TDeliveryZoneInput, actor: Actor): Promise<TAdminDeliveryZone> {
  try {
    return await writeNewZone(db, input, actor);
  } catch (err) {
    if (isUniqueViolation(err)) throw await clash(db, input, null);
    throw err;
  }
}

function writeNewZone(db: Kysely<Database>, input: TDeliveryZoneInput, actor: Actor): Promise<TAdminDeliveryZone> {
  return db.transaction().execute(async (trx) => {
    const { name, districts } = checked(input, await deliveryZones(trx));
    const row = await trx
      .insertInto('delivery_zones')
      .values({
        name,
        districts: JSON.stringify(districts),
        fee: input.fee,
        free_from: input.freeFrom,
        eta_min_days: input.etaMinDays,
        eta_max_days: input.etaMaxDays,
        sort_order: input.sortOrder ?? 0,
        updated_at: new Date().toISOString(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await claimDistricts(trx, row.id, districts);
    await bumpReadSideVersion(trx);
    await recordAudit(trx, actor, { action: 'delivery_zone_created', entity: 'delivery_zone', entityId: row.id, before: null, after: snapshot(toZone(row)) });
    return toAdmin(row);
  });
}

export async function updateZone(db: Kysely<Database>, id: number, input: TDeliveryZoneInput, actor: Actor): Promise<TAdminDeliveryZone> {
  try {
    return await writeZone(db, id, input, actor);
  } catch (err) {
    if (isUniqueViolation(err)) throw await clash(db, input, id);
    throw err;
  }
}

function writeZone(db: Kysely<Database>, id: number, input: TDeliveryZoneInput, actor: Actor): Promise<TAdminDeliveryZone> {
  return db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('delivery_zones').selectAll().where('id', '=', id).executeTakeFirst();
    if (!before) throw notFound('The delivery zone');
    if (input.version !== undefined && input.version !== before.version) {
      throw conflict('stale_version', 'Someone changed this zone meanwhile: reload it and make your change again');
    }
    const { name, districts } = checked(
      input,
      (await deliveryZones(trx)).filter((z) => z.id !== id),
    );
    const moved = await trx
      .updateTable('delivery_zones')
      .set({
        name,
        districts: JSON.stringify(districts),
        fee: input.fee,
        free_from: input.freeFrom,
        eta_min_days: input.etaMinDays,
        eta_max_days: input.etaMaxDays,
        sort_order: input.sortOrder ?? before.sort_order,
        version: before.version + 1,
        updated_at: new Date().toISOString(),
      })
      .where('id', '=', id)
      .where('version', '=', before.version)
      .returningAll()
      .executeTakeFirst();
    if (!moved) throw conflict('stale_version', 'Someone changed this zone meanwhile: reload it and make your change again');
    await claimDistricts(trx, id, districts);
    await bumpReadSideVersion(trx);
    await recordAudit(trx, actor, {
      action: 'delivery_zone_updated',
      entity: 'delivery_zone',
      entityId: id,
      before: snapshot(toZone(before)),
      after: snapshot(toZone(moved)),
    });
    return toAdmin(moved);
  });
}

export async function deleteZone(db: Kysely<Database>, id: number, actor: Actor): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('delivery_zones').selectAll().where('id', '=', id).executeTakeFirst();
    if (!before) throw notFound('The delivery zone');
    // Without the zone for every other district, most of the country could not order.
    if (parseDistricts(before.districts).length === 0) throw badRequest('The zone for every other district cannot be removed; change its fee instead');
    await trx.deleteFrom('delivery_zone_districts').where('zone_id', '=', id).execute();
    await trx.deleteFrom('delivery_zones').where('id', '=', id).execute();
    await bumpReadSideVersion(trx);
    await recordAudit(trx, actor, { action: 'delivery_zone_removed', entity: 'delivery_zone', entityId: id, before: snapshot(toZone(before)), after: null });
  });
}
