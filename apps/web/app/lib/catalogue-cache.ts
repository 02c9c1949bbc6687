import {
  CACHE_LIFETIME_MS,
  isStorageCacheExpired,
  nextStorageCache,
  PAGE_SIZE,
  parseStorageCache,
  STORAGE_KEYS,
  type TAttribute,
  type TCategory,
  type TPage,
  type TStorageCache,
} from '@storefront/shared';
import { apiFetch } from './api-client.ts';

// The browser caches of spec §4/§9, in localStorage:
// - categories: the category list, kept for one day, fetched again only when expired;
// - all-attributes: the attribute list with its initial timestamp and expiresOn (24 hours).
//   An expired cache is removed; the attributes are then fetched again in all cases. Fetch
//   errors are ignored and nothing is stored after a network error (spec §8).

function read<T>(key: string): TStorageCache<T> | null {
  try {
    return parseStorageCache<T>(localStorage.getItem(key));
  } catch {
    return null;
  }
}

function write(key: string, value: unknown) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Full or blocked storage: the shop works without the cache.
  }
}

function remove(key: string) {
  try {
    localStorage.removeItem(key);
  } catch {
    // As above.
  }
}

/** Every page of a search, following nextPageToken; null when any page fails. */
async function fetchAll<T>(path: string, size: number, body: Record<string, unknown> = {}): Promise<T[] | null> {
  const out: T[] = [];
  for (let page = 1; page <= 100; page++) {
    const res = await apiFetch<TPage<T>>(path, { method: 'POST', body: { ...body, page, size } });
    if (!res.ok) return null;
    out.push(...res.data.list);
    if (res.data.nextPageToken === '') return out;
  }
  return out;
}

/** The categories, from the day-long cache or fetched (and cached) when it has expired. */
export async function cachedCategories(now = Date.now()): Promise<TCategory[] | null> {
  const cached = read<TCategory>(STORAGE_KEYS.categories);
  if (cached && !isStorageCacheExpired(cached, now)) return cached.list;
  if (cached) remove(STORAGE_KEYS.categories);
  const list = await fetchAll<TCategory>('/api/categories/search', PAGE_SIZE.category);
  if (!list) return null;
  write(STORAGE_KEYS.categories, nextStorageCache(list, now, CACHE_LIFETIME_MS.categories, null));
  return list;
}

/**
 * spec §4: if the attribute cache exists and has expired it is removed; in all cases the
 * attributes are fetched again (pages from 1, size 50, fetchCount, no filters), sorted by
 * sortOrder ascending and stored with the initial timestamp and expiresOn.
 */
export async function refreshAttributes(now = Date.now()): Promise<TAttribute[] | null> {
  let cached = read<TAttribute>(STORAGE_KEYS.attributes);
  if (cached && isStorageCacheExpired(cached, now)) {
    remove(STORAGE_KEYS.attributes);
    cached = null;
  }
  const list = await fetchAll<TAttribute>('/api/attributes/search', PAGE_SIZE.attribute, { fetchCount: true, textParams: [] });
  if (!list) return cached?.list ?? null;
  list.sort((a, b) => a.sortOrder - b.sortOrder);
  write(STORAGE_KEYS.attributes, nextStorageCache(list, now, CACHE_LIFETIME_MS.attributes, cached));
  return list;
}
