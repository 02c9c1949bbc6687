import { defaultShopSort, hasShopFilters, parseShopQuery, shopQueryString, shopSearchBody } from '@storefront/shared';
import type { AppLoadContext } from 'react-router';
import { pageRead } from './api.server.ts';

export type ListingPath = '/shop' | '/new-arrival' | '/sales';

/** The fixed filters of each listing screen. */
const PRESETS: Record<ListingPath, { field: string; value: boolean }[]> = {
  '/shop': [],
  '/new-arrival': [{ field: 'newArrival', value: true }],
  '/sales': [{ field: 'onSale', value: true }],
};

/**
 * Everything a listing screen renders, from its URL alone (spec §2: all state in the URL):
 * the attributes that may be filtered on (what GET /api/options answers), then one search
 * with facets (what POST /api/search/indices/items answers).
 */
export async function loadListing(context: AppLoadContext, request: Request, path: ListingPath) {
  const url = new URL(request.url);
  const options = await pageRead(() => context.reads.options());
  const attributes = options.map((o) => ({ name: o.name, displayLabel: o.displayLabel }));
  const state = parseShopQuery(
    url.searchParams,
    attributes.map((a) => a.name),
  );
  const result = await pageRead(() => context.reads.searchItems(shopSearchBody(state, PRESETS[path]), 'search'));
  // Filtered and re-sorted variants of a listing point search engines at the plain one.
  const canonicalState = { ...state, attrs: {}, minPrice: null, maxPrice: null, sort: defaultShopSort(state.q), categoryBanner: '', model: '' };
  return {
    path,
    state,
    result,
    attributes,
    canonical: `${context.publicUrl}${path}${shopQueryString(canonicalState)}`,
    // Search results and filter combinations are not pages to index.
    noindex: Boolean(state.q) || hasShopFilters(state),
  };
}

export type ListingData = Awaited<ReturnType<typeof loadListing>>;
