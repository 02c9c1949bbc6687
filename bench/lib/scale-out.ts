import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import pg from 'pg';
import { ensureNginx, startNginx, type Nginx } from './nginx.ts';
import { createPgSchema, LIFTED_ORDER_LIMITS, type ShopServer, startShop } from './server.ts';

// Scale-out, proven: several processes of the shop on ONE PostgreSQL database (one schema,
// one DATA_DIR) behind Debian's nginx, round robin. Each prove* function below checks one
// promise a shop must keep once it runs as more than one process, and answers what it
// saw plus `problems`, every broken promise in words (empty when the promise holds):
//   - a session made through one process is honoured, and ended, by the others;
//   - a once-per-customer coupon sent to all processes at once is used once;
//   - concurrent checkouts of a scarce sku through all processes never sell more than the stock;
//   - a file uploaded through one process is served by the others;
//   - failed sign-ins spread over the processes hit the per-account limit at its count;
//   - SIGKILL of one process under the shoppers' load loses no acknowledged order, and
//     nginx sends what follows to the survivors.
// Used by apps/api/test/scale-out.test.ts (a short run inside `npm test`) and
// bench/scale-out.ts (`npm run scale-out -w bench`, the full run with figures).

export const API_KEY = 'storefront-web';
const ADDRESS = { fullName: 'Scale Shopper', phone: '01711111111', division: 'Dhaka', district: 'Dhaka', area: 'Gulshan 2', addressLine: 'House 5, Road 10' };
const PASSWORD = 'scale-out-password';
const NOTE_PREFIX = 'scale-out:';
/** The demo's coupon: 10% off, once per signed-in customer (apps/api/src/db/seed/promotions.ts). */
export const ONCE_PER_CUSTOMER_COUPON = 'WELCOME10';

/**
 * What every process runs with. TRUST_PROXY=1: the client's address is the one nginx
 * appends to X-Forwarded-For. Every request of the proof comes from 127.0.0.1 through
 * nginx, so the limits per client address are set out of the way; the per-account
 * sign-in limit is set to a value other than the default, to show the configured count
 * is the one that holds. Anything else in the environment (other limits) passes through.
 */
export const SCALE_OUT_ENV: Record<string, string> = {
  WEB_BUILD_DIR: '',
  TRUST_PROXY: '1',
  SIGNIN_LIMIT_PER_ACCOUNT: '4',
  SIGNIN_LIMIT_PER_ADDRESS: '1000000',
  SIGNUP_LIMIT_PER_ADDRESS: '1000000',
  // Every simulated shopper comes from 127.0.0.1: the per-client order limits
  // (docs/decisions/0022) would count them as one client.
  ...LIFTED_ORDER_LIMITS,
};

// ---- the cluster ------------------------------------------------------------------------------

export interface Cluster {
  shops: ShopServer[];
  nginx: Nginx;
  schema: string;
  dataDir: string;
  /** The environment every process got on top of the defaults of startShop. */
  env: Record<string, string | undefined>;
  signInLimitPerAccount: number;
  /** One statement on the shared schema; `$1` placeholders. */
  sql<T = Record<string, any>>(q: string, params?: unknown[]): Promise<T[]>;
  /** Which process a port belongs to (-1: none). */
  indexOfPort(port: number): number;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  processes?: number;
  /** Default DATABASE_URL. */
  databaseUrl?: string;
  /** Added to SCALE_OUT_ENV for every process. */
  env?: Record<string, string | undefined>;
  log?: (line: string) => void;
  /**
   * nginx on this port and the processes on the next ones (default SCALE_OUT_PORT_BASE
   * from the environment; unset: free ports the system picks).
   */
  portBase?: number;
}

export async function startCluster(o: ClusterOptions = {}): Promise<Cluster> {
  const url = o.databaseUrl ?? process.env.DATABASE_URL;
  if (!url) throw new Error('the scale-out proof needs PostgreSQL: set DATABASE_URL');
  const log = o.log ?? (() => {});
  const n = o.processes ?? 3;
  const env = { ...SCALE_OUT_ENV, ...o.env };
  const portBase = o.portBase ?? (process.env.SCALE_OUT_PORT_BASE ? Number(process.env.SCALE_OUT_PORT_BASE) : undefined);
  // First, as it may need apt-get: no process is started for a run that cannot have nginx.
  ensureNginx(log);
  const { schema, drop } = await createPgSchema(url, 'scaleout');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storefront-scale-out-'));
  const pool = new pg.Pool({ connectionString: url, max: 3, options: `-c search_path=${schema}` });
  pool.on('error', () => {});
  const shops: ShopServer[] = [];
  let nginx: Nginx | undefined;
  const stop = async () => {
    await nginx?.stop().catch(() => {});
    await Promise.all(shops.map((s) => s.stop().catch(() => {})));
    await pool.end().catch(() => {});
    await drop().catch(() => {});
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    // All at once, as after a deploy: they migrate and seed the one schema together
    // (the migrator and the seed take locks, so one does it and the others find it done).
    log(`starting ${n} shop processes on schema ${schema}…`);
    const started = await Promise.allSettled(
      Array.from({ length: n }, (_, i) =>
        startShop({ db: 'postgres', databaseUrl: url, schema, dataDir, env, port: portBase && portBase + 1 + i, startTimeoutMs: 180_000 }),
      ),
    );
    for (const s of started) if (s.status === 'fulfilled') shops.push(s.value);
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    nginx = await startNginx({ upstreams: shops.map((s) => s.port), port: portBase, log });
    log(`processes on ${shops.map((s) => s.port).join(', ')}; nginx on ${nginx.port}`);
    return {
      shops,
      nginx,
      schema,
      dataDir,
      env,
      signInLimitPerAccount: Number(env.SIGNIN_LIMIT_PER_ACCOUNT),
      sql: async (q, params = []) => (await pool.query(q, params)).rows,
      indexOfPort: (port) => shops.findIndex((s) => s.port === port),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

// ---- HTTP --------------------------------------------------------------------------------------

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
  /** The process that answered: by port when called directly, from nginx's X-Upstream otherwise; -1 unknown. */
  servedBy: number;
  /** Every upstream nginx tried, in order (empty for a direct call). */
  tried: number[];
  ms: number;
}

export interface CallOptions {
  method?: string;
  json?: unknown;
  body?: RequestInit['body'];
  headers?: Record<string, string>;
  timeoutMs?: number;
}

/** One API call to a process (a number: its index) or through nginx ('nginx'). */
export async function call(c: Cluster, to: number | 'nginx', urlPath: string, o: CallOptions = {}): Promise<Answer> {
  const base = to === 'nginx' ? c.nginx.baseUrl : c.shops[to].baseUrl;
  const headers: Record<string, string> = { 'x-api-key': API_KEY, ...o.headers };
  if (o.json !== undefined) headers['content-type'] = 'application/json';
  const t0 = performance.now();
  const res = await fetch(base + urlPath, {
    method: o.method ?? (o.json !== undefined || o.body ? 'POST' : 'GET'),
    headers,
    body: o.json !== undefined ? JSON.stringify(o.json) : o.body,
    signal: AbortSignal.timeout(o.timeoutMs ?? 30_000),
  });
  const text = await res.text();
  const ms = performance.now() - t0;
  let body: any = null;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON (a file, an nginx error page)
  }
  // "127.0.0.1:4301" or, when nginx had to try another first, "127.0.0.1:4301, 127.0.0.1:4302".
  const tried = [...(res.headers.get('x-upstream') ?? '').matchAll(/(?:\d{1,3}\.){3}\d{1,3}:(\d+)/g)].map((m) => c.indexOfPort(Number(m[1])));
  const servedBy = to === 'nginx' ? (tried.at(-1) ?? -1) : to;
  return { status: res.status, headers: res.headers, text, body, servedBy, tried, ms };
}

const uniqueMobile = () => `019${String(randomBytes(4).readUInt32BE() % 100_000_000).padStart(8, '0')}`;
const uniqueEmail = (tag: string) => `${tag}.${randomBytes(6).toString('hex')}@example.com`;

export async function signUp(c: Cluster, to: number | 'nginx', tag: string): Promise<{ email: string; token: string; customerId: number }> {
  const email = uniqueEmail(tag);
  const r = await call(c, to, '/api/signup', {
    json: { source: 'DEFAULT', type: 'DEFAULT', fullName: `Scale ${tag}`, email, mobile: uniqueMobile(), password: PASSWORD },
  });
  if (r.status !== 201) throw new Error(`sign-up answered ${r.status}: ${r.text.slice(0, 300)}`);
  const [row] = await c.sql<{ id: number }>('select id from customers where email = $1', [email]);
  return { email, token: r.body.authToken, customerId: Number(row.id) };
}

const signInBody = (email: string, password = PASSWORD) => ({ source: 'DEFAULT', type: 'DEFAULT', userName: email, password });

/** Single (non-bundle) skus of the demo catalogue, skipping the first `offset`. */
async function plainSkus(c: Cluster, count: number, offset = 0): Promise<{ id: number; code: string; productId: number }[]> {
  const rows = await c.sql<{ id: number; code: string; product_id: number }>(
    "select s.id, s.code, s.product_id from skus s join products p on p.id = s.product_id where p.kind = 'single' order by s.id limit $1 offset $2",
    [count, offset],
  );
  return rows.map((r) => ({ id: Number(r.id), code: String(r.code), productId: Number(r.product_id) }));
}

/** Sets a sku's stock, by branch in their order; answers the branch ids used. */
async function setStock(c: Cluster, skuId: number, perBranch: number[]): Promise<number[]> {
  const branches = (await c.sql<{ id: number }>('select id from branches order by sort_order, id')).map((b) => Number(b.id)).slice(0, perBranch.length);
  await c.sql('delete from stocks where sku_id = $1', [skuId]);
  for (const [i, b] of branches.entries()) await c.sql('insert into stocks (sku_id, branch_id, quantity) values ($1, $2, $3)', [skuId, b, perBranch[i]]);
  return branches;
}

const checkoutBody = (items: { skuCode: string; quantity: number }[], extra: Record<string, unknown> = {}) => ({
  items,
  paymentMethod: 'cod',
  deliveryMethod: 'home_delivery',
  address: ADDRESS,
  ...extra,
});
const guest = () => ({ contact: { name: 'Scale Guest', mobile: uniqueMobile(), email: uniqueEmail('guest') } });

const describe = (r: Answer) => `${r.status} ${r.text.slice(0, 160)}`;

// ---- sessions ------------------------------------------------------------------------------------

export interface SessionsReport {
  /** The process that handled the sign-in through nginx. */
  signedInOn: number;
  /** GET /api/customers with that session, per process called directly. */
  directStatuses: number[];
  /** The processes that answered the same session through nginx. */
  servedThroughNginx: number[];
  /** The same with the session in the `sid` cookie instead of the header. */
  cookieStatuses: number[];
  /** After signing out through another process: what each process answers. */
  afterSignOut: number[];
  problems: string[];
}

/**
 * Signs in through nginx (landing on one process), then uses the session on every process
 * directly and through nginx's round robin, with the token header and with the cookie;
 * signs out through another process, after which none of them accepts it.
 */
export async function proveSessions(c: Cluster): Promise<SessionsReport> {
  const problems: string[] = [];
  const n = c.shops.length;
  const account = await signUp(c, 'nginx', 'session');
  const signIn = await call(c, 'nginx', '/api/signin/customers', { json: signInBody(account.email) });
  if (signIn.status !== 200) problems.push(`sign-in through nginx answered ${describe(signIn)}`);
  const token: string = signIn.body?.authToken ?? '';
  const signedInOn = signIn.servedBy;
  if (signedInOn < 0 || signIn.tried.length !== 1)
    problems.push(`the sign-in did not land on exactly one process (X-Upstream ${signIn.headers.get('x-upstream')})`);
  const me = (to: number | 'nginx', headers: Record<string, string>) => call(c, to, '/api/customers', { headers });

  const directStatuses: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = await me(i, { 'x-auth-token': token });
    directStatuses.push(r.status);
    if (r.status !== 200 || r.body?.email !== account.email)
      problems.push(`process ${i}${i === signedInOn ? ' (where it signed in)' : ''} answered the session with ${describe(r)}`);
  }
  const servedThroughNginx: number[] = [];
  for (let k = 0; k < 2 * n; k++) {
    const r = await me('nginx', { 'x-auth-token': token });
    servedThroughNginx.push(r.servedBy);
    if (r.status !== 200 || r.body?.email !== account.email) problems.push(`through nginx (process ${r.servedBy}) the session got ${describe(r)}`);
  }
  if (new Set(servedThroughNginx).size !== n) problems.push(`nginx's round robin reached only processes ${[...new Set(servedThroughNginx)].join(', ')}`);

  // The web app's way: the session in the httpOnly cookie.
  const cookieSignIn = await call(c, 'nginx', '/api/signin/customers', { json: signInBody(account.email), headers: { 'x-session-cookie': '1' } });
  const sid = cookieSignIn.headers
    .getSetCookie()
    .map((h) => /^sid=([^;]+)/.exec(h)?.[1])
    .find(Boolean);
  if (cookieSignIn.status !== 200 || !sid) problems.push(`cookie sign-in through nginx answered ${describe(cookieSignIn)} without a sid cookie`);
  const cookieStatuses: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = await me(i, { cookie: `sid=${sid}` });
    cookieStatuses.push(r.status);
    if (r.status !== 200 || r.body?.email !== account.email)
      problems.push(`process ${i}${i === cookieSignIn.servedBy ? ' (where it signed in)' : ''} answered the cookie session with ${describe(r)}`);
  }

  // Signing out on another process ends the session everywhere, the first process included.
  const other = (Math.max(0, signedInOn) + 1) % n;
  const out = await call(c, other, '/api/auth/signout', { method: 'POST', headers: { 'x-auth-token': token } });
  if (out.status >= 300) problems.push(`sign-out on process ${other} answered ${describe(out)}`);
  const afterSignOut: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = await me(i, { 'x-auth-token': token });
    afterSignOut.push(r.status);
    if (r.status !== 401) problems.push(`after signing out on process ${other}, process ${i} still answered the session with ${describe(r)}`);
  }
  return { signedInOn, directStatuses, servedThroughNginx, cookieStatuses, afterSignOut, problems };
}

// ---- the once-per-customer coupon ----------------------------------------------------------------

export interface CouponReport {
  customers: number;
  /** Per customer: how many of the concurrent checkouts went to each process. */
  sentPerProcess: number[];
  /** Status counts over all the checkouts, e.g. { "201": 3, "409": 24 }. */
  statuses: Record<string, number>;
  /** Per customer: orders using the coupon (the database's count). */
  ordersWithCoupon: number[];
  problems: string[];
}

/**
 * For each of a few new customers, `perProcess` checkouts with WELCOME10 sent to every
 * process at the same moment: exactly one is placed with the coupon, the others are
 * refused (409 coupon_not_applicable), and the database holds one use.
 */
export async function proveCouponOnce(c: Cluster, o: { customers?: number; perProcess?: number } = {}): Promise<CouponReport> {
  const problems: string[] = [];
  const customers = o.customers ?? 3;
  const perProcess = o.perProcess ?? 3;
  const n = c.shops.length;
  const [sku] = await plainSkus(c, 1, 40);
  await setStock(c, sku.id, [100_000]);
  const [coupon] = await c.sql<{ id: number }>('select id from coupons where code = $1 and per_customer_limit = 1', [ONCE_PER_CUSTOMER_COUPON]);
  if (!coupon)
    return {
      customers: 0,
      sentPerProcess: [],
      statuses: {},
      ordersWithCoupon: [],
      problems: [`the demo coupon ${ONCE_PER_CUSTOMER_COUPON} (once per customer) is missing`],
    };
  const statuses: Record<string, number> = {};
  const ordersWithCoupon: number[] = [];
  for (let k = 0; k < customers; k++) {
    const buyer = await signUp(c, 'nginx', `coupon${k}`);
    const answers = await Promise.all(
      Array.from({ length: n * perProcess }, (_, i) =>
        call(c, i % n, '/api/checkouts', {
          json: checkoutBody([{ skuCode: sku.code, quantity: 1 }], { couponCode: ONCE_PER_CUSTOMER_COUPON }),
          headers: { 'x-auth-token': buyer.token },
        }),
      ),
    );
    for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
    const won = answers.filter((a) => a.status === 201);
    if (won.length !== 1)
      problems.push(
        `customer ${k}: ${won.length} of ${answers.length} checkouts with ${ONCE_PER_CUSTOMER_COUPON} were placed (processes ${won.map((a) => a.servedBy).join(', ')}), not exactly one`,
      );
    for (const w of won)
      if (!(w.body?.sale?.couponCode === ONCE_PER_CUSTOMER_COUPON && w.body.sale.couponAmount > 0))
        problems.push(`customer ${k}: the order placed did not use the coupon: ${w.text.slice(0, 200)}`);
    for (const a of answers)
      if (a.status !== 201 && !(a.status === 409 && a.body?.error?.code === 'coupon_not_applicable'))
        problems.push(`customer ${k}: a checkout answered ${describe(a)} (expected 201 once, else 409 coupon_not_applicable)`);
    const [uses] = await c.sql<{ n: string }>('select count(*) as n from coupon_usages where coupon_id = $1 and customer_id = $2', [
      coupon.id,
      buyer.customerId,
    ]);
    const [orders] = await c.sql<{ n: string }>('select count(*) as n from sales where customer_id = $1 and coupon_code = $2', [
      buyer.customerId,
      ONCE_PER_CUSTOMER_COUPON,
    ]);
    const [all] = await c.sql<{ n: string }>('select count(*) as n from sales where customer_id = $1', [buyer.customerId]);
    ordersWithCoupon.push(Number(orders.n));
    if (Number(uses.n) !== 1) problems.push(`customer ${k}: ${uses.n} coupon uses recorded, not 1`);
    if (Number(orders.n) !== 1 || Number(all.n) !== won.length)
      problems.push(`customer ${k}: ${orders.n} orders with the coupon and ${all.n} in all in the database, ${won.length} acknowledged`);
  }
  return { customers, sentPerProcess: Array(n).fill(perProcess), statuses, ordersWithCoupon, problems };
}

// ---- no oversell ----------------------------------------------------------------------------------

export interface OversellReport {
  rounds: { stock: number; sent: number; sold: number; stockAfter: number; perProcess: number[] }[];
  statuses: Record<string, number>;
  problems: string[];
}

/**
 * Per round, a sku with little stock (split over two branches) and more guest checkouts
 * of it than it has units, sent to all processes at once: the units sold never exceed
 * the stock, no stock row goes below zero, stock = initial − sold, and since every
 * request asks for one unit and demand exceeds supply, all of it is sold (a refusal while
 * units were left would be a lost sale).
 */
export async function proveNoOversell(c: Cluster, o: { rounds?: number; stock?: number[]; perProcess?: number } = {}): Promise<OversellReport> {
  const problems: string[] = [];
  const perBranch = o.stock ?? [3, 2];
  const initial = perBranch.reduce((a, b) => a + b, 0);
  const perProcess = o.perProcess ?? 4;
  const n = c.shops.length;
  const skus = await plainSkus(c, o.rounds ?? 2, 50);
  const statuses: Record<string, number> = {};
  const rounds: OversellReport['rounds'] = [];
  for (const sku of skus) {
    await setStock(c, sku.id, perBranch);
    const answers = await Promise.all(
      Array.from({ length: n * perProcess }, (_, i) => call(c, i % n, '/api/checkouts', { json: checkoutBody([{ skuCode: sku.code, quantity: 1 }], guest()) })),
    );
    for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
    const won = answers.filter((a) => a.status === 201);
    for (const a of answers)
      if (a.status !== 201 && !(a.status === 409 && a.body?.error?.code === 'out_of_stock'))
        problems.push(`sku ${sku.code}: a checkout answered ${describe(a)} (expected 201 or 409 out_of_stock)`);
    const rows = await c.sql<{ quantity: number }>('select quantity from stocks where sku_id = $1', [sku.id]);
    const stockAfter = rows.reduce((t, r) => t + Number(r.quantity), 0);
    const [held] = await c.sql<{ q: string | null }>('select sum(r.quantity) as q from stock_reservations r where r.sku_id = $1 and r.released_at is null', [
      sku.id,
    ]);
    const [lines] = await c.sql<{ q: string | null }>(
      'select sum(l.quantity) as q from sale_lines l join sales s on s.id = l.sale_id where l.sku_code = $1 and s.stock_held = 1',
      [sku.code],
    );
    const sold = won.length;
    if (sold > initial) problems.push(`sku ${sku.code}: ${sold} units sold of ${initial} in stock (oversold)`);
    if (rows.some((r) => Number(r.quantity) < 0)) problems.push(`sku ${sku.code}: stock below zero: ${rows.map((r) => r.quantity).join(', ')}`);
    if (stockAfter !== initial - sold) problems.push(`sku ${sku.code}: stock ${stockAfter} after, but ${initial} − ${sold} acknowledged = ${initial - sold}`);
    if (Number(held.q ?? 0) !== sold || Number(lines.q ?? 0) !== sold)
      problems.push(`sku ${sku.code}: ${held.q ?? 0} units reserved and ${lines.q ?? 0} in order lines, ${sold} acknowledged`);
    if (sold !== initial) problems.push(`sku ${sku.code}: only ${sold} of ${initial} units sold to ${answers.length} buyers asking for one each`);
    rounds.push({
      stock: initial,
      sent: answers.length,
      sold,
      stockAfter,
      perProcess: Array.from({ length: n }, (_, i) => won.filter((a) => a.servedBy === i).length),
    });
  }
  return { rounds, statuses, problems };
}

// ---- uploads --------------------------------------------------------------------------------------

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A valid RGB PNG of one colour. */
export function pngBytes(width: number, height: number, shade = 0x80): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const row = Buffer.alloc(1 + width * 3, shade);
  row[0] = 0;
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', zlib.deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export interface UploadsReport {
  /** Per upload: where it was made, and what each process answered for its bytes. */
  uploads: { via: string; storedBy: number; fetched: number[] }[];
  problems: string[];
}

/** A file uploaded directly to one process, and one through nginx, read back from every process. */
export async function proveSharedUploads(c: Cluster): Promise<UploadsReport> {
  const problems: string[] = [];
  const n = c.shops.length;
  const uploads: UploadsReport['uploads'] = [];
  for (const via of [0, 'nginx'] as const) {
    const bytes = pngBytes(24 + uploads.length, 16, 0x40 + uploads.length);
    const form = new FormData();
    form.append('type', 'image');
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), `shared ${uploads.length}.png`);
    const up = await call(c, via, '/api/files', { method: 'POST', body: form });
    if (up.status !== 200 || !up.body?.cdnUrl) {
      problems.push(`upload via ${via === 'nginx' ? 'nginx' : `process ${via}`} answered ${describe(up)}`);
      continue;
    }
    const fetched: number[] = [];
    // The shop keeps a picture re-encoded without its metadata (docs/decisions/0039), so
    // every process must serve the one stored copy: the size the upload answered, the same
    // bytes from each.
    let first: Buffer | null = null;
    for (let i = 0; i < n; i++) {
      const res = await fetch(c.shops[i].baseUrl + up.body.cdnUrl, { signal: AbortSignal.timeout(15_000) });
      const got = Buffer.from(await res.arrayBuffer());
      fetched.push(res.status);
      first ??= got;
      if (res.status !== 200 || got.length !== up.body.size || !got.equals(first))
        problems.push(
          `process ${i} served ${up.body.cdnUrl} (stored by process ${up.servedBy}) with ${res.status}, ${got.length} bytes${res.status === 200 ? ' that differ' : ''}`,
        );
      const details = await call(c, i, `/api/files/${up.body.uuid}`);
      if (details.status !== 200 || details.body?.uuid !== up.body.uuid || details.body?.size !== up.body.size)
        problems.push(`process ${i} answered GET /api/files/${up.body.uuid} with ${describe(details)}`);
    }
    uploads.push({ via: via === 'nginx' ? 'nginx' : `process ${via}`, storedBy: up.servedBy, fetched });
  }
  return { uploads, problems };
}

// ---- sign-in limits ----------------------------------------------------------------------------------

export interface SignInLimitReport {
  limit: number;
  /** Wrong passwords one after another, to the processes in turn: status and process of each. */
  sequential: { process: number; status: number }[];
  /** limit + 3 wrong passwords at once, spread over the processes. */
  concurrent: Record<string, number>;
  problems: string[];
}

/**
 * The per-account limit of failed sign-ins holds across processes: SIGNIN_LIMIT_PER_ACCOUNT
 * wrong passwords spread over the processes are answered 401, the next is 429 on every
 * process (even with the right password); sent all at once, exactly `limit` get 401.
 */
export async function proveSignInLimit(c: Cluster): Promise<SignInLimitReport> {
  const problems: string[] = [];
  const n = c.shops.length;
  const limit = c.signInLimitPerAccount;
  const a = await signUp(c, 'nginx', 'limit-a');
  const sequential: SignInLimitReport['sequential'] = [];
  for (let k = 0; k < limit; k++) {
    const r = await call(c, k % n, '/api/signin/customers', { json: signInBody(a.email, 'wrong-password') });
    sequential.push({ process: k % n, status: r.status });
    if (r.status !== 401) problems.push(`wrong password ${k + 1} of ${limit} (process ${k % n}) answered ${describe(r)}, expected 401`);
  }
  for (let i = 0; i < n; i++) {
    const k = (limit + i) % n;
    const r = await call(c, k, '/api/signin/customers', { json: signInBody(a.email, 'wrong-password') });
    sequential.push({ process: k, status: r.status });
    if (r.status !== 429 || !r.headers.get('retry-after'))
      problems.push(`attempt ${limit + i + 1} (process ${k}) after ${limit} failures answered ${describe(r)}, expected 429 with Retry-After`);
  }
  const right = await call(c, 'nginx', '/api/signin/customers', { json: signInBody(a.email) });
  if (right.status !== 429) problems.push(`the right password after the limit answered ${describe(right)}, expected 429`);

  const b = await signUp(c, 'nginx', 'limit-b');
  const burst = await Promise.all(
    Array.from({ length: limit + n }, (_, k) => call(c, k % n, '/api/signin/customers', { json: signInBody(b.email, 'wrong-password') })),
  );
  const concurrent: Record<string, number> = {};
  for (const r of burst) concurrent[r.status] = (concurrent[r.status] ?? 0) + 1;
  if (concurrent['401'] !== limit || concurrent['429'] !== n)
    problems.push(`${limit + n} wrong passwords at once over ${n} processes answered ${JSON.stringify(concurrent)}, expected ${limit}×401 and ${n}×429`);
  return { limit, sequential, concurrent, problems };
}

// ---- shoppers' load, and a SIGKILL ----------------------------------------------------------------

const TERMS = ['sofa', 'bed', 'dining', 'chair', 'wardrobe', 'table', 'kids', 'teak', 'oak'];
export const STEPS = ['browse', 'search', 'product', 'add to cart', 'sign in', 'checkout'] as const;
export type Step = (typeof STEPS)[number];

export interface RequestRecord {
  step: Step;
  /** ms since the load started. */
  at: number;
  ms: number;
  /** 0: no answer (connection error or timeout). */
  status: number;
  servedBy: number;
  /** nginx tried another process first. */
  failedOver: boolean;
}

export interface CheckoutRecord {
  id: string;
  items: { skuCode: string; quantity: number }[];
  customer: number | null;
  at: number;
  /** The first answer: 0 when none came. */
  status: number;
  servedBy: number;
  /** Only when the first attempt failed (no answer or 5xx): the same request again, same Idempotency-Key. */
  retryStatus?: number;
  /** The retry answered the order the first attempt had placed (Idempotent-Replayed: true). */
  retryReplayed?: boolean;
  /** From the 2xx answer (first or retry). */
  answer?: { invoiceId: string; saleId: number; lines: { skuCode: string; quantity: number }[] };
}

/** How long shoppers go on after a kill, at the least. */
const AFTER_KILL_MS = 1_500;

export interface LoadOptions {
  durationMs: number;
  shoppers: number;
  /** Think time between steps, ms. Default [50, 300]. */
  thinkMs?: [number, number];
  /** Share of journeys that sign in / check out. Default 0.3 / 0.5. */
  signInShare?: number;
  checkoutShare?: number;
  /**
   * Kill this process with SIGKILL this long after the load starts, at a moment when
   * several checkouts are on their way (waiting up to 2 s for one), so that some are cut off.
   */
  kill?: { process: number; afterMs: number };
  log?: (line: string) => void;
}

export interface LoadReport {
  elapsedMs: number;
  requests: RequestRecord[];
  checkouts: CheckoutRecord[];
  /** ms since the load started when SIGKILL was sent, and when the process was gone; null without a kill. */
  killSentAt: number | null;
  killedAt: number | null;
  killed: number | null;
  /** Checkouts with a 2xx answer, and how many of them are missing from the database. */
  acknowledged: number;
  lost: number;
  /** Checkouts whose first attempt got no answer or a 5xx (allowed only around the kill), and how many of those first attempts had committed. */
  cutOff: CheckoutRecord[];
  cutOffCommitted: number;
  problems: string[];
}

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);

/** p50/p99 and req/s of a set of requests. */
export function figures(rs: RequestRecord[], elapsedMs: number) {
  const ok = rs.filter((r) => r.status > 0);
  const sorted = ok.map((r) => r.ms).sort((a, b) => a - b);
  return {
    requests: rs.length,
    perSecond: rs.length / (elapsedMs / 1000),
    p50: pct(sorted, 50),
    p99: pct(sorted, 99),
    errors: rs.filter((r) => r.status === 0 || r.status >= 500).length,
  };
}

/**
 * Virtual shoppers through nginx, each on a journey like bench/shoppers.ts's, on the API
 * (the web build is not needed): list a category, search, open a product, quote a cart,
 * sometimes sign in, often check out (cash on delivery, with an Idempotency-Key). With
 * `kill`, one process is killed with SIGKILL mid-load. Afterwards, from the database:
 * every checkout answered 2xx exists with its lines and holds its stock; stock = initial −
 * what the orders hold; nothing refused was written; the requests that failed did so
 * only while the kill cut them off, and nothing sent after it reached the dead process.
 */
export async function runShoppersLoad(c: Cluster, o: LoadOptions): Promise<LoadReport> {
  const problems: string[] = [];
  const problem = (p: string) => {
    if (problems.length < 50) problems.push(p);
  };
  const log = o.log ?? (() => {});
  const [thinkMin, thinkMax] = o.thinkMs ?? [50, 300];
  const signInShare = o.signInShare ?? 0.3;
  const checkoutShare = o.checkoutShare ?? 0.5;
  const run = randomBytes(3).toString('hex');

  // Stock the load cannot exhaust, counted: the check is initial − held = now.
  const skus = await plainSkus(c, 24, 60);
  const initial = new Map<number, number>();
  for (const s of skus) {
    await setStock(c, s.id, [5_000, 5_000]);
    initial.set(s.id, 10_000);
  }
  const categories = (await c.sql<{ id: number }>('select id from categories')).map((r) => Number(r.id));
  const accounts = await Promise.all(Array.from({ length: Math.max(1, Math.min(o.shoppers, 20)) }, (_, i) => signUp(c, 'nginx', `load${i}`)));

  const requests: RequestRecord[] = [];
  const checkouts: CheckoutRecord[] = [];
  const t0 = performance.now();
  const now = () => performance.now() - t0;
  let stop = false;
  let killSentAt: number | null = null;
  let killedAt: number | null = null;
  let seq = 0;
  let checkoutsInFlight = 0;
  const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const think = () => sleep(thinkMin + Math.random() * (thinkMax - thinkMin));

  async function step(name: Step, urlPath: string, opts: CallOptions = {}): Promise<Answer | null> {
    const at = now();
    try {
      const r = await call(c, 'nginx', urlPath, opts);
      requests.push({ step: name, at, ms: r.ms, status: r.status, servedBy: r.servedBy, failedOver: r.tried.length > 1 });
      return r;
    } catch {
      requests.push({ step: name, at, ms: now() - at, status: 0, servedBy: -1, failedOver: false });
      return null;
    }
  }

  async function checkout(lines: { skuCode: string; quantity: number }[], customer: number | null) {
    const id = `${run}-${seq++}`;
    const key = randomUUID();
    const body = checkoutBody(lines, { note: `${NOTE_PREFIX}${id}`, ...(customer === null ? guest() : {}) });
    const headers: Record<string, string> = { 'idempotency-key': key, ...(customer === null ? {} : { 'x-auth-token': accounts[customer].token }) };
    const rec: CheckoutRecord = { id, items: lines, customer, at: now(), status: 0, servedBy: -1 };
    checkouts.push(rec);
    const take = (r: Answer) => {
      if (r.status === 200 || r.status === 201)
        rec.answer = {
          invoiceId: r.body.invoiceId,
          saleId: r.body.sale.id,
          lines: r.body.sale.lines.map((l: any) => ({ skuCode: l.skuCode, quantity: l.quantity })),
        };
    };
    checkoutsInFlight++;
    const first = await step('checkout', '/api/checkouts', { json: body, headers }).finally(() => checkoutsInFlight--);
    rec.status = first?.status ?? 0;
    rec.servedBy = first?.servedBy ?? -1;
    if (first) take(first);
    if (!first || first.status >= 500) {
      // What a careful client does with an order in doubt: the same request again, with
      // the same key. It must answer the order the first attempt placed, or place it now.
      await sleep(100);
      const again = await step('checkout', '/api/checkouts', { json: body, headers });
      rec.retryStatus = again?.status ?? 0;
      rec.retryReplayed = again?.headers.get('idempotent-replayed') === 'true';
      if (again) take(again);
    }
  }

  async function shopper() {
    await sleep(Math.random() * thinkMax);
    let customer: number | null = null;
    while (!stop) {
      const search = (textParams: unknown[]) => ({ json: { page: 1, size: 24, fetchCount: true, facets: true, textParams } });
      await step('browse', '/api/search/indices/items', search([{ field: 'categoryId', value: pick(categories) }]));
      await think();
      await step('search', '/api/search/indices/items', search([{ field: 'query', value: pick(TERMS) }]));
      await think();
      const lines = [pick(skus), ...(Math.random() < 0.3 ? [pick(skus)] : [])]
        .filter((s, i, a) => a.findIndex((x) => x.id === s.id) === i)
        .map((s) => ({ skuCode: s.code, quantity: 1 + Math.floor(Math.random() * 2), productId: s.productId }));
      await step('product', `/api/v3/items/joined?id=${lines[0].productId}`);
      await think();
      const items = lines.map(({ skuCode, quantity }) => ({ skuCode, quantity }));
      await step('add to cart', '/api/carts/quote', { json: { lines: items } });
      await think();
      if (customer === null && Math.random() < signInShare) {
        const k = Math.floor(Math.random() * accounts.length);
        const r = await step('sign in', '/api/signin/customers', { json: signInBody(accounts[k].email) });
        if (r?.status === 200) {
          accounts[k].token = r.body.authToken;
          customer = k;
        }
        await think();
      }
      if (Math.random() < checkoutShare) {
        await checkout(items, customer);
        await think();
      }
    }
  }

  const running = Array.from({ length: o.shoppers }, shopper);
  const killing = o.kill
    ? (async () => {
        await sleep(o.kill!.afterMs);
        // With round robin, one of the processes' share of these is likely on the one killed.
        for (let waited = 0; checkoutsInFlight < Math.min(3, o.shoppers) && waited < 2_000; waited += 5) await sleep(5);
        const before = requests.filter((r) => r.servedBy === o.kill!.process).length;
        log(
          `SIGKILL to process ${o.kill!.process} (port ${c.shops[o.kill!.process].port}) after ${Math.round(now())} ms, ${checkoutsInFlight} checkouts on their way; it had answered ${before} requests`,
        );
        killSentAt = now();
        await c.shops[o.kill!.process].kill('SIGKILL');
        killedAt = now();
      })()
    : Promise.resolve();
  const progress = setInterval(() => log(`${Math.round(now() / 1000)} s: ${requests.length} requests, ${checkouts.length} checkouts`), 30_000);
  await sleep(o.durationMs);
  // The kill waits for checkouts in flight, so on a busy machine it may come near the end:
  // shoppers go on for a while after it, however late it came, since what follows the kill
  // is what is checked.
  if (o.kill) {
    await killing;
    const left = (killedAt ?? now()) + AFTER_KILL_MS - now();
    if (left > 0) await sleep(left);
  }
  stop = true;
  clearInterval(progress);
  await killing;
  await Promise.all(running);
  const elapsedMs = now();

  // ---- the checks, from the database ----
  const rows = await c.sql<{ id: number; invoice_id: string; note: string; stock_held: number }>(
    'select id, invoice_id, note, stock_held from sales where note like $1',
    [`${NOTE_PREFIX}${run}-%`],
  );
  const saleLines = await c.sql<{ sale_id: number; sku_code: string; quantity: number }>(
    'select l.sale_id, l.sku_code, l.quantity from sale_lines l join sales s on s.id = l.sale_id where s.note like $1',
    [`${NOTE_PREFIX}${run}-%`],
  );
  const reservations = await c.sql<{ sale_id: number; sku_id: number; quantity: number }>(
    'select r.sale_id, r.sku_id, r.quantity from stock_reservations r join sales s on s.id = r.sale_id where r.released_at is null and s.note like $1',
    [`${NOTE_PREFIX}${run}-%`],
  );
  const byNote = new Map<string, typeof rows>();
  for (const r of rows) {
    const id = r.note.slice(NOTE_PREFIX.length);
    byNote.set(id, [...(byNote.get(id) ?? []), r]);
  }
  const linesOf = (saleId: number) => saleLines.filter((l) => Number(l.sale_id) === saleId);
  const asked = new Set(checkouts.map((x) => x.id));
  for (const id of byNote.keys()) if (!asked.has(id)) problem(`order with note ${NOTE_PREFIX}${id} exists but nobody asked for it`);
  const sameLines = (a: { skuCode: string; quantity: number }[], b: { sku_code: string; quantity: number }[]) =>
    a.length === b.length && a.every((x) => b.some((y) => y.sku_code === x.skuCode && Number(y.quantity) === x.quantity));
  const skuIdByCode = new Map(skus.map((s) => [s.code, s.id]));

  let acknowledged = 0;
  let lost = 0;
  const cutOff: CheckoutRecord[] = [];
  let cutOffCommitted = 0;
  for (const x of checkouts) {
    const found = byNote.get(x.id) ?? [];
    if (found.length > 1) problem(`checkout ${x.id} (with one Idempotency-Key) was placed ${found.length} times: ${found.map((r) => r.invoice_id).join(', ')}`);
    const row = found[0];
    const failedFirst = x.status === 0 || x.status >= 500;
    if (failedFirst) {
      cutOff.push(x);
      // A replayed retry says the first attempt had committed; a 201 says it had not.
      if (x.retryReplayed || (row && x.retryStatus !== 201)) cutOffCommitted++;
    }
    if (x.answer) {
      acknowledged++;
      if (!row) {
        lost++;
        problem(`acknowledged order ${x.answer.invoiceId} (checkout ${x.id}, process ${x.servedBy}) is missing from the database`);
        continue;
      }
      if (row.invoice_id !== x.answer.invoiceId || Number(row.id) !== x.answer.saleId)
        problem(`acknowledged order ${x.answer.invoiceId} is stored as ${row.invoice_id} (#${row.id})`);
      const stored = linesOf(Number(row.id));
      if (!sameLines(x.items, stored) || !sameLines(x.answer.lines, stored))
        problem(`order ${x.answer.invoiceId}: asked ${JSON.stringify(x.items)}, answered ${JSON.stringify(x.answer.lines)}, stored ${JSON.stringify(stored)}`);
      if (Number(row.stock_held) !== 1) problem(`order ${x.answer.invoiceId} does not hold its stock`);
      const held = reservations.filter((r) => Number(r.sale_id) === Number(row.id));
      for (const it of x.items) {
        const q = held.filter((r) => Number(r.sku_id) === skuIdByCode.get(it.skuCode)).reduce((t, r) => t + Number(r.quantity), 0);
        if (q !== it.quantity) problem(`order ${x.answer.invoiceId}: ${q} units of ${it.skuCode} reserved, ${it.quantity} ordered`);
      }
    } else if (row && !failedFirst && x.retryStatus === undefined) {
      problem(`checkout ${x.id} was refused (${x.status}) but order ${row.invoice_id} exists`);
    } else if (row && x.retryStatus !== undefined && x.retryStatus > 0 && x.retryStatus < 500) {
      problem(`checkout ${x.id}: the retry was refused (${x.retryStatus}) though order ${row.invoice_id} exists`);
    }
  }

  const stock = await c.sql<{ sku_id: number; quantity: number }>(`select sku_id, quantity from stocks where sku_id = any($1)`, [skus.map((s) => s.id)]);
  const allHeld = await c.sql<{ sku_id: number; q: string }>(
    'select sku_id, sum(quantity) as q from stock_reservations where released_at is null and sku_id = any($1) group by sku_id',
    [skus.map((s) => s.id)],
  );
  for (const s of skus) {
    const rowsNow = stock.filter((r) => Number(r.sku_id) === s.id);
    if (rowsNow.some((r) => Number(r.quantity) < 0)) problem(`sku ${s.code}: stock below zero`);
    const nowQ = rowsNow.reduce((t, r) => t + Number(r.quantity), 0);
    const heldQ = Number(allHeld.find((h) => Number(h.sku_id) === s.id)?.q ?? 0);
    if (nowQ !== initial.get(s.id)! - heldQ)
      problem(`sku ${s.code}: stock ${nowQ}, but initial ${initial.get(s.id)} − reserved ${heldQ} = ${initial.get(s.id)! - heldQ}`);
  }

  // Failures: none before the kill, none after it; only the requests it cut off.
  const failed = requests.filter((r) => r.status === 0 || r.status >= 500);
  const killStart = killSentAt ?? Infinity;
  for (const r of failed) {
    // In flight when the signal went: sent before the process was gone, answered after the kill began.
    const around = killedAt !== null && r.at <= killedAt && r.at + r.ms >= killStart - 1;
    if (!around) problem(`${r.step} sent at ${Math.round(r.at)} ms failed (${r.status || 'no answer'}) though no process was being killed then`);
  }
  if (o.kill && killedAt !== null) {
    const k = o.kill.process;
    const after = requests.filter((r) => r.at > killedAt!);
    const reachedDead = after.filter((r) => r.servedBy === k);
    if (reachedDead.length) problem(`${reachedDead.length} requests sent after the kill were answered by the killed process`);
    if (!requests.some((r) => r.servedBy === k && r.at < killStart)) problem(`the killed process answered nothing before the kill: the kill proved nothing`);
    const survivors = new Set(after.filter((r) => r.status > 0 && r.status < 500).map((r) => r.servedBy));
    for (let i = 0; i < c.shops.length; i++) if (i !== k && !survivors.has(i)) problem(`process ${i} (a survivor) answered nothing after the kill`);
    if (!checkouts.some((x) => x.at > killedAt! && x.answer)) problem('no checkout was acknowledged after the kill');
  }
  if (acknowledged === 0) problem('no checkout was acknowledged at all: the load proved nothing');
  return { elapsedMs, requests, checkouts, killSentAt, killedAt, killed: o.kill?.process ?? null, acknowledged, lost, cutOff, cutOffCommitted, problems };
}
