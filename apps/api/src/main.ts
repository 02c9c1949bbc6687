import type { FastifyInstance } from 'fastify';
import { type AppConfig, checkProductionSafety, ConfigError, loadConfig, redactSecrets } from './config.ts';
import type { Db } from './db/database.ts';

// Starts the shop: migrations and the demo catalogue on first start, then one process
// serving the API, the built assets and the server-rendered pages.

/**
 * A start that cannot go on says why in one line, in the shape of the shop's other log
 * lines (pino, level 60 = fatal), with no secret in it, and exits non-zero so that systemd
 * or the container runtime shows it failed (docs/decisions/0027).
 */
function refuseToStart(msg: string): never {
  process.stderr.write(`${JSON.stringify({ level: 60, time: Date.now(), pid: process.pid, msg })}\n`);
  process.exit(1);
}

let config: AppConfig;
try {
  config = loadConfig();
} catch (err) {
  refuseToStart(err instanceof ConfigError ? err.message : `bad configuration: ${redactSecrets(String((err as Error)?.message ?? err))}`);
}
const unsafe = checkProductionSafety(config, process.env);
if (unsafe) refuseToStart(unsafe);
// This is the compiled server with the production web build: React renders it in its
// production mode whatever NODE_ENV the operator gave (development mode's checks make every
// page 2-3 times slower; `npm run dev` is the place for them). Set after the check above,
// which reads NODE_ENV as given, and before React is loaded.
process.env.NODE_ENV = 'production';

// The settings are checked first, then the database; the app (Fastify, its plugins, the
// web build) is loaded only once both are fine, so a refusal comes in a fraction of a second.
let db: Db | undefined;
let app: FastifyInstance;
try {
  const { migrateToLatest, openDb } = await import('./db/database.ts');
  db = openDb(config.db);
  await migrateToLatest(db, config.db.kind === 'postgres' ? config.db.schema : undefined);
  const { seedIfEmpty } = await import('./db/seed/seed.ts');
  if (process.env.SEED_DEMO !== '0') await seedIfEmpty(db.kysely, db.dialect);
  const { buildApp } = await import('./app.ts');
  app = await buildApp({ config, db });
} catch (err) {
  await db?.destroy().catch(() => {});
  refuseToStart(`could not start: ${redactSecrets(String((err as Error)?.message ?? err))}`);
}

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down: finishing requests in flight');
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  try {
    await app.close();
    await db!.destroy();
  } finally {
    process.exit(0);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

try {
  await app.listen({ port: config.port, host: config.host });
} catch (err) {
  await app.close().catch(() => {});
  await db.destroy().catch(() => {});
  refuseToStart(`could not listen on ${config.host}:${config.port}: ${redactSecrets(String((err as Error)?.message ?? err))}`);
}
app.log.info({ url: config.publicUrl, database: db.dialect }, 'shop is ready');
