import { type TItemSearchRequestInput, type TItemSearchResult, ZItemSearchRequest } from '@storefront/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildSearchIndex } from '../src/modules/catalogue/search-index.ts';
import { type ItemFilter, listCategory, listItems } from '../src/modules/catalogue/search.repository.ts';
import { searchItems } from '../src/modules/catalogue/search.service.ts';
import { buildSearchWords, COMMON_WORD_MATCHES, SEARCH_WORD_ORDERS } from '../src/modules/catalogue/search-words.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// What the read side stores to answer without counting or sorting the catalogue per request
// must answer as the general queries do, on both databases:
// - common search words (search-words.ts): the answer stored for a word searched alone is
//   the answer the search gives live, word for word, in every stored order. The demo
//   catalogue is small, so every word of two or more products is stored here;
// - category listings (category_listing): a category's own index gives the products and
//   order that filtering product_search by its memberships gives.

let t: TestApp;
let words: { word: string; n: number }[];
beforeAll(async () => {
  t = await startTestApp();
  await buildSearchWords(t.db.kysely, { minMatches: 2 });
  words = (await t.db.kysely.selectFrom('search_words').select(['word', 'n']).orderBy('n', 'desc').orderBy('word').execute()).map((w) => ({
    word: w.word,
    n: Number(w.n),
  }));
});
afterAll(() => t?.close());

const SORT_PARAMS = {
  relevance: { field: 'relevance', type: 'DESC' },
  newest: { field: 'createdAt', type: 'DESC' },
  'price-asc': { field: 'price', type: 'ASC' },
  'price-desc': { field: 'price', type: 'DESC' },
} as const;

function request(word: string, order: keyof typeof SORT_PARAMS, extra: Partial<TItemSearchRequestInput> = {}) {
  return ZItemSearchRequest.parse({
    page: 1,
    size: 24,
    fetchCount: true,
    facets: true,
    textParams: [{ field: 'query', value: word.toUpperCase() }],
    sortParams: [SORT_PARAMS[order]],
    ...extra,
  });
}

async function both(word: string, order: keyof typeof SORT_PARAMS, extra: Partial<TItemSearchRequestInput> = {}) {
  const req = request(word, order, extra);
  const stored = await searchItems(t.db.kysely, t.db.dialect, req, 'search');
  const live = await searchItems(t.db.kysely, t.db.dialect, req, 'search', { storedWords: false });
  return { stored, live };
}

describe('common search words', () => {
  it('stores the words that many products share, and not those of one product', () => {
    expect(words.length).toBeGreaterThan(20);
    expect(words.every((w) => w.n >= 2)).toBe(true);
    expect(words.map((w) => w.word)).toContain('sofa');
  });

  // Every word of both languages (docs/decisions/0038): twice the words of an English-only catalogue.
  it('answers every stored word as the live search does: list, count and facets, in every order', { timeout: 60_000 }, async () => {
    for (const { word } of words) {
      for (const order of SEARCH_WORD_ORDERS) {
        const { stored, live } = await both(word, order, order === 'relevance' ? {} : { size: 12, facets: false });
        expect(stored, `${word} by ${order}`).toEqual(live);
      }
    }
  });

  it('pages through the stored ids as the live search does, and past them', async () => {
    const common = words.slice(0, 4);
    for (const { word, n } of common) {
      for (const order of SEARCH_WORD_ORDERS) {
        for (const page of [1, 2, Math.ceil(n / 7)]) {
          const { stored, live } = await both(word, order, { page, size: 7, facets: false });
          expect(stored, `${word} by ${order}, page ${page}`).toEqual(live);
          expect(live.list.length).toBeGreaterThan(0);
        }
      }
    }
  });

  it('serves a word searched alone from what was stored, and a word with another filter live', async () => {
    const { word, n } = words[0];
    await t.db.kysely.updateTable('search_words').set({ n: 999_999 }).where('word', '=', word).execute();
    try {
      const alone = await t.api<TItemSearchResult>('/api/search/indices/items', { method: 'POST', json: request(word, 'relevance') });
      expect(alone.body.count).toBe(999_999);
      const narrowed = await t.api<TItemSearchResult>('/api/search/indices/items', {
        method: 'POST',
        json: { ...request(word, 'relevance'), textParams: [...request(word, 'relevance').textParams, { field: 'onSale', value: 'false' }] },
      });
      expect(narrowed.status).toBe(200);
      expect(narrowed.body.count).toBeLessThanOrEqual(n);
      const byName = await t.api<TItemSearchResult>('/api/search/indices/items', {
        method: 'POST',
        json: { ...request(word, 'relevance'), sortParams: [{ field: 'title', type: 'ASC' }] },
      });
      expect(byName.body.count).toBe(n);
    } finally {
      await buildSearchWords(t.db.kysely, { minMatches: 2 });
    }
  });

  it('keeps only words of at least the common number of matches when the read side is rebuilt', async () => {
    await rebuildSearchIndex(t.db.kysely, t.db.dialect);
    const kept = await t.db.kysely.selectFrom('search_words').select(['word', 'n']).execute();
    expect(kept.every((w) => Number(w.n) >= COMMON_WORD_MATCHES)).toBe(true);
    expect(kept.length).toBeGreaterThan(0);
    for (const k of kept) expect(Number(k.n)).toBe(words.find((w) => w.word === k.word)?.n);
  });
});

describe('category listings', () => {
  it('walk their own index to the same products in the same order as the general listing, in every order', async () => {
    const categories = await t.db.kysely.selectFrom('categories').select('id').orderBy('id').execute();
    const none: ItemFilter = { words: [], ids: null, categoryIds: null, attrs: [], minPrice: null, maxPrice: null, newArrival: null, onSale: null, kind: null };
    let compared = 0;
    for (const { id } of categories) {
      for (const sort of ['newest', 'price-asc', 'price-desc', 'name'] as const) {
        for (const page of [1, 2, 4]) {
          const own = await listCategory(t.db.kysely, id, sort, page, 9);
          const general = await listItems(t.db.kysely, t.db.dialect, { ...none, categoryIds: [id] }, sort, page, 9);
          expect(own, `category ${id} by ${sort}, page ${page}`).toEqual(general);
          compared += own.length;
        }
      }
    }
    expect(compared).toBeGreaterThan(500);
  });
});
