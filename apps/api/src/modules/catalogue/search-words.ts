import { SEARCH_FIELD_WEIGHTS, type TFacets, type TShopSort } from '@storefront/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { attributes, topCategories } from './catalogue.repository.ts';
import { shapeFacets } from './facets.ts';

// Common search words (docs/decisions/0029). A shopper's search for one word that thousands
// of products match ("sofa" at 100,000 products) costs, done per request, a rank of every
// match, a count and a facet count over every match: about 100 ms of CPU. Like the
// category facets, its answer is made once when the read side is built: for every word
// that at least COMMON_WORD_MATCHES products match, the count, the facets (the top
// categories, price range and attribute values) and the first SEARCH_WORD_IDS products of
// each order
// (search.service.ts serves them; anything else is searched as before).
//
// What matches and in which order is the search's own rule (search.repository.ts,
// full-text.ts), computed here from the same stored words: a product matches a word when
// one of its words in title, model, categories or attributes starts with it; relevance adds
// the field weights of the fields where it does; ties go to the newest, then the lower id.
// A test compares every stored answer with the live one on both databases.

/** A word is common when at least this many products match it (fewer are cheap to search). */
export const COMMON_WORD_MATCHES = 100;
/** Ids kept per order: ten pages of the shop's 24. */
export const SEARCH_WORD_IDS = 240;
/** The orders kept; sorting by name is searched live (it needs every match's title). */
export const SEARCH_WORD_ORDERS = ['relevance', 'newest', 'price-asc', 'price-desc'] as const;
export type SearchWordOrder = (typeof SEARCH_WORD_ORDERS)[number];
/** The build holds one byte per product and word: at most this many bytes in all. */
const MATCH_BYTES = 32_000_000;
const MAX_WORDS = 400;
const BATCH = 5000;
const INSERT_ROWS = 50;

export function isSearchWordOrder(sort: TShopSort): sort is SearchWordOrder {
  return (SEARCH_WORD_ORDERS as readonly string[]).includes(sort);
}

const COLUMN_OF: Record<SearchWordOrder, 'relevance' | 'newest' | 'price_asc' | 'price_desc'> = {
  relevance: 'relevance',
  newest: 'newest',
  'price-asc': 'price_asc',
  'price-desc': 'price_desc',
};

/** The stored answer for one word, with the ids of one order; undefined when the word is not common. */
export async function storedSearchWord(db: Kysely<Database>, word: string, order: SearchWordOrder) {
  const row = await db.selectFrom('search_words').select(['n', 'summary', COLUMN_OF[order]]).where('word', '=', word).executeTakeFirst();
  if (!row) return undefined;
  return {
    count: Number(row.n),
    facets: JSON.parse(row.summary) as TFacets,
    ids: JSON.parse((row as Record<string, unknown>)[COLUMN_OF[order]] as string) as number[],
  };
}

const FIELDS = [
  ['title_text', SEARCH_FIELD_WEIGHTS.title],
  ['model_text', SEARCH_FIELD_WEIGHTS.model],
  ['category_text', SEARCH_FIELD_WEIGHTS.categories],
  ['attribute_text', SEARCH_FIELD_WEIGHTS.attributes],
] as const;

type Db = Kysely<Database>;

/**
 * Rewrites search_words from product_search, product_categories and product_facets (in the
 * read side's own transaction). `minMatches` is lowered by a test to compare every word.
 */
export async function buildSearchWords(db: Db, opts: { minMatches?: number } = {}): Promise<number> {
  const minMatches = opts.minMatches ?? COMMON_WORD_MATCHES;
  await db.deleteFrom('search_words').execute();

  // 1. How many products have each word (a word, not a prefix: a lower bound of its matches).
  const productsWith = new Map<string, number>();
  let total = 0;
  for await (const batch of productBatches(db)) {
    for (const p of batch) {
      total++;
      const own = new Set<string>();
      for (const [field] of FIELDS) for (const w of p[field].split(' ')) if (w) own.add(w);
      for (const w of own) productsWith.set(w, (productsWith.get(w) ?? 0) + 1);
    }
  }
  if (!total) return 0;
  const maxWords = Math.min(MAX_WORDS, Math.floor(MATCH_BYTES / total));
  const words = [...productsWith]
    .filter(([, n]) => n >= minMatches)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, maxWords)
    .map(([w]) => w);
  productsWith.clear();
  if (!words.length) return 0;
  const wordIndex = new Map(words.map((w, i) => [w, i]));

  // 2. Per product and word: the sum of the weights of the fields where the word starts a
  // word (0: no match). The weights are distinct powers of two, so the sum is an OR.
  const weights = words.map(() => new Uint8Array(total));
  const ids = new Int32Array(total);
  const prices = new Float64Array(total);
  const created: string[] = new Array(total);
  // Each product's matched words, one after another (offsets[i] .. offsets[i + 1]).
  const offsets = new Int32Array(total + 1);
  let matched = new Uint16Array(total * 4);
  let used = 0;
  const prefixesOf = new Map<string, number[]>();
  const commonPrefixes = (token: string): number[] => {
    let found = prefixesOf.get(token);
    if (!found) {
      found = [];
      for (let len = 1; len <= token.length; len++) {
        const i = wordIndex.get(token.slice(0, len));
        if (i !== undefined) found.push(i);
      }
      if (prefixesOf.size < 500_000) prefixesOf.set(token, found);
    }
    return found;
  };
  let i = 0;
  for await (const batch of productBatches(db)) {
    for (const p of batch) {
      ids[i] = p.product_id;
      prices[i] = Number(p.price);
      created[i] = String(p.created_at);
      offsets[i] = used;
      for (const [field, weight] of FIELDS) {
        for (const token of p[field].split(' ')) {
          if (!token) continue;
          for (const w of commonPrefixes(token)) {
            if (weights[w][i] === 0) {
              if (used === matched.length) {
                const grown = new Uint16Array(matched.length * 2);
                grown.set(matched);
                matched = grown;
              }
              matched[used++] = w;
            }
            weights[w][i] |= weight;
          }
        }
      }
      i++;
    }
  }
  offsets[total] = used;
  prefixesOf.clear();
  const indexOf = new Map<number, number>();
  for (let k = 0; k < total; k++) indexOf.set(ids[k], k);

  // 3. Counts, prices, categories and attribute values of each word's matches.
  const counts = new Int32Array(words.length);
  const min = new Float64Array(words.length).fill(Number.POSITIVE_INFINITY);
  const max = new Float64Array(words.length).fill(Number.NEGATIVE_INFINITY);
  for (let k = 0; k < total; k++) {
    for (let m = offsets[k]; m < offsets[k + 1]; m++) {
      const w = matched[m];
      counts[w]++;
      if (prices[k] < min[w]) min[w] = prices[k];
      if (prices[k] > max[w]) max[w] = prices[k];
    }
  }
  const categories = words.map(() => new Map<number, number>());
  const memberships = byProductRanges(db, (from, to) =>
    db.selectFrom('product_categories').select(['product_id', 'category_id']).where('product_id', '>=', from).where('product_id', '<', to).execute(),
  );
  for await (const rows of memberships) {
    for (const r of rows) {
      const k = indexOf.get(r.product_id);
      if (k === undefined) continue;
      for (let m = offsets[k]; m < offsets[k + 1]; m++) {
        const c = categories[matched[m]];
        c.set(r.category_id, (c.get(r.category_id) ?? 0) + 1);
      }
    }
  }
  // Attribute values are few: each gets a number, and each word counts per number.
  const valueKeys = new Map<string, number>();
  const values: [number, string, string][] = [];
  const valueCounts = words.map(() => new Map<number, number>());
  const facetRows = byProductRanges(db, (from, to) =>
    db
      .selectFrom('product_facets')
      .select(['product_id', 'attribute_id', 'value', 'display_label'])
      .where('product_id', '>=', from)
      .where('product_id', '<', to)
      .execute(),
  );
  for await (const rows of facetRows) {
    for (const r of rows) {
      const k = indexOf.get(r.product_id);
      if (k === undefined) continue;
      const key = `${r.attribute_id}\u0000${r.value}\u0000${r.display_label}`;
      let v = valueKeys.get(key);
      if (v === undefined) {
        v = values.length;
        valueKeys.set(key, v);
        values.push([r.attribute_id, r.value, r.display_label]);
      }
      for (let m = offsets[k]; m < offsets[k + 1]; m++) {
        const c = valueCounts[matched[m]];
        c.set(v, (c.get(v) ?? 0) + 1);
      }
    }
  }

  // 4. The orders, each walked once per word until enough of its matches are met.
  const order = (compare: (a: number, b: number) => number) => Int32Array.from({ length: total }, (_, k) => k).sort(compare);
  const newest = order((a, b) => (created[a] < created[b] ? 1 : created[a] > created[b] ? -1 : ids[a] - ids[b]));
  const cheapest = order((a, b) => prices[a] - prices[b] || ids[a] - ids[b]);
  const dearest = order((a, b) => prices[b] - prices[a] || ids[a] - ids[b]);
  const first = (w: number, walk: Int32Array) => {
    const out: number[] = [];
    const own = weights[w];
    for (let k = 0; k < walk.length && out.length < SEARCH_WORD_IDS; k++) if (own[walk[k]]) out.push(ids[walk[k]]);
    return out;
  };
  const ranked = (w: number) => {
    // Relevance, then newest: the newest walk dealt into one pile per relevance.
    const piles: number[][] = Array.from({ length: 16 }, () => []);
    const own = weights[w];
    for (let k = 0; k < total; k++) {
      const rel = own[newest[k]];
      if (rel && piles[rel].length < SEARCH_WORD_IDS) piles[rel].push(ids[newest[k]]);
    }
    return piles.reverse().flat().slice(0, SEARCH_WORD_IDS);
  };

  const [options, attrs] = await Promise.all([topCategories(db), attributes(db)]);
  const rows: Database['search_words'][] = [];
  for (let w = 0; w < words.length; w++) {
    if (counts[w] < minMatches) continue;
    const facets = shapeFacets(
      options,
      (id) => categories[w].get(id) ?? 0,
      undefined,
      { min: min[w], max: max[w] },
      attrs,
      [...valueCounts[w]].map(([v, n]) => ({ attribute_id: values[v][0], value: values[v][1], display_label: values[v][2], n })),
    );
    rows.push({
      word: words[w],
      n: counts[w],
      summary: JSON.stringify(facets),
      relevance: JSON.stringify(ranked(w)),
      newest: JSON.stringify(first(w, newest)),
      price_asc: JSON.stringify(first(w, cheapest)),
      price_desc: JSON.stringify(first(w, dearest)),
    });
  }
  for (let k = 0; k < rows.length; k += INSERT_ROWS)
    await db
      .insertInto('search_words')
      .values(rows.slice(k, k + INSERT_ROWS))
      .execute();
  return rows.length;
}

async function* productBatches(db: Db) {
  let after = -1;
  for (;;) {
    const rows = await db
      .selectFrom('product_search')
      .select(['product_id', 'price', 'created_at', 'title_text', 'model_text', 'category_text', 'attribute_text'])
      .where('product_id', '>', after)
      .orderBy('product_id')
      .limit(BATCH)
      .execute();
    if (!rows.length) return;
    yield rows;
    after = rows[rows.length - 1].product_id;
  }
}

/** Rows in batches of product id ranges (every row of a product in one batch). */
async function* byProductRanges<T>(db: Db, read: (from: number, to: number) => Promise<T[]>) {
  const bounds = await db
    .selectFrom('product_search')
    .select((eb) => [eb.fn.min('product_id').as('lo'), eb.fn.max('product_id').as('hi')])
    .executeTakeFirst();
  const lo = Number(bounds?.lo ?? 0);
  const hi = Number(bounds?.hi ?? -1);
  for (let from = lo; from <= hi; from += BATCH) yield await read(from, from + BATCH);
}
