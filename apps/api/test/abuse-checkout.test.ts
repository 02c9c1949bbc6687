import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDER_CHECKS_PER_ORDER } from '../src/routes/api/checkouts.ts';
import { signUp, uniqueIp } from './helpers/accounts.ts';
import { expectApiError } from './helpers/assertions.ts';
import { checkout, checkoutBody, countRows, plainSkus, saleRow, setStock, startPaymentsApp, stockOf, type TestSku } from './helpers/checkout.ts';
import type { TestApp } from './helpers/test-app.ts';

// What a stranger must not be able to do with what they can guess or see of someone
// else's checkout (docs/decisions/0021, 0017, 0022): take over a guest's order by
// sending the same Idempotency-Key, or spend the order's allowance of payment checks so
// that its owner cannot cancel or confirm.

let t: TestApp;
let skus: TestSku[];
let next = 0;

beforeAll(async () => {
  t = await startPaymentsApp();
  skus = await plainSkus(t.db.kysely, 30, 260);
});
afterAll(() => t?.close());

async function freshSku(stock = 5): Promise<TestSku> {
  const sku = skus[next++];
  await setStock(t.db.kysely, sku.id, [stock]);
  return sku;
}

describe("a guest's Idempotency-Key belongs to the guest's device", () => {
  it('a stranger sending the same key and body gets 409 and nothing of the order; the guest still gets it', async () => {
    const sku = await freshSku();
    const body = checkoutBody([{ skuCode: sku.code, quantity: 1 }]);
    const key = randomUUID();
    const device = randomUUID();
    const first = await checkout(t, body, { 'idempotency-key': key, 'x-device-id': device, 'x-forwarded-for': uniqueIp() });
    expect(first.status, first.text).toBe(201);

    // Another device, the same address, or no device at all: all strangers.
    const strangers: Record<string, string>[] = [
      { 'x-device-id': randomUUID(), 'x-forwarded-for': uniqueIp() },
      { 'x-forwarded-for': uniqueIp() },
      { 'x-device-id': 'no-storage', 'x-forwarded-for': uniqueIp() },
    ];
    for (const stranger of strangers) {
      const res = await checkout(t, body, { 'idempotency-key': key, ...stranger });
      expectApiError(res, 409, 'idempotency_key_reused');
      expect(res.text).not.toContain(first.body.invoiceId);
      expect(res.headers.get('set-cookie') ?? '').not.toMatch(/order_access=/);
    }
    // The guest's own token still opens the order: nobody took it over.
    const read = await t.api(`/api/sales?id=${first.body.saleId}`, { headers: { 'x-order-token': first.body.accessToken } });
    expect(read.status).toBe(200);

    // The guest sends it again from the same device on another network: the same order.
    const again = await checkout(t, body, { 'idempotency-key': key, 'x-device-id': device, 'x-forwarded-for': uniqueIp() });
    expect(again.status, again.text).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.invoiceId).toBe(first.body.invoiceId);
    expect(await stockOf(t.db.kysely, sku.id)).toBe(4);
  });

  it('a guest API client without a device id is bound to its client address', async () => {
    const sku = await freshSku();
    const body = checkoutBody([{ skuCode: sku.code, quantity: 1 }]);
    const key = randomUUID();
    const ip = uniqueIp();
    const first = await checkout(t, body, { 'idempotency-key': key, 'x-forwarded-for': ip });
    expect(first.status, first.text).toBe(201);
    expectApiError(await checkout(t, body, { 'idempotency-key': key, 'x-forwarded-for': uniqueIp() }), 409, 'idempotency_key_reused');
    const again = await checkout(t, body, { 'idempotency-key': key, 'x-forwarded-for': ip });
    expect(again.status).toBe(200);
    expect(again.body.invoiceId).toBe(first.body.invoiceId);
  });

  it('a stranger racing the guest with the same key places nothing and gets nothing', async () => {
    const sku = await freshSku(20);
    const body = checkoutBody([{ skuCode: sku.code, quantity: 1 }]);
    const key = randomUUID();
    const devices = [randomUUID(), randomUUID()];
    const before = await countRows(t.db.kysely, 'sales');
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => checkout(t, body, { 'idempotency-key': key, 'x-forwarded-for': uniqueIp(), 'x-device-id': devices[i % 2] })),
    );
    expect(await countRows(t.db.kysely, 'sales')).toBe(before + 1);
    const placed = await t.db.kysely.selectFrom('checkout_keys').select('sale_id').where('key', '=', key).executeTakeFirstOrThrow();
    const invoice = (await t.db.kysely.selectFrom('sales').select('invoice_id').where('id', '=', placed.sale_id).executeTakeFirstOrThrow()).invoice_id;
    const winners = answers.filter((a) => a.status === 200 || a.status === 201);
    for (const a of winners) expect(a.body.invoiceId).toBe(invoice);
    // Whichever device placed it, only that device's four requests got the order.
    expect(winners).toHaveLength(4);
    expect(new Set(answers.map((a, i) => (a.status < 300 ? i % 2 : -1)).filter((x) => x >= 0)).size).toBe(1);
    for (const a of answers.filter((x) => x.status !== 200 && x.status !== 201)) expectApiError(a, 409, 'idempotency_key_reused');
    expect(await stockOf(t.db.kysely, sku.id)).toBe(19);
  });
});

describe("strangers cannot spend an order's payment checks", () => {
  async function cardOrder(headers: Record<string, string> = {}) {
    const sku = await freshSku(3);
    const res = await checkout(t, checkoutBody([{ skuCode: sku.code, quantity: 1 }], { paymentMethod: 'card' }), { 'x-forwarded-for': uniqueIp(), ...headers });
    expect(res.status, res.text).toBe(201);
    return { sku, invoiceId: res.body.invoiceId as string, token: res.body.accessToken as string | null };
  }
  const patch = (path: string, invoiceId: string, headers: Record<string, string>, json: Record<string, unknown> = {}) =>
    t.api(`/api/checkouts/${path}?invoiceId=${invoiceId}`, { method: 'PATCH', json, headers });

  it(`${PROVIDER_CHECKS_PER_ORDER} confirms from a stranger, then the guest owner can still confirm and cancel`, async () => {
    const { invoiceId, token, sku } = await cardOrder();
    const stranger = { 'x-forwarded-for': uniqueIp() };
    for (let i = 0; i < PROVIDER_CHECKS_PER_ORDER; i++) expectApiError(await patch('confirm', invoiceId, stranger), 409, 'payment_not_verified');
    const limited = await patch('confirm', invoiceId, stranger);
    expectApiError(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // A stranger's cancel or failure is what it always was: the order is not theirs to see.
    for (const path of ['cancel', 'failure']) expectApiError(await patch(path, invoiceId, stranger), 404, 'not_found');

    const owner = { 'x-order-token': token!, 'x-forwarded-for': uniqueIp() };
    expectApiError(await patch('confirm', invoiceId, owner), 409, 'payment_not_verified');
    const cancelled = await patch('cancel', invoiceId, owner);
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'payment_cancelled', changed: true });
    expect(await stockOf(t.db.kysely, sku.id)).toBe(3);
  });

  it("strangers' cancels and failures spend nothing, and a customer owner is counted on their own", async () => {
    const c = await signUp(t);
    const { invoiceId, sku } = await cardOrder(c.auth);
    // A stranger's refused cancels and failures do not reach the provider and count nothing.
    for (let i = 0; i < PROVIDER_CHECKS_PER_ORDER + 5; i++)
      expectApiError(await patch(i % 2 ? 'cancel' : 'failure', invoiceId, { 'x-forwarded-for': uniqueIp() }), 404, 'not_found');
    // Strangers from many addresses together are bounded too, without the owner's share.
    let limited = 0;
    for (let i = 0; i < 3 * PROVIDER_CHECKS_PER_ORDER + 5; i++) {
      const res = await patch('confirm', invoiceId, { 'x-forwarded-for': uniqueIp() });
      if (res.status === 429) limited++;
      else expectApiError(res, 409, 'payment_not_verified');
    }
    expect(limited).toBe(5);
    for (let i = 0; i < PROVIDER_CHECKS_PER_ORDER - 1; i++) expectApiError(await patch('confirm', invoiceId, c.auth), 409, 'payment_not_verified');
    const failed = await patch('failure', invoiceId, c.auth);
    expect(failed.status, failed.text).toBe(200);
    expect((await saleRow(t.db.kysely, invoiceId)).status).toBe('payment_failed');
    expect(await stockOf(t.db.kysely, sku.id)).toBe(3);
    // The owner's own allowance still holds.
    expectApiError(await patch('confirm', invoiceId, c.auth), 429, 'rate_limited');
  });

  it("the payer coming back without cookies, showing the session's tran_id, is counted apart from strangers", async () => {
    const { invoiceId } = await cardOrder();
    const tranId = (
      await t.db.kysely
        .selectFrom('payments')
        .innerJoin('sales', 'sales.id', 'payments.sale_id')
        .select('payments.tran_id')
        .where('sales.invoice_id', '=', invoiceId)
        .executeTakeFirstOrThrow()
    ).tran_id;
    const stranger = { 'x-forwarded-for': uniqueIp() };
    for (let i = 0; i <= PROVIDER_CHECKS_PER_ORDER; i++) await patch('confirm', invoiceId, stranger);
    expectApiError(await patch('confirm', invoiceId, stranger), 429, 'rate_limited');
    const back = await patch('cancel', invoiceId, stranger, { tran_id: tranId });
    expect(back.status, back.text).toBe(200);
    expect(back.body.status).toBe('payment_cancelled');
  });
});
