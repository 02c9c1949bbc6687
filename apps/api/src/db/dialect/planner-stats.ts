import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

// The query planner's statistics of the catalogue's tables, refreshed after the read side
// is rebuilt (docs/decisions/0029). SQLite never gathers statistics by itself and otherwise
// plans by rules of thumb: at 100,000 products a common-word search ran 25 % slower on a
// fresh database than after ANALYZE. PostgreSQL needs nothing here: a rebuild rewrites
// every row of the read side, which is far past autovacuum's threshold for analysing a
// table again, and it does so within a minute.

const TABLES = ['products', 'skus', 'product_categories', 'product_search', 'product_facets', 'category_facets', 'category_listing'] as const;
/** Tables a bulk load fills beside the read side. */
const LOADED = [...TABLES, 'stocks', 'sku_attribute_values', 'product_images'] as const;

export async function refreshPlannerStats(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect !== 'sqlite') return;
  // Sampled, not exact: a thousand rows per index give the planner the shape of the data in
  // milliseconds, whatever the catalogue's size.
  await sql`PRAGMA analysis_limit = 1000`.execute(db);
  for (const t of TABLES) await sql`ANALYZE ${sql.table(t)}`.execute(db);
}

/**
 * After a bulk load (`npm run seed -- --products N`): every catalogue table's statistics, on
 * both databases. PostgreSQL's autovacuum would get there in its own time, or never where it
 * is switched off: without statistics a product page's stock read joined all 900,000 stock
 * rows at 100k products (140 ms instead of 0.1 ms).
 */
export async function analyzeAfterBulkLoad(db: Kysely<any>): Promise<void> {
  for (const t of LOADED) await sql`ANALYZE ${sql.table(t)}`.execute(db);
}
