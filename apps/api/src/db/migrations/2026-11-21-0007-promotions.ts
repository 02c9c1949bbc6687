import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Global discounts, coupons and coupon usage. Frozen in time: imports nothing
// from the app.

export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = isPg ? 'serial' : 'integer';
  const pk = (c: any) => (isPg ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('global_discounts')
    .addColumn('id', id, pk)
    .addColumn('title', 'text', (c) => c.notNull())
    // FIXED_CATEGORY reaches products in the listed categories and their descendants;
    // FIXED_PRODUCT the listed products or skus.
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('FIXED_CATEGORY', 'FIXED_PRODUCT')`))
    .addColumn('discount_type', 'text', (c) => c.notNull().check(sql`discount_type in ('PERCENTAGE', 'AMOUNT')`))
    // Per cent (1–100) for PERCENTAGE, poisha for AMOUNT.
    .addColumn('value', 'integer', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('starts_at', 'text')
    .addColumn('ends_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addCheckConstraint('global_discounts_value_ck', sql`value > 0 and (discount_type <> 'PERCENTAGE' or value <= 100)`)
    .execute();

  await db.schema
    .createTable('global_discount_categories')
    .addColumn('discount_id', 'integer', (c) => c.notNull().references('global_discounts.id').onDelete('cascade'))
    .addColumn('category_id', 'integer', (c) => c.notNull().references('categories.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('global_discount_categories_pk', ['discount_id', 'category_id'])
    .execute();

  await db.schema
    .createTable('global_discount_items')
    .addColumn('id', id, pk)
    .addColumn('discount_id', 'integer', (c) => c.notNull().references('global_discounts.id').onDelete('cascade'))
    .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id').onDelete('cascade'))
    // Null: every sku of the product.
    .addColumn('sku_code', 'text')
    .execute();
  await db.schema.createIndex('global_discount_items_discount_idx').on('global_discount_items').column('discount_id').execute();

  await db.schema
    .createTable('coupons')
    .addColumn('id', id, pk)
    // Stored upper-case; shoppers' input is upper-cased before lookup.
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('discount_type', 'text', (c) => c.notNull().check(sql`discount_type in ('PERCENTAGE', 'AMOUNT')`))
    .addColumn('value', 'integer', (c) => c.notNull())
    .addColumn('minimum_order', 'integer', (c) => c.check(sql`minimum_order >= 0`))
    .addColumn('max_amount', 'integer', (c) => c.check(sql`max_amount >= 0`))
    .addColumn('starts_at', 'text')
    .addColumn('ends_at', 'text')
    .addColumn('usage_limit', 'integer', (c) => c.check(sql`usage_limit >= 0`))
    .addColumn('per_customer_limit', 'integer', (c) => c.check(sql`per_customer_limit >= 0`))
    // Public coupons are listed by the coupon search; others work only for those given the code.
    .addColumn('is_public', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addCheckConstraint('coupons_value_ck', sql`value > 0 and (discount_type <> 'PERCENTAGE' or value <= 100)`)
    .execute();

  // Written by checkout (#6) in the transaction that places the order; counted here for
  // the usage limits. A guest's use has no customer; the order reference is filled in
  // when the order exists.
  await db.schema
    .createTable('coupon_usages')
    .addColumn('id', id, pk)
    .addColumn('coupon_id', 'integer', (c) => c.notNull().references('coupons.id').onDelete('restrict'))
    .addColumn('customer_id', 'integer')
    .addColumn('order_ref', 'text')
    .addColumn('amount', 'integer', (c) => c.notNull().check(sql`amount >= 0`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('coupon_usages_coupon_customer_idx').on('coupon_usages').columns(['coupon_id', 'customer_id']).execute();
  // One coupon per order (decisions.md); several nulls are allowed on both databases.
  await db.schema.createIndex('coupon_usages_order_uq').on('coupon_usages').column('order_ref').unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['coupon_usages', 'coupons', 'global_discount_items', 'global_discount_categories', 'global_discounts']) {
    await db.schema.dropTable(t).execute();
  }
}
