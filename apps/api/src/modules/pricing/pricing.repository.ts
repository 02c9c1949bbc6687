import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

// All SQL of discounts, coupons and the cart quote. `db` may be a transaction.

type Db = Kysely<Database>;

/** 1 while a row is switched on and `now` is inside its window, else 0 (ISO text compares in order). */
function validNow(now: string) {
  return sql<number>`case when active = 1 and (starts_at is null or starts_at <= ${now}) and (ends_at is null or ends_at > ${now}) then 1 else 0 end`;
}

/** Global discounts with their computed `valid`, as a table the paged search can filter and sort. */
export function discountSearchQuery(db: Db, now: string) {
  const inner = db.selectFrom('global_discounts').select(['id', 'title', 'type', 'discount_type', 'value', 'starts_at', 'ends_at', validNow(now).as('valid')]);
  return db.selectFrom(inner.as('d')).selectAll();
}

export function validDiscounts(db: Db, now: string) {
  return db
    .selectFrom('global_discounts')
    .select(['id', 'title', 'type', 'discount_type', 'value', 'starts_at', 'ends_at'])
    .where('active', '=', 1)
    .where((eb) => eb.or([eb('starts_at', 'is', null), eb('starts_at', '<=', now)]))
    .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', now)]))
    .orderBy('id')
    .execute();
}

export function discountCategories(db: Db, discountIds: number[]) {
  if (!discountIds.length) return Promise.resolve([]);
  return db
    .selectFrom('global_discount_categories')
    .select(['discount_id', 'category_id'])
    .where('discount_id', 'in', discountIds)
    .orderBy('category_id')
    .execute();
}

export function discountItems(db: Db, discountIds: number[]) {
  if (!discountIds.length) return Promise.resolve([]);
  return db
    .selectFrom('global_discount_items')
    .select(['discount_id', 'product_id', 'sku_code'])
    .where('discount_id', 'in', discountIds)
    .orderBy('id')
    .execute();
}

/** The category tree as parent links (a few dozen rows even for a large catalogue). */
export function categoryParents(db: Db) {
  return db.selectFrom('categories').select(['id', 'parent_id']).execute();
}

/** Skus with their product, first image and sale prices, by code. */
export function skusByCode(db: Db, codes: string[]) {
  if (!codes.length) return Promise.resolve([]);
  return (
    db
      .selectFrom('skus')
      .innerJoin('products', 'products.id', 'skus.product_id')
      .select([
        'skus.id as sku_id',
        'skus.code',
        'skus.sales_price',
        'skus.discounted_sales_price',
        'products.id as product_id',
        'products.title',
        'products.slug',
        'products.kind',
        (eb) =>
          eb
            .selectFrom('product_images')
            .select('product_images.url')
            .whereRef('product_images.product_id', '=', 'products.id')
            .orderBy('product_images.sort_order')
            .orderBy('product_images.id')
            .limit(1)
            .as('image'),
      ])
      .where('skus.code', 'in', codes)
      // A draft or archived product cannot be bought.
      .where('products.status', '=', 'published')
      .execute()
  );
}

export function productCategoryIds(db: Db, productIds: number[]) {
  if (!productIds.length) return Promise.resolve([]);
  return db.selectFrom('product_categories').select(['product_id', 'category_id']).where('product_id', 'in', productIds).execute();
}

/** Attribute values of skus ("Walnut", "3 Seater") in attribute order. */
export function skuAttributeLabels(db: Db, skuIds: number[]) {
  if (!skuIds.length) return Promise.resolve([]);
  return db
    .selectFrom('sku_attribute_values')
    .innerJoin('attributes', 'attributes.id', 'sku_attribute_values.attribute_id')
    .select(['sku_attribute_values.sku_id', 'sku_attribute_values.display_label'])
    .where('sku_attribute_values.sku_id', 'in', skuIds)
    .orderBy('attributes.sort_order')
    .orderBy('attributes.id')
    .execute();
}

/** Stock of each sku over every branch. */
export function skuStock(db: Db, skuIds: number[]) {
  if (!skuIds.length) return Promise.resolve([]);
  return db
    .selectFrom('stocks')
    .select(['sku_id', (eb) => eb.fn.sum<number>('quantity').as('quantity')])
    .where('sku_id', 'in', skuIds)
    .groupBy('sku_id')
    .execute();
}

const couponColumns = [
  'id',
  'code',
  'title',
  'discount_type',
  'value',
  'minimum_order',
  'max_amount',
  'starts_at',
  'ends_at',
  'usage_limit',
  'per_customer_limit',
  'is_public',
  'active',
] as const;

export function couponByCode(db: Db, code: string) {
  return db.selectFrom('coupons').select(couponColumns).where('code', '=', code).executeTakeFirst();
}

export async function couponUseCounts(db: Db, couponId: number, customerId: number | null): Promise<{ total: number; byCustomer: number }> {
  const row = await db
    .selectFrom('coupon_usages')
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      (customerId == null ? sql<number>`0` : eb.fn.sum<number>(eb.case().when('customer_id', '=', customerId).then(1).else(0).end())).as('by_customer'),
    ])
    .where('coupon_id', '=', couponId)
    .executeTakeFirst();
  return { total: Number(row?.total ?? 0), byCustomer: Number(row?.by_customer ?? 0) };
}

/** Public coupons, with their computed `valid` (switched on, in the window, uses left). */
export function couponSearchQuery(db: Db, now: string) {
  const inner = db
    .selectFrom('coupons')
    .select([
      ...couponColumns,
      sql<number>`case when active = 1 and (starts_at is null or starts_at <= ${now}) and (ends_at is null or ends_at > ${now})
        and (usage_limit is null or usage_limit > (select count(*) from coupon_usages u where u.coupon_id = coupons.id)) then 1 else 0 end`.as('valid'),
    ])
    .where('is_public', '=', 1);
  return db.selectFrom(inner.as('c')).selectAll();
}

export function insertCouponUsage(
  db: Db,
  row: { coupon_id: number; customer_id: number | null; order_ref: string | null; amount: number; created_at: string },
) {
  return db.insertInto('coupon_usages').values(row).returning('id').executeTakeFirstOrThrow();
}
