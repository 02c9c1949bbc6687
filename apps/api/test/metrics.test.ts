import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS } from '../src/modules/mail/mailer.ts';
import { checkout, checkoutBody, plainSkus, setStock } from './helpers/checkout.ts';
import { startTestApp, type TestApp, testDbKind } from './helpers/test-app.ts';

// Prometheus metrics (docs/decisions/0027), on both databases: behind a bearer token on
// the shop's port, or on a port of their own; off when neither is set.

const TOKEN = 'metrics-test-token-0123456789';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ config: { metrics: { port: null, host: '127.0.0.1', token: TOKEN } } });
});
afterAll(() => t?.close());

async function scrape(app: TestApp = t): Promise<string> {
  const res = await fetch(`${app.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

/** The value of one sample, e.g. sample(text, 'x_count', { route: '/api/health' }); 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[3]);
  }
  return 0;
}

describe('GET /metrics behind METRICS_TOKEN', () => {
  it('answers 401 without the token or with a wrong one, in the one error shape', async () => {
    const tries: Record<string, string>[] = [{}, { authorization: 'Bearer wrong-token' }, { authorization: TOKEN }, { authorization: `Basic ${TOKEN}` }];
    for (const headers of tries) {
      const res = await fetch(`${t.baseUrl}/metrics`, { headers });
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    }
  });

  it('shows request latency by route, event-loop lag, memory, the database, the outbox and orders', async () => {
    await t.api('/api/health');
    const text = await scrape();
    for (const name of [
      'http_request_duration_seconds_bucket',
      'http_request_duration_seconds_count',
      'nodejs_eventloop_lag_seconds',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_heap_size_used_bytes',
      'process_resident_memory_bytes',
      'storefront_mail_outbox_messages',
      'storefront_orders_placed_total',
      'storefront_database_up',
      testDbKind() === 'postgres' ? 'storefront_db_pool_connections' : 'storefront_sqlite_file_bytes',
    ]) {
      expect(text, name).toContain(`\n${name}`);
    }
    expect(sample(text, 'storefront_database_up')).toBe(1);
    if (testDbKind() === 'postgres') expect(sample(text, 'storefront_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
    else expect(sample(text, 'storefront_sqlite_file_bytes', { file: 'db' })).toBeGreaterThan(0);
  });

  it("counts a request under its route's pattern, never the raw URL", async () => {
    const labels = { method: 'GET', route: '/media/flags/:code', status_code: '200' };
    const before = sample(await scrape(), 'http_request_duration_seconds_count', labels);
    for (const code of ['bdt.svg', 'inr.svg', 'gbp.svg']) expect((await fetch(`${t.baseUrl}/media/flags/${code}`)).status).toBe(200);
    const after = await scrape();
    expect(sample(after, 'http_request_duration_seconds_count', labels)).toBe(before + 3);
    expect(sample(after, 'http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(before + 3);
    expect(after).not.toContain('gbp.svg');
  });

  it('puts every path no route knows under one label', async () => {
    const before = sample(await scrape(), 'http_request_duration_seconds_count', { route: '(unmatched)', status_code: '404' });
    for (let i = 0; i < 3; i++) expect((await fetch(`${t.baseUrl}/no-such-page-${i}-xyzzy`)).status).toBe(404);
    const after = await scrape();
    expect(sample(after, 'http_request_duration_seconds_count', { route: '(unmatched)', status_code: '404' })).toBe(before + 3);
    expect(after).not.toContain('xyzzy');
  });

  it('counts an order placed, and its confirmation waiting in the outbox; a replay is not a second order', async () => {
    const before = await scrape();
    const [sku] = await plainSkus(t.db.kysely, 1, 3);
    await setStock(t.db.kysely, sku.id, [5]);
    const body = checkoutBody([{ skuCode: sku.code, quantity: 1 }]);
    const key = `metrics-test-${Date.now()}-key`;
    expect((await checkout(t, body, { 'idempotency-key': key })).status).toBe(201);
    expect((await checkout(t, body, { 'idempotency-key': key })).status).toBe(200);
    const after = await scrape();
    expect(sample(after, 'storefront_orders_placed_total', { payment_method: 'cod' })).toBe(
      sample(before, 'storefront_orders_placed_total', { payment_method: 'cod' }) + 1,
    );
    expect(sample(after, 'storefront_mail_outbox_messages', { state: 'waiting' })).toBeGreaterThan(
      sample(before, 'storefront_mail_outbox_messages', { state: 'waiting' }),
    );
  });

  it('counts mail given up on as failed', async () => {
    const before = sample(await scrape(), 'storefront_mail_outbox_messages', { state: 'failed' });
    await t.db.kysely
      .insertInto('mail_outbox')
      .values({
        to_address: 'x@example.com',
        reply_to: null,
        subject: 's',
        text_body: 't',
        html_body: null,
        status: 'pending',
        attempts: MAX_ATTEMPTS,
        last_error: 'refused',
        created_at: new Date().toISOString(),
        claimed_at: null,
        sent_at: null,
      })
      .execute();
    expect(sample(await scrape(), 'storefront_mail_outbox_messages', { state: 'failed' })).toBe(before + 1);
  });
});

describe('metrics off, or on a port of their own', () => {
  it('has no /metrics when neither METRICS_PORT nor METRICS_TOKEN is set', async () => {
    const off = await startTestApp({ seed: false });
    try {
      expect(off.app.metrics).toBeUndefined();
      expect((await fetch(`${off.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    } finally {
      await off.close();
    }
  });

  it('serves METRICS_PORT on 127.0.0.1 without a token, and nothing on the public port', async () => {
    const own = await startTestApp({ seed: false, config: { metrics: { port: 0, host: '127.0.0.1', token: null } } });
    try {
      const address = own.app.metrics!.address()!;
      expect(address.address).toBe('127.0.0.1');
      const metricsUrl = `http://127.0.0.1:${address.port}`;
      await own.api('/api/health');
      const res = await fetch(`${metricsUrl}/metrics`);
      expect(res.status).toBe(200);
      expect(sample(await res.text(), 'http_request_duration_seconds_count', { route: '/api/health', status_code: '200' })).toBeGreaterThanOrEqual(1);
      expect((await fetch(`${metricsUrl}/other`)).status).toBe(404);
      expect((await fetch(`${own.baseUrl}/metrics`)).status).toBe(404);
    } finally {
      await own.close();
    }
    expect(own.app.metrics!.address()).toBeNull();
  });
});
