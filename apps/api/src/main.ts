import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { migrateToLatest, openDb } from './db/database.ts';
import { seedIfEmpty } from './db/seed/seed.ts';

// Starts the shop: migrations and the demo catalogue on first start, then one process
// serving the API, the built assets and the server-rendered pages.

const config = loadConfig();
const db = openDb(config.db);
await migrateToLatest(db, config.db.kind === 'postgres' ? config.db.schema : undefined);
if (process.env.SEED_DEMO !== '0') await seedIfEmpty(db.kysely, db.dialect);

const app = await buildApp({ config, db });

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down: finishing requests in flight');
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  try {
    await app.close();
    await db.destroy();
  } finally {
    process.exit(0);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

await app.listen({ port: config.port, host: config.host });
app.log.info({ url: config.publicUrl, database: db.dialect }, 'shop is ready');
