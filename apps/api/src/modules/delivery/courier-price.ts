import type { PathaoCourier } from '../couriers/pathao.client.ts';
import { type PathaoPlaces, pathaoPlaces } from '../couriers/pathao-places.ts';

// Home delivery priced by the courier's own quote for the address (docs/decisions/0045), when
// the shop sets DELIVERY_PRICE_FROM=pathao. Pathao prices by its city and zone, not by our
// address text: the district is matched to a Pathao city and the area to one of its zones by
// name (the spellings Bangladesh changed in 2018 matched to the older ones Pathao uses). An
// address that matches none, a parcel above Pathao's 10 kg, or Pathao not answering in time
// gives null, and the delivery zones' fee applies: the shopper can always check out.
// Quotes are kept ten minutes, so a checkout page and its order ask Pathao once.

export interface CourierFeeQuery {
  district: string;
  area: string;
  /** Items in the parcel; each weighs PATHAO_ITEM_WEIGHT_GRAMS. */
  units: number;
}

/** The courier's fee in poisha for this address, or null where the zones' fee applies. */
export type CourierFee = (q: CourierFeeQuery) => Promise<number | null>;

const QUOTE_TTL_MS = 10 * 60_000;
/** Pathao's heaviest parcel. */
const MAX_GRAMS = 10_000;
/** A checkout does not wait longer than this for the courier's quote. */
const QUOTE_WAIT_MS = 4_000;

/** Lower case letters and digits only: "Cox's Bazar" and "coxs bazar" are one name. */
export const placeKey = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The districts renamed in 2018, as Pathao's city list still spells them. */
const OLD_NAMES: Record<string, string> = {
  chattogram: 'chittagong',
  barishal: 'barisal',
  bogura: 'bogra',
  cumilla: 'comilla',
  jashore: 'jessore',
  chapainawabganj: 'chapainababganj',
};

function findPlace<T extends { id: number; name: string }>(places: T[], name: string): T | undefined {
  const key = placeKey(name);
  if (!key) return undefined;
  const alt = OLD_NAMES[key];
  return places.find((p) => placeKey(p.name) === key) ?? (alt ? places.find((p) => placeKey(p.name) === alt) : undefined);
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      () => {
        clearTimeout(timer);
        resolve(null);
      },
    );
  });
}

export function pathaoDeliveryFee(
  client: PathaoCourier,
  opts: { itemWeightGrams: number; places?: PathaoPlaces; now?: () => number; waitMs?: number; log?: { warn: (o: object, m: string) => void } },
): CourierFee {
  const places = opts.places ?? pathaoPlaces({ steadfast: null, pathao: client });
  const now = opts.now ?? Date.now;
  const quotes = new Map<string, { until: number; fee: Promise<number | null> }>();

  async function quote(q: CourierFeeQuery): Promise<number | null> {
    const grams = Math.max(1, q.units) * opts.itemWeightGrams;
    if (grams > MAX_GRAMS) return null;
    const city = findPlace((await places.list({ kind: 'cities' })).items, q.district);
    if (!city) return null;
    const zone = findPlace((await places.list({ kind: 'zones', cityId: city.id })).items, q.area);
    if (!zone) return null;
    const key = `${city.id}:${zone.id}:${grams}`;
    const hit = quotes.get(key);
    if (hit && now() < hit.until) return hit.fee;
    const fee = client.price({ destination: { cityId: city.id, zoneId: zone.id }, weightGrams: grams }).then((r) => (r.ok ? r.finalPrice : null));
    quotes.set(key, { until: now() + QUOTE_TTL_MS, fee });
    // A failed quote is not kept: the next checkout asks again.
    fee.then(
      (v) => v === null && quotes.delete(key),
      () => quotes.delete(key),
    );
    return fee;
  }

  return async (q) => {
    const fee = await withTimeout(quote(q), opts.waitMs ?? QUOTE_WAIT_MS);
    if (fee === null) opts.log?.warn({ district: q.district, area: q.area }, 'no courier quote for this address: the delivery zones’ fee applies');
    return fee;
  };
}
