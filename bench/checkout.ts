import { parseArgs } from 'node:util';
import { runLoad } from './lib/load.ts';
import { LIFTED_ORDER_LIMITS, startShop, type DbKind, withDb } from './lib/server.ts';
import { formatMb, printResults, type ResultRow } from './lib/table.ts';

// Checkouts per second: 50 concurrent buyers, each a signed-in customer,
// placing cash-on-delivery orders through POST /api/checkouts — the whole transaction:
// pricing, stock row locks and conditional updates, the sale, its lines, reservations,
// history and the confirmation mail in the outbox. Two shapes of load:
//   checkout-spread  every order buys one unit of one of 200 skus (little contention)
//   checkout-hot     every order buys the same sku (all buyers queue on its stock rows)
// Stock is topped up first so that every order can succeed: a 409 would measure the
// refusal, not the checkout.
//
//   node --import tsx bench/checkout.ts [--db sqlite|postgres|both] [--duration 15] [--connections 50]
// PostgreSQL needs DATABASE_URL. Like run.ts it prints figures, never a pass or fail.

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'both' },
    duration: { type: 'string', default: '15' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
    buyers: { type: 'string', default: '50' },
  },
});
const durationS = Number(values.duration);
const warmupS = Number(values.warmup);
const connections = Number(values.connections);
const buyerCount = Number(values.buyers);
const hasPg = Boolean(process.env.DATABASE_URL);
const dbs: DbKind[] = values.db === 'both' ? (hasPg ? ['sqlite', 'postgres'] : ['sqlite']) : [values.db as DbKind];
if (values.db === 'both' && !hasPg) console.log('DATABASE_URL is not set: running on SQLite only.\n');

const API_KEY = process.env.STOREFRONT_API_KEY ?? 'storefront-web';
const ADDRESS = { fullName: 'Bench Buyer', phone: '01711111111', division: 'Dhaka', district: 'Dhaka', area: 'Gulshan 2', addressLine: 'House 5, Road 10' };

async function signUp(baseUrl: string, i: number): Promise<string> {
  const res = await fetch(`${baseUrl}/api/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
    body: JSON.stringify({
      source: 'DEFAULT',
      type: 'DEFAULT',
      fullName: `Bench Buyer ${i}`,
      email: `bench.${i}.${Date.now()}@example.com`,
      mobile: `019${String(10_000_000 + i).padStart(8, '0')}`,
      password: 'bench-password',
    }),
  });
  if (res.status !== 201) throw new Error(`sign-up ${i} failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { authToken: string }).authToken;
}

const rows: ResultRow[] = [];
const notes: string[] = [];

for (const db of dbs) {
  console.log(`[${db}] starting the server…`);
  // Many buyers sign up from one address here, and each checks out many times a second:
  // lift the sign-up and order limits for the bench only. Each buyer checks out from an
  // address of its own (X-Forwarded-For), as shoppers do: one client's checkouts are
  // counted one after the other (docs/decisions/0022), which is not what this measures.
  const server = await startShop({ db, env: { SIGNUP_LIMIT_PER_ADDRESS: '100000', TRUST_PROXY: '1', ...LIFTED_ORDER_LIMITS } });
  try {
    const skus = await withDb(server, async (sql) => {
      await sql('update stocks set quantity = 1000000');
      return (
        await sql(
          "select distinct s.code from skus s join stocks st on st.sku_id = s.id join products p on p.id = s.product_id where p.kind = 'single' order by s.code limit 200",
        )
      ).map((r) => r.code as string);
    });
    const tokens: string[] = [];
    for (let i = 0; i < buyerCount; i += 10)
      tokens.push(...(await Promise.all(Array.from({ length: Math.min(10, buyerCount - i) }, (_, k) => signUp(server.baseUrl, i + k)))));
    console.log(`[${db}] ${tokens.length} buyers signed up, ${skus.length} skus stocked, ${server.where}`);

    for (const shape of ['checkout-spread', 'checkout-hot'] as const) {
      let n = 0;
      const before = await withDb(server, async (sql) => Number((await sql('select count(*) as n from sales'))[0].n));
      const row: ResultRow = { name: shape, db, rssIdle: server.rss(), rssLoad: null };
      rows.push(row);
      let peak = row.rssIdle;
      const result = await runLoad({
        baseUrl: server.baseUrl,
        path: '/api/checkouts',
        method: 'POST',
        connections,
        durationS,
        warmupS,
        onSample: () => {
          const r = server.rss();
          if (r !== null && (peak === null || r > peak)) peak = r;
        },
        requests: [
          {
            method: 'POST',
            path: '/api/checkouts',
            setupRequest: (req) => {
              const i = n++;
              const code = shape === 'checkout-hot' ? skus[0] : skus[i % skus.length];
              return {
                ...req,
                headers: {
                  ...req.headers,
                  'content-type': 'application/json',
                  'x-auth-token': tokens[i % tokens.length],
                  'x-forwarded-for': `10.77.${Math.floor((i % tokens.length) / 250)}.${(i % tokens.length) % 250}`,
                },
                body: JSON.stringify({ items: [{ skuCode: code, quantity: 1 }], paymentMethod: 'cod', deliveryMethod: 'home_delivery', address: ADDRESS }),
              };
            },
          },
        ],
      });
      row.result = result;
      row.rssLoad = peak;
      const placed = (await withDb(server, async (sql) => Number((await sql('select count(*) as n from sales'))[0].n))) - before;
      const negative = await withDb(server, async (sql) => Number((await sql('select count(*) as n from stocks where quantity < 0'))[0].n));
      const codes = Object.entries(result.statusCodes)
        .map(([c, k]) => `${c}×${k}`)
        .join(', ');
      if (result.non2xx || result.errors) row.note = `statuses ${codes}; ${result.errors} connection errors`;
      notes.push(`  ${shape} (${db}): ${placed} orders written (warm-up included), statuses ${codes}; stock rows below zero: ${negative}`);
      console.log(`[${db}] ${shape}: ${Math.round(result.requestsPerSec)} checkouts/s, p50 ${result.latencyP50Ms} ms, p99 ${result.latencyP99Ms} ms`);
    }
  } finally {
    await server.stop();
  }
}

console.log('');
printResults(rows);
console.log(`\nchecks:\n${notes.join('\n')}`);
console.log(
  `\n${connections} concurrent connections, ${buyerCount} signed-in buyers, ${warmupS} s warm-up + ${durationS} s per shape. Memory: RSS idle/peak of the serving process in MB (${formatMb(null)} = unknown).`,
);
