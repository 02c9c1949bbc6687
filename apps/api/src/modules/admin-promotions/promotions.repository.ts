import type { TDiscountState } from '@storefront/shared';
import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

// All SQL of promotions in the back office (docs/decisions/0034). `db` may be a transaction.
// Instants are stored as ISO 8601 in UTC (toISOString), so they compare as text.

type Db = Kysely<Database>;
type Promo = 'global_discounts' | 'coupons';

/** Rows of `table` in `state` at `now`: the same reading as promotionState in packages/shared. */
export function inState<T extends Promo>(eb: ExpressionBuilder<Database, T>, state: TDiscountState, now: string) {
  const e = eb as unknown as ExpressionBuilder<Database, 'global_discounts'>;
  const started = e.or([e('starts_at', 'is', null), e('starts_at', '<=', now)]);
  const notEnded = e.or([e('ends_at', 'is', null), e('ends_at', '>', now)]);
  switch (state) {
    case 'off':
      return e('active', '=', 0);
    case 'ended':
      return e.and([e('active', '=', 1), e('ends_at', 'is not', null), e('ends_at', '<=', now)]);
    case 'scheduled':
      return e.and([e('active', '=', 1), notEnded, e('starts_at', '>', now)]);
    case 'in_force':
      return e.and([e('active', '=', 1), started, notEnded]);
  }
}

/** `%text%` for LIKE, with the wildcards typed by staff taken literally. */
export function likeText(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

// ---- global discounts ---------------------------------------------------------------------------

export function discountListQuery(db: Db, filter: { q?: string; state?: TDiscountState; now: string }) {
  let q = db.selectFrom('global_discounts');
  if (filter.q?.trim()) q = q.where(sql<boolean>`lower(title) like ${likeText(filter.q.trim())} escape '\\'`);
  if (filter.state) {
    const state = filter.state;
    q = q.where((eb) => inState(eb, state, filter.now));
  }
  return q;
}

/** The rows with how many categories or products each names. */
export function discountRows(q: ReturnType<typeof discountListQuery>, page: number, size: number) {
  return q
    .selectAll('global_discounts')
    .select((eb) => [
      eb
        .selectFrom('global_discount_categories as c')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('c.discount_id', '=', 'global_discounts.id')
        .as('category_count'),
      eb
        .selectFrom('global_discount_items as i')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('i.discount_id', '=', 'global_discounts.id')
        .as('item_count'),
    ])
    .orderBy('global_discounts.id', 'desc')
    .offset((page - 1) * size)
    .limit(size)
    .execute();
}

export function discountById(db: Db, id: number) {
  return db.selectFrom('global_discounts').selectAll().where('id', '=', id).executeTakeFirst();
}

export function discountTargets(db: Db, id: number) {
  return Promise.all([
    db
      .selectFrom('global_discount_categories as d')
      .innerJoin('categories as c', 'c.id', 'd.category_id')
      .select(['c.id', 'c.name'])
      .where('d.discount_id', '=', id)
      .orderBy('c.name')
      .execute(),
    db
      .selectFrom('global_discount_items as i')
      .innerJoin('products as p', 'p.id', 'i.product_id')
      .select(['i.product_id', 'p.title', 'i.sku_code'])
      .where('i.discount_id', '=', id)
      .orderBy('i.id')
      .execute(),
  ]);
}

export async function replaceDiscountTargets(db: Db, id: number, categoryIds: number[], items: { productId: number; skuCode: string | null }[]) {
  await db.deleteFrom('global_discount_categories').where('discount_id', '=', id).execute();
  await db.deleteFrom('global_discount_items').where('discount_id', '=', id).execute();
  if (categoryIds.length)
    await db
      .insertInto('global_discount_categories')
      .values(categoryIds.map((c) => ({ discount_id: id, category_id: c })))
      .execute();
  if (items.length)
    await db
      .insertInto('global_discount_items')
      .values(items.map((i) => ({ discount_id: id, product_id: i.productId, sku_code: i.skuCode })))
      .execute();
}

export function existingCategoryIds(db: Db, ids: number[]) {
  if (!ids.length) return Promise.resolve([]);
  return db.selectFrom('categories').select('id').where('id', 'in', ids).execute();
}

/** Products that are not archived, with their sku codes. */
export function productsWithSkus(db: Db, ids: number[]) {
  if (!ids.length) return Promise.resolve([]);
  return db
    .selectFrom('products as p')
    .leftJoin('skus as s', 's.product_id', 'p.id')
    .select(['p.id', 's.code'])
    .where('p.id', 'in', ids)
    .where('p.status', '!=', 'archived')
    .execute();
}

/**
 * The skus of published products (what the storefront shows and sells) in any of the
 * categories or among the products given, in the order the preview lists them.
 */
export function reachedSkus(db: Db, by: { categoryIds?: number[]; productIds?: number[] }) {
  let q = db
    .selectFrom('skus as s')
    .innerJoin('products as p', 'p.id', 's.product_id')
    .select(['s.id', 's.code', 's.product_id', 'p.title', 's.sales_price', 's.discounted_sales_price'])
    .where('p.status', '=', 'published');
  if (by.categoryIds) {
    const ids = by.categoryIds;
    if (!ids.length) return Promise.resolve([]);
    q = q.where((eb) =>
      eb.exists(eb.selectFrom('product_categories as pc').select('pc.product_id').whereRef('pc.product_id', '=', 'p.id').where('pc.category_id', 'in', ids)),
    );
  }
  if (by.productIds) {
    if (!by.productIds.length) return Promise.resolve([]);
    q = q.where('p.id', 'in', by.productIds);
  }
  return q.orderBy('p.title').orderBy('p.id').orderBy('s.sort_order').orderBy('s.id').execute();
}

// ---- coupons ------------------------------------------------------------------------------------

const usesOf = (eb: ExpressionBuilder<Database, 'coupons'>) =>
  eb
    .selectFrom('coupon_usages as u')
    .select((e) => e.fn.countAll<number>().as('n'))
    .whereRef('u.coupon_id', '=', 'coupons.id')
    .as('uses');

export function couponListQuery(db: Db, filter: { q?: string; state?: TDiscountState; now: string }) {
  let q = db.selectFrom('coupons');
  if (filter.q?.trim()) {
    const like = likeText(filter.q.trim());
    q = q.where(sql<boolean>`(lower(code) like ${like} escape '\\' or lower(title) like ${like} escape '\\')`);
  }
  if (filter.state) {
    const state = filter.state;
    q = q.where((eb) => inState(eb, state, filter.now));
  }
  return q;
}

export function couponRows(q: ReturnType<typeof couponListQuery>, page: number, size: number) {
  return q
    .selectAll('coupons')
    .select(usesOf)
    .orderBy('coupons.id', 'desc')
    .offset((page - 1) * size)
    .limit(size)
    .execute();
}

export function couponById(db: Db, id: number) {
  return db.selectFrom('coupons').selectAll().select(usesOf).where('id', '=', id).executeTakeFirst();
}

/** Another coupon whose code is this one in any case. */
export function couponWithCode(db: Db, code: string, exceptId: number | null) {
  let q = db.selectFrom('coupons').select(['id', 'code']).where(sql<string>`upper(code)`, '=', code.toUpperCase());
  if (exceptId != null) q = q.where('id', '!=', exceptId);
  return q.executeTakeFirst();
}

/** A coupon's uses, newest first, with the order and who placed it. */
export function couponUsages(db: Db, couponId: number, page: number, size: number) {
  return db
    .selectFrom('coupon_usages as u')
    .leftJoin('sales as s', 's.invoice_id', 'u.order_ref')
    .leftJoin('customers as c', 'c.id', 'u.customer_id')
    .select(['u.id', 'u.order_ref', 'u.customer_id', 'u.amount', 'u.created_at', 's.id as sale_id', 's.contact_name', 'c.full_name'])
    .where('u.coupon_id', '=', couponId)
    .orderBy('u.created_at', 'desc')
    .orderBy('u.id', 'desc')
    .offset((page - 1) * size)
    .limit(size)
    .execute();
}

export async function couponUsageTotals(db: Db, couponId: number): Promise<{ uses: number; amount: number }> {
  const r = await db
    .selectFrom('coupon_usages')
    .select((eb) => [eb.fn.countAll<number>().as('uses'), eb.fn.coalesce(eb.fn.sum<number>('amount'), sql<number>`0`).as('amount')])
    .where('coupon_id', '=', couponId)
    .executeTakeFirst();
  return { uses: Number(r?.uses ?? 0), amount: Number(r?.amount ?? 0) };
}

export async function countOf(q: ReturnType<typeof discountListQuery> | ReturnType<typeof couponListQuery>): Promise<number> {
  const r = await (q as ReturnType<typeof discountListQuery>).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  return Number(r?.n ?? 0);
}
