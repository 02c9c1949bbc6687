import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: this file imports nothing from the app.
//
// The catalogue's read side (docs/decisions/0006):
// - product_images.variant_value: the attribute value (a colour) a picture shows, so the
//   product page can swap pictures when the shopper picks a colour;
// - product_search: one row per product with what listings sort and show (the cheapest sku
//   after discounts, its price, a sale flag, the first picture) and the product's words in the normalised form of
//   packages/shared searchText(), one column per field;
// - the full-text index over those words: FTS5 on SQLite, a generated tsvector with a GIN
//   index on PostgreSQL. Both index the same already-normalised words;
// - product_facets: the distinct attribute values per product, for facet counts.
// All three are derived from the catalogue tables and rebuilt from them by
// modules/catalogue/search-index.ts.

export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema.alterTable('product_images').addColumn('variant_value', 'text').execute();
  // Catalogues seeded before this migration: the demo pictures are named by colour value.
  await sql`
    update product_images set variant_value = (
      select v.value from sku_attribute_values v
      join skus s on s.id = v.sku_id
      join attributes a on a.id = v.attribute_id
      where s.product_id = product_images.product_id and a.name = 'color'
        and product_images.url like '%/' || v.value || '.svg'
      limit 1)`.execute(db);

  // Text that results are ordered by compares byte by byte on PostgreSQL too (collation
  // "C"), as on SQLite, so that both order a listing the same way.
  const bytewise = (c: any) => (isPg ? c.modifyFront(sql`collate "C"`).notNull() : c.notNull());
  await db.schema
    .createTable('product_search')
    .addColumn('product_id', 'integer', (c) => c.primaryKey().references('products.id').onDelete('cascade'))
    .addColumn('title', 'text', bytewise)
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('model_code', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('primary_category_id', 'integer', (c) => c.notNull())
    .addColumn('image_url', 'text')
    .addColumn('image_alt', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sku_code', 'text', (c) => c.notNull())
    .addColumn('sales_price', 'bigint', (c) => c.notNull())
    .addColumn('discounted_sales_price', 'bigint')
    .addColumn('price', 'bigint', (c) => c.notNull())
    .addColumn('on_sale', 'integer', (c) => c.notNull())
    .addColumn('is_new_arrival', 'integer', (c) => c.notNull())
    .addColumn('sku_count', 'integer', (c) => c.notNull())
    .addColumn('colors', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', bytewise)
    .addColumn('title_text', 'text', (c) => c.notNull())
    .addColumn('model_text', 'text', (c) => c.notNull())
    .addColumn('category_text', 'text', (c) => c.notNull())
    .addColumn('attribute_text', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('product_search_created_idx').on('product_search').columns(['created_at', 'product_id']).execute();
  await db.schema.createIndex('product_search_price_idx').on('product_search').columns(['price', 'product_id']).execute();
  await db.schema.createIndex('product_search_title_idx').on('product_search').columns(['title', 'product_id']).execute();
  await db.schema.createIndex('product_search_new_idx').on('product_search').columns(['is_new_arrival', 'created_at']).execute();
  await db.schema.createIndex('product_search_sale_idx').on('product_search').columns(['on_sale', 'created_at']).execute();

  if (isPg) {
    await sql`alter table product_search add column document tsvector generated always as (
      to_tsvector('simple'::regconfig, title_text || ' ' || model_text || ' ' || category_text || ' ' || attribute_text)) stored`.execute(db);
    await sql`create index product_search_document_idx on product_search using gin (document)`.execute(db);
  } else {
    // External content: the words live once, in product_search; prefix indexes make the
    // shop's prefix matching ("sof" finds sofas) fast.
    await sql`create virtual table product_search_fts using fts5(
      title_text, model_text, category_text, attribute_text,
      content='product_search', content_rowid='product_id',
      tokenize='unicode61 remove_diacritics 0', prefix='1 2 3')`.execute(db);
  }

  await db.schema
    .createTable('product_facets')
    .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id').onDelete('cascade'))
    .addColumn('attribute_id', 'integer', (c) => c.notNull().references('attributes.id').onDelete('cascade'))
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('display_label', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('product_facets_pk', ['product_id', 'attribute_id', 'value'])
    .execute();
  // Facets of every category without other filters (and of the whole catalogue, category 0),
  // counted when the read side is built: a shopper landing on a category gets its counts
  // without counting tens of thousands of rows. kind: 'count' (key ''), 'price' (key 'min'
  // or 'max'), 'attr' (key '<attribute id>:<value>', label the display label).
  await db.schema
    .createTable('category_facets')
    .addColumn('category_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('n', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('category_facets_pk', ['category_id', 'kind', 'key'])
    .execute();

  // Which global discounts the prices in product_search were computed with: when the
  // discounts in force change (one starts or ends), the read side is rebuilt.
  await db.schema
    .createTable('search_index_state')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('discounts_signature', 'text', (c) => c.notNull())
    .addColumn('built_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('product_facets_value_idx').on('product_facets').columns(['attribute_id', 'display_label', 'product_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.dropTable('search_index_state').execute();
  await db.schema.dropTable('category_facets').execute();
  await db.schema.dropTable('product_facets').execute();
  if (!isPg) await sql`drop table product_search_fts`.execute(db);
  await db.schema.dropTable('product_search').execute();
  await db.schema.alterTable('product_images').dropColumn('variant_value').execute();
}
