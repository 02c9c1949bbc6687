import type { Kysely } from 'kysely';

// Frozen in time: this file imports nothing from the app.
//
// Reads that do not grow with the catalogue (docs/decisions/0029): a product page's
// related items (same category, nearest in price) walk this index from the product's
// price downwards and upwards instead of sorting the whole category by distance.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('product_search_category_price_idx').on('product_search').columns(['primary_category_id', 'price', 'product_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('product_search_category_price_idx').execute();
}
