import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: this file imports nothing from the app, so later changes to the
// app's types never change what this migration did.

function idColumn(db: Kysely<any>) {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'serial' : 'integer';
}

export async function up(db: Kysely<any>): Promise<void> {
  const id = idColumn(db);
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const pk = (c: any) => (isPg ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('categories')
    .addColumn('id', id, pk)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('parent_id', 'integer', (c) => c.references('categories.id').onDelete('restrict'))
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('image_url', 'text')
    .addColumn('banner_url', 'text')
    .addColumn('options', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('categories_parent_idx').on('categories').columns(['parent_id', 'sort_order']).execute();

  await db.schema
    .createTable('products')
    .addColumn('id', id, pk)
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('model_code', 'text', (c) => c.unique())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('single'))
    .addColumn('primary_category_id', 'integer', (c) => c.notNull().references('categories.id'))
    .addColumn('is_new_arrival', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('model_url', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('products_created_idx').on('products').column('created_at').execute();
  await db.schema.createIndex('products_category_idx').on('products').column('primary_category_id').execute();

  await db.schema
    .createTable('product_images')
    .addColumn('id', id, pk)
    .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('alt', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('product_images_product_idx').on('product_images').columns(['product_id', 'sort_order']).execute();

  await db.schema
    .createTable('product_categories')
    .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id').onDelete('cascade'))
    .addColumn('category_id', 'integer', (c) => c.notNull().references('categories.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('product_categories_pk', ['product_id', 'category_id'])
    .execute();
  await db.schema.createIndex('product_categories_category_idx').on('product_categories').columns(['category_id', 'product_id']).execute();

  await db.schema
    .createTable('skus')
    .addColumn('id', id, pk)
    .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id').onDelete('cascade'))
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('sales_price', 'integer', (c) => c.notNull().check(sql`sales_price >= 0`))
    .addColumn('discounted_sales_price', 'integer', (c) => c.check(sql`discounted_sales_price >= 0`))
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('skus_product_idx').on('skus').columns(['product_id', 'sort_order']).execute();

  await db.schema
    .createTable('attributes')
    .addColumn('id', id, pk)
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('display_label', 'text', (c) => c.notNull())
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('sku_attribute_values')
    .addColumn('sku_id', 'integer', (c) => c.notNull().references('skus.id').onDelete('cascade'))
    .addColumn('attribute_id', 'integer', (c) => c.notNull().references('attributes.id').onDelete('cascade'))
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('display_label', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('sku_attribute_values_pk', ['sku_id', 'attribute_id'])
    .execute();
  await db.schema.createIndex('sku_attribute_values_attr_idx').on('sku_attribute_values').columns(['attribute_id', 'value']).execute();

  await db.schema
    .createTable('bundle_items')
    .addColumn('bundle_product_id', 'integer', (c) => c.notNull().references('products.id').onDelete('cascade'))
    .addColumn('sku_id', 'integer', (c) => c.notNull().references('skus.id'))
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    .addPrimaryKeyConstraint('bundle_items_pk', ['bundle_product_id', 'sku_id'])
    .execute();

  await db.schema
    .createTable('branches')
    .addColumn('id', id, pk)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('city', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('hours', 'text', (c) => c.notNull())
    .addColumn('latitude', 'double precision', (c) => c.notNull())
    .addColumn('longitude', 'double precision', (c) => c.notNull())
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('stocks')
    .addColumn('sku_id', 'integer', (c) => c.notNull().references('skus.id').onDelete('cascade'))
    .addColumn('branch_id', 'integer', (c) => c.notNull().references('branches.id').onDelete('cascade'))
    // The shop never sells more than it has: the database refuses a negative stock.
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity >= 0`))
    .addPrimaryKeyConstraint('stocks_pk', ['sku_id', 'branch_id'])
    .execute();

  await db.schema
    .createTable('currencies')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('rate', 'double precision', (c) => c.notNull().check(sql`rate > 0`))
    .addColumn('num_code', 'text', (c) => c.notNull())
    .addColumn('image_url', 'text', (c) => c.notNull())
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('cms_content')
    .addColumn('id', id, pk)
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('fields', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('cms_content_type_slug_uq', ['type', 'slug'])
    .execute();

  await db.schema
    .createTable('kvps')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'kvps',
    'cms_content',
    'currencies',
    'stocks',
    'branches',
    'bundle_items',
    'sku_attribute_values',
    'attributes',
    'skus',
    'product_categories',
    'product_images',
    'products',
    'categories',
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
