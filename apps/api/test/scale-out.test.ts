import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/modules/accounts/passwords.ts';
import {
  type Cluster,
  call,
  figures,
  proveCouponOnce,
  proveNoOversell,
  proveSessions,
  proveSharedUploads,
  proveSignInLimit,
  runShoppersLoad,
  startCluster,
} from '../../../bench/lib/scale-out.ts';
import { testDbKind } from './helpers/test-app.ts';

// Scale-out, proven (bench/lib/scale-out.ts): three real server processes of the shop on
// one PostgreSQL schema and one DATA_DIR, behind Debian's nginx (installed with apt-get
// when missing, run as a child with its own configuration, deploy/nginx/
// scale-out-test.conf.template). A short run inside `npm test`; the full one, with figures,
// is `npm run scale-out -w bench`. PostgreSQL only: vitest.config.ts leaves this file out
// of the api-sqlite project, and on SQLite it fails instead of skipping.

const SHOPPERS = Number(process.env.SCALE_OUT_SHOPPERS ?? 8);
const LOAD_MS = Number(process.env.SCALE_OUT_LOAD_MS ?? 4_000);

let c: Cluster;
beforeAll(async () => {
  if (testDbKind() !== 'postgres') throw new Error('the scale-out proof needs PostgreSQL (the api-postgres project, DATABASE_URL set)');
  c = await startCluster({ log: (line) => console.log(`[scale-out] ${line}`) });
}, 240_000);
afterAll(async () => {
  await c?.stop();
}, 60_000);

describe('three shop processes on one PostgreSQL database behind nginx', () => {
  it('a session signed in through nginx on one process is honoured by the others, directly and through nginx, by token and by cookie, and a sign-out on another ends it everywhere', {
    timeout: 30_000,
  }, async () => {
    const r = await proveSessions(c);
    expect(r.problems).toEqual([]);
    expect(r.signedInOn).toBeGreaterThanOrEqual(0);
    expect(r.directStatuses).toEqual([200, 200, 200]);
    expect(r.cookieStatuses).toEqual([200, 200, 200]);
    expect(new Set(r.servedThroughNginx)).toEqual(new Set([0, 1, 2]));
    expect(r.afterSignOut).toEqual([401, 401, 401]);
  });

  it('a once-per-customer coupon (WELCOME10) in concurrent checkouts sent to all three processes at once is used by exactly one order', {
    timeout: 60_000,
  }, async () => {
    const r = await proveCouponOnce(c, { customers: 3, perProcess: 3 });
    expect(r.problems).toEqual([]);
    expect(r.ordersWithCoupon).toEqual([1, 1, 1]);
    expect(r.statuses).toEqual({ 201: 3, 409: 24 });
  });

  it('concurrent checkouts of a sku with little stock through all three processes never sell more than the stock, nor take it below zero', {
    timeout: 60_000,
  }, async () => {
    const r = await proveNoOversell(c, { rounds: 2, stock: [3, 2], perProcess: 4 });
    expect(r.problems).toEqual([]);
    for (const round of r.rounds) {
      expect(round.sold).toBe(round.stock);
      expect(round.stockAfter).toBe(0);
    }
    expect(r.statuses).toEqual({ 201: 10, 409: 14 });
  });

  it('a file uploaded through one process is served by the other two (one DATA_DIR)', { timeout: 30_000 }, async () => {
    const r = await proveSharedUploads(c);
    expect(r.problems).toEqual([]);
    expect(r.uploads.map((u) => u.fetched)).toEqual([
      [200, 200, 200],
      [200, 200, 200],
    ]);
  });

  it('failed sign-ins spread over the three processes hit the per-account limit at the configured count', { timeout: 30_000 }, async () => {
    const r = await proveSignInLimit(c);
    expect(r.problems).toEqual([]);
    expect(r.limit).toBe(4);
    expect(r.sequential.map((s) => s.status)).toEqual([401, 401, 401, 401, 429, 429, 429]);
    expect(new Set(r.sequential.slice(0, r.limit).map((s) => s.process))).toEqual(new Set([0, 1, 2]));
    expect(r.concurrent).toEqual({ 401: 4, 429: 3 });
  });

  it('a price changed in the back office through one process is what the other two serve within a second, their read caches on', {
    timeout: 30_000,
  }, async () => {
    // A manager, as the command line or an owner would make one.
    const email = `scale-out-manager-${Date.now()}@shop.test`;
    const password = 'scale out manager password';
    const now = new Date().toISOString();
    await c.sql(
      `insert into staff (email, email_key, full_name, role, password_hash, created_at, updated_at, password_changed_at) values ($1, $1, 'Scale Out', 'manager', $2, $3, $3, $3)`,
      [email, await hashPassword(password), now],
    );
    const signIn = await call(c, 0, '/api/admin/session', { json: { email, password } });
    expect(signIn.status, signIn.text).toBe(200);
    const cookie = /admin_sid=([^;]+)/.exec(signIn.headers.get('set-cookie') ?? '')?.[1];
    const as = { cookie: `admin_sid=${cookie}` };
    const list = await call(c, 0, '/api/admin/products?q=sofa&size=1&status=published', { headers: as });
    const product = (await call(c, 0, `/api/admin/products/${list.body.items[0].id}`, { headers: as })).body;
    const search = { page: 1, size: 24, textParams: [{ field: 'query', value: product.title }] };
    const cardOn = async (i: number) =>
      (await call(c, i, '/api/search/indices/items', { json: search })).body.list.find((x: { id: number }) => x.id === product.id);
    // Every process has the old answer in its read cache.
    for (const i of [0, 1, 2]) {
      const card = await cardOn(i);
      expect(card.sku.salesPrice).toBe(product.skus.find((s: { code: string }) => s.code === card.sku.code).salesPrice);
    }

    const newPrice = 1_111_100;
    const { id: _id, hasOrders: _o, createdAt: _c, updatedAt: _u, ...body } = product;
    body.skus = product.skus.map(({ stock: _s, ...sku }: Record<string, unknown>) => ({ ...sku, salesPrice: newPrice, discountedSalesPrice: null }));
    const saved = await call(c, 0, `/api/admin/products/${product.id}`, { method: 'PUT', json: body, headers: as });
    expect(saved.status, saved.text).toBe(200);
    const savedAt = performance.now();
    const seenAfter: Record<number, number> = {};
    while (Object.keys(seenAfter).length < 2 && performance.now() - savedAt < 5_000) {
      for (const i of [1, 2]) if (seenAfter[i] === undefined && (await cardOn(i)).sku.salesPrice === newPrice) seenAfter[i] = performance.now() - savedAt;
      await new Promise((r) => setTimeout(r, 25));
    }
    console.log(`[scale-out] the new price was served by process 1 after ${seenAfter[1]?.toFixed(0)} ms, by process 2 after ${seenAfter[2]?.toFixed(0)} ms`);
    expect(seenAfter[1]).toBeLessThan(1_000);
    expect(seenAfter[2]).toBeLessThan(1_000);
  });

  // Last: it leaves two processes.
  it('SIGKILL of one process while shoppers check out through nginx costs no acknowledged order, and nginx sends what follows to the survivors', {
    timeout: 120_000,
  }, async () => {
    const r = await runShoppersLoad(c, {
      durationMs: LOAD_MS,
      shoppers: SHOPPERS,
      thinkMs: [20, 150],
      checkoutShare: 0.7,
      kill: { process: 1, afterMs: Math.round(LOAD_MS / 2) },
      log: (line) => console.log(`[scale-out] ${line}`),
    });
    const all = figures(r.requests, r.elapsedMs);
    console.log(
      `[scale-out] ${all.requests} requests (${all.perSecond.toFixed(0)}/s, p50 ${all.p50.toFixed(0)} ms, p99 ${all.p99.toFixed(0)} ms) through nginx; ` +
        `${r.checkouts.length} checkouts, ${r.acknowledged} acknowledged, ${r.lost} lost; cut off by the kill: ${r.cutOff.map((x) => `${x.id} (${x.status || 'no answer'}, ${x.retryStatus ? `retry ${x.retryStatus}` : 'no retry'})`).join(', ') || 'none'}, ${r.cutOffCommitted} of them had committed`,
    );
    expect(r.problems).toEqual([]);
    expect(r.killedAt).not.toBeNull();
    expect(r.lost).toBe(0);
    expect(r.acknowledged).toBeGreaterThan(0);
    expect(c.shops[1].exited()).toBe('SIGKILL');
    // After the kill, only the survivors answer.
    const after = r.requests.filter((x) => x.at > r.killedAt!);
    expect(after.length).toBeGreaterThan(0);
    expect(after.filter((x) => x.servedBy === 1)).toEqual([]);
    expect(after.filter((x) => x.status === 0 || x.status >= 500)).toEqual([]);
  });
});
