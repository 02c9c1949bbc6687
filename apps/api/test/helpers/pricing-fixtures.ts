import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.ts';

// Small helpers for the pricing tests: find demo skus by category and add discounts and
// coupons of a test's own, so expectations do not hang on the demo promotions.

export interface SkuRow {
  code: string;
  sku_id: number;
  product_id: number;
  sales_price: number;
  discounted_sales_price: number | null;
}

export async function skusIn(db: Kysely<Database>, categorySlug: string): Promise<SkuRow[]> {
  return db
    .selectFrom('skus')
    .innerJoin('products', 'products.id', 'skus.product_id')
    .innerJoin('categories', 'categories.id', 'products.primary_category_id')
    .where('categories.slug', '=', categorySlug)
    .where('products.kind', '=', 'single')
    .select(['skus.code', 'skus.id as sku_id', 'skus.product_id', 'skus.sales_price', 'skus.discounted_sales_price'])
    .orderBy('skus.id')
    .execute();
}

export async function categoryId(db: Kysely<Database>, slug: string): Promise<number> {
  return (await db.selectFrom('categories').select('id').where('slug', '=', slug).executeTakeFirstOrThrow()).id;
}

/** Gives a sku plenty of stock in every branch, so availability does not get in the way. */
export async function stockUp(db: Kysely<Database>, skuId: number, quantity = 50) {
  const branches = await db.selectFrom('branches').select('id').execute();
  await db.deleteFrom('stocks').where('sku_id', '=', skuId).execute();
  await db
    .insertInto('stocks')
    .values(branches.map((b, i) => ({ sku_id: skuId, branch_id: b.id, quantity: i === 0 ? quantity : 0 })))
    .execute();
}

export async function addDiscount(
  db: Kysely<Database>,
  d: {
    title?: string;
    type: 'FIXED_CATEGORY' | 'FIXED_PRODUCT';
    discountType: 'PERCENTAGE' | 'AMOUNT';
    value: number;
    categories?: number[];
    items?: { productId: number; skuCode?: string | null }[];
    active?: boolean;
    startsAt?: string | null;
    endsAt?: string | null;
  },
): Promise<number> {
  const row = await db
    .insertInto('global_discounts')
    .values({
      title: d.title ?? 'test discount',
      type: d.type,
      discount_type: d.discountType,
      value: d.value,
      active: d.active === false ? 0 : 1,
      starts_at: d.startsAt ?? null,
      ends_at: d.endsAt ?? null,
      created_at: new Date().toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const c of d.categories ?? []) await db.insertInto('global_discount_categories').values({ discount_id: row.id, category_id: c }).execute();
  for (const i of d.items ?? [])
    await db
      .insertInto('global_discount_items')
      .values({ discount_id: row.id, product_id: i.productId, sku_code: i.skuCode ?? null })
      .execute();
  return row.id;
}

export async function removeAllDiscounts(db: Kysely<Database>) {
  await db.deleteFrom('global_discounts').execute();
}

export async function addCoupon(
  db: Kysely<Database>,
  c: {
    code: string;
    discountType?: 'PERCENTAGE' | 'AMOUNT';
    value: number;
    minimumOrder?: number | null;
    maxAmount?: number | null;
    startsAt?: string | null;
    endsAt?: string | null;
    usageLimit?: number | null;
    perCustomerLimit?: number | null;
    isPublic?: boolean;
    active?: boolean;
  },
): Promise<number> {
  const row = await db
    .insertInto('coupons')
    .values({
      code: c.code,
      title: `test ${c.code}`,
      discount_type: c.discountType ?? 'AMOUNT',
      value: c.value,
      minimum_order: c.minimumOrder ?? null,
      max_amount: c.maxAmount ?? null,
      starts_at: c.startsAt ?? null,
      ends_at: c.endsAt ?? null,
      usage_limit: c.usageLimit ?? null,
      per_customer_limit: c.perCustomerLimit ?? null,
      is_public: c.isPublic ? 1 : 0,
      active: c.active === false ? 0 : 1,
      created_at: new Date().toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** 15% of a price rounded down to the whole taka, written out plainly for expectations. */
export const pctOffWholeTaka = (price: number, pct: number) => Math.floor((price * pct) / 100 / 100) * 100;
