import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { assertBuilt, freePort, LIFTED_ORDER_LIMITS, MAIN, REPO_ROOT } from './server.ts';

// Durability under SIGKILL. A real server process (the compiled `node
// apps/api/dist/main.js`) takes cash-on-delivery orders and bookings from concurrent buyers
// and is killed with SIGKILL at a random moment, then started again on the same database,
// over and over. Afterwards, straight from the database:
//   - every order the server acknowledged (201) exists, with exactly the lines, prices and
//     total it answered;
//   - every request answered with a refusal (4xx) left nothing behind;
//   - a request cut off by the kill (no answer) either committed whole or left nothing;
//   - no order exists that nobody asked for;
//   - for every sku, stock = initial stock − units of the orders that hold it, per branch
//     as well (the open reservations), and never below zero;
//   - the server starts again after every kill (SQLite recovers its WAL, migrations are
//     idempotent), and answers its customers' orders afterwards.
// Used by bench/durability.ts (the full run) and apps/api/test/durability.test.ts (a few
// cycles inside `npm test`).

export type DurabilityDb = 'sqlite' | 'postgres';

export interface DurabilityOptions {
  db: DurabilityDb;
  /** Kill-and-restart cycles. */
  cycles: number;
  /** Buyers placing orders at once. Default 6. */
  concurrency?: number;
  /** The load runs this long (ms, chosen at random in the range) before the kill. Default 200–1500. */
  loadMs?: [number, number];
  /** Seeds the kill moments and the carts; printed, so a run can be repeated. */
  seed?: number;
  /** PostgreSQL server; default DATABASE_URL. */
  databaseUrl?: string;
  /** Progress lines. */
  log?: (line: string) => void;
  /** Give up on a server start after this long. Default 120 s (a busy two-core machine). */
  startTimeoutMs?: number;
}

export interface DurabilityReport {
  db: DurabilityDb;
  seed: number;
  cycles: number;
  kills: number;
  /** Requests answered 201. */
  acknowledged: number;
  /** Requests answered with a refusal (409 out of stock, 400…). */
  refused: number;
  /** Requests the kill cut off without an answer, and how many of those had committed. */
  inDoubt: number;
  inDoubtCommitted: number;
  /** Orders found in the database at the end. */
  ordersInDb: number;
  unitsSold: number;
  /** Milliseconds from spawn to a healthy /api/health, per start. */
  startMs: number[];
  /** Every broken promise found; empty when the run proves what it should. */
  problems: string[];
}

const ADDRESS = { fullName: 'Durable Buyer', phone: '01711111111', division: 'Dhaka', district: 'Dhaka', area: 'Gulshan 2', addressLine: 'House 5, Road 10' };
const API_KEY = 'durability-key';
const NOTE_PREFIX = 'durability:';

/** mulberry32: a small seeded generator, so that a run can be repeated. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---- the database, straight ---------------------------------------------------------------------

interface Sql {
  all<T = Record<string, unknown>>(q: string, params?: unknown[]): Promise<T[]>;
  run(q: string, params?: unknown[]): Promise<void>;
  close(): Promise<void>;
}

function openSql(db: DurabilityDb, where: { file?: string; url?: string; schema?: string }): Sql {
  if (db === 'sqlite') {
    const conn = new SqliteDatabase(where.file!);
    conn.pragma('busy_timeout = 10000');
    return {
      all: async (q, params = []) => conn.prepare(q).all(...params) as never,
      run: async (q, params = []) => void conn.prepare(q).run(...params),
      close: async () => {
        conn.close();
      },
    };
  }
  const pool = new pg.Pool({ connectionString: where.url, max: 2, options: `-c search_path=${where.schema}` });
  pool.on('error', () => {});
  // $1 placeholders for PostgreSQL, ? for SQLite: the queries below are written with ?.
  const numbered = (q: string) => {
    let i = 0;
    return q.replace(/\?/g, () => `$${++i}`);
  };
  return {
    all: async (q, params = []) => (await pool.query(numbered(q), params)).rows as never,
    run: async (q, params = []) => void (await pool.query(numbered(q), params)),
    close: () => pool.end(),
  };
}

// ---- the server process -----------------------------------------------------------------------------

interface Server {
  baseUrl: string;
  child: ChildProcess;
  output(): string;
}

function waitExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(t);
      resolve(true);
    });
  });
}

const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of live) c.kill('SIGKILL');
});

async function startServer(env: NodeJS.ProcessEnv, port: number, timeoutMs: number): Promise<Server> {
  assertBuilt();
  const child = spawn(process.execPath, [MAIN], { cwd: REPO_ROOT, env: { ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  child.once('exit', () => live.delete(child));
  let out = '';
  const add = (d: Buffer) => {
    out = (out + d.toString()).slice(-8000);
  };
  child.stdout!.on('data', add);
  child.stderr!.on('data', add);
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the server exited while starting (${child.exitCode ?? child.signalCode}):\n${out}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not answer /api/health within ${timeoutMs} ms:\n${out}`);
    }
    try {
      const res = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.ok) return { baseUrl, child, output: () => out };
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

// ---- buyers -------------------------------------------------------------------------------------------

interface Sent {
  id: string;
  items: { skuCode: string; quantity: number }[];
  buyer: number | null;
  outcome: 'acknowledged' | 'refused' | 'in-doubt' | 'server-error';
  status?: number;
  answer?: {
    invoiceId: string;
    saleId: number;
    total: number;
    subTotal: number;
    lines: { skuCode: string; quantity: number; unitPrice: number; discount: number; lineTotal: number }[];
  };
}

async function api(baseUrl: string, p: string, init: RequestInit & { json?: unknown } = {}) {
  const headers = new Headers(init.headers);
  headers.set('x-api-key', API_KEY);
  if (init.json !== undefined) headers.set('content-type', 'application/json');
  return fetch(`${baseUrl}${p}`, { ...init, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.body });
}

// ---- the run -------------------------------------------------------------------------------------------

export async function runDurability(opts: DurabilityOptions): Promise<DurabilityReport> {
  const seed = opts.seed ?? Math.floor(Math.random() * 2 ** 31);
  const random = rng(seed);
  const log = opts.log ?? (() => {});
  const concurrency = opts.concurrency ?? 6;
  const [minLoad, maxLoad] = opts.loadMs ?? [200, 1500];
  const startTimeout = opts.startTimeoutMs ?? 120_000;
  const report: DurabilityReport = {
    db: opts.db,
    seed,
    cycles: opts.cycles,
    kills: 0,
    acknowledged: 0,
    refused: 0,
    inDoubt: 0,
    inDoubtCommitted: 0,
    ordersInDb: 0,
    unitsSold: 0,
    startMs: [],
    problems: [],
  };
  const problem = (p: string) => {
    if (report.problems.length < 50) report.problems.push(p);
  };

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'storefront-durability-'));
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ['DATABASE_URL', 'DATABASE_SCHEMA', 'SQLITE_FILE', 'PORT', 'HOST', 'PUBLIC_URL', 'SMTP_URL']) delete env[k];
  Object.assign(env, {
    HOST: '127.0.0.1',
    DATA_DIR: tmp,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    // Production refuses the test gateway and its built-in secret unless told it is a demo
    // (docs/decisions/0027); the load pays with the sandbox.
    ALLOW_TEST_PAYMENTS: '1',
    PAYMENT_SANDBOX_SECRET: randomBytes(16).toString('hex'),
    // The API only: pages are not what this proves, and a start is faster without them.
    WEB_BUILD_DIR: '',
    STOREFRONT_API_KEY: API_KEY,
    SIGNUP_LIMIT_PER_ADDRESS: '100000',
    // Thousands of orders from one address and one guest contact: the order limits are
    // not what this proves.
    ...LIFTED_ORDER_LIMITS,
    READ_CACHE_MS: '0',
  });
  const where: { file?: string; url?: string; schema?: string } = {};
  if (opts.db === 'sqlite') {
    where.file = path.join(tmp, 'durability.db');
    env.SQLITE_FILE = where.file;
  } else {
    const url = opts.databaseUrl ?? process.env.DATABASE_URL;
    if (!url) throw new Error('the PostgreSQL run needs DATABASE_URL');
    where.url = url;
    where.schema = `durability_${process.pid}_${randomBytes(3).toString('hex')}`;
    env.DATABASE_URL = url;
    env.DATABASE_SCHEMA = where.schema;
  }

  let server: Server | null = null;
  let sql: Sql | null = null;
  const port = await freePort();
  const start = async () => {
    const t0 = Date.now();
    server = await startServer(env, port, startTimeout);
    report.startMs.push(Date.now() - t0);
  };
  try {
    log(`[${opts.db}] seed ${seed}; first start (migrations and the demo catalogue)…`);
    await start();
    sql = openSql(opts.db, where);

    // Sixteen single skus, each with stock in two branches: contention on few rows, and
    // lines that a branch alone may not supply.
    const branches = (await sql.all<{ id: number }>('select id from branches order by sort_order, id')).map((b) => Number(b.id)).slice(0, 2);
    const skus = (
      await sql.all<{ id: number; code: string }>(
        "select s.id, s.code from skus s join products p on p.id = s.product_id where p.kind = 'single' order by s.id limit 16",
      )
    ).map((s) => ({ id: Number(s.id), code: String(s.code) }));
    const perBranch = [120, 60];
    const initial = new Map<string, number>();
    for (const s of skus) {
      await sql.run('delete from stocks where sku_id = ?', [s.id]);
      for (const [i, b] of branches.entries()) {
        await sql.run('insert into stocks (sku_id, branch_id, quantity) values (?, ?, ?)', [s.id, b, perBranch[i]]);
        initial.set(`${s.id}:${b}`, perBranch[i]);
      }
    }
    const skuByCode = new Map(skus.map((s) => [s.code, s.id]));

    // Buyers: six customers (their sessions live in the database, so they survive restarts) and guests.
    const tokens: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await api(server!.baseUrl, '/api/signup', {
        method: 'POST',
        json: {
          source: 'DEFAULT',
          type: 'DEFAULT',
          fullName: `Durable Buyer ${i}`,
          email: `durable.${i}.${randomBytes(4).toString('hex')}@example.com`,
          mobile: `019${String(Math.floor(random() * 1e8)).padStart(8, '0')}`,
          password: 'durable-password',
        },
      });
      if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
      tokens.push(((await res.json()) as { authToken: string }).authToken);
    }

    const sent: Sent[] = [];
    let n = 0;
    const newRequest = (): Sent => {
      const lines = 1 + Math.floor(random() * 3);
      const items: { skuCode: string; quantity: number }[] = [];
      for (let i = 0; i < lines; i++) {
        const code = skus[Math.floor(random() * skus.length)].code;
        if (!items.some((x) => x.skuCode === code)) items.push({ skuCode: code, quantity: 1 + Math.floor(random() * 3) });
      }
      const buyer = random() < 0.7 ? Math.floor(random() * tokens.length) : null;
      return { id: `${process.pid}-${n++}`, items, buyer, outcome: 'in-doubt' };
    };

    for (let cycle = 1; cycle <= opts.cycles; cycle++) {
      if (!server) {
        // While the server is down, top up rows that ran low, so that a long run keeps
        // selling (and keeps counting: what is added counts as initial stock).
        for (const st of await sql.all<{ sku_id: number; branch_id: number; quantity: number }>(
          `select sku_id, branch_id, quantity from stocks where sku_id in (${skus.map((x) => x.id).join(',')})`,
        )) {
          const key = `${st.sku_id}:${st.branch_id}`;
          if (Number(st.quantity) < 40) {
            await sql.run('update stocks set quantity = quantity + ? where sku_id = ? and branch_id = ?', [100, st.sku_id, st.branch_id]);
            initial.set(key, (initial.get(key) ?? 0) + 100);
          }
        }
        await start();
      }
      const s: Server = server!;
      let stop = false;
      // The kill's moment is counted from the cycle's first answer: a busy machine's slow
      // first request must not make a cycle that kills a server nobody reached.
      let firstAnswer: () => void = () => {};
      const answered = new Promise<void>((resolve) => (firstAnswer = resolve));
      const loop = async () => {
        while (!stop) {
          const r = newRequest();
          sent.push(r);
          const body = {
            items: r.items,
            paymentMethod: random() < 0.8 ? 'cod' : 'later',
            deliveryMethod: 'home_delivery',
            address: ADDRESS,
            note: `${NOTE_PREFIX}${r.id}`,
            ...(r.buyer === null ? { contact: { name: 'Guest Buyer', mobile: '01812345678', email: 'guest@example.com' } } : {}),
          };
          try {
            const res = await api(s.baseUrl, '/api/checkouts', {
              method: 'POST',
              json: body,
              headers: r.buyer === null ? {} : { 'x-auth-token': tokens[r.buyer] },
              signal: AbortSignal.timeout(30_000),
            });
            const text = await res.text();
            firstAnswer();
            r.status = res.status;
            if (res.status === 201) {
              const a = JSON.parse(text) as {
                invoiceId: string;
                saleId: number;
                sale: { total: number; subTotal: number; lines: NonNullable<Sent['answer']>['lines'] };
              };
              r.outcome = 'acknowledged';
              r.answer = {
                invoiceId: a.invoiceId,
                saleId: a.saleId,
                total: a.sale.total,
                subTotal: a.sale.subTotal,
                lines: a.sale.lines.map((l) => ({
                  skuCode: l.skuCode,
                  quantity: l.quantity,
                  unitPrice: l.unitPrice,
                  discount: l.discount,
                  lineTotal: l.lineTotal,
                })),
              };
            } else if (res.status >= 500) {
              r.outcome = 'server-error';
              problem(`request ${r.id} answered ${res.status}: ${text.slice(0, 200)}`);
            } else r.outcome = 'refused';
          } catch {
            // The kill cut it off: it committed whole or not at all; the checks decide which.
            r.outcome = 'in-doubt';
            await new Promise((res) => setTimeout(res, 20));
          }
        }
      };
      const loops = Array.from({ length: concurrency }, loop);
      const loadMs = minLoad + Math.floor(random() * (maxLoad - minLoad));
      await Promise.race([answered, new Promise((r) => setTimeout(r, 30_000))]);
      await new Promise((r) => setTimeout(r, loadMs));
      s.child.kill('SIGKILL');
      report.kills++;
      if (!(await waitExit(s.child, 15_000))) problem(`cycle ${cycle}: the server did not die from SIGKILL`);
      server = null;
      stop = true;
      await Promise.all(loops);
      const done = sent.filter((x) => x.outcome === 'acknowledged').length;
      log(`[${opts.db}] cycle ${cycle}/${opts.cycles}: killed ${loadMs} ms after the first answer; ${done} orders acknowledged so far`);
    }

    // One more start: the shop must come up on what the kills left.
    await start();

    // ---- the checks ----
    const rows = await sql.all<{
      id: number;
      invoice_id: string;
      note: string | null;
      total: number;
      subtotal: number;
      stock_held: number;
      customer_id: number | null;
    }>(`select id, invoice_id, note, total, subtotal, stock_held, customer_id from sales where note like '${NOTE_PREFIX}%'`);
    const lines = await sql.all<{
      sale_id: number;
      line_no: number;
      sku_code: string;
      quantity: number;
      unit_price: number;
      discount: number;
      line_total: number;
    }>('select sale_id, line_no, sku_code, quantity, unit_price, discount, line_total from sale_lines order by sale_id, line_no');
    const linesOf = new Map<number, typeof lines>();
    for (const l of lines) {
      const k = Number(l.sale_id);
      if (!linesOf.has(k)) linesOf.set(k, []);
      linesOf.get(k)!.push(l);
    }
    const byNote = new Map(rows.map((r) => [String(r.note).slice(NOTE_PREFIX.length), r]));
    const requests = new Map(sent.map((r) => [r.id, r]));
    report.ordersInDb = rows.length;

    for (const r of rows) {
      if (!requests.has(String(r.note).slice(NOTE_PREFIX.length))) problem(`order ${r.invoice_id} exists but nobody asked for it (note ${r.note})`);
    }
    const sameLines = (a: { skuCode: string; quantity: number }[], b: { sku_code: string; quantity: number }[]) =>
      a.length === b.length && a.every((x) => b.some((y) => y.sku_code === x.skuCode && Number(y.quantity) === x.quantity));
    for (const r of sent) {
      const row = byNote.get(r.id);
      const dbLines = row ? (linesOf.get(Number(row.id)) ?? []) : [];
      if (r.outcome === 'acknowledged') {
        report.acknowledged++;
        const a = r.answer!;
        if (!row) {
          problem(`acknowledged order ${a.invoiceId} (request ${r.id}) is missing`);
          continue;
        }
        if (row.invoice_id !== a.invoiceId || Number(row.id) !== a.saleId)
          problem(`acknowledged order ${a.invoiceId} is stored as ${row.invoice_id} (#${row.id})`);
        if (Number(row.total) !== a.total || Number(row.subtotal) !== a.subTotal)
          problem(`order ${a.invoiceId}: answered total ${a.total}/${a.subTotal}, stored ${row.total}/${row.subtotal}`);
        const stored = dbLines
          .map((l) => `${l.sku_code}×${l.quantity}@${l.unit_price}-${l.discount}=${l.line_total}`)
          .sort()
          .join(', ');
        const answered = a.lines
          .map((l) => `${l.skuCode}×${l.quantity}@${l.unitPrice}-${l.discount}=${l.lineTotal}`)
          .sort()
          .join(', ');
        if (stored !== answered) problem(`order ${a.invoiceId}: answered lines ${answered}, stored ${stored}`);
        if (!sameLines(r.items, dbLines)) problem(`order ${a.invoiceId}: asked for ${JSON.stringify(r.items)}, stored ${stored}`);
        if (Number(row.stock_held) !== 1) problem(`order ${a.invoiceId} does not hold its stock`);
      } else if (r.outcome === 'in-doubt') {
        report.inDoubt++;
        if (row) {
          report.inDoubtCommitted++;
          if (!sameLines(r.items, dbLines))
            problem(`order ${row.invoice_id} (cut off by the kill) was half-written: asked ${JSON.stringify(r.items)}, stored ${JSON.stringify(dbLines)}`);
        }
      } else {
        report.refused++;
        if (row) problem(`request ${r.id} was refused (${r.status}) but order ${row.invoice_id} exists`);
      }
    }

    // Stock: initial − what the orders holding stock took, per sku and per branch.
    const stock = await sql.all<{ sku_id: number; branch_id: number; quantity: number }>(
      `select sku_id, branch_id, quantity from stocks where sku_id in (${skus.map((s) => s.id).join(',')})`,
    );
    const held = await sql.all<{ sku_id: number; branch_id: number; q: number }>(
      `select r.sku_id, r.branch_id, sum(r.quantity) as q from stock_reservations r join sales s on s.id = r.sale_id where r.released_at is null and s.note like '${NOTE_PREFIX}%' group by r.sku_id, r.branch_id`,
    );
    for (const st of stock) {
      if (Number(st.quantity) < 0) problem(`sku ${st.sku_id} branch ${st.branch_id}: stock ${st.quantity} below zero`);
      const h = held.find((x) => Number(x.sku_id) === Number(st.sku_id) && Number(x.branch_id) === Number(st.branch_id));
      const expected = (initial.get(`${st.sku_id}:${st.branch_id}`) ?? 0) - Number(h?.q ?? 0);
      if (Number(st.quantity) !== expected)
        problem(
          `sku ${st.sku_id} branch ${st.branch_id}: stock ${st.quantity}, but initial ${initial.get(`${st.sku_id}:${st.branch_id}`)} − reserved ${h?.q ?? 0} = ${expected}`,
        );
    }
    for (const s of skus) {
      const now = stock.filter((x) => Number(x.sku_id) === s.id).reduce((t, x) => t + Number(x.quantity), 0);
      const sold = rows
        .filter((r) => Number(r.stock_held) === 1)
        .reduce(
          (t, r) => t + (linesOf.get(Number(r.id)) ?? []).filter((l) => skuByCode.get(l.sku_code) === s.id).reduce((u, l) => u + Number(l.quantity), 0),
          0,
        );
      report.unitsSold += sold;
      const init = branches.reduce((t, b) => t + (initial.get(`${s.id}:${b}`) ?? 0), 0);
      if (now !== init - sold) problem(`sku ${s.code}: stock ${now}, but initial ${init} − sold ${sold} = ${init - sold}`);
    }

    // The restarted server answers its customers' orders as they were acknowledged.
    const sample = sent.filter((r) => r.outcome === 'acknowledged' && r.buyer !== null).slice(-20);
    for (const r of sample) {
      const res = await api(server!.baseUrl, `/api/sales?id=${r.answer!.saleId}`, { headers: { 'x-auth-token': tokens[r.buyer!] } });
      const body = (await res.json()) as { total?: number; invoiceId?: string };
      if (res.status !== 200 || body.total !== r.answer!.total || body.invoiceId !== r.answer!.invoiceId)
        problem(`after the restart, GET /api/sales?id=${r.answer!.saleId} answered ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
    }
    if (report.acknowledged === 0) problem('no order was acknowledged at all: the run proved nothing');
    log(
      `[${opts.db}] ${report.acknowledged} acknowledged, ${report.refused} refused, ${report.inDoubt} cut off (${report.inDoubtCommitted} of them committed), ${report.problems.length} problems`,
    );
    return report;
  } finally {
    const s = server as Server | null;
    if (s) {
      s.child.kill('SIGTERM');
      if (!(await waitExit(s.child, 15_000))) s.child.kill('SIGKILL');
    }
    await sql?.close().catch(() => {});
    if (opts.db === 'postgres' && where.url) {
      const c = new pg.Client({ connectionString: where.url });
      await c.connect();
      await c.query(`drop schema if exists "${where.schema}" cascade`).finally(() => c.end());
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
