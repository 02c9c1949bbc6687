import { modelKey, priceSku, searchText, type TGlobalDiscount } from '@storefront/shared';
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import { refreshFullTextIndex } from '../../db/dialect/full-text.ts';
import { lockForTransaction } from '../../db/dialect/locks.ts';
import { refreshPlannerStats } from '../../db/dialect/planner-stats.ts';
import type { Database, ProductSearchTable } from '../../db/schema.ts';
import { validDiscounts } from '../pricing/pricing.service.ts';
import { buildSearchWords } from './search-words.ts';

// Builds the catalogue's read side (product_search, its full-text index, product_facets,
// the category facets and listings, and the common search words)
// from the catalogue tables (migration 0004, docs/decisions/0006). Listings sort and filter
// by the price a shopper is shown: each sku priced by the shared rule (packages/shared
// priceSku: its own sale price or the best global discount in force). It is rebuilt whole at
// start when the index does not cover the catalogue, when the discounts in force change
// (plugins/catalogue.ts checks every minute), and after a test adds products; a back-office
// write updates the rows of the products it wrote (syncProducts).

const BATCH = 2000;
const INSERT_ROWS = 400;
const INDEX_LOCK = 7_001_004;

type Row = ProductSearchTable;

/** What identifies the discounts prices were computed with (their ids and terms). */
export function discountsSignature(discounts: TGlobalDiscount[]): string {
  return JSON.stringify(
    discounts
      .filter((d) => d.valid)
      .map((d) => [
        d.id,
        d.type,
        d.discountType,
        d.value,
        d.coveredCategoryIds,
        d.categories.map((c) => c.categoryId),
        d.items.map((i) => [i.itemId, i.skuCode]),
      ])
      .sort((a, b) => Number(a[0]) - Number(b[0])),
  );
}

/** The discounts in force now and their signature. */
export async function discountsInForce(db: Kysely<Database>, now = new Date()) {
  const discounts = await validDiscounts(db, now);
  return { discounts, signature: discountsSignature(discounts) };
}

/** The signature the stored index was built with, or null when it was never built. */
export async function storedSignature(db: Kysely<Database>): Promise<string | null> {
  const row = await db.selectFrom('search_index_state').select('discounts_signature').where('id', '=', 1).executeTakeFirst();
  return row?.discounts_signature ?? null;
}

/** Rewrites the read side in one transaction: readers see the old index until it commits. */
export async function rebuildSearchIndex(db: Kysely<Database>, dialect: Dialect, now = new Date()): Promise<{ products: number; signature: string }> {
  const built = await writeSearchIndex(db, dialect, now);
  await refreshPlannerStats(db, dialect);
  return built;
}

async function writeSearchIndex(db: Kysely<Database>, dialect: Dialect, now: Date): Promise<{ products: number; signature: string }> {
  return db.transaction().execute(async (trx) => {
    await lockForTransaction(trx, dialect, INDEX_LOCK);
    const { discounts, signature } = await discountsInForce(trx, now);
    await trx.deleteFrom('category_facets').execute();
    await trx.deleteFrom('category_listing').execute();
    await trx.deleteFrom('product_facets').execute();
    await trx.deleteFrom('product_search').execute();

    const { categories, attributes } = await namesOf(trx);
    const bounds = await trx
      .selectFrom('products')
      .select((eb) => [eb.fn.min('id').as('lo'), eb.fn.max('id').as('hi')])
      .executeTakeFirst();
    const lo = Number(bounds?.lo ?? 0);
    const hi = Number(bounds?.hi ?? -1);
    let indexed = 0;
    // Per category (0: everything): products, price range, products per attribute value.
    const agg = new Map<number, { count: number; min: number; max: number; attrs: Map<string, { label: string; n: number }> }>();
    const tally = (categoryId: number, price: number, values: FacetValue[]) => {
      let a = agg.get(categoryId);
      if (!a) agg.set(categoryId, (a = { count: 0, min: price, max: price, attrs: new Map() }));
      a.count++;
      if (price < a.min) a.min = price;
      if (price > a.max) a.max = price;
      for (const v of values) {
        const key = `${v.attribute_id}:${v.value}`;
        const t = a.attrs.get(key);
        if (t) t.n++;
        else a.attrs.set(key, { label: v.display_label, n: 1 });
      }
    };

    const ctx: IndexContext = { discounts, categories, attributes };
    for (let from = lo; from <= hi; from += BATCH) {
      const { rows, facets, tallies } = await indexProducts(trx, ctx, { from, to: from + BATCH });
      for (const t of tallies) for (const c of t.categoryIds) tally(c, t.price, t.values);
      await insertIndexRows(trx, rows, facets);
      indexed += rows.length;
    }
    const facetRows: Database['category_facets'][] = [];
    for (const [categoryId, a] of agg) {
      facetRows.push({ category_id: categoryId, kind: 'count', key: '', label: '', n: a.count });
      facetRows.push(
        { category_id: categoryId, kind: 'price', key: 'min', label: '', n: a.min },
        { category_id: categoryId, kind: 'price', key: 'max', label: '', n: a.max },
      );
      for (const [key, t] of a.attrs) facetRows.push({ category_id: categoryId, kind: 'attr', key, label: t.label, n: t.n });
    }
    for (let i = 0; i < facetRows.length; i += INSERT_ROWS)
      await trx
        .insertInto('category_facets')
        .values(facetRows.slice(i, i + INSERT_ROWS))
        .execute();
    // Each category's listing, from what was just written: one statement, on the server.
    await fillCategoryListing(trx);
    await buildSearchWords(trx);
    await refreshFullTextIndex(trx, dialect);
    await trx.deleteFrom('search_index_state').execute();
    await trx.insertInto('search_index_state').values({ id: 1, discounts_signature: signature, built_at: now.toISOString() }).execute();
    return { products: indexed, signature };
  });
}

const TEXT_COLUMNS = ['title_text', 'model_text', 'category_text', 'attribute_text'] as const;

/**
 * A back-office write's share of the read side (docs/decisions/0031), in the write's own
 * transaction so that the next request sees the change: the written products' rows in
 * product_search, its full-text index, product_facets and category_listing; the facets of
 * every category they are or were filed under; and the stored answers of every common word
 * they have or had, which are dropped (such a word is searched live until the next full
 * rebuild: correct, only slower). Products that are not published leave the read side.
 */
export async function syncProducts(trx: Kysely<Database>, dialect: Dialect, productIds: number[]): Promise<void> {
  const ids = [...new Set(productIds)];
  if (!ids.length) return;
  await lockForTransaction(trx, dialect, INDEX_LOCK);
  const old = await trx
    .selectFrom('product_search')
    .select(['product_id', 'category_ids', ...TEXT_COLUMNS])
    .where('product_id', 'in', ids)
    .execute();
  if (dialect === 'sqlite') {
    // External content: FTS5 forgets a row only when told its old words.
    for (const r of old) {
      await sql`insert into product_search_fts(product_search_fts, rowid, title_text, model_text, category_text, attribute_text)
        values ('delete', ${r.product_id}, ${r.title_text}, ${r.model_text}, ${r.category_text}, ${r.attribute_text})`.execute(trx);
    }
  }
  const oldFacets = await trx
    .selectFrom('product_facets')
    .select(['product_id', 'attribute_id', 'value', 'display_label'])
    .where('product_id', 'in', ids)
    .execute();
  await trx.deleteFrom('category_listing').where('product_id', 'in', ids).execute();
  await trx.deleteFrom('product_facets').where('product_id', 'in', ids).execute();
  await trx.deleteFrom('product_search').where('product_id', 'in', ids).execute();

  const { discounts } = await discountsInForce(trx);
  const { rows, facets } = await indexProducts(trx, { discounts, ...(await namesOf(trx)) }, ids);
  await insertIndexRows(trx, rows, facets);
  if (dialect === 'sqlite') {
    for (const r of rows) {
      await sql`insert into product_search_fts(rowid, title_text, model_text, category_text, attribute_text)
        values (${r.product_id}, ${r.title_text}, ${r.model_text}, ${r.category_text}, ${r.attribute_text})`.execute(trx);
    }
  }
  await fillCategoryListing(trx, ids);

  // The facets of their categories move by what these products took away and brought.
  const delta = new FacetDelta();
  const facetsOf = group([...oldFacets], (f) => f.product_id);
  for (const r of old) delta.add(JSON.parse(r.category_ids), facetsOf.get(r.product_id) ?? [], -1);
  const newFacetsOf = group(facets, (f) => f.product_id);
  for (const r of rows) delta.add(JSON.parse(r.category_ids), newFacetsOf.get(r.product_id) ?? [], 1);
  await delta.apply(trx);

  // Every word that is the start of one of their words, before or after: those are the
  // common words whose stored answers may include, or should now include, these products.
  const prefixes = new Set<string>();
  for (const r of [...old, ...rows])
    for (const col of TEXT_COLUMNS) for (const token of r[col].split(' ')) for (let len = 1; len <= token.length; len++) prefixes.add(token.slice(0, len));
  const list = [...prefixes];
  for (let i = 0; i < list.length; i += 500)
    await trx
      .deleteFrom('search_words')
      .where('word', 'in', list.slice(i, i + 500))
      .execute();
}

/** The category listings of the indexed products (of `ids` only, when given), from product_search. */
async function fillCategoryListing(trx: Kysely<Database>, ids?: number[]): Promise<void> {
  await trx
    .insertInto('category_listing')
    .columns(['category_id', 'product_id', 'price', 'created_at', 'title'])
    .expression((eb) => {
      const rows = eb
        .selectFrom('product_categories as pc')
        .innerJoin('product_search as ps', 'ps.product_id', 'pc.product_id')
        .select(['pc.category_id', 'ps.product_id', 'ps.price', 'ps.created_at', 'ps.title']);
      return ids ? rows.where('pc.product_id', 'in', ids) : rows;
    })
    .execute();
}

/**
 * Changes to category_facets: per category (0: the whole catalogue), products and products
 * per attribute value, added or taken away. Applied as increments, so that a write to one
 * product costs a few statements whatever the size of its categories; the price range is
 * read again from an index (category_listing by category and price).
 */
class FacetDelta {
  private readonly counts = new Map<number, number>();
  private readonly attrs = new Map<number, Map<string, { n: number; label: string }>>();

  add(categoryIds: number[], facets: FacetValue[], sign: 1 | -1) {
    for (const c of [0, ...new Set(categoryIds)]) {
      this.counts.set(c, (this.counts.get(c) ?? 0) + sign);
      let byKey = this.attrs.get(c);
      if (!byKey) this.attrs.set(c, (byKey = new Map()));
      for (const f of facets) {
        const key = `${f.attribute_id}:${f.value}`;
        const d = byKey.get(key);
        if (d) d.n += sign;
        else byKey.set(key, { n: sign, label: f.display_label });
      }
    }
  }

  async apply(trx: Kysely<Database>) {
    for (const [c, n] of this.counts) {
      const changes: [kind: string, key: string, label: string, n: number][] = [['count', '', '', n]];
      for (const [key, d] of this.attrs.get(c) ?? []) if (d.n !== 0) changes.push(['attr', key, d.label, d.n]);
      for (const [kind, key, label, d] of changes) {
        if (d === 0) continue;
        const r = await trx
          .updateTable('category_facets')
          .set((eb) => ({ n: eb('n', '+', d) }))
          .where('category_id', '=', c)
          .where('kind', '=', kind)
          .where('key', '=', key)
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) === 0 && d > 0) await trx.insertInto('category_facets').values({ category_id: c, kind, key, label, n: d }).execute();
      }
      await trx.deleteFrom('category_facets').where('category_id', '=', c).where('kind', 'in', ['count', 'attr']).where('n', '<=', 0).execute();
      // The price range, from the index of the category's listing (of product_search for 0).
      const range =
        c === 0
          ? await trx
              .selectFrom('product_search')
              .select((eb) => [eb.fn.min('price').as('lo'), eb.fn.max('price').as('hi')])
              .executeTakeFirst()
          : await trx
              .selectFrom('category_listing')
              .select((eb) => [eb.fn.min('price').as('lo'), eb.fn.max('price').as('hi')])
              .where('category_id', '=', c)
              .executeTakeFirst();
      await trx.deleteFrom('category_facets').where('category_id', '=', c).where('kind', '=', 'price').execute();
      if (range?.lo != null) {
        await trx
          .insertInto('category_facets')
          .values([
            { category_id: c, kind: 'price', key: 'min', label: '', n: Number(range.lo) },
            { category_id: c, kind: 'price', key: 'max', label: '', n: Number(range.hi) },
          ])
          .execute();
      }
    }
  }
}

/** Tells every process sharing the database that the read side changed (plugins/catalogue.ts polls it). */
export async function bumpReadSideVersion(trx: Kysely<Database>): Promise<void> {
  await trx
    .updateTable('read_side_version')
    .set((eb) => ({ version: eb('version', '+', 1), changed_at: new Date().toISOString() }))
    .where('id', '=', 1)
    .execute();
}

export async function readSideVersion(db: Kysely<Database>): Promise<number> {
  const r = await db.selectFrom('read_side_version').select('version').where('id', '=', 1).executeTakeFirst();
  return Number(r?.version ?? 0);
}

interface IndexContext {
  discounts: TGlobalDiscount[];
  categories: Map<number, string>;
  attributes: Map<number, string>;
}

type FacetValue = { attribute_id: number; value: string; display_label: string };
/** Products by a range of ids (the rebuild's batches) or by a list (a back-office write). */
type Pick = { from: number; to: number } | number[];

async function namesOf(db: Kysely<Database>) {
  // A category is found by its name in either language (docs/decisions/0038).
  const categories = new Map(
    (await db.selectFrom('categories').select(['id', 'name', 'name_bn']).execute()).map((c) => [c.id, c.name_bn ? `${c.name} ${c.name_bn}` : c.name]),
  );
  const attributes = new Map((await db.selectFrom('attributes').select(['id', 'name']).execute()).map((a) => [a.id, a.name]));
  return { categories, attributes };
}

function idFilter(pick: Pick, column: string) {
  // biome-ignore lint/suspicious/noExplicitAny: the one filter on a product id column, applied to queries of several tables
  return (eb: any) => (Array.isArray(pick) ? eb(column, 'in', pick.length ? pick : [-1]) : eb.and([eb(column, '>=', pick.from), eb(column, '<', pick.to)]));
}

/**
 * The read side's rows of the published products picked: their product_search rows, their
 * facet values, and what each adds to its categories' facets.
 */
async function indexProducts(trx: Kysely<Database>, ctx: IndexContext, pick: Pick) {
  const { discounts, categories, attributes } = ctx;
  const rows: Row[] = [];
  const facets: Database['product_facets'][] = [];
  const tallies: { categoryIds: number[]; price: number; values: FacetValue[] }[] = [];
  const products = await trx
    .selectFrom('products')
    .select(['id', 'title', 'title_bn', 'slug', 'model_code', 'kind', 'primary_category_id', 'is_new_arrival', 'created_at'])
    .where(idFilter(pick, 'id'))
    // Drafts and archived products never reach shoppers.
    .where('status', '=', 'published')
    .orderBy('id')
    .execute();
  if (!products.length) return { rows, facets, tallies };
  const memberships = await trx.selectFrom('product_categories').select(['product_id', 'category_id']).where(idFilter(pick, 'product_id')).execute();
  const skus = await trx
    .selectFrom('skus')
    .select(['id', 'product_id', 'code', 'sales_price', 'discounted_sales_price', 'sort_order'])
    .where(idFilter(pick, 'product_id'))
    .orderBy('product_id')
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
  const values = await trx
    .selectFrom('sku_attribute_values as v')
    .innerJoin('skus as s', 's.id', 'v.sku_id')
    .select(['s.product_id', 'v.sku_id', 'v.attribute_id', 'v.value', 'v.display_label'])
    .where(idFilter(pick, 's.product_id'))
    .orderBy('s.product_id')
    .orderBy('s.sort_order')
    .orderBy('s.id')
    // A total order: a product's words and colours come out the same whichever way it is built.
    .orderBy('v.attribute_id')
    .orderBy('v.value')
    .execute();
  const images = await trx
    .selectFrom('product_images')
    .select(['product_id', 'url', 'alt'])
    .where(idFilter(pick, 'product_id'))
    .orderBy('product_id')
    .orderBy('sort_order')
    .orderBy('id')
    .execute();

  const cats = group(memberships, (m) => m.product_id);
  const skusOf = group(skus, (s) => s.product_id);
  const valuesOf = group(values, (v) => v.product_id);
  const firstImage = new Map<number, { url: string; alt: string }>();
  for (const img of images) if (!firstImage.has(img.product_id)) firstImage.set(img.product_id, img);

  for (const p of products) {
    const own = skusOf.get(p.id) ?? [];
    // A product without a sku has no price and cannot be sold: it is not listed.
    if (!own.length) continue;
    const categoryIds = (cats.get(p.id) ?? []).map((m) => m.category_id);
    const priced = own.map((s) => ({
      sku: s,
      price: priceSku({ productId: p.id, categoryIds, skuCode: s.code, salesPrice: s.sales_price, discountedSalesPrice: s.discounted_sales_price }, discounts),
    }));
    let card = priced[0];
    for (const x of priced) if (x.price.unitPrice < card.price.unitPrice) card = x;
    const vals = valuesOf.get(p.id) ?? [];
    const seen = new Set<string>();
    const colors: { label: string; value: string }[] = [];
    const distinct: FacetValue[] = [];
    for (const v of vals) {
      const key = `${v.attribute_id}\u0000${v.value}`;
      if (seen.has(key)) continue;
      seen.add(key);
      distinct.push(v);
      facets.push({ product_id: p.id, attribute_id: v.attribute_id, value: v.value, display_label: v.display_label });
      if (attributes.get(v.attribute_id) === 'color') colors.push({ label: v.display_label, value: v.value });
    }
    tallies.push({ categoryIds: [0, ...new Set(categoryIds)], price: card.price.unitPrice, values: distinct });
    const img = firstImage.get(p.id);
    const catNames = (cats.get(p.id) ?? []).map((m) => categories.get(m.category_id) ?? '').join(' ');
    rows.push({
      product_id: p.id,
      title: p.title,
      title_bn: p.title_bn || null,
      slug: p.slug,
      model_code: p.model_code,
      model_key: p.model_code ? modelKey(p.model_code) || null : null,
      kind: p.kind,
      primary_category_id: p.primary_category_id,
      image_url: img?.url ?? null,
      image_alt: img?.alt ?? p.title,
      sku_code: card.sku.code,
      sales_price: card.sku.sales_price,
      discounted_sales_price: card.sku.discounted_sales_price,
      price: card.price.unitPrice,
      on_sale: priced.some((x) => x.price.saving > 0) ? 1 : 0,
      is_new_arrival: p.is_new_arrival,
      sku_count: own.length,
      colors: JSON.stringify(colors),
      category_ids: JSON.stringify([...new Set(categoryIds)].sort((a, b) => a - b)),
      created_at: p.created_at,
      // Both titles: a shopper finds the product in either language (docs/decisions/0038).
      title_text: searchText(p.title_bn ? `${p.title} ${p.title_bn}` : p.title),
      // The model code and the codes of its skus ("AFL-1021-GRE-1"), and the code run
      // together ("afl1021"), as shoppers also type it.
      model_text: searchText([p.model_code ?? '', ...own.map((s) => s.code), p.model_code ? modelKey(p.model_code) : ''].join(' ')),
      category_text: searchText(catNames),
      attribute_text: searchText([...new Set(vals.map((v) => v.display_label))].join(' ')),
    });
  }
  return { rows, facets, tallies };
}

async function insertIndexRows(trx: Kysely<Database>, rows: Row[], facets: Database['product_facets'][]) {
  for (let i = 0; i < rows.length; i += INSERT_ROWS)
    await trx
      .insertInto('product_search')
      .values(rows.slice(i, i + INSERT_ROWS))
      .execute();
  for (let i = 0; i < facets.length; i += INSERT_ROWS * 2)
    await trx
      .insertInto('product_facets')
      .values(facets.slice(i, i + INSERT_ROWS * 2))
      .execute();
}

/**
 * Whether the read side covers the catalogue: as many indexed products as products with a
 * sku, and the newest product indexed. Cheap enough to ask at every start.
 */
export async function searchIndexIsCurrent(db: Kysely<Database>): Promise<boolean> {
  const { rows } = await sql<{ listed: number; indexed: number; newest: number | null; newest_indexed: number | null }>`
    select
      (select count(*) from products p where p.status = 'published' and exists (select 1 from skus s where s.product_id = p.id)) as listed,
      (select count(*) from product_search) as indexed,
      (select max(id) from products p where p.status = 'published' and exists (select 1 from skus s where s.product_id = p.id)) as newest,
      (select max(product_id) from product_search) as newest_indexed`.execute(db);
  const r = rows[0];
  return Number(r.listed) === Number(r.indexed) && Number(r.newest ?? 0) === Number(r.newest_indexed ?? 0);
}

function group<T>(rows: T[], key: (r: T) => number): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}
