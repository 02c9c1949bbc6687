import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { LIFTED_ORDER_LIMITS, REPO_ROOT, startShop, type DbKind, withDb } from './lib/server.ts';
import { formatMb, formatTable } from './lib/table.ts';

// A mixed shopper workload: virtual shoppers, each on its own journey through
// the shop as a browser would make it — browse a listing page, search, open a product
// page, add to the cart (the server's quote), sometimes sign in, sometimes check out
// (cash on delivery) — with a think time between steps. Prints requests per second,
// p50/p99 per step, errors and the server's memory, for SQLite and PostgreSQL.
//
//   node --import tsx bench/shoppers.ts [--db sqlite|postgres|both] [--shoppers 200] [--duration 300]
//        [--warmup 15] [--think-min 300] [--think-max 1500] [--sign-in 0.3] [--checkout 0.2]
//   npm run shoppers -w bench -- --db both                     (the full run: 200 shoppers, 5 minutes)
//   npm run shoppers -w bench -- --db sqlite --shoppers 20 --duration 20 --warmup 5   (a quick look)
//
// Needs the web build (npm run build; WEB_BUILD_DIR picks another). Figures, not a pass or
// fail; the load generator shares the machine with the server, as in every bench here.

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'both' },
    shoppers: { type: 'string', default: '200' },
    duration: { type: 'string', default: '300' },
    warmup: { type: 'string', default: '15' },
    'think-min': { type: 'string', default: '300' },
    'think-max': { type: 'string', default: '1500' },
    'sign-in': { type: 'string', default: '0.3' },
    checkout: { type: 'string', default: '0.2' },
    accounts: { type: 'string', default: '100' },
  },
});
const shoppers = Number(values.shoppers);
const durationMs = Number(values.duration) * 1000;
const warmupMs = Number(values.warmup) * 1000;
const [thinkMin, thinkMax] = [Number(values['think-min']), Number(values['think-max'])];
const signInShare = Number(values['sign-in']);
const checkoutShare = Number(values.checkout);
const hasPg = Boolean(process.env.DATABASE_URL);
const dbs: DbKind[] = values.db === 'both' ? (hasPg ? ['sqlite', 'postgres'] : ['sqlite']) : [values.db as DbKind];
if (values.db === 'both' && !hasPg) console.log('DATABASE_URL is not set: running on SQLite only.\n');

const API_KEY = process.env.STOREFRONT_API_KEY ?? 'storefront-web';
const ADDRESS = { fullName: 'Load Shopper', phone: '01711111111', division: 'Dhaka', district: 'Dhaka', area: 'Gulshan 2', addressLine: 'House 5, Road 10' };
const TERMS = ['sofa', 'bed', 'dining', 'chair', 'wardrobe', 'table', 'kids', 'teak', 'oak', 'AFL-10'];
const STEPS = ['browse', 'search', 'product', 'add to cart', 'sign in', 'checkout'] as const;
type Step = (typeof STEPS)[number];

interface StepStats {
  latencies: number[];
  statuses: Map<string, number>;
  errors: number;
}

const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);

async function runOn(db: DbKind) {
  console.log(`[${db}] starting the server…`);
  const server = await startShop({
    db,
    env: {
      SIGNUP_LIMIT_PER_ADDRESS: '100000',
      SIGNIN_LIMIT_PER_ADDRESS: '100000',
      // 200 shoppers from one address, the guests sharing one contact.
      ...LIFTED_ORDER_LIMITS,
      WEB_BUILD_DIR: process.env.WEB_BUILD_DIR ? path.resolve(REPO_ROOT, process.env.WEB_BUILD_DIR) : undefined,
    },
  });
  try {
    const probe = await fetch(`${server.baseUrl}/shop`);
    await probe.arrayBuffer();
    if (!probe.ok || !(probe.headers.get('content-type') ?? '').includes('text/html'))
      throw new Error(`GET /shop answered ${probe.status} ${probe.headers.get('content-type')}: build the web app first (npm run build)`);

    const catalogue = await withDb(server, async (sql) => {
      await sql('update stocks set quantity = 1000000');
      const products = (
        await sql("select p.id, min(s.code) as code from products p join skus s on s.product_id = p.id where p.kind = 'single' group by p.id order by p.id")
      ).map((r) => ({ id: Number(r.id), code: String(r.code) }));
      const categories = (await sql('select id from categories')).map((r) => Number(r.id));
      return { products, categories };
    });
    const accounts: { email: string; password: string }[] = [];
    const accountCount = Math.max(1, Math.min(Number(values.accounts), shoppers));
    for (let i = 0; i < accountCount; i += 10) {
      await Promise.all(
        Array.from({ length: Math.min(10, accountCount - i) }, async (_, k) => {
          const n = i + k;
          const email = `load.${n}.${Date.now().toString(36)}@example.com`;
          const res = await fetch(`${server.baseUrl}/api/signup`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
            body: JSON.stringify({
              source: 'DEFAULT',
              type: 'DEFAULT',
              fullName: `Load Shopper ${n}`,
              email,
              mobile: `016${String(10_000_000 + n).padStart(8, '0')}`,
              password: 'load-password',
            }),
          });
          if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
          accounts.push({ email, password: 'load-password' });
        }),
      );
    }
    console.log(
      `[${db}] ${catalogue.products.length} products, ${accounts.length} accounts; ${shoppers} shoppers for ${warmupMs / 1000} s warm-up + ${durationMs / 1000} s…`,
    );

    const stats = new Map<Step, StepStats>(STEPS.map((s) => [s, { latencies: [], statuses: new Map(), errors: 0 }]));
    let measuring = false;
    let stop = false;

    async function step(name: Step, url: string, init: RequestInit = {}): Promise<{ status: number; body: string } | null> {
      const t0 = performance.now();
      try {
        const res = await fetch(`${server.baseUrl}${url}`, { ...init, signal: AbortSignal.timeout(30_000) });
        const body = await res.text();
        const ms = performance.now() - t0;
        if (measuring) {
          const s = stats.get(name)!;
          s.latencies.push(ms);
          s.statuses.set(String(res.status), (s.statuses.get(String(res.status)) ?? 0) + 1);
        }
        return { status: res.status, body };
      } catch {
        if (measuring) stats.get(name)!.errors++;
        return null;
      }
    }
    const api = (body: unknown, token?: string): RequestInit => ({
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': API_KEY, ...(token ? { 'x-auth-token': token } : {}) },
      body: JSON.stringify(body),
    });
    const think = () => sleep(thinkMin + Math.random() * (thinkMax - thinkMin));
    const page: RequestInit = { headers: { accept: 'text/html' } };

    async function shopper() {
      // Start spread over the first think time, like shoppers arriving.
      await sleep(Math.random() * thinkMax);
      let token: string | undefined;
      while (!stop) {
        await step('browse', Math.random() < 0.5 ? `/shop?page=${1 + Math.floor(Math.random() * 4)}` : `/shop?categoryId=${pick(catalogue.categories)}`, page);
        await think();
        await step('search', `/shop?q=${encodeURIComponent(pick(TERMS))}`, page);
        await think();
        const lines = [pick(catalogue.products), ...(Math.random() < 0.3 ? [pick(catalogue.products)] : [])].filter(
          (p, i, a) => a.findIndex((x) => x.id === p.id) === i,
        );
        await step('product', `/details?id=${lines[0].id}`, page);
        await think();
        await step('add to cart', '/api/carts/quote', api({ lines: lines.map((p) => ({ skuCode: p.code, quantity: 1 })) }));
        await think();
        if (!token && Math.random() < signInShare) {
          const a = pick(accounts);
          const res = await step('sign in', '/api/signin/customers', api({ source: 'DEFAULT', type: 'DEFAULT', userName: a.email, password: a.password }));
          if (res?.status === 200) token = (JSON.parse(res.body) as { authToken: string }).authToken;
          await think();
        }
        if (Math.random() < checkoutShare) {
          await step(
            'checkout',
            '/api/checkouts',
            api(
              {
                items: lines.map((p) => ({ skuCode: p.code, quantity: 1 })),
                paymentMethod: 'cod',
                deliveryMethod: 'home_delivery',
                address: ADDRESS,
                ...(token ? {} : { contact: { name: 'Load Guest', mobile: '01812345678', email: 'guest@example.com' } }),
              },
              token,
            ),
          );
          await think();
        }
      }
    }

    const rssIdle = server.rss();
    server.resetPeakRss();
    let rssPeak = rssIdle ?? 0;
    const sampler = setInterval(() => {
      const r = server.rss();
      if (r !== null && r > rssPeak) rssPeak = r;
    }, 500);
    const running = Array.from({ length: shoppers }, shopper);
    await sleep(warmupMs);
    measuring = true;
    const t0 = Date.now();
    const progress = setInterval(() => {
      const n = [...stats.values()].reduce((t, s) => t + s.latencies.length, 0);
      console.log(`[${db}] ${Math.round((Date.now() - t0) / 1000)} s: ${n} requests, RSS ${formatMb(server.rss())} MB`);
    }, 30_000);
    await sleep(durationMs);
    measuring = false;
    const elapsed = (Date.now() - t0) / 1000;
    stop = true;
    clearInterval(progress);
    await Promise.all(running);
    clearInterval(sampler);
    const rssAfter = server.rss();
    const peak = Math.max(rssPeak, server.peakRss() ?? 0);
    return { db, stats, elapsed, rssIdle, peak, rssAfter };
  } finally {
    await server.stop();
  }
}

const cpus = os.cpus();
console.log(
  [
    `storefront shoppers bench, ${new Date().toISOString()}, node ${process.version}, ${cpus.length} × ${cpus[0]?.model.trim() ?? 'cpu'}`,
    `  ${shoppers} virtual shoppers, think ${thinkMin}–${thinkMax} ms, sign in ${signInShare * 100}%, checkout ${checkoutShare * 100}% of journeys`,
    `  load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}${os.loadavg()[0] > cpus.length / 2 ? ' (the machine is busy: figures will be low and noisy)' : ''}`,
    '',
  ].join('\n'),
);

const results = [];
for (const db of dbs) results.push(await runOn(db));

const rows: string[][] = [];
const notes: string[] = [];
const num = (n: number) => (Number.isFinite(n) ? n.toLocaleString('en-GB', { maximumFractionDigits: n < 10 ? 1 : 0 }) : '-');
for (const r of results) {
  let total = 0;
  let totalErrors = 0;
  let totalNon2xx = 0;
  const all: number[] = [];
  for (const name of STEPS) {
    const s = r.stats.get(name)!;
    const sorted = [...s.latencies].sort((a, b) => a - b);
    const non2xx = [...s.statuses].filter(([c]) => !c.startsWith('2')).reduce((t, [, k]) => t + k, 0);
    total += sorted.length;
    totalErrors += s.errors;
    totalNon2xx += non2xx;
    all.push(...sorted);
    rows.push([name, r.db, num(sorted.length), num(sorted.length / r.elapsed), num(pct(sorted, 50)), num(pct(sorted, 99)), num(s.errors), num(non2xx)]);
    if (non2xx || s.errors)
      notes.push(`  ${name} (${r.db}): statuses ${[...s.statuses].map(([c, k]) => `${c}×${k}`).join(', ')}; ${s.errors} connection errors or timeouts`);
  }
  all.sort((a, b) => a - b);
  rows.push(['all steps', r.db, num(total), num(total / r.elapsed), num(pct(all, 50)), num(pct(all, 99)), num(totalErrors), num(totalNon2xx)]);
}
console.log('');
console.log(
  formatTable(['step', 'db', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non2xx'], rows, [
    'left',
    'left',
    'right',
    'right',
    'right',
    'right',
    'right',
    'right',
  ]),
);
console.log('\nserver resident memory (VmRSS):');
for (const r of results)
  console.log(`  ${r.db.padEnd(8)} before load ${formatMb(r.rssIdle)} MB, peak ${formatMb(r.peak)} MB, after ${formatMb(r.rssAfter)} MB`);
if (notes.length) console.log(`\nnotes:\n${notes.join('\n')}`);
console.log(`\nerrors: connection errors and timeouts (30 s); non2xx: answers that were not 2xx (the goal is none).`);
