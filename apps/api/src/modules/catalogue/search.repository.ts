import { SEARCH_FIELD_WEIGHTS, type TShopSort } from '@storefront/shared';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import { matchesAllWords } from '../../db/dialect/full-text.ts';
import type { Database } from '../../db/schema.ts';

// Listings and searches over product_search (the catalogue's read side, migration 0004).
// Relevance is computed the same way on both databases from the stored words, so SQLite
// and PostgreSQL return the same products in the same order (docs/decisions/0006).

type Db = Kysely<Database>;

export interface ItemFilter {
  /** Every word must match (full-text, as prefixes). */
  words: string[];
  /** Only these products (an id filter, or the product a model number named). */
  ids: number[] | null;
  /** Products filed under any of these categories (or their descendants). */
  categoryIds: number[] | null;
  /** Per attribute: products with any of these values (display labels). */
  attrs: { attributeId: number; labels: string[] }[];
  /** Poisha, inclusive. */
  minPrice: number | null;
  maxPrice: number | null;
  newArrival: boolean | null;
  onSale: boolean | null;
  kind: 'single' | 'bundle' | null;
}

/** A facet's own filter is left out when counting that facet's values. */
export type FacetExcept = 'price' | 'category' | { attributeId: number } | null;

function filtered(db: Db, dialect: Dialect, f: ItemFilter, except: FacetExcept = null) {
  let q = db.selectFrom('product_search as ps');
  if (f.ids) q = q.where('ps.product_id', 'in', f.ids.length ? f.ids : [-1]);
  if (f.words.length) q = q.where(matchesAllWords(dialect, 'ps', f.words));
  if (f.categoryIds && except !== 'category') {
    const ids = f.categoryIds.length ? f.categoryIds : [-1];
    q = q.where('ps.product_id', 'in', db.selectFrom('product_categories').select('product_id').where('category_id', 'in', ids));
  }
  for (const a of f.attrs) {
    if (except && typeof except === 'object' && except.attributeId === a.attributeId) continue;
    q = q.where(
      'ps.product_id',
      'in',
      db.selectFrom('product_facets').select('product_id').where('attribute_id', '=', a.attributeId).where('display_label', 'in', a.labels),
    );
  }
  if (except !== 'price') {
    if (f.minPrice !== null) q = q.where('ps.price', '>=', f.minPrice);
    if (f.maxPrice !== null) q = q.where('ps.price', '<=', f.maxPrice);
  }
  if (f.newArrival !== null) q = q.where('ps.is_new_arrival', '=', f.newArrival ? 1 : 0);
  if (f.onSale !== null) q = q.where('ps.on_sale', '=', f.onSale ? 1 : 0);
  if (f.kind) q = q.where('ps.kind', '=', f.kind);
  return q;
}

/** A word found in the title counts most, then the model code, the categories, the attributes. */
function relevance(words: string[]): RawBuilder<number> {
  const parts: RawBuilder<unknown>[] = [];
  for (const w of words) {
    const pattern = `% ${w}%`;
    parts.push(
      sql`case when (' ' || ps.title_text) like ${pattern} then ${sql.lit(SEARCH_FIELD_WEIGHTS.title)} else 0 end`,
      sql`case when (' ' || ps.model_text) like ${pattern} then ${sql.lit(SEARCH_FIELD_WEIGHTS.model)} else 0 end`,
      sql`case when (' ' || ps.category_text) like ${pattern} then ${sql.lit(SEARCH_FIELD_WEIGHTS.categories)} else 0 end`,
      sql`case when (' ' || ps.attribute_text) like ${pattern} then ${sql.lit(SEARCH_FIELD_WEIGHTS.attributes)} else 0 end`,
    );
  }
  return sql<number>`(${sql.join(parts, sql` + `)})`;
}

export const CARD_COLUMNS = [
  'ps.product_id',
  'ps.title',
  'ps.title_bn',
  'ps.slug',
  'ps.model_code',
  'ps.kind',
  'ps.primary_category_id',
  'ps.image_url',
  'ps.image_alt',
  'ps.sku_code',
  'ps.sales_price',
  'ps.discounted_sales_price',
  'ps.price',
  'ps.on_sale',
  'ps.is_new_arrival',
  'ps.sku_count',
  'ps.colors',
  'ps.category_ids',
  'ps.created_at',
] as const;

export async function listItems(db: Db, dialect: Dialect, f: ItemFilter, sort: TShopSort, page: number, size: number) {
  let q = filtered(db, dialect, f).select(CARD_COLUMNS);
  switch (sort) {
    case 'relevance':
      if (f.words.length) q = q.orderBy(relevance(f.words), 'desc');
      q = q.orderBy('ps.created_at', 'desc');
      break;
    case 'newest':
      q = q.orderBy('ps.created_at', 'desc');
      break;
    case 'price-asc':
      q = q.orderBy('ps.price', 'asc');
      break;
    case 'price-desc':
      q = q.orderBy('ps.price', 'desc');
      break;
    case 'name':
      q = q.orderBy('ps.title', 'asc');
      break;
  }
  return q
    .orderBy('ps.product_id', 'asc')
    .limit(size + 1)
    .offset((page - 1) * size)
    .execute();
}

/**
 * One category's products and nothing else narrowing them, in a listing order: a walk of
 * that category's own index in category_listing (migration 0014), so a page costs the same
 * in a category of any size, sorted by any key.
 */
export async function listCategory(db: Db, categoryId: number, sort: Exclude<TShopSort, 'relevance'>, page: number, size: number) {
  let q = db
    .selectFrom('category_listing as cl')
    .innerJoin('product_search as ps', 'ps.product_id', 'cl.product_id')
    .select(CARD_COLUMNS)
    .where('cl.category_id', '=', categoryId);
  switch (sort) {
    case 'newest':
      q = q.orderBy('cl.created_at', 'desc');
      break;
    case 'price-asc':
      q = q.orderBy('cl.price', 'asc');
      break;
    case 'price-desc':
      q = q.orderBy('cl.price', 'desc');
      break;
    case 'name':
      q = q.orderBy('cl.title', 'asc');
      break;
  }
  return q
    .orderBy('cl.product_id', 'asc')
    .limit(size + 1)
    .offset((page - 1) * size)
    .execute();
}

export async function countItems(db: Db, dialect: Dialect, f: ItemFilter): Promise<number> {
  const r = await filtered(db, dialect, f)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** The count and the price range of the matches in one pass (when no price filter makes them differ). */
export async function countAndPriceRange(db: Db, dialect: Dialect, f: ItemFilter) {
  const r = await filtered(db, dialect, f)
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('ps.price').as('lo'), eb.fn.max('ps.price').as('hi')])
    .executeTakeFirst();
  const count = Number(r?.n ?? 0);
  return { count, price: count === 0 || r?.lo == null || r?.hi == null ? null : { min: Number(r.lo), max: Number(r.hi) } };
}

export async function priceRange(db: Db, dialect: Dialect, f: ItemFilter) {
  const r = await filtered(db, dialect, f, 'price')
    .select((eb) => [eb.fn.min('ps.price').as('lo'), eb.fn.max('ps.price').as('hi')])
    .executeTakeFirst();
  return r?.lo == null || r?.hi == null ? null : { min: Number(r.lo), max: Number(r.hi) };
}

// Facet counts join from the matching products to their memberships or attribute values
// (an index lookup per matching product) rather than testing every membership or value row
// against the set of matches.

export async function categoryCounts(db: Db, dialect: Dialect, f: ItemFilter, categoryIds: number[]) {
  if (!categoryIds.length) return [];
  // After a full-text match the matches are few next to the memberships of whole top
  // categories: SQLite is told (unary +) not to drive the join from the category index but
  // from each match's own memberships (4× faster for a common word at 100k products).
  const category = f.words.length && dialect === 'sqlite' ? sql<number>`+pc.category_id` : sql<number>`pc.category_id`;
  return filtered(db, dialect, f, 'category')
    .innerJoin('product_categories as pc', 'pc.product_id', 'ps.product_id')
    .select((eb) => ['pc.category_id', eb.fn.countAll<number>().as('n')])
    .where(category, 'in', categoryIds)
    .groupBy('pc.category_id')
    .execute();
}

export async function attributeCounts(db: Db, dialect: Dialect, f: ItemFilter, attributeIds: number[], except: FacetExcept) {
  if (!attributeIds.length) return [];
  return filtered(db, dialect, f, except)
    .innerJoin('product_facets as pf', 'pf.product_id', 'ps.product_id')
    .select((eb) => ['pf.attribute_id', 'pf.value', 'pf.display_label', eb.fn.countAll<number>().as('n')])
    .where('pf.attribute_id', 'in', attributeIds)
    .groupBy(['pf.attribute_id', 'pf.value', 'pf.display_label'])
    .execute();
}

/** True when nothing but (at most) one category narrows the products: counts were made at build time. */
export function isPlainCategoryFilter(f: ItemFilter): boolean {
  return (
    !f.words.length &&
    f.ids === null &&
    !f.attrs.length &&
    f.minPrice === null &&
    f.maxPrice === null &&
    f.newArrival === null &&
    f.onSale === null &&
    f.kind === null &&
    (f.categoryIds === null || f.categoryIds.length === 1)
  );
}

/** The facets counted when the read side was built, for these categories (0: everything). */
export function precomputedFacets(db: Db, categoryIds: number[]) {
  return db.selectFrom('category_facets').select(['category_id', 'kind', 'key', 'label', 'n']).where('category_id', 'in', categoryIds).execute();
}

/** Each product's first picture of any of these attribute values (the colour a shopper filters by). */
export function imagesOfValues(db: Db, productIds: number[], attributeId: number, labels: string[]) {
  if (!productIds.length || !labels.length) return Promise.resolve([]);
  return db
    .selectFrom('product_images as pi')
    .innerJoin('product_facets as pf', (j) => j.onRef('pf.product_id', '=', 'pi.product_id').onRef('pf.value', '=', 'pi.variant_value'))
    .select(['pi.product_id', 'pi.url', 'pi.alt'])
    .where('pi.product_id', 'in', productIds)
    .where('pf.attribute_id', '=', attributeId)
    .where('pf.display_label', 'in', labels)
    .orderBy('pi.product_id')
    .orderBy('pi.sort_order')
    .orderBy('pi.id')
    .execute();
}

/**
 * Products in the same leaf category as product `id`, nearest in price first (ties: lower
 * id first); null when there is no such product. The nearest n by distance are among the
 * n next above the product's price and the n next below it, so two short walks of the
 * (category, price) index, in one statement, replace sorting the category by distance.
 */
export async function relatedItems(db: Db, id: number, page: number, size: number) {
  const n = page * size + 1;
  const self = db.selectFrom('product_search as me').where('me.product_id', '=', id);
  const side = (dir: 'up' | 'down') =>
    db
      .selectFrom('product_search as ps')
      .select(CARD_COLUMNS)
      .select(sql<number>`0`.as('is_self'))
      .where('ps.primary_category_id', '=', self.select('me.primary_category_id'))
      .where('ps.price', dir === 'up' ? '>=' : '<', self.select('me.price'))
      .where('ps.product_id', '<>', id)
      .orderBy('ps.price', dir === 'up' ? 'asc' : 'desc')
      .orderBy('ps.product_id')
      .limit(n);
  // The product itself comes along (is_self 1) to tell "no such product" from "no relations".
  const rows = await db
    .selectFrom(side('up').as('a'))
    .selectAll()
    .unionAll(db.selectFrom(side('down').as('b')).selectAll())
    .unionAll(db.selectFrom('product_search as ps').select(CARD_COLUMNS).select(sql<number>`1`.as('is_self')).where('ps.product_id', '=', id))
    .execute();
  const me = rows.find((r) => Number(r.is_self) === 1);
  if (!me) return null;
  const price = Number(me.price);
  const distance = (r: { price: number | string }) => Math.abs(Number(r.price) - price);
  return rows
    .filter((r) => Number(r.is_self) !== 1)
    .sort((a, b) => distance(a) - distance(b) || a.product_id - b.product_id)
    .slice((page - 1) * size, page * size + 1);
}

/** The listed product whose code, as letters and digits (shared modelKey), is `key`. */
export function productIdByModelKey(db: Db, key: string) {
  if (!key) return Promise.resolve(undefined);
  return db.selectFrom('product_search').select('product_id').where('model_key', '=', key).orderBy('product_id').limit(1).executeTakeFirst();
}

export function cardRowsByIds(db: Db, ids: number[]) {
  if (!ids.length) return Promise.resolve([]);
  return db.selectFrom('product_search as ps').select(CARD_COLUMNS).where('ps.product_id', 'in', ids).execute();
}

export type CardRow = Awaited<ReturnType<typeof listItems>>[number];
