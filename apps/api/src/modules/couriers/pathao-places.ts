import type { TCourierPlaceList } from '@storefront/shared';
import { ApiError, conflict } from '../../lib/errors.ts';
import { CourierError } from './courier.ts';
import type { Couriers } from './deps.ts';

// Pathao's cities, zones of a city and areas of a zone, for the booking form
// (docs/decisions/0040): asked of Pathao and kept in memory for a while, because they change
// rarely and a form asks for them at every change of its city or zone. Concurrent askers for
// the same list share one request; a failure is not kept.

export const PLACES_TTL_MS = 10 * 60_000;

export type PlaceQuery = { kind: 'cities' } | { kind: 'zones'; cityId: number } | { kind: 'areas'; zoneId: number };

export interface PathaoPlaces {
  list(q: PlaceQuery): Promise<TCourierPlaceList>;
}

export function pathaoPlaces(couriers: Couriers, ttlMs = PLACES_TTL_MS, now: () => number = Date.now): PathaoPlaces {
  const cache = new Map<string, { until: number; value: Promise<TCourierPlaceList> }>();

  async function ask(q: PlaceQuery): Promise<TCourierPlaceList> {
    const client = couriers.pathao;
    if (!client) throw conflict('courier_not_configured', 'Pathao is not set up for this shop');
    try {
      if (q.kind === 'cities') return { items: await client.cities() };
      if (q.kind === 'zones') return { items: await client.zones(q.cityId) };
      return { items: (await client.areas(q.zoneId)).map((a) => ({ id: a.id, name: a.name, homeDelivery: a.homeDelivery })) };
    } catch (err) {
      if (err instanceof CourierError) {
        throw new ApiError('courier_unavailable', `Pathao could not be asked for its ${q.kind} (${err.reason}); try again in a moment`, undefined, 502);
      }
      throw err;
    }
  }

  return {
    list(q) {
      if (!couriers.pathao) return Promise.reject(conflict('courier_not_configured', 'Pathao is not set up for this shop'));
      const key = q.kind === 'cities' ? 'cities' : q.kind === 'zones' ? `zones:${q.cityId}` : `areas:${q.zoneId}`;
      const hit = cache.get(key);
      if (hit && now() < hit.until) return hit.value;
      const value = ask(q);
      cache.set(key, { until: now() + ttlMs, value });
      value.catch(() => {
        if (cache.get(key)?.value === value) cache.delete(key);
      });
      return value;
    },
  };
}
