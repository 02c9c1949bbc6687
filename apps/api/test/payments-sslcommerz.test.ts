import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseGatewayAmount, signFields, toGatewayAmount, verifyFields } from '../src/modules/payments/gateway-fields.ts';
import { expectApiError } from './helpers/assertions.ts';
import { checkout, checkoutBody, plainSkus, saleRow, setStock, startSslcommerzApp, stockOf, type TestSku } from './helpers/checkout.ts';
import type { SslcommerzStandIn } from './helpers/sslcommerz-stand-in.ts';
import type { TestApp } from './helpers/test-app.ts';

// The SSLCommerz adapter against a local stand-in that speaks the gateway's documented
// protocol (session initiation, GatewayPageURL, form POSTs back with val_id / tran_id /
// status, signed IPN, validation and transaction-query APIs with risk_level).

let t: TestApp;
let gw: SslcommerzStandIn;
let skus: TestSku[];
let next = 0;

beforeAll(async () => {
  ({ t, gw } = await startSslcommerzApp());
  skus = await plainSkus(t.db.kysely, 30, 200);
});
afterAll(async () => {
  await t?.close();
  await gw?.close();
});
beforeEach(() => {
  gw.down = false;
  gw.refuseInitiation = null;
  gw.gatewayPageOverride = null;
});

async function cardOrder(stock = 2) {
  const sku = skus[next++];
  await setStock(t.db.kysely, sku.id, [stock]);
  const res = await checkout(t, checkoutBody([{ skuCode: sku.code, quantity: 1 }], { paymentMethod: 'card' }));
  expect(res.status, res.text).toBe(201);
  const sale = await saleRow(t.db.kysely, res.body.invoiceId);
  const payment = await t.db.kysely.selectFrom('payments').selectAll().where('sale_id', '=', sale.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
  return { sku, res, invoiceId: res.body.invoiceId as string, token: res.body.accessToken as string, tranId: payment.tran_id, total: Number(sale.total) };
}

/** The browser's form POST back to one of our return URLs, as the gateway sends it. */
async function browserReturn(url: string, fields: Record<string, string>) {
  const u = new URL(url);
  const res = await fetch(`${t.baseUrl}${u.pathname}${u.search}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
    redirect: 'manual',
  });
  return res.headers.get('location');
}

const state = async (invoiceId: string) => {
  const s = await saleRow(t.db.kysely, invoiceId);
  return { status: s.status, paymentStatus: s.payment_status };
};

describe('gateway wire format', () => {
  it('writes and reads amounts exactly, without floating point', () => {
    expect(toGatewayAmount(123456)).toBe('1234.56');
    expect(toGatewayAmount(5)).toBe('0.05');
    expect(parseGatewayAmount('1234.5')).toBe(123450);
    expect(parseGatewayAmount('1234.50')).toBe(123450);
    expect(parseGatewayAmount('1234')).toBe(123400);
    expect(parseGatewayAmount('0.1')).toBe(10);
    expect(parseGatewayAmount('1234.567')).toBeNull();
    expect(parseGatewayAmount('1234.500')).toBe(123450);
    for (const bad of ['', '-1.00', '1e3', '12,34', ' ', 'NaN', null, undefined]) expect(parseGatewayAmount(bad)).toBeNull();
  });

  it('signs like SSLCommerz and refuses a signature over other fields or another password', () => {
    const f = { status: 'VALID', tran_id: 'T1', val_id: 'V1', amount: '10.00' };
    const signed = { ...f, ...signFields(f, 'secret') };
    expect(verifyFields(signed, 'secret')).toBe(true);
    expect(verifyFields(signed, 'other')).toBe(false);
    expect(verifyFields({ ...signed, amount: '1.00' }, 'secret')).toBe(false);
    // A signature that does not cover tran_id and status is worthless.
    const partial = { amount: '10.00' };
    expect(verifyFields({ ...f, ...signFields(partial, 'secret') }, 'secret')).toBe(false);
  });
});

describe('paying through SSLCommerz', () => {
  it('opens a session with the documented fields and sends the shopper to GatewayPageURL', async () => {
    const { res, tranId, total, invoiceId } = await cardOrder();
    const init = gw.requests.find((r) => r.path === '/gwprocess/v4/api.php' && r.fields.tran_id === tranId)!;
    expect(init.method).toBe('POST');
    expect(init.fields).toMatchObject({
      store_id: gw.storeId,
      store_passwd: gw.storePassword,
      total_amount: toGatewayAmount(total),
      currency: 'BDT',
      tran_id: tranId,
      success_url: `${t.baseUrl}/payments/return/success?invoiceId=${invoiceId}`,
      fail_url: `${t.baseUrl}/payments/return/fail?invoiceId=${invoiceId}`,
      cancel_url: `${t.baseUrl}/payments/return/cancel?invoiceId=${invoiceId}`,
      ipn_url: `${t.baseUrl}/payments/ipn`,
      cus_country: 'Bangladesh',
      shipping_method: 'YES',
      product_category: 'Furniture',
      value_a: invoiceId,
    });
    expect(init.fields.cus_email).toMatch(/@example\.com$/);
    const session = gw.sessions.get(tranId)!;
    expect(res.body.paymentUrl).toBe(`${gw.url}/EasyCheckOut/testcde${session.sessionKey.toLowerCase()}`);
  });

  it('confirms through the validation API when the shopper comes back with a val_id', async () => {
    const { invoiceId, tranId } = await cardOrder();
    gw.complete(tranId, 'VALID');
    const fields = gw.returnFields(tranId);
    expect(await browserReturn(gw.sessions.get(tranId)!.init.success_url, fields)).toBe(`/payments/response/success?invoiceId=${invoiceId}`);
    expect(await state(invoiceId)).toEqual({ status: 'confirmed', paymentStatus: 'paid' });
    const validation = gw.requests.filter((r) => r.path === '/validator/api/validationserverAPI.php' && r.fields.val_id === fields.val_id);
    expect(validation).toHaveLength(1);
    expect(validation[0].fields).toMatchObject({ store_id: gw.storeId, store_passwd: gw.storePassword, format: 'json' });
    const payment = await t.db.kysely.selectFrom('payments').selectAll().where('tran_id', '=', tranId).executeTakeFirstOrThrow();
    expect(payment).toMatchObject({ status: 'valid', val_id: fields.val_id, risk_level: 0, card_type: 'VISA-Dutch Bangla' });
    expect(payment.raw_verification).not.toContain(gw.storePassword);
  });

  it('keeps the order unpaid with 409 when the bank took another amount or currency', async () => {
    const wrongAmount = await cardOrder();
    gw.complete(wrongAmount.tranId, 'VALID', { amount: toGatewayAmount(wrongAmount.total - 100) });
    const f1 = gw.returnFields(wrongAmount.tranId);
    expectApiError(
      await t.api(`/api/checkouts/confirm?invoiceId=${wrongAmount.invoiceId}`, { method: 'PATCH', json: { valId: f1.val_id } }),
      409,
      'payment_mismatch',
    );
    expect(await browserReturn(gw.sessions.get(wrongAmount.tranId)!.init.success_url, f1)).toBe(
      `/payments/response/failed?invoiceId=${wrongAmount.invoiceId}&reason=unverified`,
    );
    expect(await state(wrongAmount.invoiceId)).toEqual({ status: 'pending_payment', paymentStatus: 'pending' });

    const wrongCurrency = await cardOrder();
    gw.complete(wrongCurrency.tranId, 'VALID', { currency: 'USD' });
    expectApiError(
      await t.api(`/api/checkouts/confirm?invoiceId=${wrongCurrency.invoiceId}`, {
        method: 'PATCH',
        json: { valId: gw.returnFields(wrongCurrency.tranId).val_id },
      }),
      409,
      'payment_mismatch',
    );
    expect(await state(wrongCurrency.invoiceId)).toEqual({ status: 'pending_payment', paymentStatus: 'pending' });
  });

  it('refuses a replayed val_id from another order', async () => {
    const a = await cardOrder();
    gw.complete(a.tranId, 'VALID');
    const fa = gw.returnFields(a.tranId);
    await browserReturn(gw.sessions.get(a.tranId)!.init.success_url, fa);
    const b = await cardOrder();
    expectApiError(await t.api(`/api/checkouts/confirm?invoiceId=${b.invoiceId}`, { method: 'PATCH', json: { valId: fa.val_id } }), 409, 'payment_mismatch');
    expect(await browserReturn(gw.sessions.get(b.tranId)!.init.success_url, { ...fa })).toContain('/payments/response/failed');
    expect(await state(b.invoiceId)).toEqual({ status: 'pending_payment', paymentStatus: 'pending' });
  });

  it('takes a signed IPN, refuses a badly signed one, and treats a replay as a no-op', async () => {
    const { invoiceId, tranId } = await cardOrder();
    gw.complete(tranId, 'VALID');
    const forged = await gw.sendIpn(tranId, t.baseUrl, { password: 'not-the-store-password' });
    expect(forged.status).toBe(400);
    expect(JSON.parse(forged.body).error.code).toBe('bad_signature');
    expect(await state(invoiceId)).toEqual({ status: 'pending_payment', paymentStatus: 'pending' });

    const ok = await gw.sendIpn(tranId, t.baseUrl);
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toEqual({ result: 'paid' });
    expect(await state(invoiceId)).toEqual({ status: 'confirmed', paymentStatus: 'paid' });
    const history = await t.db.kysely
      .selectFrom('sale_status_history')
      .select('id')
      .where('sale_id', '=', (await saleRow(t.db.kysely, invoiceId)).id)
      .execute();

    const replay = await gw.sendIpn(tranId, t.baseUrl);
    expect(JSON.parse(replay.body)).toEqual({ result: 'unchanged' });
    const after = await t.db.kysely
      .selectFrom('sale_status_history')
      .select('id')
      .where('sale_id', '=', (await saleRow(t.db.kysely, invoiceId)).id)
      .execute();
    expect(after).toHaveLength(history.length);
    // The browser's return after the IPN did the work changes nothing either.
    expect(await browserReturn(gw.sessions.get(tranId)!.init.success_url, gw.returnFields(tranId))).toBe(`/payments/response/success?invoiceId=${invoiceId}`);
  });

  it('holds a risk_level 1 payment for review', async () => {
    const { invoiceId, tranId } = await cardOrder();
    gw.complete(tranId, 'VALID', { riskLevel: 1 });
    await gw.sendIpn(tranId, t.baseUrl);
    expect(await state(invoiceId)).toEqual({ status: 'on_hold', paymentStatus: 'review' });
  });

  it('releases the stock on a failed or cancelled return, and takes it again when the bank pays late', async () => {
    const failed = await cardOrder(1);
    gw.complete(failed.tranId, 'FAILED');
    expect(await browserReturn(gw.sessions.get(failed.tranId)!.init.fail_url, gw.returnFields(failed.tranId))).toBe(
      `/payments/response/failed?invoiceId=${failed.invoiceId}`,
    );
    expect(await state(failed.invoiceId)).toEqual({ status: 'payment_failed', paymentStatus: 'failed' });
    expect(await stockOf(t.db.kysely, failed.sku.id)).toBe(1);
    // The bank settles after all: the stock is reserved again and the order confirmed.
    gw.complete(failed.tranId, 'VALID');
    expect(JSON.parse((await gw.sendIpn(failed.tranId, t.baseUrl)).body)).toEqual({ result: 'paid' });
    expect(await state(failed.invoiceId)).toEqual({ status: 'confirmed', paymentStatus: 'paid' });
    expect(await stockOf(t.db.kysely, failed.sku.id)).toBe(0);

    const cancelled = await cardOrder(1);
    gw.complete(cancelled.tranId, 'CANCELLED');
    expect(await browserReturn(gw.sessions.get(cancelled.tranId)!.init.cancel_url, gw.returnFields(cancelled.tranId))).toBe(
      `/payments/response/cancel?invoiceId=${cancelled.invoiceId}`,
    );
    expect(await stockOf(t.db.kysely, cancelled.sku.id)).toBe(1);
    // Someone else buys the last unit; then the bank pays late: the order is held, not oversold.
    const other = await checkout(t, checkoutBody([{ skuCode: cancelled.sku.code, quantity: 1 }]));
    expect(other.status).toBe(201);
    gw.complete(cancelled.tranId, 'VALID');
    await gw.sendIpn(cancelled.tranId, t.baseUrl);
    expect(await state(cancelled.invoiceId)).toEqual({ status: 'on_hold', paymentStatus: 'paid' });
    expect(await stockOf(t.db.kysely, cancelled.sku.id)).toBe(0);
  });

  it('answers 503 and keeps the order waiting when the gateway cannot be asked', async () => {
    const { invoiceId, tranId } = await cardOrder();
    gw.complete(tranId, 'VALID');
    const fields = gw.returnFields(tranId);
    gw.down = true;
    expectApiError(
      await t.api(`/api/checkouts/confirm?invoiceId=${invoiceId}`, { method: 'PATCH', json: { valId: fields.val_id } }),
      503,
      'payment_provider_unavailable',
    );
    expect(await browserReturn(gw.sessions.get(tranId)!.init.success_url, fields)).toBe(`/payments/response/success?invoiceId=${invoiceId}`);
    expect(await state(invoiceId)).toEqual({ status: 'pending_payment', paymentStatus: 'pending' });
    gw.down = false;
    // Later, without a val_id: the transaction query finds the payment.
    const later = await t.api(`/api/checkouts/confirm?invoiceId=${invoiceId}`, { method: 'PATCH', json: {} });
    expect(later.body).toMatchObject({ status: 'confirmed', paymentStatus: 'paid', changed: true });
  });

  for (const [label, setup] of [
    ['refuses the session', () => (gw.refuseInitiation = 'Invalid Information')],
    ['is down', () => (gw.down = true)],
    ['answers a page URL on another site', () => (gw.gatewayPageOverride = 'https://evil.example/pay')],
  ] as const) {
    it(`fails the payment and releases the stock when the gateway ${label}`, async () => {
      const sku = skus[next++];
      await setStock(t.db.kysely, sku.id, [1]);
      setup();
      const res = await checkout(t, checkoutBody([{ skuCode: sku.code, quantity: 1 }], { paymentMethod: 'card' }));
      expect(res.status, res.text).toBe(201);
      expect(res.body.paymentUrl).toBeNull();
      expect(res.body.redirectTo).toBe(`/payments/response/failed?invoiceId=${res.body.invoiceId}`);
      expect(res.body.sale).toMatchObject({ status: 'payment_failed', paymentStatus: 'failed', canRetryPayment: true });
      expect(await stockOf(t.db.kysely, sku.id)).toBe(1);
    });
  }
});
