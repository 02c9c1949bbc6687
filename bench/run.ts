import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { probe, runLoad } from './lib/load.ts';
import { createPgSchema, REPO_ROOT, startShop, type DbKind, type ShopServer } from './lib/server.ts';
import { formatMb, printResults, type ResultRow } from './lib/table.ts';
import { expect2xx, type ScenarioContext, scenarios } from './scenarios.ts';

// npm run bench -- [--db sqlite|postgres|both] [--duration S] [--connections N]
//                  [--products N] [--only name,name] [--warmup S] [--sqlite-file F] [--pg-schema S]
//                  [--no-cache] [--spread N] [--json F]
// Prints figures to compare between commits on the same machine. It never fails on time.

const USAGE = `usage: npm run bench -- [options]
  --db sqlite|postgres|both   database(s) to run on (default sqlite; postgres needs DATABASE_URL)
  --duration S                seconds of measured load per scenario (default 15)
  --connections N             concurrent connections (default 50)
  --warmup S                  seconds of unmeasured load before each scenario (default 2)
  --products N                seed a catalogue of N products first (default: the demo catalogue)
  --only name,name            run only these scenarios (${scenarios.map((s) => s.name).join(', ')})
  --sqlite-file F             use this SQLite file instead of a fresh one (kept afterwards)
  --pg-schema S               use this PostgreSQL schema instead of a fresh one (kept afterwards)
  --no-cache                  also measure every scenario on a server with the read and page caches off
                              (READ_CACHE_MS=0 PAGE_CACHE_MS=0), printed next to the cached figures
  --spread N                  also measure the catalogue scenarios with requests spread over N different
                              products, categories and search words, as real traffic is
  --json F                    also write the results to F as JSON`;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      db: { type: 'string', default: 'sqlite' },
      duration: { type: 'string', default: '15' },
      connections: { type: 'string', default: '50' },
      warmup: { type: 'string', default: '2' },
      products: { type: 'string' },
      only: { type: 'string' },
      'sqlite-file': { type: 'string' },
      'pg-schema': { type: 'string' },
      'no-cache': { type: 'boolean', default: false },
      spread: { type: 'string' },
      json: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }));
} catch (err) {
  fail((err as Error).message);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

function positive(name: string, raw: string, { integer = true, allowZero = false } = {}): number {
  const n = Number(raw);
  if (!Number.isFinite(n) || (integer && !Number.isInteger(n)) || n < 0 || (!allowZero && n === 0)) {
    fail(`--${name} must be a ${integer ? 'whole ' : ''}number${allowZero ? '' : ' above 0'} (got ${raw})`);
  }
  return n;
}

const durationS = positive('duration', values.duration, { integer: false });
const connections = positive('connections', values.connections);
const warmupS = positive('warmup', values.warmup, { integer: false, allowZero: true });
const products = values.products === undefined ? undefined : positive('products', values.products);
const spread = values.spread === undefined ? undefined : positive('spread', values.spread);
const noCache = values['no-cache'];
const sqliteFileOpt = values['sqlite-file'];
const pgSchemaOpt = values['pg-schema'];

if (!['sqlite', 'postgres', 'both'].includes(values.db)) fail(`--db must be sqlite, postgres or both (got ${values.db})`);
const hasPg = Boolean(process.env.DATABASE_URL);
if (values.db === 'postgres' && !hasPg) fail('--db postgres needs DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)');
const dbs: DbKind[] = values.db === 'both' ? (hasPg ? ['sqlite', 'postgres'] : ['sqlite']) : [values.db as DbKind];
if (values.db === 'both' && !hasPg) console.log('DATABASE_URL is not set: running on SQLite only.\n');

let selected = scenarios;
if (values.only) {
  const wanted = values.only
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = wanted.filter((w) => !scenarios.some((s) => s.name === w));
  if (unknown.length) fail(`unknown scenario(s): ${unknown.join(', ')}`);
  selected = scenarios.filter((s) => wanted.includes(s.name));
}

function gitDescription(): string {
  try {
    const opts = { cwd: REPO_ROOT, timeout: 5_000, encoding: 'utf8' as const, stdio: ['ignore', 'pipe', 'ignore'] as ('ignore' | 'pipe')[] };
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], opts).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], opts).trim() ? ' + uncommitted changes' : '';
    return `${sha}${dirty}`;
  } catch {
    return 'unknown';
  }
}

// `npm run bench -w bench` runs from bench/: resolve paths from where the user typed them.
const fromUserCwd = (p: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), p);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const maxOf = (...xs: (number | null)[]) => {
  const known = xs.filter((x): x is number => x !== null);
  return known.length ? Math.max(...known) : null;
};

// ---- run ---------------------------------------------------------------------------------

let current: ShopServer | undefined;
let interrupted = false;
process.on('SIGINT', () => {
  if (interrupted) process.exit(130);
  interrupted = true;
  console.error('\ninterrupted: stopping the server and removing its database…');
  void (current?.stop() ?? Promise.resolve()).finally(() => process.exit(130));
});

const cpus = os.cpus();
console.log(
  [
    `storefront bench, ${new Date().toISOString()}`,
    `  commit ${gitDescription()}, node ${process.version}, ${cpus.length} × ${cpus[0]?.model.trim() ?? 'cpu'}, ${formatMb(os.totalmem())} MB RAM`,
    `  ${connections} connections, ${warmupS} s warm-up + ${durationS} s per scenario, ${products ? `${products} products seeded` : 'demo catalogue'}`,
    `  load generator and server share this machine: compare figures only with runs made here`,
    `  load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}${os.loadavg()[0] > cpus.length / 2 ? ' (the machine is busy with something else: figures will be low and noisy)' : ''}`,
    '',
  ].join('\n'),
);

const rows: ResultRow[] = [];
let aborted: string | undefined;
const memory: string[] = [];

/** One database kept for the cached and the uncached server of a --no-cache run. */
async function sharedDatabase(db: DbKind): Promise<{ sqliteFile?: string; schema?: string; cleanup(): Promise<void> }> {
  if (db === 'sqlite') {
    if (sqliteFileOpt) return { sqliteFile: fromUserCwd(sqliteFileOpt), cleanup: async () => {} };
    if (!noCache) return { cleanup: async () => {} };
    const file = path.join(os.tmpdir(), `storefront-bench-${process.pid}-${Date.now().toString(36)}.db`);
    return { sqliteFile: file, cleanup: async () => ['', '-wal', '-shm'].forEach((x) => fs.rmSync(file + x, { force: true })) };
  }
  if (pgSchemaOpt) return { schema: pgSchemaOpt, cleanup: async () => {} };
  if (!noCache) return { cleanup: async () => {} };
  const { schema, drop } = await createPgSchema(process.env.DATABASE_URL!);
  return { schema, cleanup: drop };
}

/** The scenario as measured: once as it is, and once spread over many targets with --spread. */
async function variants(sc: (typeof selected)[number], ctx: ScenarioContext) {
  const req = { ...sc, ...(await sc.prepare?.(ctx)) };
  const out: { name: string; req: typeof req }[] = [{ name: sc.name, req }];
  if (spread && sc.spread) {
    const requests = await sc.spread(ctx, spread);
    out.push({ name: `${sc.name} ×${requests.length}`, req: { ...req, path: requests[0].path ?? req.path, requests } });
  }
  return out;
}

const CACHE_OFF = { READ_CACHE_MS: '0', PAGE_CACHE_MS: '0' };

outer: for (const db of dbs) {
  const shared = await sharedDatabase(db);
  try {
    for (const cache of noCache ? (['on', 'off'] as const) : (['on'] as const)) {
      const label = noCache ? `${db}, cache ${cache}` : db;
      const seed = cache === 'on' ? products : undefined;
      console.log(`[${label}] ${seed ? `seeding ${seed} products and ` : ''}starting the server…`);
      const t0 = Date.now();
      const server = await startShop({ db, products: seed, sqliteFile: shared.sqliteFile, schema: shared.schema, env: cache === 'off' ? CACHE_OFF : {} });
      current = server;
      try {
        if (server.seedLog) console.log(`[${label}] ${server.seedLog.split('\n').pop()}`);
        console.log(
          `[${label}] ready in ${((Date.now() - t0) / 1000).toFixed(1)} s on ${server.baseUrl}, pid ${server.pid}` +
            `${server.pidVerified ? ' (owns the listening socket)' : ' (could not confirm it owns the socket)'}, ${server.where}`,
        );
        // Let start-up garbage settle before calling the figure "idle".
        await sleep(1_000);
        const idle = server.rss();
        let peak = idle;

        eachScenario: for (const sc of selected) {
          const ctx = { baseUrl: server.baseUrl, db, products };
          let runs: Awaited<ReturnType<typeof variants>>;
          try {
            runs = await variants(sc, ctx);
          } catch (err) {
            const row: ResultRow = { name: sc.name, db: label, rssIdle: server.rss(), rssLoad: null, note: `failed: ${(err as Error).message.split('\n')[0]}` };
            rows.push(row);
            console.log(`[${label}] ${sc.name}: ${row.note}`);
            continue;
          }
          for (const { name, req } of runs) {
            const row: ResultRow = { name, db: label, rssIdle: server.rss(), rssLoad: null };
            rows.push(row);
            try {
              const reason = (sc.check ?? expect2xx)(await probe(server.baseUrl, req.path, req));
              if (reason) {
                row.note = reason;
                console.log(`[${label}] ${name}: ${reason}`);
                continue;
              }
              const hwmReset = server.resetPeakRss();
              let sampled = row.rssIdle;
              const result = await runLoad({
                baseUrl: server.baseUrl,
                ...req,
                connections,
                durationS,
                warmupS,
                onSample: () => {
                  sampled = maxOf(sampled, server.rss());
                },
              });
              row.result = result;
              row.rssLoad = maxOf(sampled, hwmReset ? server.peakRss() : null);
              peak = maxOf(peak, row.rssLoad);
              if (result.non2xx || result.errors) {
                const codes = Object.entries(result.statusCodes)
                  .map(([c, n]) => `${c}×${n}`)
                  .join(', ');
                row.note = `statuses ${codes || 'none'}; ${result.errors} connection errors (${result.timeouts} timeouts)`;
              }
              console.log(
                `[${label}] ${name}: ${Math.round(result.requestsPerSec)} req/s, p50 ${result.latencyP50Ms} ms, p99 ${result.latencyP99Ms} ms` +
                  `${row.note ? ` (${row.note})` : ''}`,
              );
            } catch (err) {
              row.note = `failed: ${(err as Error).message.split('\n')[0]}`;
              console.log(`[${label}] ${name}: ${row.note}`);
            }
            const ended = server.exited();
            if (ended !== null) {
              // main.ts exits 0 only after a SIGTERM/SIGINT: then something else signalled it.
              const why = ended === '0' ? 'exit 0: something sent it SIGTERM or SIGINT' : `ended with ${ended}`;
              aborted = `the ${label} server stopped during "${name}" (${why}); figures from that scenario on are not trustworthy`;
              row.note = `${row.note ? `${row.note}; ` : ''}server stopped during this scenario (${why})`;
              const out = server.output().trim();
              if (out) console.error(`[${label}] last server output:\n${out}`);
              break eachScenario;
            }
          }
        }

        const after = server.rss();
        const others = server.descendantsRss();
        memory.push(
          `  ${label.padEnd(16)} after start ${formatMb(idle)} MB, peak under load ${formatMb(peak)} MB, after load ${formatMb(after)} MB` +
            (others ? ` (+ ${formatMb(others)} MB in processes it started)` : ''),
        );
      } finally {
        await server.stop();
        current = undefined;
      }
      console.log('');
      if (aborted) break outer;
    }
  } finally {
    await shared.cleanup();
  }
}

printResults(rows);
if (aborted) console.log(`\nrun cut short: ${aborted}`);
console.log(`\nserver resident memory (VmRSS of pid that serves):\n${memory.join('\n')}`);

if (values.json) {
  const file = fromUserCwd(values.json);
  const report = { at: new Date().toISOString(), commit: gitDescription(), node: process.version, connections, durationS, warmupS, products, rows };
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nresults written to ${file}`);
}
if (aborted) process.exitCode = 1;
