import type { TDeliveryMethod } from './checkout.ts';
import type { Minor } from './money.ts';

// Home delivery by zone (docs/decisions/0033): a fee, a threshold from which delivery is
// free, and the days it takes, per group of districts. The server charges what
// deliveryCharge() says from the zones in its database; the checkout page shows the same
// figure from the same zones. No zod here: the schemas are in delivery-schemas.ts.

export interface TDeliveryZone {
  id: number;
  name: string;
  /** Districts of this zone; empty for every district no other zone names. */
  districts: string[];
  fee: Minor;
  /** Items worth at least this are delivered free; null: never free. */
  freeFrom: Minor | null;
  etaMinDays: number;
  etaMaxDays: number;
}

/** The zone a district is delivered in: the first that names it, else the one for everywhere else. */
export function zoneFor(zones: readonly TDeliveryZone[], district: string | null | undefined): TDeliveryZone | null {
  const d = (district ?? '').trim().toLowerCase();
  if (d) {
    const named = zones.find((z) => z.districts.some((x) => x.toLowerCase() === d));
    if (named) return named;
  }
  return zones.find((z) => z.districts.length === 0) ?? null;
}

export interface TDeliveryCharge {
  fee: Minor;
  zone: TDeliveryZone | null;
  /** Free because the items reached the zone's threshold. */
  freeByThreshold: boolean;
}

/**
 * What delivery costs: nothing from a showroom; at home, the zone's fee unless the items
 * (after discounts and coupon) are worth at least its threshold. With no zone for the
 * district (a shop that removed the zone for everywhere else), null: it is not delivered there.
 */
export function deliveryCharge(
  zones: readonly TDeliveryZone[],
  method: TDeliveryMethod,
  district: string | null | undefined,
  itemsTotal: Minor,
): TDeliveryCharge | null {
  if (method === 'showroom_pickup') return { fee: 0, zone: null, freeByThreshold: false };
  const zone = zoneFor(zones, district);
  if (!zone) return null;
  const free = zone.freeFrom !== null && itemsTotal >= zone.freeFrom;
  return { fee: free ? 0 : zone.fee, zone, freeByThreshold: free && zone.fee > 0 };
}

/** "1–3 days", "2 days", "today". */
export function etaText(zone: Pick<TDeliveryZone, 'etaMinDays' | 'etaMaxDays'>): string {
  if (zone.etaMaxDays === 0) return 'today';
  if (zone.etaMinDays === zone.etaMaxDays) return `${zone.etaMaxDays} day${zone.etaMaxDays === 1 ? '' : 's'}`;
  return `${zone.etaMinDays}–${zone.etaMaxDays} days`;
}
