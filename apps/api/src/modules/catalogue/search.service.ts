import {
  isModelCode,
  type Locale,
  looksLikeModelCode,
  modelKey,
  normalizeSearchTerm,
  searchWords,
  type TFacets,
  type TItemSearchRequest,
  type TItemSearchResult,
  type TProductCard,
  type TShopSort,
} from '@storefront/shared';
import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { badRequest } from '../../lib/errors.ts';
import { attributes, categoriesQuery, childrenOf, productIdByModelCode, productIdBySkuCode, topCategories } from './catalogue.repository.ts';
import { type FacetValueCount, shapeFacets } from './facets.ts';
import {
  attributeCounts,
  type CardRow,
  cardRowsByIds,
  categoryCounts,
  countAndPriceRange,
  countItems,
  imagesOfValues,
  type ItemFilter,
  isPlainCategoryFilter,
  listCategory,
  listItems,
  precomputedFacets,
  priceRange,
  productIdByModelKey,
} from './search.repository.ts';
import { localName } from './localized.ts';
import { isSearchWordOrder, SEARCH_WORD_IDS, storedSearchWord } from './search-words.ts';

// The item listings and the full-text search (spec §7 item indices and search
// indices). Filters arrive as the spec's textParams:
//   query        the search term (full-text over title, model code, categories, attributes)
//   model        a model number: exact lookup (spec §5: AFL-/DFL- terms are model numbers)
//   categoryId   EXACT or IN; categoryName EXACT (case-insensitive); 'all' means any
//   minPrice, maxPrice  poisha, inclusive
//   newArrival, onSale  true or false
//   kind         single or bundle
//   id           IN: these products only
//   <attribute>  an attribute's name (color, size): EXACT or IN over its display labels
// and sortParams[0].field is one of relevance, price, createdAt, title.

type Db = Kysely<Database>;
export type SearchMode = 'listing' | 'search';

const SORT_FIELDS: Record<string, (dir: 'ASC' | 'DESC') => TShopSort> = {
  relevance: () => 'relevance',
  price: (d) => (d === 'DESC' ? 'price-desc' : 'price-asc'),
  createdAt: () => 'newest',
  newest: () => 'newest',
  title: () => 'name',
};

const RESERVED = new Set(['query', 'model', 'categoryId', 'categoryName', 'minPrice', 'maxPrice', 'newArrival', 'onSale', 'kind', 'id']);

function fieldError(field: string, message: string) {
  return badRequest(message, { textParams: `${field}: ${message}` });
}

function intList(field: string, value: unknown, matchType: string): number[] {
  const parts = matchType === 'IN' ? String(value).split(',') : [String(value)];
  if (matchType !== 'IN' && matchType !== 'EXACT') throw fieldError(field, `matchType ${matchType} is not supported here`);
  const out = parts
    .map((s) => s.trim())
    .filter(Boolean)
    .map(Number);
  if (!out.length || out.some((n) => !Number.isSafeInteger(n) || n < 0)) throw fieldError(field, 'must be whole numbers');
  return out.slice(0, 200);
}

function bool(field: string, value: unknown): boolean {
  if (value === true || value === 'true' || value === 1 || value === '1') return true;
  if (value === false || value === 'false' || value === 0 || value === '0') return false;
  throw fieldError(field, 'must be true or false');
}

function money(field: string, value: unknown): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw fieldError(field, 'must be a whole number of poisha, 0 or more');
  return n;
}

interface Parsed {
  filter: ItemFilter;
  term: string;
  model: string;
  categoryName: string | null;
}

type Attributes = Awaited<ReturnType<typeof attributes>>;

async function parse(req: TItemSearchRequest, mode: SearchMode, attributesOnce: () => Promise<Attributes>): Promise<Parsed> {
  const filter: ItemFilter = { words: [], ids: null, categoryIds: null, attrs: [], minPrice: null, maxPrice: null, newArrival: null, onSale: null, kind: null };
  let term = '';
  let model = '';
  let categoryName: string | null = null;
  let attrs: Attributes | null = null;
  for (const p of req.textParams) {
    const { field, value, matchType } = p;
    if ((field === 'query' || field === 'model') && mode === 'listing') {
      throw fieldError(field, 'full-text search is POST /api/search/indices/items');
    }
    switch (field) {
      case 'query':
        term = normalizeSearchTerm(String(value)).slice(0, 200);
        break;
      case 'model':
        model = normalizeSearchTerm(String(value)).slice(0, 64);
        break;
      case 'categoryId':
        filter.categoryIds = intList(field, value, matchType);
        break;
      case 'categoryName': {
        const name = String(value).trim();
        if (name && name.toLowerCase() !== 'all') categoryName = name.slice(0, 200);
        break;
      }
      case 'minPrice':
        filter.minPrice = money(field, value);
        break;
      case 'maxPrice':
        filter.maxPrice = money(field, value);
        break;
      case 'newArrival':
        filter.newArrival = bool(field, value);
        break;
      case 'onSale':
        filter.onSale = bool(field, value);
        break;
      case 'kind':
        if (value !== 'single' && value !== 'bundle') throw fieldError(field, 'must be single or bundle');
        filter.kind = value;
        break;
      case 'id':
        filter.ids = intList(field, value, matchType);
        break;
      default: {
        attrs ??= await attributesOnce();
        const attr = attrs.find((a) => a.name === field);
        if (!attr || RESERVED.has(field)) throw badRequest(`Unknown filter field: ${field}`, { textParams: `unknown field ${field}` });
        if (matchType !== 'EXACT' && matchType !== 'IN') throw fieldError(field, `matchType ${matchType} is not supported here`);
        const labels = (matchType === 'IN' ? String(value).split(',') : [String(value)])
          .map((s) => s.trim())
          .filter(Boolean)
          .slice(0, 50);
        if (!labels.length) throw fieldError(field, 'needs at least one value');
        // Several filters on one attribute widen it: Grey or Teal.
        const existing = filter.attrs.find((a) => a.attributeId === attr.id);
        if (existing) existing.labels = [...new Set([...existing.labels, ...labels])].slice(0, 50);
        else filter.attrs.push({ attributeId: attr.id, labels });
      }
    }
  }
  if (filter.minPrice !== null && filter.maxPrice !== null && filter.minPrice > filter.maxPrice) {
    throw badRequest('minPrice is above maxPrice', { textParams: 'minPrice: is above maxPrice' });
  }
  return { filter, term, model, categoryName };
}

function sortOf(req: TItemSearchRequest, hasWords: boolean): TShopSort {
  const first = req.sortParams[0];
  if (!first) return hasWords ? 'relevance' : 'newest';
  // Own keys only: a field named toString or __proto__ is unknown, not Object's (found by the fuzz).
  const pick = Object.hasOwn(SORT_FIELDS, first.field) ? SORT_FIELDS[first.field] : undefined;
  if (!pick) throw badRequest(`Unknown sort field: ${first.field}`, { sortParams: `unknown field ${first.field}; use relevance, price, createdAt or title` });
  const sort = pick(first.type);
  return sort === 'relevance' && !hasWords ? 'newest' : sort;
}

/** A card in the page's language: the Bangla title where the product has one (docs/decisions/0038). */
export function toCard(r: CardRow, lang: Locale = 'en'): TProductCard {
  // Derived data: a broken value only loses the swatches or the other memberships.
  const colors = parsed<TProductCard['colors']>(r.colors, []);
  const categoryIds = parsed<number[]>(r.category_ids, []);
  if (!categoryIds.length) categoryIds.push(r.primary_category_id);
  return {
    id: r.product_id,
    title: (lang === 'bn' && r.title_bn) || r.title,
    slug: r.slug,
    modelCode: r.model_code,
    kind: r.kind === 'bundle' ? 'bundle' : 'single',
    image: r.image_url ? { url: r.image_url, alt: r.image_alt } : null,
    categoryId: r.primary_category_id,
    categoryIds,
    sku: {
      code: r.sku_code,
      salesPrice: Number(r.sales_price),
      discountedSalesPrice: r.discounted_sales_price == null ? null : Number(r.discounted_sales_price),
    },
    price: Number(r.price),
    onSale: r.on_sale === 1,
    isNewArrival: r.is_new_arrival === 1,
    skuCount: r.sku_count,
    colors,
    createdAt: r.created_at,
  };
}

function parsed<T>(json: string, fallback: T): T {
  try {
    return JSON.parse(json) as T;
  } catch {
    return fallback;
  }
}

export function toCards(rows: CardRow[], lang: Locale = 'en'): TProductCard[] {
  return rows.map((r) => toCard(r, lang));
}

export interface SearchOptions {
  /** Serve one common word alone from its stored answer (search-words.ts); a test turns it off to compare. */
  storedWords?: boolean;
  /** The shopper's language: names and titles in Bangla where they exist (docs/decisions/0038). */
  lang?: Locale;
}

export async function searchItems(db: Db, dialect: Dialect, req: TItemSearchRequest, mode: SearchMode, opts: SearchOptions = {}): Promise<TItemSearchResult> {
  // The attributes are read once per search, whoever needs them first.
  let attrsRead: Promise<Attributes> | undefined;
  const attributesOnce = () => (attrsRead ??= attributes(db));
  const { filter, term, model, categoryName } = await parse(req, mode, attributesOnce);
  const lang = opts.lang ?? 'en';

  // The category the listing is about: by id (a single one) or by name.
  let category: TItemSearchResult['category'] = null;
  if (categoryName !== null) {
    // A Bangla page links a category by its Bangla name: either name finds it.
    const c = await categoriesQuery(db)
      .where((eb) => eb.or([eb(eb.fn('lower', ['name']), '=', categoryName.toLowerCase()), eb('name_bn', '=', categoryName)]))
      .orderBy('id')
      .executeTakeFirst();
    if (c) {
      filter.categoryIds = filter.categoryIds ? filter.categoryIds.filter((id) => id === c.id) : [c.id];
    } else filter.categoryIds = [];
  }
  if (filter.categoryIds?.length === 1) {
    const c = await categoriesQuery(db).where('id', '=', filter.categoryIds[0]).executeTakeFirst();
    if (c) category = { id: c.id, name: localName(c, lang), slug: c.slug, parentId: c.parent_id, banner: c.banner_url };
  }

  // spec §5: a term starting with AFL- or DFL- is a model number; an exact hit is the answer.
  let match: TItemSearchResult['match'] = 'all';
  const code = model || (isModelCode(term) ? term : '');
  let exact: number | undefined;
  if (code) {
    exact = (await productIdByModelCode(db, code))?.id ?? (await productIdBySkuCode(db, code))?.product_id;
  }
  // Shoppers type DFL-2040 as 'dfl 2040', 'DFL2040' or 'Dfl_2040': the code's letters and
  // digits find it as well (the read side keeps each code in that form).
  const loose = model || term;
  if (exact === undefined && loose && looksLikeModelCode(loose)) {
    exact = (await productIdByModelKey(db, modelKey(loose)))?.product_id;
  }
  if (exact !== undefined) {
    filter.ids = filter.ids ? filter.ids.filter((id) => id === exact) : [exact];
    match = 'model';
  } else {
    filter.words = searchWords(term || model);
    if (filter.words.length) match = 'text';
    // A term of nothing but punctuation matches nothing rather than everything.
    else if (term || model) filter.ids = [];
  }

  const sort = sortOf(req, filter.words.length > 0);
  if (opts.storedWords !== false && isOneWordAlone(filter) && isSearchWordOrder(sort)) {
    const stored = await storedSearchWord(db, filter.words[0], sort);
    // The stored ids cover the first pages (or every match of a word with fewer).
    if (stored && (req.page * req.size + 1 <= SEARCH_WORD_IDS || stored.ids.length === stored.count)) {
      return fromStoredWord(db, req, stored, lang);
    }
  }
  const plain = isPlainCategoryFilter(filter);
  const rows =
    plain && filter.categoryIds?.length === 1 && sort !== 'relevance'
      ? await listCategory(db, filter.categoryIds[0], sort, req.page, req.size)
      : await listItems(db, dialect, filter, sort, req.page, req.size);
  const hasMore = rows.length > req.size;
  const page = hasMore ? rows.slice(0, req.size) : rows;
  const list = toCards(page, lang);
  // Filtered by colour: each card shows its picture in (one of) the chosen colours.
  const colorAttr = filter.attrs.length ? (await attributesOnce()).find((a) => a.name === 'color') : undefined;
  const colorFilter = colorAttr && filter.attrs.find((a) => a.attributeId === colorAttr.id);
  if (colorFilter) {
    const images = await imagesOfValues(
      db,
      list.map((c) => c.id),
      colorFilter.attributeId,
      colorFilter.labels,
    );
    for (const card of list) {
      const img = images.find((i) => i.product_id === card.id);
      if (img) card.image = { url: img.url, alt: img.alt };
    }
  }
  const result: TItemSearchResult = {
    list,
    nextPageToken: hasMore ? String(req.page + 1) : '',
    match,
    category,
  };
  if (plain) {
    if (req.fetchCount || req.facets)
      Object.assign(result, await countAndFacetsFromIndex(db, filter.categoryIds?.[0] ?? 0, category, req, attributesOnce, lang));
  } else if (req.fetchCount && req.facets && filter.minPrice === null && filter.maxPrice === null) {
    // Without a price filter the count and the price facet cover the same matches: one pass.
    const { count, price } = await countAndPriceRange(db, dialect, filter);
    result.count = count;
    result.facets = await facets(db, dialect, filter, category, attributesOnce, lang, price);
  } else {
    if (req.fetchCount) result.count = await countItems(db, dialect, filter);
    if (req.facets) result.facets = await facets(db, dialect, filter, category, attributesOnce, lang);
  }
  return result;
}

/** One search word and nothing else: what search_words holds answers for. */
function isOneWordAlone(f: ItemFilter): boolean {
  return f.words.length === 1 && isPlainCategoryFilter({ ...f, words: [] }) && f.categoryIds === null;
}

/** The answer to a common word searched alone, from what the read side stored for it. */
async function fromStoredWord(
  db: Db,
  req: TItemSearchRequest,
  stored: { count: number; facets: TFacets; ids: number[] },
  lang: Locale,
): Promise<TItemSearchResult> {
  const window = stored.ids.slice((req.page - 1) * req.size, req.page * req.size + 1);
  const byId = new Map((await cardRowsByIds(db, window)).map((r) => [r.product_id, r]));
  const rows = window.flatMap((id) => byId.get(id) ?? []);
  const hasMore = rows.length > req.size;
  const result: TItemSearchResult = {
    list: toCards(hasMore ? rows.slice(0, req.size) : rows, lang),
    nextPageToken: hasMore ? String(req.page + 1) : '',
    match: 'text',
    category: null,
  };
  if (req.fetchCount) result.count = stored.count;
  if (req.facets) result.facets = lang === 'bn' ? await localFacets(db, stored.facets) : stored.facets;
  return result;
}

/** The facet options of a listing: sub-categories, or a leaf's siblings, or the top level. */
async function categoryOptions(db: Db, category: TItemSearchResult['category'], lang: Locale) {
  const named = (rows: { id: number; name: string; name_bn?: string | null }[]) => rows.map((c) => ({ id: c.id, name: localName(c, lang) }));
  if (category) {
    const children = await childrenOf(db, [category.id]);
    if (children.length || category.parentId === null) return named(children);
    return named(await childrenOf(db, [category.parentId]));
  }
  return named(await topCategories(db));
}

/** Stored facets (made in English when the read side was built) with the categories' Bangla names. */
async function localFacets(db: Db, f: TFacets): Promise<TFacets> {
  const names = new Map((await topCategories(db)).map((c) => [c.id, localName(c, 'bn')]));
  return { ...f, categories: f.categories.map((c) => ({ ...c, name: names.get(c.id) ?? c.name })) };
}

/**
 * The count and facets of a category (or of everything) without other filters, counted at
 * build time: one read of category_facets for the category and its facet options.
 */
async function countAndFacetsFromIndex(
  db: Db,
  countedId: number,
  category: TItemSearchResult['category'],
  req: TItemSearchRequest,
  attributesOnce: () => Promise<Attributes>,
  lang: Locale,
): Promise<Pick<TItemSearchResult, 'count' | 'facets'>> {
  const id = category?.id ?? 0;
  const [options, attrs] = req.facets ? await Promise.all([categoryOptions(db, category, lang), attributesOnce()]) : [[], []];
  const rows = await precomputedFacets(db, [...new Set([countedId, id, ...options.map((o) => o.id)])]);
  const countOf = (c: number) => Number(rows.find((r) => r.category_id === c && r.kind === 'count')?.n ?? 0);
  const out: Pick<TItemSearchResult, 'count' | 'facets'> = {};
  if (req.fetchCount) out.count = countOf(countedId);
  if (!req.facets) return out;
  const own = rows.filter((r) => r.category_id === id);
  const min = own.find((r) => r.kind === 'price' && r.key === 'min');
  const max = own.find((r) => r.kind === 'price' && r.key === 'max');
  const values = own
    .filter((r) => r.kind === 'attr')
    .map((r) => {
      const colon = r.key.indexOf(':');
      return { attribute_id: Number(r.key.slice(0, colon)), value: r.key.slice(colon + 1), display_label: r.label, n: Number(r.n) };
    });
  out.facets = shapeFacets(options, countOf, category?.id, min && max ? { min: Number(min.n), max: Number(max.n) } : null, attrs, values);
  return out;
}

async function facets(
  db: Db,
  dialect: Dialect,
  filter: ItemFilter,
  category: TItemSearchResult['category'],
  attributesOnce: () => Promise<Attributes>,
  lang: Locale,
  knownPrice?: TFacets['price'],
): Promise<TFacets> {
  const options = await categoryOptions(db, category, lang);
  const counts = new Map(
    (
      await categoryCounts(
        db,
        dialect,
        filter,
        options.map((o) => o.id),
      )
    ).map((r) => [r.category_id, Number(r.n)]),
  );

  const attrs = await attributesOnce();
  const valueRows: FacetValueCount[] = [];
  const filteredIds = new Set(filter.attrs.map((a) => a.attributeId));
  const unfiltered = attrs.filter((a) => !filteredIds.has(a.id)).map((a) => a.id);
  // Attributes without a filter of their own share one count; each filtered one leaves its
  // own filter out, so a shopper sees what else they could pick.
  valueRows.push(...(await attributeCounts(db, dialect, filter, unfiltered, null)));
  for (const id of filteredIds) valueRows.push(...(await attributeCounts(db, dialect, filter, [id], { attributeId: id })));

  const price = knownPrice !== undefined ? knownPrice : await priceRange(db, dialect, filter);
  return shapeFacets(options, (id) => counts.get(id) ?? 0, category?.id, price, attrs, valueRows);
}
