import { parseArgs } from 'node:util';
import { loadConfig } from '../../config.ts';
import { migrateToLatest, openDb } from '../database.ts';
import { seedIfEmpty } from './seed.ts';

// npm run seed -- --products 100000 [--reset]
// Builds a catalogue of the given size in the configured database (SQLite by default,
// PostgreSQL with DATABASE_URL), for benchmarks. --reset empties the catalogue first.

const { values } = parseArgs({
  options: { products: { type: 'string', default: '320' }, reset: { type: 'boolean', default: false } },
});
const products = Number(values.products);
if (!Number.isInteger(products) || products < 1) {
  console.error('--products must be a positive whole number');
  process.exit(2);
}
const config = loadConfig();
const db = openDb(config.db);
const started = Date.now();
try {
  await migrateToLatest(db, config.db.kind === 'postgres' ? config.db.schema : undefined);
  if (values.reset) {
    const { resetCatalogue } = await import('./reset.ts');
    await resetCatalogue(db.kysely);
  }
  const seeded = await seedIfEmpty(db.kysely, db.dialect, { products });
  if (!seeded) {
    console.error('The database already has a catalogue; pass --reset to replace it.');
    process.exitCode = 1;
  } else {
    console.log(`Seeded ${products} products on ${db.dialect} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    // The search side now, so a server started on this database does not build it at start.
    const { rebuildSearchIndex } = await import('../../modules/catalogue/search-index.ts');
    const indexing = Date.now();
    const { products: indexed } = await rebuildSearchIndex(db.kysely, db.dialect);
    console.log(`Indexed ${indexed} products for search in ${((Date.now() - indexing) / 1000).toFixed(1)} s`);
    const { analyzeAfterBulkLoad } = await import('../dialect/planner-stats.ts');
    await analyzeAfterBulkLoad(db.kysely);
  }
} finally {
  await db.destroy();
}
