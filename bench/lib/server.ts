import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';

// Starts the shop the way production does (`node apps/api/dist/main.js`, the compiled server
// that `npm run build` writes) as a
// child process on 127.0.0.1, on a database of its own, so that figures describe the real
// server and one run never sees another's data.

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The compiled server, as `npm run serve` starts it (docs/decisions/0026). */
export const MAIN = 'apps/api/dist/main.js';
const SEED_CLI = 'apps/api/src/db/seed/cli.ts';
const HOST = '127.0.0.1';

export type DbKind = 'sqlite' | 'postgres';

/**
 * The shop's limits on placing orders and on the units unpaid orders may hold
 * (docs/decisions/0022), lifted: a bench or a load proof places thousands of orders as a
 * handful of clients, which is exactly what the limits refuse in production.
 */
export const LIFTED_ORDER_LIMITS = {
  ORDER_LIMIT_PER_ADDRESS: '100000000',
  ORDER_LIMIT_PER_CUSTOMER: '100000000',
  ORDER_LIMIT_PER_CONTACT: '100000000',
  ORDER_HOLD_MAX_UNITS: '100000000',
  ORDER_HOLD_MAX_UNITS_PER_ADDRESS: '100000000',
} as const;

export interface StartOptions {
  db: DbKind;
  /** Default: a free port chosen by the system. */
  port?: number;
  /** SQLite only: use this file instead of a fresh one (it is kept afterwards). */
  sqliteFile?: string;
  /** PostgreSQL only. Default: DATABASE_URL from the environment. */
  databaseUrl?: string;
  /**
   * PostgreSQL only: run in this existing schema (e.g. one several processes share, from
   * createPgSchema) instead of a fresh one; it is left in place at stop.
   */
  schema?: string;
  /** DATA_DIR (uploaded files) of the server, e.g. one several processes share; kept at stop. Default: a temp folder of its own. */
  dataDir?: string;
  /** Seed a catalogue of this many products into the database before starting. */
  products?: number;
  /** Extra environment for the server (and the seed), e.g. feature switches. */
  env?: Record<string, string | undefined>;
  /** Give up waiting for /api/health after this long. Default 90 s. */
  startTimeoutMs?: number;
}

export interface ShopServer {
  readonly db: DbKind;
  readonly port: number;
  /** Always http://127.0.0.1:PORT. */
  readonly baseUrl: string;
  /** The process that owns the listening socket (checked, not assumed). */
  readonly pid: number;
  /** Whether `pid` was confirmed as the owner of the listening socket via /proc. */
  readonly pidVerified: boolean;
  /** Where the database lives: a SQLite file, or a PostgreSQL schema name. */
  readonly where: string;
  /** Resident memory of the serving process now, in bytes (null off Linux). */
  rss(): number | null;
  /**
   * Resident memory of processes the server started (e.g. an esbuild service tsx may
   * spawn), bytes: part of the footprint, though not of the serving process.
   */
  descendantsRss(): number;
  /** Resets the kernel's peak-RSS mark (VmHWM); false if the system does not allow it. */
  resetPeakRss(): boolean;
  /** The kernel's peak RSS (VmHWM) since start or since resetPeakRss(), in bytes. */
  peakRss(): number | null;
  /** What the seed CLI printed, when `products` was given. */
  readonly seedLog?: string;
  /** The last lines the server wrote (for diagnostics). */
  output(): string;
  /** null while the server runs; otherwise how it ended (exit code or signal). */
  exited(): string | null;
  /** Sends `signal` (default SIGKILL: a crash) to the serving process and waits until it is gone; stop() then only cleans up. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** SIGTERM, wait for exit (SIGKILL after 15 s), then remove the temp dir / drop the schema. */
  stop(): Promise<void>;
}

/** A port that was free a moment ago on 127.0.0.1. */
/** The compiled server must exist: `npm run build` writes it (and `npm test` runs the build first). */
export function assertBuilt(): void {
  if (!fs.existsSync(path.join(REPO_ROOT, MAIN))) throw new Error(`${MAIN} is missing: run \`npm run build\` first`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, HOST, () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

// ---- memory ------------------------------------------------------------------------------

function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(text);
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

export function readRss(pid: number): number | null {
  return statusField(pid, 'VmRSS');
}

// ---- which process serves ----------------------------------------------------------------

function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  const portHex = port.toString(16).toUpperCase().padStart(4, '0');
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // cols: sl local_address rem_address st ... inode(9)
      if (cols.length > 9 && cols[1].endsWith(`:${portHex}`) && cols[3] === '0A') inodes.add(cols[9]);
    }
  }
  return inodes;
}

function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return [];
  }
  for (const e of entries) {
    try {
      const stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
      // the command name may contain spaces and parentheses: ppid is the 2nd field after the last ')'
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(e));
      children.set(ppid, list);
    } catch {
      // the process ended while we looked
    }
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length) {
    for (const c of children.get(queue.shift()!) ?? []) {
      out.push(c);
      queue.push(c);
    }
  }
  return out;
}

function ownsSocket(pid: number, inodes: Set<string>): boolean {
  let fds: string[];
  try {
    fds = fs.readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  for (const fd of fds) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m && inodes.has(m[1])) return true;
    } catch {
      // fd closed meanwhile
    }
  }
  return false;
}

/**
 * `node --import tsx` registers tsx's loader hooks in the same process (on a hooks thread),
 * so the child we spawned should be the one listening. Measuring the wrong process (a
 * launcher whose child serves) would report a few MB for any server, so look it up: the
 * process among the child and its descendants that holds the listening socket.
 */
export function findServingPid(childPid: number, port: number): { pid: number; verified: boolean } {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return { pid: childPid, verified: false };
  for (const pid of [childPid, ...descendants(childPid)]) {
    if (ownsSocket(pid, inodes)) return { pid, verified: true };
  }
  return { pid: childPid, verified: false };
}

// ---- databases -----------------------------------------------------------------------------

interface PreparedDb {
  env: Record<string, string>;
  where: string;
  cleanup(): Promise<void>;
}

async function prepareDb(opts: StartOptions, tmpDir: string): Promise<PreparedDb> {
  if (opts.db === 'sqlite') {
    const file = opts.sqliteFile ? path.resolve(opts.sqliteFile) : path.join(tmpDir, 'bench.db');
    return { env: { SQLITE_FILE: file }, where: file, cleanup: async () => {} };
  }
  const url = opts.databaseUrl ?? process.env.DATABASE_URL;
  if (!url) throw new Error('PostgreSQL asked for but DATABASE_URL is not set');
  if (opts.schema !== undefined) {
    if (!/^[a-z_][a-z0-9_]*$/.test(opts.schema)) throw new Error(`schema names here are [a-z0-9_], not ${opts.schema}`);
    return { env: { DATABASE_URL: url, DATABASE_SCHEMA: opts.schema }, where: `schema ${opts.schema}`, cleanup: async () => {} };
  }
  const { schema, drop } = await createPgSchema(url);
  return { env: { DATABASE_URL: url, DATABASE_SCHEMA: schema }, where: `schema ${schema}`, cleanup: drop };
}

async function pgQuery(url: string, q: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await client.query(q);
  } finally {
    await client.end();
  }
}

/** Creates an empty schema of its own on the PostgreSQL server at `url`; drop() removes it and everything in it. */
export async function createPgSchema(url: string, prefix = 'bench'): Promise<{ schema: string; drop(): Promise<void> }> {
  // Only [a-z0-9_]: the name goes unquoted into search_path and into DDL.
  const schema = `${prefix}_${process.pid}_${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
  await pgQuery(url, `create schema "${schema}"`);
  return { schema, drop: () => pgQuery(url, `drop schema if exists "${schema}" cascade`) };
}

function childEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // config.ts picks PostgreSQL whenever DATABASE_URL is set: the run decides, not the shell.
  for (const k of ['DATABASE_URL', 'DATABASE_SCHEMA', 'SQLITE_FILE', 'PORT', 'HOST', 'PUBLIC_URL']) delete env[k];
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** Keeps the last `max` characters a child wrote. */
function tail(child: ChildProcess, max = 16_000): () => string {
  let buf = '';
  const add = (d: Buffer) => {
    buf = (buf + d.toString()).slice(-max);
  };
  child.stdout?.on('data', add);
  child.stderr?.on('data', add);
  return () => buf;
}

function waitExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(t);
      resolve(true);
    });
  });
}

/** Runs the seed CLI (`npm run seed -- --products N`) against the same database. */
export async function seedCatalogue(env: NodeJS.ProcessEnv, products: number, timeoutMs?: number): Promise<string> {
  // Generous but finite: about 100k products a few minutes at most on this kind of machine.
  const limit = timeoutMs ?? 120_000 + products * 10;
  const child = spawn(process.execPath, ['--import', 'tsx', SEED_CLI, '--products', String(products)], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = tail(child);
  const exited = await waitExit(child, limit);
  if (!exited) {
    child.kill('SIGKILL');
    await waitExit(child, 5_000);
    throw new Error(`seeding ${products} products took longer than ${Math.round(limit / 1000)} s; stopped it\n${out()}`);
  }
  if (child.exitCode !== 0) throw new Error(`seeding failed (exit ${child.exitCode ?? child.signalCode}):\n${out()}`);
  return out().trim();
}

// Children still alive if the runner dies abruptly: kill them on the way out.
const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of live) c.kill('SIGKILL');
});

export async function startShop(opts: StartOptions): Promise<ShopServer> {
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storefront-bench-'));
  const removeTmp = () => fs.rmSync(tmpDir, { recursive: true, force: true });
  let db: PreparedDb;
  try {
    db = await prepareDb(opts, tmpDir);
  } catch (err) {
    removeTmp();
    throw err;
  }
  const cleanup = async () => {
    try {
      await db.cleanup();
    } finally {
      removeTmp();
    }
  };

  let child: ChildProcess | undefined;
  try {
    const port = opts.port ?? (await freePort());
    const baseUrl = `http://${HOST}:${port}`;
    const env = childEnv({
      ...db.env,
      DATA_DIR: opts.dataDir ?? tmpDir,
      PORT: String(port),
      HOST,
      PUBLIC_URL: baseUrl,
      LOG_LEVEL: 'warn',
      // React and React Router pick their production builds as they would in production.
      NODE_ENV: 'production',
      // Production refuses the test gateway and its built-in secret unless told it is a
      // demo (docs/decisions/0027); benchmarks pay with the sandbox.
      ALLOW_TEST_PAYMENTS: '1',
      PAYMENT_SANDBOX_SECRET: randomBytes(16).toString('hex'),
      ...opts.env,
    });

    const seedLog = opts.products ? await seedCatalogue(env, opts.products) : undefined;

    assertBuilt();
    child = spawn(process.execPath, [MAIN], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    live.add(child);
    const out = tail(child);
    const started = child;

    const deadline = Date.now() + (opts.startTimeoutMs ?? 90_000);
    for (;;) {
      if (started.exitCode !== null || started.signalCode !== null) {
        throw new Error(`the server exited during start (${started.exitCode ?? started.signalCode}):\n${out()}`);
      }
      if (Date.now() > deadline) throw new Error(`no healthy answer from ${baseUrl}/api/health in time:\n${out()}`);
      try {
        const res = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2_000) });
        await res.arrayBuffer();
        if (res.ok) break;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 200));
    }

    const { pid, verified } = findServingPid(started.pid!, port);
    let stopped = false;
    return {
      db: opts.db,
      port,
      baseUrl,
      pid,
      pidVerified: verified,
      where: db.where,
      seedLog,
      rss: () => readRss(pid),
      descendantsRss: () => descendants(pid).reduce((sum, p) => sum + (readRss(p) ?? 0), 0),
      resetPeakRss: () => {
        try {
          // "5" resets VmHWM to the current RSS (Linux ≥ 4.0, same user)
          fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
          return true;
        } catch {
          return false;
        }
      },
      peakRss: () => statusField(pid, 'VmHWM'),
      output: out,
      exited: () => (started.exitCode !== null || started.signalCode !== null ? String(started.exitCode ?? started.signalCode) : null),
      kill: async (signal = 'SIGKILL') => {
        process.kill(pid, signal);
        if (pid !== started.pid) started.kill(signal);
        if (!(await waitExit(started, 15_000))) throw new Error(`the server (pid ${pid}) outlived ${signal} by 15 s`);
      },
      stop: async () => {
        if (stopped) return;
        stopped = true;
        try {
          started.kill('SIGTERM');
          // main.ts forces its own exit after 10 s of draining
          if (!(await waitExit(started, 15_000))) {
            started.kill('SIGKILL');
            await waitExit(started, 5_000);
          }
          live.delete(started);
        } finally {
          await cleanup();
        }
      },
    };
  } catch (err) {
    if (child) {
      child.kill('SIGKILL');
      await waitExit(child, 5_000);
      live.delete(child);
    }
    await cleanup().catch(() => {});
    throw err;
  }
}

/**
 * Direct access to a bench server's database (to stock it, pick what to visit, count what
 * was written), bypassing the API: `sql` runs one statement and answers its rows.
 */
export async function withDb<T>(server: ShopServer, fn: (sql: (q: string) => Promise<any[]>) => Promise<T>): Promise<T> {
  if (server.db === 'sqlite') {
    const db = new SqliteDatabase(server.where);
    db.pragma('busy_timeout = 10000');
    try {
      return await fn(async (q) => (/^\s*select/i.test(q) ? db.prepare(q).all() : (db.prepare(q).run(), [])));
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL, options: `-c search_path=${server.where.replace(/^schema /, '')}` });
  await client.connect();
  try {
    return await fn(async (q) => (await client.query(q)).rows);
  } finally {
    await client.end();
  }
}
