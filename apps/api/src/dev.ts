import path from 'node:path';
import { createServer } from 'vite';
import { buildApp } from './app.ts';
import { loadConfig, REPO_ROOT } from './config.ts';
import { migrateToLatest, openDb } from './db/database.ts';
import { seedIfEmpty } from './db/seed/seed.ts';
import { registerPages } from './web/pages.ts';

// `npm run dev`: the shop as production runs it (the same Fastify app, API, database,
// migrations and demo seed, the same page handler and load context), with the storefront
// served by Vite in middleware mode: pages render from the sources as they are now and the
// browser gets hot updates over Vite's websocket on the same port. A development tool only:
// it runs the TypeScript sources through tsx; production runs the compiled server
// (docs/decisions/0026).

const config = { ...loadConfig(), webBuildDir: null, pageCacheMs: 0, readCacheMs: 0, shellCacheMs: 0 };
const db = openDb(config.db);
await migrateToLatest(db, config.db.kind === 'postgres' ? config.db.schema : undefined);
if (process.env.SEED_DEMO !== '0') await seedIfEmpty(db.kysely, db.dialect);

const app = await buildApp({ config, db });
const webRoot = path.join(REPO_ROOT, 'apps/web');
const vite = await createServer({
  root: webRoot,
  configFile: path.join(webRoot, 'vite.config.ts'),
  appType: 'custom',
  server: { middlewareMode: true, hmr: { server: app.server } },
});
await registerPages(app, { vite, apiKey: config.apiKey, publicUrl: config.publicUrl });

async function shutdown() {
  await vite.close();
  await app.close();
  await db.destroy();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());

await app.listen({ port: config.port, host: config.host });
app.log.info({ url: config.publicUrl, database: db.dialect }, 'shop is ready (development: hot reload)');
