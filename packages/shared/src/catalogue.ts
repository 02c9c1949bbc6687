import { SWIPE_THRESHOLD_PX } from './constants.ts';
import { isModelCode, normalizeSearchTerm } from './search.ts';

// Catalogue rules that the server and the browser both apply: how text is cut into search
// words, what the shop's URL means, how a sku is chosen from Color and Size, how a price
// is shown, and the browser caches of spec §4/§9.

// ---- search words ------------------------------------------------------------------------

/**
 * Text as the full-text index sees it: lower case, Latin accents removed, every run of
 * characters that are not letters, digits or combining marks turned into one space. The
 * server indexes this form on SQLite (FTS5) and on PostgreSQL (tsvector), so both split
 * words the same way (docs/decisions/0006). Bangla (docs/decisions/0038): the vowel signs
 * and the hasanta are marks inside a word (সোফা is one word, not স and ফ); the zero-width
 * joiners some keyboards put in conjuncts (র‍্যাক) are dropped, since shoppers type the word
 * both ways; Bangla digits read as the digits 0-9, as in a model code typed in Bangla.
 */
export function searchText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .replace(/[\u200c\u200d]/g, '')
    .replace(/[\u09e6-\u09ef]/g, (d) => String(d.charCodeAt(0) - 0x09e6))
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, ' ')
    .trim();
}

/** At most this many words of a search term are used; the rest are ignored. */
export const MAX_SEARCH_WORDS = 8;

/** The distinct words of a search term, in order, each at most 40 characters. */
export function searchWords(term: string): string[] {
  const words = searchText(term)
    .split(' ')
    .filter(Boolean)
    .map((w) => w.slice(0, 40));
  return [...new Set(words)].slice(0, MAX_SEARCH_WORDS);
}

/** How much a word found in each field adds to a product's relevance (docs/decisions/0006). */
export const SEARCH_FIELD_WEIGHTS = { title: 8, model: 4, categories: 2, attributes: 1 } as const;

// ---- the shop's URL (spec §2: all state lives in the URL) ----------------------------------

export const SHOP_SORTS = ['relevance', 'newest', 'price-asc', 'price-desc', 'name'] as const;
export type TShopSort = (typeof SHOP_SORTS)[number];

export const SHOP_SORT_LABELS: Record<TShopSort, string> = {
  relevance: 'Best match',
  newest: 'Newest',
  'price-asc': 'Price: low to high',
  'price-desc': 'Price: high to low',
  name: 'Name: A to Z',
};

export const SHOP_PAGE_SIZE = 24;
/** Pages beyond this are not offered (deep offsets are slow and no shopper goes there). */
export const SHOP_MAX_PAGE = 400;

export interface TShopQuery {
  /** The search term, trimmed and upper-cased (spec §5). Empty: no search. */
  q: string;
  /** Set when the term is a model number (spec §2). */
  model: string;
  categoryId: number | null;
  categoryName: string;
  /** A banner picture for the category, only ever a path on this site. */
  categoryBanner: string;
  /** Attribute name (such as color) → chosen display labels. */
  attrs: Record<string, string[]>;
  /** Whole taka. */
  minPrice: number | null;
  maxPrice: number | null;
  sort: TShopSort;
  page: number;
}

const RESERVED = new Set(['q', 'model', 'categoryId', 'categoryName', 'categoryBanner', 'minPrice', 'maxPrice', 'sort', 'page']);

function wholeNumber(raw: string | null, max: number): number | null {
  if (raw == null || !/^\d{1,12}$/.test(raw.trim())) return null;
  const n = Number(raw.trim());
  return n <= max ? n : null;
}

/** A same-site path (never another host, never a script URL). */
export function isSitePath(value: string): boolean {
  return /^\/(?!\/)[\w\-./%?=&]*$/.test(value) && !value.includes('\\');
}

/**
 * Reads the shop's URL. Unknown parameters are ignored; `attributeNames` says which
 * parameters are attribute filters (color, size…). Nothing here throws: a bad value is
 * simply dropped, so any link, however mangled, shows a page.
 */
export function parseShopQuery(params: URLSearchParams, attributeNames: readonly string[] = []): TShopQuery {
  const q = normalizeSearchTerm(params.get('q') ?? '').slice(0, 100);
  const modelRaw = normalizeSearchTerm(params.get('model') ?? '').slice(0, 64);
  const model = modelRaw && isModelCode(modelRaw) ? modelRaw : q && isModelCode(q) ? q : '';
  const categoryName = (params.get('categoryName') ?? '').trim().slice(0, 100);
  const banner = (params.get('categoryBanner') ?? '').trim();
  const attrs: Record<string, string[]> = {};
  for (const name of attributeNames) {
    if (RESERVED.has(name)) continue;
    const values = [
      ...new Set(
        params
          .getAll(name)
          .map((v) => v.trim())
          .filter((v) => v && v.length <= 100),
      ),
    ].slice(0, 20);
    if (values.length) attrs[name] = values.sort();
  }
  const sortRaw = params.get('sort') as TShopSort | null;
  const sort = sortRaw && (SHOP_SORTS as readonly string[]).includes(sortRaw) ? sortRaw : defaultShopSort(q);
  let minPrice = wholeNumber(params.get('minPrice'), 100_000_000);
  let maxPrice = wholeNumber(params.get('maxPrice'), 100_000_000);
  if (minPrice !== null && maxPrice !== null && minPrice > maxPrice) [minPrice, maxPrice] = [maxPrice, minPrice];
  return {
    q,
    model,
    categoryId: wholeNumber(params.get('categoryId'), 2_147_483_647),
    categoryName: categoryName.toLowerCase() === 'all' ? 'all' : categoryName,
    categoryBanner: banner && banner.length <= 300 && isSitePath(banner) ? banner : '',
    attrs,
    minPrice,
    maxPrice,
    sort: sort === 'relevance' && !q ? 'newest' : sort,
    page: Math.min(wholeNumber(params.get('page'), SHOP_MAX_PAGE) || 1, SHOP_MAX_PAGE),
  };
}

/** Relevance when searching, newest first when browsing. */
export function defaultShopSort(q: string): TShopSort {
  return q ? 'relevance' : 'newest';
}

/**
 * The query string of a shop state, with defaults left out and a stable order, so one
 * state has one URL (good for caches and canonical links).
 */
export function shopQueryString(s: TShopQuery): string {
  const p = new URLSearchParams();
  if (s.q) p.set('q', s.q);
  if (s.categoryId !== null) p.set('categoryId', String(s.categoryId));
  if (s.categoryName) p.set('categoryName', s.categoryName);
  if (s.categoryBanner) p.set('categoryBanner', s.categoryBanner);
  if (s.model) p.set('model', s.model);
  for (const name of Object.keys(s.attrs).sort()) for (const v of s.attrs[name]) p.append(name, v);
  if (s.minPrice !== null) p.set('minPrice', String(s.minPrice));
  if (s.maxPrice !== null) p.set('maxPrice', String(s.maxPrice));
  if (s.sort !== defaultShopSort(s.q)) p.set('sort', s.sort);
  if (s.page > 1) p.set('page', String(s.page));
  const out = p.toString();
  return out ? `?${out}` : '';
}

/** The same state with some fields changed; any change other than the page goes back to page 1. */
export function withShopQuery(s: TShopQuery, change: Partial<TShopQuery>): TShopQuery {
  return { ...s, ...change, page: change.page ?? 1 };
}

export function toggleAttrValue(s: TShopQuery, name: string, value: string): TShopQuery {
  const current = s.attrs[name] ?? [];
  const next = current.includes(value) ? current.filter((v) => v !== value) : [...current, value].sort();
  const attrs = { ...s.attrs };
  if (next.length) attrs[name] = next;
  else delete attrs[name];
  return withShopQuery(s, { attrs });
}

/** Whether any facet or price filter narrows the result (for "Clear filters"). */
export function hasShopFilters(s: TShopQuery): boolean {
  return Object.keys(s.attrs).length > 0 || s.minPrice !== null || s.maxPrice !== null;
}

/** The API's sort for a shop sort (POST /api/search/indices/items sortParams). */
export function shopSortParams(sort: TShopSort): { field: string; type: 'ASC' | 'DESC' }[] {
  switch (sort) {
    case 'relevance':
      return [{ field: 'relevance', type: 'DESC' }];
    case 'newest':
      return [{ field: 'createdAt', type: 'DESC' }];
    case 'price-asc':
      return [{ field: 'price', type: 'ASC' }];
    case 'price-desc':
      return [{ field: 'price', type: 'DESC' }];
    case 'name':
      return [{ field: 'title', type: 'ASC' }];
  }
}

/**
 * The search body for a shop state (spec §3 search body): one filter per chosen value, prices
 * in poisha. `preset` adds the fixed filters of a listing (new arrivals, sales).
 */
export function shopSearchBody(s: TShopQuery, preset: { field: string; value: string | number | boolean }[] = [], size = SHOP_PAGE_SIZE) {
  const textParams: { field: string; value: string | number | boolean; matchType: 'EXACT' }[] = preset.map((p) => ({ ...p, matchType: 'EXACT' as const }));
  const add = (field: string, value: string | number | boolean) => textParams.push({ field, value, matchType: 'EXACT' });
  if (s.q) add('query', s.q);
  if (s.model) add('model', s.model);
  if (s.categoryId !== null) add('categoryId', s.categoryId);
  else if (s.categoryName && s.categoryName !== 'all') add('categoryName', s.categoryName);
  for (const name of Object.keys(s.attrs).sort()) for (const v of s.attrs[name]) add(name, v);
  if (s.minPrice !== null) add('minPrice', s.minPrice * 100);
  if (s.maxPrice !== null) add('maxPrice', s.maxPrice * 100);
  return { page: s.page, size, fetchCount: true, facets: true, textParams, sortParams: shopSortParams(s.sort) };
}

// ---- product addresses --------------------------------------------------------------------

/** The readable, canonical address of a product. */
export function productPath(slug: string): string {
  return `/products/${encodeURIComponent(slug)}`;
}

/** spec §2: /details with the product chosen in the query string (and a sku, optionally). */
export function detailsPath(id: number, skuCode?: string): string {
  return `/details?id=${id}${skuCode ? `&sku=${encodeURIComponent(skuCode)}` : ''}`;
}

/** A category's listing on the shop page (spec §2: categoryId and categoryName). */
export function categoryPath(c: { id: number; name: string }): string {
  return `/shop?${new URLSearchParams({ categoryId: String(c.id), categoryName: c.name })}`;
}

// ---- skus: choosing by attributes ---------------------------------------------------------

export interface TSkuChoice {
  code: string;
  attributeValues: { name: string; value: string; displayLabel: string; optionDisplayLabel: string }[];
}

export interface TSkuOption {
  name: string;
  /** Shown as the group's label, such as Color or Size. */
  displayLabel: string;
  values: { value: string; displayLabel: string }[];
}

/** The attributes a product's skus vary by, with their values in first-seen order. */
export function skuOptions(skus: readonly TSkuChoice[]): TSkuOption[] {
  const out: TSkuOption[] = [];
  for (const sku of skus) {
    for (const av of sku.attributeValues) {
      let opt = out.find((o) => o.name === av.name);
      if (!opt) {
        opt = { name: av.name, displayLabel: av.optionDisplayLabel, values: [] };
        out.push(opt);
      }
      if (!opt.values.some((v) => v.value === av.value)) opt.values.push({ value: av.value, displayLabel: av.displayLabel });
    }
  }
  return out;
}

export function skuSelection(sku: TSkuChoice): Record<string, string> {
  return Object.fromEntries(sku.attributeValues.map((av) => [av.name, av.value]));
}

function agreement(sku: TSkuChoice, wanted: Record<string, string>): number {
  return sku.attributeValues.reduce((n, av) => n + (wanted[av.name] === av.value ? 1 : 0), 0);
}

/**
 * The sku a shopper gets by choosing `value` for `name` while `current` is chosen: the sku
 * with that value which keeps most of the other choices (the first such sku on a tie).
 * Null when no sku has that value.
 */
export function chooseSku<T extends TSkuChoice>(skus: readonly T[], current: Record<string, string>, name: string, value: string): T | null {
  const wanted = { ...current, [name]: value };
  let best: T | null = null;
  let bestScore = -1;
  for (const sku of skus) {
    if (!sku.attributeValues.some((av) => av.name === name && av.value === value)) continue;
    const score = agreement(sku, wanted);
    if (score > bestScore) {
      best = sku;
      bestScore = score;
    }
  }
  return best;
}

/** Whether a sku exists with `value` for `name` and every other current choice. */
export function isCombinationAvailable(skus: readonly TSkuChoice[], current: Record<string, string>, name: string, value: string): boolean {
  const wanted = { ...current, [name]: value };
  return skus.some(
    (sku) =>
      sku.attributeValues.every((av) => wanted[av.name] === undefined || wanted[av.name] === av.value) &&
      sku.attributeValues.some((av) => av.name === name && av.value === value),
  );
}

// ---- browser caches (spec §4, §9) -------------------------------------------------------------

export const STORAGE_KEYS = { categories: 'categories', attributes: 'all-attributes' } as const;

/** What a browser cache holds: the list, when it was first filled, and when it expires. */
export interface TStorageCache<T> {
  list: T[];
  timestamp: number;
  expiresOn: number;
}

/** Reads a stored cache; anything malformed is treated as no cache. */
export function parseStorageCache<T>(raw: string | null): TStorageCache<T> | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as TStorageCache<T>;
    if (!v || !Array.isArray(v.list) || !Number.isFinite(v.timestamp) || !Number.isFinite(v.expiresOn)) return null;
    return v;
  } catch {
    return null;
  }
}

export function isStorageCacheExpired(cache: Pick<TStorageCache<unknown>, 'expiresOn'>, now: number): boolean {
  return now >= cache.expiresOn;
}

/**
 * A new cache content. A cache that is still valid keeps its initial timestamp and expiry
 * (spec §3: "an initial timestamp and expiresOn"); otherwise the clock starts now.
 */
export function nextStorageCache<T>(list: T[], now: number, lifetimeMs: number, previous: TStorageCache<unknown> | null): TStorageCache<T> {
  if (previous && !isStorageCacheExpired(previous, now)) return { list, timestamp: previous.timestamp, expiresOn: previous.expiresOn };
  return { list, timestamp: now, expiresOn: now + lifetimeMs };
}

// ---- carousel (spec §9: 5000 ms, swipe threshold 40 px) -----------------------------------------

export function wrapIndex(i: number, n: number): number {
  return n > 0 ? ((i % n) + n) % n : 0;
}

/**
 * Which way a horizontal drag moves the carousel: 1 (next) for a drag to the left of at
 * least the threshold, -1 (previous) to the right, 0 for a short or mostly vertical drag.
 */
export function swipeStep(dx: number, dy: number, threshold = SWIPE_THRESHOLD_PX): -1 | 0 | 1 {
  if (Math.abs(dx) < threshold || Math.abs(dx) <= Math.abs(dy)) return 0;
  return dx < 0 ? 1 : -1;
}
