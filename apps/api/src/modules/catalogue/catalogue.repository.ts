import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { liveContent } from '../site/site.repository.ts';

// Every query of the catalogue's reads except search (search.repository.ts).

type Db = Kysely<Database>;

export function categoriesQuery(db: Db) {
  return db.selectFrom('categories').select(['id', 'name', 'name_bn', 'slug', 'parent_id', 'sort_order', 'image_url', 'banner_url', 'options']);
}

export function allCategories(db: Db) {
  return categoriesQuery(db).orderBy('sort_order').orderBy('id').execute();
}

/** The top-level categories, as listing facets offer them. */
export async function topCategories(db: Db) {
  const rows = await db.selectFrom('categories').select(['id', 'name', 'name_bn']).where('parent_id', 'is', null).orderBy('sort_order').orderBy('id').execute();
  return rows.map((c) => ({ id: c.id, name: c.name, name_bn: c.name_bn ?? null }));
}

export function childrenOf(db: Db, parentIds: number[]) {
  if (!parentIds.length) return Promise.resolve([]);
  return db
    .selectFrom('categories')
    .select(['id', 'name', 'name_bn', 'slug', 'sort_order', 'parent_id'])
    .where('parent_id', 'in', parentIds)
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
}

const PRODUCT_COLUMNS = [
  'id',
  'title',
  'title_bn',
  'slug',
  'model_code',
  'description',
  'description_bn',
  'kind',
  'primary_category_id',
  'is_new_arrival',
  'model_url',
  'created_at',
] as const;

/** A published product (drafts and archived products are the back office's alone). */
export function productBy(db: Db, by: { id?: number; slug?: string; code?: string }) {
  let q = db.selectFrom('products').select(PRODUCT_COLUMNS).where('status', '=', 'published');
  if (by.id !== undefined) q = q.where('id', '=', by.id);
  else if (by.slug !== undefined) q = q.where('slug', '=', by.slug);
  else if (by.code !== undefined) q = q.where('model_code', '=', by.code);
  else return Promise.resolve(undefined);
  return q.executeTakeFirst();
}

export function productIdBySkuCode(db: Db, code: string) {
  return db.selectFrom('skus').select('product_id').where('code', '=', code).executeTakeFirst();
}

export function productIdByModelCode(db: Db, code: string) {
  return db.selectFrom('products').select('id').where('model_code', '=', code).where('status', '=', 'published').executeTakeFirst();
}

export function productCategories(db: Db, productId: number) {
  return db
    .selectFrom('product_categories as pc')
    .innerJoin('categories as c', 'c.id', 'pc.category_id')
    .select(['c.id', 'c.name', 'c.name_bn', 'c.slug', 'c.parent_id'])
    .where('pc.product_id', '=', productId)
    .execute();
}

export function categoryIdsOfProducts(db: Db, productIds: number[]) {
  if (!productIds.length) return Promise.resolve([]);
  return db.selectFrom('product_categories').select(['product_id', 'category_id']).where('product_id', 'in', productIds).orderBy('category_id').execute();
}

export function productImages(db: Db, productId: number) {
  return db
    .selectFrom('product_images')
    .select(['url', 'alt', 'variant_value'])
    .where('product_id', '=', productId)
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
}

export function firstImages(db: Db, productIds: number[]) {
  if (!productIds.length) return Promise.resolve([]);
  return db
    .selectFrom('product_images')
    .select(['product_id', 'url'])
    .where('product_id', 'in', productIds)
    .orderBy('product_id')
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
}

export function skusOfProducts(db: Db, productIds: number[]) {
  if (!productIds.length) return Promise.resolve([]);
  return db
    .selectFrom('skus')
    .select(['id', 'product_id', 'code', 'sales_price', 'discounted_sales_price'])
    .where('product_id', 'in', productIds)
    .orderBy('product_id')
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
}

export function skusByIds(db: Db, skuIds: number[]) {
  if (!skuIds.length) return Promise.resolve([]);
  return db.selectFrom('skus').select(['id', 'product_id', 'code', 'sales_price', 'discounted_sales_price']).where('id', 'in', skuIds).execute();
}

export function attributeValuesOfSkus(db: Db, skuIds: number[]) {
  if (!skuIds.length) return Promise.resolve([]);
  return db
    .selectFrom('sku_attribute_values as v')
    .innerJoin('attributes as a', 'a.id', 'v.attribute_id')
    .select(['v.sku_id', 'v.attribute_id', 'a.name', 'a.display_label as option_label', 'a.sort_order', 'v.value', 'v.display_label'])
    .where('v.sku_id', 'in', skuIds)
    .orderBy('a.sort_order')
    .orderBy('a.id')
    .execute();
}

export function bundleParts(db: Db, bundleIds: number[]) {
  if (!bundleIds.length) return Promise.resolve([]);
  return db
    .selectFrom('bundle_items as b')
    .innerJoin('skus as s', 's.id', 'b.sku_id')
    .innerJoin('products as p', 'p.id', 's.product_id')
    .select([
      'b.bundle_product_id',
      'b.quantity',
      's.id as sku_id',
      's.code',
      's.sales_price',
      's.discounted_sales_price',
      'p.id as product_id',
      'p.title',
      'p.title_bn',
      'p.slug',
    ])
    .where('b.bundle_product_id', 'in', bundleIds)
    .orderBy('b.bundle_product_id')
    .orderBy('s.id')
    .execute();
}

export function bundleProducts(db: Db, id?: number) {
  let q = db.selectFrom('products').select(['id', 'title', 'title_bn', 'slug', 'model_code']).where('kind', '=', 'bundle').where('status', '=', 'published');
  if (id !== undefined) q = q.where('id', '=', id);
  return q.orderBy('id').limit(100).execute();
}

export function attributes(db: Db) {
  return db.selectFrom('attributes').select(['id', 'name', 'display_label', 'sort_order']).orderBy('sort_order').orderBy('id').execute();
}

/**
 * The values in use, per attribute: the whole catalogue's facet counts (category 0), made
 * when the read side is built, so that this costs a few hundred rows, not a scan of every
 * product's values. Keys are `<attribute id>:<value>`.
 */
export async function attributeValuesInUse(db: Db) {
  const rows = await db.selectFrom('category_facets').select(['key', 'label']).where('category_id', '=', 0).where('kind', '=', 'attr').execute();
  return rows
    .map((r) => {
      const colon = r.key.indexOf(':');
      return { attribute_id: Number(r.key.slice(0, colon)), value: r.key.slice(colon + 1), display_label: r.label };
    })
    .sort((a, b) => a.attribute_id - b.attribute_id || (a.display_label < b.display_label ? -1 : a.display_label > b.display_label ? 1 : 0));
}

export function branches(db: Db, kind?: string) {
  let q = db.selectFrom('branches').select(['id', 'name', 'kind', 'address', 'city', 'phone', 'hours', 'latitude', 'longitude', 'sort_order']);
  // A hidden branch (the back office's "hide", docs/decisions/0035) is not on the storefront.
  q = q.where('hidden', '=', 0);
  if (kind) q = q.where('kind', '=', kind);
  return q.orderBy('sort_order').orderBy('id').execute();
}

export function stockQuery(db: Db) {
  // One row per sku and branch; row_key makes the order total so pages never overlap.
  const inner = db
    .selectFrom('stocks as st')
    .innerJoin('skus as s', 's.id', 'st.sku_id')
    .select([
      's.code as skuCode',
      's.product_id as itemId',
      'st.branch_id as branchId',
      'st.quantity as quantity',
      sql<number>`cast(st.sku_id as bigint) * 1000000 + st.branch_id`.as('rowKey'),
    ]);
  return db.selectFrom(inner.as('stock')).select(['stock.skuCode', 'stock.itemId', 'stock.branchId', 'stock.quantity']);
}

export function cmsOfType(db: Db, types: string[]) {
  return db
    .selectFrom('cms_content')
    .select(['id', 'type', 'title', 'title_bn', 'slug', 'body', 'body_bn', 'fields', 'sort_order', 'updated_at'])
    .where('type', 'in', types)
    .where(liveContent())
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
}

export function productsWithModel(db: Db) {
  return db.selectFrom('products').select(['id', 'model_url', 'title', 'title_bn']).where('model_url', 'is not', null).where('status', '=', 'published');
}

export function sitemapProducts(db: Db, offset: number, limit: number) {
  return db.selectFrom('products').select(['slug', 'created_at']).where('status', '=', 'published').orderBy('id').offset(offset).limit(limit).execute();
}

export async function productCount(db: Db): Promise<number> {
  const r = await db
    .selectFrom('products')
    .where('status', '=', 'published')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** The product a former slug now belongs to (the back office keeps old addresses working). */
export function slugRedirect(db: Db, slug: string) {
  return db
    .selectFrom('product_slug_redirects as r')
    .innerJoin('products as p', 'p.id', 'r.product_id')
    .select('p.slug')
    .where('r.slug', '=', slug)
    .where('p.status', '=', 'published')
    .executeTakeFirst();
}
