import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from './helpers/accounts.ts';
import { expectApiError } from './helpers/assertions.ts';
import {
  ADDRESS,
  checkout,
  checkoutBody,
  countRows,
  onApp,
  paySandbox,
  plainSkus,
  setStock,
  startPaymentsApp,
  stockOf,
  type TestSku,
} from './helpers/checkout.ts';
import type { TestApp } from './helpers/test-app.ts';

// POST /api/checkouts with an Idempotency-Key: a checkout sent again (a retry after a lost
// answer, a double click, a second tab) answers the order the first one placed and never
// places a second one; stock is taken once.

let t: TestApp;
let skus: TestSku[];
let next = 0;

beforeAll(async () => {
  t = await startPaymentsApp();
  skus = await plainSkus(t.db.kysely, 20, 200);
});
afterAll(() => t?.close());

async function freshSku(stock = 5): Promise<TestSku> {
  const sku = skus[next++];
  await setStock(t.db.kysely, sku.id, [stock]);
  return sku;
}

const withKey = (key: string, more: Record<string, string> = {}) => ({ 'idempotency-key': key, ...more });

describe('Idempotency-Key on POST /api/checkouts', () => {
  it('the same checkout sent again answers the first order (200, Idempotent-Replayed) and takes stock once', async () => {
    const sku = await freshSku(5);
    const body = checkoutBody([{ skuCode: sku.code, quantity: 2 }]);
    const key = randomUUID();
    const salesBefore = await countRows(t.db.kysely, 'sales');

    const first = await checkout(t, body, withKey(key));
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await checkout(t, body, withKey(key));
    expect(again.status, again.text).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.invoiceId).toBe(first.body.invoiceId);
    expect(again.body.saleId).toBe(first.body.saleId);
    expect(again.body.redirectTo).toBe(first.body.redirectTo);
    expect(again.body.sale.total).toBe(first.body.sale.total);

    expect(await countRows(t.db.kysely, 'sales')).toBe(salesBefore + 1);
    expect(await stockOf(t.db.kysely, sku.id)).toBe(3);
  });

  it('ten copies sent at once place one order; every answer names it', async () => {
    const sku = await freshSku(20);
    const body = checkoutBody([{ skuCode: sku.code, quantity: 1 }]);
    const key = randomUUID();
    const salesBefore = await countRows(t.db.kysely, 'sales');
    const answers = await Promise.all(Array.from({ length: 10 }, () => checkout(t, body, withKey(key))));
    for (const a of answers) expect([200, 201], a.text).toContain(a.status);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.body.invoiceId)).size).toBe(1);
    expect(await countRows(t.db.kysely, 'sales')).toBe(salesBefore + 1);
    expect(await stockOf(t.db.kysely, sku.id)).toBe(19);
  });

  it('without a key, two identical checkouts are two orders (a shopper may buy twice)', async () => {
    const sku = await freshSku(5);
    const body = checkoutBody([{ skuCode: sku.code, quantity: 1 }]);
    const a = await checkout(t, body);
    const b = await checkout(t, body);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.invoiceId).not.toBe(b.body.invoiceId);
    expect(await stockOf(t.db.kysely, sku.id)).toBe(3);
  });

  it('the same key with another request is refused and writes nothing', async () => {
    const sku = await freshSku(5);
    const key = randomUUID();
    const body = checkoutBody([{ skuCode: sku.code, quantity: 1 }]);
    expect((await checkout(t, body, withKey(key))).status).toBe(201);
    const salesBefore = await countRows(t.db.kysely, 'sales');
    expectApiError(await checkout(t, { ...body, items: [{ skuCode: sku.code, quantity: 2 }] }, withKey(key)), 409, 'idempotency_key_reused');
    expect(await countRows(t.db.kysely, 'sales')).toBe(salesBefore);
    expect(await stockOf(t.db.kysely, sku.id)).toBe(4);
  });

  it("a customer's key replays only to that customer: another customer or a guest is refused", async () => {
    const sku = await freshSku(5);
    const owner = await signUp(t);
    const other = await signUp(t);
    const key = randomUUID();
    const body = { items: [{ skuCode: sku.code, quantity: 1 }], paymentMethod: 'cod', deliveryMethod: 'home_delivery', address: ADDRESS };
    const first = await checkout(t, body, withKey(key, owner.auth));
    expect(first.status, first.text).toBe(201);
    expectApiError(await checkout(t, body, withKey(key, other.auth)), 409, 'idempotency_key_reused');
    expectApiError(
      await checkout(t, { ...body, contact: { name: 'Nusrat Jahan', mobile: '01712345678', email: 'n@example.com' } }, withKey(key)),
      409,
      'idempotency_key_reused',
    );
    const again = await checkout(t, body, withKey(key, owner.auth));
    expect(again.status).toBe(200);
    expect(again.body.invoiceId).toBe(first.body.invoiceId);
  });

  it("a guest's repeat gets a new order token that opens the order; the lost answer's token no longer does", async () => {
    const sku = await freshSku(5);
    const key = randomUUID();
    const body = checkoutBody([{ skuCode: sku.code, quantity: 1 }]);
    const first = await checkout(t, body, withKey(key));
    const again = await checkout(t, body, withKey(key));
    expect(again.status).toBe(200);
    expect(again.body.accessToken).toBeTruthy();
    expect(again.body.accessToken).not.toBe(first.body.accessToken);
    expect(again.headers.get('set-cookie')).toMatch(/order_access=/);
    const read = (token: string) => t.api(`/api/sales?id=${first.body.saleId}`, { headers: { 'x-order-token': token } });
    expect((await read(again.body.accessToken)).status).toBe(200);
    expectApiError(await read(first.body.accessToken), 404);
  });

  it('a card checkout sent again goes to the same open payment page; once paid, to the success page', async () => {
    const sku = await freshSku(5);
    const key = randomUUID();
    const body = checkoutBody([{ skuCode: sku.code, quantity: 1 }], { paymentMethod: 'card' });
    const first = await checkout(t, body, withKey(key));
    expect(first.status, first.text).toBe(201);
    expect(first.body.paymentUrl).toBeTruthy();
    const again = await checkout(t, body, withKey(key));
    expect(again.body.paymentUrl).toBe(first.body.paymentUrl);
    expect(again.body.redirectTo).toBe(first.body.paymentUrl);

    const back = await paySandbox(t, first.body.paymentUrl, 'pay');
    await fetch(onApp(t, back.action), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(back.fields),
      redirect: 'manual',
    });
    const afterPaid = await checkout(t, body, withKey(key));
    expect(afterPaid.status).toBe(200);
    expect(afterPaid.body.paymentUrl).toBeNull();
    expect(afterPaid.body.redirectTo).toBe(`/payments/response/success?invoiceId=${first.body.invoiceId}`);
    expect(await stockOf(t.db.kysely, sku.id)).toBe(4);
  });

  it('a refused checkout (out of stock) keeps no key: the same key works once stock is back', async () => {
    const sku = await freshSku(0);
    const key = randomUUID();
    const body = checkoutBody([{ skuCode: sku.code, quantity: 1 }]);
    expectApiError(await checkout(t, body, withKey(key)), 409, 'out_of_stock');
    await setStock(t.db.kysely, sku.id, [1]);
    expect((await checkout(t, body, withKey(key))).status).toBe(201);
    expect(await stockOf(t.db.kysely, sku.id)).toBe(0);
  });

  it('a malformed key is a 400 naming the header', async () => {
    const sku = await freshSku(5);
    const body = checkoutBody([{ skuCode: sku.code, quantity: 1 }]);
    for (const bad of ['short', 'x'.repeat(101), 'has spaces in it, sixteen+', 'semi;colons;are;not;keys']) {
      const res = await checkout(t, body, withKey(bad));
      expectApiError(res, 400, 'validation_error');
      expect(JSON.stringify(res.body.error)).toMatch(/idempotency-key/i);
    }
    expect(await stockOf(t.db.kysely, sku.id)).toBe(5);
  });
});
