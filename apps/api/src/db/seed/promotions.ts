import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../schema.ts';

// Demo global discounts and coupons. Called by seedIfEmpty inside its
// transaction, after the catalogue, so it runs once per database like the rest of the seed.
// Windows are relative to the seeding time so the demo keeps working whenever it is seeded.

const DAY = 86_400_000;

export async function seedPromotions(db: Kysely<Database>, now = new Date()): Promise<void> {
  const at = (days: number) => new Date(now.getTime() + days * DAY).toISOString();
  const created = now.toISOString();
  const categoryId = async (slug: string) => (await db.selectFrom('categories').select('id').where('slug', '=', slug).executeTakeFirstOrThrow()).id;
  const firstProduct = (slug: string) =>
    db
      .selectFrom('products')
      .innerJoin('categories', 'categories.id', 'products.primary_category_id')
      .where('categories.slug', '=', slug)
      .where('products.kind', '=', 'single')
      .select('products.id')
      .orderBy('products.id')
      .executeTakeFirst();

  const discounts: {
    title: string;
    type: 'FIXED_CATEGORY' | 'FIXED_PRODUCT';
    discount_type: 'PERCENTAGE' | 'AMOUNT';
    value: number;
    active?: number;
    starts_at?: string | null;
    ends_at?: string | null;
    categories?: string[];
    items?: { categorySlug: string; allSkus: boolean }[];
  }[] = [
    // A mid-level category: reaches three-seaters, L-shapes and sofa beds below it.
    {
      title: 'Sofa Season: 15% off every sofa',
      type: 'FIXED_CATEGORY',
      discount_type: 'PERCENTAGE',
      value: 15,
      categories: ['sofas'],
      starts_at: at(-10),
      ends_at: at(365),
    },
    {
      title: 'Office Week: ৳2,000 off office chairs',
      type: 'FIXED_CATEGORY',
      discount_type: 'AMOUNT',
      value: 200_000,
      categories: ['office-chairs'],
      ends_at: at(365),
    },
    // A top-level category: everything under Kids.
    { title: 'Back to School: 10% off kids’ furniture', type: 'FIXED_CATEGORY', discount_type: 'PERCENTAGE', value: 10, categories: ['kids'] },
    {
      title: 'Deal of the Week: 20% off a dining table',
      type: 'FIXED_PRODUCT',
      discount_type: 'PERCENTAGE',
      value: 20,
      items: [{ categorySlug: 'dining-tables', allSkus: true }],
    },
    {
      title: '৳3,000 off one mattress size',
      type: 'FIXED_PRODUCT',
      discount_type: 'AMOUNT',
      value: 300_000,
      items: [{ categorySlug: 'mattresses', allSkus: false }],
    },
    // Shown by the search with valid false: one ended, one switched off.
    {
      title: 'Eid Sale: 25% off bedroom (ended)',
      type: 'FIXED_CATEGORY',
      discount_type: 'PERCENTAGE',
      value: 25,
      categories: ['bedroom'],
      starts_at: at(-240),
      ends_at: at(-200),
    },
    { title: 'Storage Clearance (paused)', type: 'FIXED_CATEGORY', discount_type: 'PERCENTAGE', value: 30, categories: ['storage'], active: 0 },
  ];

  for (const d of discounts) {
    const row = await db
      .insertInto('global_discounts')
      .values({
        title: d.title,
        type: d.type,
        discount_type: d.discount_type,
        value: d.value,
        active: d.active ?? 1,
        starts_at: d.starts_at ?? null,
        ends_at: d.ends_at ?? null,
        created_at: created,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const slug of d.categories ?? []) {
      await db
        .insertInto('global_discount_categories')
        .values({ discount_id: row.id, category_id: await categoryId(slug) })
        .execute();
    }
    for (const item of d.items ?? []) {
      const product = await firstProduct(item.categorySlug);
      if (!product) continue;
      const sku = item.allSkus
        ? null
        : await db.selectFrom('skus').select('code').where('product_id', '=', product.id).orderBy('sort_order').orderBy('id').executeTakeFirst();
      await db
        .insertInto('global_discount_items')
        .values({ discount_id: row.id, product_id: product.id, sku_code: sku?.code ?? null })
        .execute();
    }
  }

  const coupon = (
    c: Partial<Insertable<Database['coupons']>> & { code: string; title: string; discount_type: string; value: number },
  ): Insertable<Database['coupons']> => ({
    minimum_order: null,
    max_amount: null,
    starts_at: at(-30),
    ends_at: at(730),
    usage_limit: null,
    per_customer_limit: null,
    is_public: 1,
    active: 1,
    created_at: created,
    ...c,
  });
  await db
    .insertInto('coupons')
    .values([
      coupon({
        code: 'NIBASH500',
        title: '৳500 off orders of ৳10,000 or more',
        discount_type: 'AMOUNT',
        value: 50_000,
        minimum_order: 1_000_000,
        usage_limit: 5000,
      }),
      coupon({
        code: 'WELCOME10',
        title: '10% off your first order (up to ৳3,000)',
        discount_type: 'PERCENTAGE',
        value: 10,
        max_amount: 300_000,
        per_customer_limit: 1,
      }),
      coupon({ code: 'BIGORDER5', title: '5% off orders of ৳150,000 or more', discount_type: 'PERCENTAGE', value: 5, minimum_order: 15_000_000 }),
      coupon({ code: 'EID2025', title: '৳1,000 off for Eid (ended)', discount_type: 'AMOUNT', value: 100_000, starts_at: at(-240), ends_at: at(-200) }),
      // Private: works for whoever is given the code, never listed.
      coupon({ code: 'STAFF20', title: 'Staff discount', discount_type: 'PERCENTAGE', value: 20, is_public: 0, max_amount: 2_000_000 }),
    ])
    .execute();
}
