import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: this file imports nothing from the app.
//
// Common search words (docs/decisions/0029): for each word that many products match, the
// answer to searching for it alone, made when the catalogue's read side is built, so that a
// shopper searching "sofa" at 100,000 products does not rank, count and facet tens of
// thousands of matches per request. `summary` holds the facets as JSON; each order column
// the first product ids of that order.
//
// A category's listing (one row per product filed under it, with the keys a listing sorts
// by) walks an index of that category alone, whatever its size or the order asked: the
// first page of 24 costs the same in a category of 300 products or of 30,000, sorted by
// price or by date.
//
// A product card's category ids (all of its memberships) move into product_search, so a
// page of cards is one read. The read side is rebuilt at the next start (its state is
// forgotten), which fills both.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('search_words')
    .addColumn('word', 'text', (c) => c.primaryKey())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('relevance', 'text', (c) => c.notNull())
    .addColumn('newest', 'text', (c) => c.notNull())
    .addColumn('price_asc', 'text', (c) => c.notNull())
    .addColumn('price_desc', 'text', (c) => c.notNull())
    .execute();
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  // Ordered byte by byte on both databases, as product_search is (migration 0004).
  const bytewise = (c: any) => (isPg ? c.modifyFront(sql`collate "C"`).notNull() : c.notNull());
  await db.schema
    .createTable('category_listing')
    .addColumn('category_id', 'integer', (c) => c.notNull())
    .addColumn('product_id', 'integer', (c) => c.notNull())
    .addColumn('price', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', bytewise)
    .addColumn('title', 'text', bytewise)
    .execute();
  await db.schema.createIndex('category_listing_created_idx').on('category_listing').columns(['category_id', 'created_at', 'product_id']).execute();
  await db.schema.createIndex('category_listing_price_idx').on('category_listing').columns(['category_id', 'price', 'product_id']).execute();
  await db.schema.createIndex('category_listing_title_idx').on('category_listing').columns(['category_id', 'title', 'product_id']).execute();
  await db.schema
    .alterTable('product_search')
    .addColumn('category_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await sql`delete from search_index_state`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('product_search').dropColumn('category_ids').execute();
  await db.schema.dropTable('category_listing').execute();
  await db.schema.dropTable('search_words').execute();
}
