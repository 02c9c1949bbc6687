import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../bench/lib/server.ts';
import { loadConfig } from '../src/config.ts';
import { expectApiError } from './helpers/assertions.ts';
import { signUp, type TestCustomer, uniqueIp } from './helpers/accounts.ts';
import { checkout, checkoutBody, countRows, plainSkus, saleRow, setStock, stockOf } from './helpers/checkout.ts';
import { startSmtpSink, type SmtpSink } from './helpers/smtp-sink.ts';
import { type SslcommerzStandIn, startSslcommerzStandIn } from './helpers/sslcommerz-stand-in.ts';
import { startTcpProxy, type TcpProxy, viaProxy } from './helpers/tcp-proxy.ts';
import { startTestApp, type TestApp, testDbKind } from './helpers/test-app.ts';

// The parts the shop depends on, failing: the mail server, the payment
// gateway, the database. Each time the shopper gets a clear answer, nothing acknowledged
// is lost, nothing is left half-written, and the shop recovers by itself once the part is
// back — without a restart.

const FROM = 'Nibash Furniture <no-reply@nibash.test>';

describe('the mail server is down', () => {
  let t: TestApp;
  let port: number;
  let smtp: SmtpSink | undefined;
  beforeAll(async () => {
    // A port nothing listens on (yet): every delivery attempt is refused.
    port = await freePort();
    t = await startTestApp({ config: { trustProxy: true, mail: { ...loadConfig({}).mail, smtpUrl: `smtp://127.0.0.1:${port}`, from: FROM } } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('contact messages, reset links and order confirmations are accepted, kept in the outbox, and delivered once the server is back', async () => {
    const customer = await signUp(t);
    const contact = await t.api('/api/contact', {
      method: 'POST',
      json: {
        client_name: 'Farhana Akter',
        client_email: 'farhana@example.com',
        client_subject: 'Delivery to Sylhet',
        client_message: 'Do you deliver to Sylhet?',
      },
      headers: { 'x-forwarded-for': uniqueIp() },
    });
    expect(contact.status, contact.text).toBe(201);
    const reset = await t.api('/api/forgot', { method: 'POST', json: { email: customer.email }, headers: { 'x-forwarded-for': uniqueIp() } });
    expect(reset.status, reset.text).toBe(200);
    const [sku] = await plainSkus(t.db.kysely, 1, 11);
    await setStock(t.db.kysely, sku.id, [5]);
    const order = await checkout(t, checkoutBody([{ skuCode: sku.code, quantity: 1 }], { contact: undefined }), customer.auth);
    expect(order.status, order.text).toBe(201);

    const pending = await t.db.kysely.selectFrom('mail_outbox').select(['id', 'to_address', 'status', 'last_error', 'attempts']).orderBy('id').execute();
    expect(pending.length).toBeGreaterThanOrEqual(3);
    for (const m of pending) {
      expect(m.status).toBe('pending');
      expect(m.last_error).toBeTruthy();
    }
    expect(pending.map((m) => m.to_address)).toContain(customer.email);

    // The mail server comes up on the configured address; the next flush (a timer in
    // production, called here) delivers everything that waited.
    smtp = await startSmtpSink(port);
    const sent = await t.app.mailer.flush();
    expect(sent).toBe(pending.length);
    await smtp.waitFor(pending.length);
    expect(smtp.mails.flatMap((m) => m.to)).toEqual(expect.arrayContaining(pending.map((m) => m.to_address)));
    const after = await t.db.kysely.selectFrom('mail_outbox').select(['status']).execute();
    expect(after.every((m) => m.status === 'sent')).toBe(true);
    // Nothing twice.
    expect(await t.app.mailer.flush()).toBe(0);
    expect(smtp.mails.length).toBe(pending.length);
  });
});

describe('the payment gateway is down or slow', () => {
  let t: TestApp;
  let gw: SslcommerzStandIn;
  let proxy: TcpProxy;
  let customer: TestCustomer;
  let offset = 30;
  beforeAll(async () => {
    gw = await startSslcommerzStandIn();
    // The shop reaches the gateway through a proxy this test can cut (down) or make
    // swallow requests (slow).
    proxy = await startTcpProxy('127.0.0.1', Number(new URL(gw.url).port));
    // The shop accepts a payment page only on the gateway's own origin: here, the proxy's.
    gw.gatewayPageOverride = `http://${proxy.address}/gwprocess/v4/pay`;
    const base = loadConfig({});
    t = await startTestApp({
      config: {
        trustProxy: true,
        payments: {
          ...base.payments,
          provider: 'sslcommerz',
          sslcommerz: { storeId: gw.storeId, storePassword: gw.storePassword, baseUrl: `http://${proxy.address}`, timeoutMs: 1_000 },
        },
      },
    });
    customer = await signUp(t);
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await gw?.close();
  });

  async function cardOrderWhile(outage: 'down' | 'slow') {
    const [sku] = await plainSkus(t.db.kysely, 1, offset++);
    await setStock(t.db.kysely, sku.id, [3]);
    const usagesBefore = await countRows(t.db.kysely, 'coupon_usages');
    if (outage === 'down') proxy.cut();
    else proxy.blackhole();
    const res = await t.api('/api/checkouts', {
      method: 'POST',
      json: checkoutBody([{ skuCode: sku.code, quantity: 2 }], { paymentMethod: 'card', couponCode: 'NIBASH500', contact: undefined }),
      headers: customer.auth,
      // The shopper's browser would give up around here: the answer must come before.
      signal: AbortSignal.timeout(30_000),
    });
    return { sku, res, usagesBefore };
  }

  for (const outage of ['down', 'slow'] as const) {
    it(`when the gateway is ${outage}, checkout says the payment failed, keeps the order (nothing half-written) and releases its stock`, async () => {
      const { sku, res, usagesBefore } = await cardOrderWhile(outage);
      expect(res.status, res.text).toBe(201);
      expect(res.body.paymentUrl).toBeNull();
      expect(res.body.redirectTo).toBe(`/payments/response/failed?invoiceId=${res.body.invoiceId}`);
      expect(res.body.sale).toMatchObject({ status: 'payment_failed', paymentStatus: 'failed', canRetryPayment: true });
      const sale = await saleRow(t.db.kysely, res.body.invoiceId);
      expect(Number(sale.stock_held)).toBe(0);
      expect(await stockOf(t.db.kysely, sku.id)).toBe(3);
      const payments = await t.db.kysely.selectFrom('payments').select(['status']).where('sale_id', '=', sale.id).execute();
      expect(payments.map((p) => p.status)).toEqual(['failed']);
      // The order is whole: its lines, its coupon (kept for paying again; released when the
      // order is cancelled for good) and its history of what happened.
      expect(sale.coupon_code).toBe('NIBASH500');
      expect(await countRows(t.db.kysely, 'coupon_usages')).toBe(usagesBefore + 1);
      expect(res.body.sale.lines).toHaveLength(1);

      // Paying again while the gateway is still out: a clear 503, and the stock stays free.
      const again = await t.api(`/api/checkouts/payments?invoiceId=${res.body.invoiceId}`, {
        method: 'POST',
        headers: customer.auth,
        signal: AbortSignal.timeout(30_000),
      });
      expectApiError(again, 503, 'payment_provider_unavailable');
      expect(await stockOf(t.db.kysely, sku.id)).toBe(3);

      // The gateway is back: paying again works, with no restart, and takes the stock again.
      proxy.restore();
      const back = await t.api(`/api/checkouts/payments?invoiceId=${res.body.invoiceId}`, { method: 'POST', headers: customer.auth });
      expect(back.status, back.text).toBe(201);
      expect(back.body.paymentUrl).toMatch(/^http/);
      expect(await stockOf(t.db.kysely, sku.id)).toBe(1);
    });
  }
});

describe('the database is briefly unreachable', () => {
  if (testDbKind() === 'postgres') {
    let t: TestApp;
    let proxy: TcpProxy;
    let direct: pg.Client;
    beforeAll(async () => {
      const url = process.env.DATABASE_URL!;
      const target = new URL(url);
      proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
      t = await startTestApp({ config: { trustProxy: true }, connectVia: viaProxy(url, proxy) });
      const schema = (t.app.config.db as { schema?: string }).schema!;
      direct = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
      await direct.connect();
    });
    afterAll(async () => {
      await direct?.end();
      await t?.close();
      await proxy?.close();
    });
    const salesCount = async () => Number((await direct.query('select count(*) as n from sales')).rows[0].n);

    it('PostgreSQL restarting (connections reset and refused): a clear 503, nothing written, and the shop recovers by itself', async () => {
      const customer = await signUp(t);
      const [sku] = await plainSkus(t.db.kysely, 1, 41);
      await setStock(t.db.kysely, sku.id, [5]);
      expect((await checkout(t, checkoutBody([{ skuCode: sku.code, quantity: 1 }], { contact: undefined }), customer.auth)).status).toBe(201);
      const before = await salesCount();

      proxy.cut();
      expect((await t.api('/api/health')).status).toBe(503);
      const browse = await t.api('/api/v3/items/joined?id=1');
      expectApiError(browse, 503, 'service_unavailable');
      expect(browse.headers.get('retry-after')).toBeTruthy();
      const buy = await checkout(t, checkoutBody([{ skuCode: sku.code, quantity: 1 }], { contact: undefined }), customer.auth);
      expectApiError(buy, 503, 'service_unavailable');
      expect(await salesCount()).toBe(before);

      proxy.restore();
      await expect.poll(async () => (await t.api('/api/health')).status, { timeout: 20_000, interval: 250 }).toBe(200);
      const later = await checkout(t, checkoutBody([{ skuCode: sku.code, quantity: 1 }], { contact: undefined }), customer.auth);
      expect(later.status, later.text).toBe(201);
      expect(await salesCount()).toBe(before + 1);
      expect(Number((await direct.query('select sum(quantity) as q from stocks where sku_id = $1', [sku.id])).rows[0].q)).toBe(3);
    });

    it('a connection dropped in the middle of a transaction fails that transaction, and does not bring the process down', async () => {
      const uncaught: unknown[] = [];
      const onUncaught = (err: unknown) => void uncaught.push(err);
      process.on('uncaughtException', onUncaught);
      try {
        const work = t.db.kysely.transaction().execute(async (trx) => {
          await sql`select 1`.execute(trx);
          // Checked out, between two statements: the connection is reset under it.
          proxy.cut();
          await new Promise((r) => setTimeout(r, 300));
          await sql`select 2`.execute(trx);
        });
        await expect(work).rejects.toThrow();
        await new Promise((r) => setTimeout(r, 100));
      } finally {
        proxy.restore();
        process.off('uncaughtException', onUncaught);
      }
      expect(uncaught).toEqual([]);
      await expect.poll(async () => (await t.api('/api/health')).status, { timeout: 20_000, interval: 250 }).toBe(200);
    });

    it('PostgreSQL out of reach (connections accepted, never answered): a 503 within the connect timeout, not a hang', async () => {
      await t.api('/api/health');
      // Open connections drop; new ones are accepted and never answered.
      proxy.cut();
      proxy.blackhole();
      try {
        const res = await t.api('/api/v3/items/joined?id=2', { signal: AbortSignal.timeout(20_000) });
        expectApiError(res, 503, 'service_unavailable');
      } finally {
        proxy.restore();
      }
      await expect.poll(async () => (await t.api('/api/v3/items/joined?id=2')).status, { timeout: 20_000, interval: 250 }).toBe(200);
    });
  } else {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ config: { trustProxy: true } });
    });
    afterAll(() => t?.close());

    it('SQLite locked by another process beyond the busy timeout: checkout answers a clear 503, writes nothing, and works once the lock is gone', async () => {
      const customer = await signUp(t);
      const [sku] = await plainSkus(t.db.kysely, 1, 41);
      await setStock(t.db.kysely, sku.id, [5]);
      const before = await countRows(t.db.kysely, 'sales');
      const other = new SqliteDatabase((t.app.config.db as { file: string }).file);
      other.pragma('busy_timeout = 1000');
      other.exec('BEGIN EXCLUSIVE');
      try {
        const buy = await checkout(t, checkoutBody([{ skuCode: sku.code, quantity: 1 }], { contact: undefined }), customer.auth);
        expectApiError(buy, 503, 'service_unavailable');
        // Reading goes on meanwhile (WAL): shoppers can still browse.
        expect((await t.api('/api/v3/items/joined?id=1')).status).toBe(200);
      } finally {
        other.exec('COMMIT');
        other.close();
      }
      expect(await countRows(t.db.kysely, 'sales')).toBe(before);
      expect(await stockOf(t.db.kysely, sku.id)).toBe(5);
      const later = await checkout(t, checkoutBody([{ skuCode: sku.code, quantity: 1 }], { contact: undefined }), customer.auth);
      expect(later.status, later.text).toBe(201);
      expect(await stockOf(t.db.kysely, sku.id)).toBe(4);
    }, 30_000);
  }
});
