import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDER_CHECKS_PER_ORDER } from '../src/routes/api/checkouts.ts';
import { orderDeps } from '../src/modules/orders/deps.ts';
import { expireStalePayments } from '../src/modules/orders/expire-payments.ts';
import { signUp } from './helpers/accounts.ts';
import { expectApiError } from './helpers/assertions.ts';
import {
  checkout,
  checkoutBody,
  countRows,
  generousOrderLimits,
  onApp,
  paySandbox,
  plainSkus,
  saleRow,
  setStock,
  startPaymentsApp,
  stockOf,
  type TestSku,
} from './helpers/checkout.ts';
import { addCoupon } from './helpers/pricing-fixtures.ts';
import type { TestApp } from './helpers/test-app.ts';

// Card payments through the built-in sandbox gateway (the default provider), driven over
// HTTP as a payer's browser would: the hosted page, the hand-back form POST to our return
// URL, and the gateway's notification (IPN) to our server.

let t: TestApp;
let skus: TestSku[];
let next = 0;

beforeAll(async () => {
  // One test orders 99 of one item to pass the gateway's limit: above the default caps.
  t = await startPaymentsApp({ orders: generousOrderLimits({ maxLineQuantity: 99, maxUnits: 99 }) });
  skus = await plainSkus(t.db.kysely, 30, 120);
});
afterAll(() => t?.close());

/** A fresh sku with `stock` units and a card order for one of them. */
async function cardOrder(opts: { stock?: number; headers?: Record<string, string>; extra?: Record<string, unknown> } = {}) {
  const sku = skus[next++];
  await setStock(t.db.kysely, sku.id, [opts.stock ?? 2]);
  const res = await checkout(t, checkoutBody([{ skuCode: sku.code, quantity: 1 }], { paymentMethod: 'card', ...opts.extra }), opts.headers);
  expect(res.status, res.text).toBe(201);
  return { sku, res, invoiceId: res.body.invoiceId as string, token: res.body.accessToken as string | null };
}

const ipnOf = (f: Record<string, string>) =>
  fetch(`${t.baseUrl}/payments/ipn`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(f) });

describe('paying by card through the sandbox', () => {
  it('sends the shopper to a page marked as a test, holding the stock meanwhile', async () => {
    const { sku, res } = await cardOrder();
    expect(res.body.paymentUrl).toMatch(new RegExp(`^${t.baseUrl}/payments/sandbox/pay\\?session=[\\w-]+$`));
    expect(res.body.redirectTo).toBe(res.body.paymentUrl);
    expect(res.body.sale).toMatchObject({ status: 'pending_payment', paymentStatus: 'pending', paymentMethod: 'card', canRetryPayment: true });
    expect(await stockOf(t.db.kysely, sku.id)).toBe(1);
    const page = await fetch(onApp(t, res.body.paymentUrl));
    const html = await page.text();
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(html).toContain('TEST PAYMENT');
    expect(html).toContain('No real money moves');
    expect(html).toContain(res.body.invoiceId);
  });

  it('marks the order paid once the gateway confirms it, and answers repeats with no change', async () => {
    const { invoiceId, token, sku, res } = await cardOrder();
    const back = await paySandbox(t, res.body.paymentUrl, 'pay');
    expect(back.status).toBe(303);
    expect(back.location).toBe(`/payments/response/success?invoiceId=${invoiceId}`);
    expect(back.fields).toMatchObject({ status: 'VALID', tran_id: expect.any(String), val_id: expect.stringMatching(/^SBX/) });
    expect(back.fields.verify_sign).toMatch(/^[0-9a-f]{32}$/);

    const sale = await t.api(`/api/sales?invoiceId=${invoiceId}`, { headers: { 'x-order-token': token! } });
    expect(sale.body).toMatchObject({ status: 'confirmed', paymentStatus: 'paid', canRetryPayment: false, canCancel: false });
    expect(sale.body.paidAt).toBeTruthy();
    expect(sale.body.payments).toEqual([
      expect.objectContaining({ provider: 'sandbox', status: 'valid', amount: sale.body.total, currency: 'BDT', riskLevel: 0 }),
    ]);
    expect(sale.body.history.at(-1).note).toMatch(/verified with the provider/);
    expect(await stockOf(t.db.kysely, sku.id)).toBe(1);
    // One mail to the shopper, one to the shop's order address.
    const mails = await t.db.kysely
      .selectFrom('mail_outbox')
      .select(['subject', 'to_address'])
      .where('subject', 'like', `%${invoiceId}%`)
      .orderBy('id')
      .execute();
    expect(mails.map((m) => m.to_address === 'orders@nibash.com.bd')).toEqual([false, true]);
    expect(mails[0].subject).toBe(`Order ${invoiceId} — payment received`);

    // The same notification again, a confirm with the same val_id, the return again: no change.
    const historyBefore = sale.body.history.length;
    const replay = await ipnOf(back.fields);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ result: 'unchanged' });
    const confirm = await t.api(`/api/checkouts/confirm?invoiceId=${invoiceId}`, { method: 'PATCH', json: { valId: back.fields.val_id } });
    expect(confirm.status).toBe(200);
    expect(confirm.body).toEqual({ invoiceId, status: 'confirmed', paymentStatus: 'paid', changed: false });
    const again = await fetch(onApp(t, back.action), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(back.fields),
      redirect: 'manual',
    });
    expect(again.headers.get('location')).toBe(`/payments/response/success?invoiceId=${invoiceId}`);
    const after = await t.api(`/api/sales?invoiceId=${invoiceId}`, { headers: { 'x-order-token': token! } });
    expect(after.body.history).toHaveLength(historyBefore);
    expect(await t.db.kysely.selectFrom('mail_outbox').select('id').where('subject', 'like', `%${invoiceId}%`).execute()).toHaveLength(2);
  });

  it("never marks an order paid on a browser's word: no payment, an invented or a foreign val_id all answer 409", async () => {
    const paid = await cardOrder();
    const paidBack = await paySandbox(t, paid.res.body.paymentUrl, 'pay');
    const { invoiceId, token } = await cardOrder();
    const confirm = (body?: unknown) => t.api(`/api/checkouts/confirm?invoiceId=${invoiceId}`, { method: 'PATCH', json: body ?? {} });

    expectApiError(await confirm(), 409, 'payment_not_verified');
    expectApiError(await confirm({ valId: 'SBXinventedvalidationid' }), 409, 'payment_not_verified');
    expectApiError(await confirm({ valId: paidBack.fields.val_id }), 409, 'payment_mismatch');
    expectApiError(await confirm({ val_id: paidBack.fields.val_id, tran_id: paidBack.fields.tran_id }), 409, 'payment_mismatch');
    // A signed VALID notice for this order's tran_id but another order's val_id.
    const session = await t.db.kysely
      .selectFrom('payments')
      .select('tran_id')
      .where('sale_id', '=', (await saleRow(t.db.kysely, invoiceId)).id)
      .executeTakeFirstOrThrow();
    const forged = await ipnOf({ ...paidBack.fields, tran_id: session.tran_id });
    expect(forged.status).toBe(400);
    const sale = await t.api(`/api/sales?invoiceId=${invoiceId}`, { headers: { 'x-order-token': token! } });
    expect(sale.body).toMatchObject({ status: 'pending_payment', paymentStatus: 'pending' });
    expect(sale.body.payments[0].status).toBe('initiated');
  });

  it('releases the stock when the payment fails, lets the shopper pay again, and then confirms', async () => {
    const c = await signUp(t);
    const { invoiceId, sku, res } = await cardOrder({ stock: 1, headers: c.auth });
    expect(await stockOf(t.db.kysely, sku.id)).toBe(0);
    const back = await paySandbox(t, res.body.paymentUrl, 'fail');
    expect(back.location).toBe(`/payments/response/failed?invoiceId=${invoiceId}`);
    expect(back.fields).toMatchObject({ status: 'FAILED' });
    expect(await stockOf(t.db.kysely, sku.id)).toBe(1);
    const failed = await t.api(`/api/sales?invoiceId=${invoiceId}`, { headers: c.auth });
    expect(failed.body).toMatchObject({ status: 'payment_failed', paymentStatus: 'failed', canRetryPayment: true });

    // Repeating the failure changes nothing and never returns the stock twice.
    const repeat = await t.api(`/api/checkouts/failure?invoiceId=${invoiceId}`, { method: 'PATCH', json: {}, headers: c.auth });
    expect(repeat.body).toMatchObject({ status: 'payment_failed', changed: false });
    expect(await stockOf(t.db.kysely, sku.id)).toBe(1);

    const retry = await t.api(`/api/checkouts/payments?invoiceId=${invoiceId}`, { method: 'POST', headers: c.auth });
    expect(retry.status, retry.text).toBe(201);
    expect(retry.body.paymentUrl).not.toBe(res.body.paymentUrl);
    expect(retry.body.sale).toMatchObject({ status: 'pending_payment', paymentStatus: 'pending' });
    expect(await stockOf(t.db.kysely, sku.id)).toBe(0);
    const paid = await paySandbox(t, retry.body.paymentUrl, 'pay', undefined);
    expect(paid.location).toBe(`/payments/response/success?invoiceId=${invoiceId}`);
    const sale = await t.api(`/api/sales?invoiceId=${invoiceId}`, { headers: c.auth });
    expect(sale.body).toMatchObject({ status: 'confirmed', paymentStatus: 'paid' });
    expect(sale.body.payments.map((p: { status: string }) => p.status)).toEqual(['failed', 'valid']);
  });

  it('releases the stock when the payer cancels, and a paid order can never be cancelled', async () => {
    const c = await signUp(t);
    const cancelled = await cardOrder({ headers: c.auth });
    const back = await paySandbox(t, cancelled.res.body.paymentUrl, 'cancel');
    expect(back.location).toBe(`/payments/response/cancel?invoiceId=${cancelled.invoiceId}`);
    expect((await saleRow(t.db.kysely, cancelled.invoiceId)).status).toBe('payment_cancelled');
    expect(await stockOf(t.db.kysely, cancelled.sku.id)).toBe(2);

    const paid = await cardOrder({ headers: c.auth });
    await paySandbox(t, paid.res.body.paymentUrl, 'pay');
    expectApiError(await t.api(`/api/checkouts/cancel?invoiceId=${paid.invoiceId}`, { method: 'PATCH', json: {}, headers: c.auth }), 409, 'order_paid');
    expectApiError(await t.api(`/api/checkouts/failure?invoiceId=${paid.invoiceId}`, { method: 'PATCH', json: {}, headers: c.auth }), 409, 'order_paid');
    expectApiError(await t.api(`/api/sales?id=${paid.res.body.saleId}`, { method: 'PATCH', json: {}, headers: c.auth }), 409, 'order_paid');
    expect((await saleRow(t.db.kysely, paid.invoiceId)).payment_status).toBe('paid');
    expect(await stockOf(t.db.kysely, paid.sku.id)).toBe(1);
  });

  it("lets only the owner or the holder of the open session's tran_id cancel a payment", async () => {
    const { invoiceId, sku } = await cardOrder();
    const stranger = await signUp(t);
    expectApiError(await t.api(`/api/checkouts/cancel?invoiceId=${invoiceId}`, { method: 'PATCH', json: {}, headers: stranger.auth }), 404);
    expectApiError(await t.api(`/api/checkouts/failure?invoiceId=${invoiceId}`, { method: 'PATCH', json: { tranId: 'T0000000000000000000000000' } }), 404);
    expect(await stockOf(t.db.kysely, sku.id)).toBe(1);
    const { tran_id } = await t.db.kysely
      .selectFrom('payments')
      .select('tran_id')
      .where('sale_id', '=', (await saleRow(t.db.kysely, invoiceId)).id)
      .executeTakeFirstOrThrow();
    const res = await t.api(`/api/checkouts/failure?invoiceId=${invoiceId}`, { method: 'PATCH', json: { tran_id, reason: 'Card declined' } });
    expect(res.body).toMatchObject({ status: 'payment_failed', changed: true });
    expect(await stockOf(t.db.kysely, sku.id)).toBe(2);
  });

  it('asks the gateway before releasing: a cancel for a payment that went through confirms it instead', async () => {
    const { invoiceId, token, res } = await cardOrder();
    const page = await (await fetch(onApp(t, res.body.paymentUrl))).text();
    const session = /name="session" value="([^"]+)"/.exec(page)![1];
    // The gateway took the money, but neither the notice nor the return reached us…
    await t.db.kysely
      .updateTable('sandbox_payment_sessions')
      .set({ status: 'VALID', val_id: 'SBXlostreturn0001', completed_at: new Date().toISOString() })
      .where('session_key', '=', session)
      .execute();
    // …and the browser says "cancel".
    const r = await t.api(`/api/checkouts/cancel?invoiceId=${invoiceId}`, { method: 'PATCH', json: {}, headers: { 'x-order-token': token! } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'confirmed', paymentStatus: 'paid' });
  });

  it('holds a high-risk payment for review', async () => {
    const { invoiceId, token, res } = await cardOrder();
    await paySandbox(t, res.body.paymentUrl, 'risky');
    const sale = await t.api(`/api/sales?invoiceId=${invoiceId}`, { headers: { 'x-order-token': token! } });
    expect(sale.body).toMatchObject({ status: 'on_hold', paymentStatus: 'review', canCancel: false });
    expect(sale.body.payments[0]).toMatchObject({ status: 'review', riskLevel: 1 });
  });

  it('expires a forgotten payment session, then cancels the order and frees its coupon days later', async () => {
    await addCoupon(t.db.kysely, { code: 'LATECOMER', value: 1_000 });
    const { invoiceId, sku } = await cardOrder({ extra: { couponCode: 'LATECOMER' } });
    const sale = await saleRow(t.db.kysely, invoiceId);
    expect(await countRows(t.db.kysely, 'coupon_usages')).toBeGreaterThan(0);
    const deps = orderDeps(t.app);
    const hourAgo = new Date(Date.now() - deps.config.payments.sessionTtlMs - 1000).toISOString();
    await t.db.kysely.updateTable('sales').set({ updated_at: hourAgo }).where('id', '=', sale.id).execute();
    const first = await expireStalePayments(deps);
    expect(first.expired).toBeGreaterThanOrEqual(1);
    expect((await saleRow(t.db.kysely, invoiceId)).status).toBe('payment_expired');
    expect(await stockOf(t.db.kysely, sku.id)).toBe(2);
    expect(await t.db.kysely.selectFrom('coupon_usages').select('id').where('order_ref', '=', invoiceId).execute()).toHaveLength(1);

    const weekAgo = new Date(Date.now() - deps.config.payments.unpaidOrderTtlMs - 1000).toISOString();
    await t.db.kysely.updateTable('sales').set({ updated_at: weekAgo }).where('id', '=', sale.id).execute();
    await expireStalePayments(deps);
    const row = await saleRow(t.db.kysely, invoiceId);
    expect(row.status).toBe('cancelled');
    expect(await t.db.kysely.selectFrom('coupon_usages').select('id').where('order_ref', '=', invoiceId).execute()).toHaveLength(0);
    expect(await stockOf(t.db.kysely, sku.id)).toBe(2);
  });

  it("refuses card payment above the gateway's limit before writing anything", async () => {
    const sku = skus[next++];
    await setStock(t.db.kysely, sku.id, [99]);
    const before = await countRows(t.db.kysely, 'sales');
    const res = await checkout(t, checkoutBody([{ skuCode: sku.code, quantity: 99 }], { paymentMethod: 'card' }));
    if (sku.salesPrice * 99 > 50_000_000) {
      expectApiError(res, 409, 'card_limit');
      expect(await countRows(t.db.kysely, 'sales')).toBe(before);
    } else {
      expect(res.status).toBe(201);
    }
  });
});

describe('asking the provider about an order is bounded', () => {
  it(`one caller checks one order with the provider at most ${PROVIDER_CHECKS_PER_ORDER} times in ten minutes; other orders are unaffected`, async () => {
    const { invoiceId } = await cardOrder();
    const other = await cardOrder();
    for (let i = 0; i < PROVIDER_CHECKS_PER_ORDER; i++) {
      const res = await t.api(`/api/checkouts/confirm?invoiceId=${invoiceId}`, { method: 'PATCH', json: {} });
      expectApiError(res, 409, 'payment_not_verified');
    }
    const res = await t.api(`/api/checkouts/confirm?invoiceId=${invoiceId}`, { method: 'PATCH', json: {} });
    expectApiError(res, 429, 'rate_limited');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    // Cancel and failure are not this caller's to ask (the order is not theirs): refused
    // before the provider is asked, spending nothing (the owner's side: abuse-checkout.test.ts).
    for (const path of ['cancel', 'failure'])
      expectApiError(await t.api(`/api/checkouts/${path}?invoiceId=${invoiceId}`, { method: 'PATCH', json: {} }), 404, 'not_found');
    expectApiError(await t.api(`/api/checkouts/confirm?invoiceId=${other.invoiceId}`, { method: 'PATCH', json: {} }), 409, 'payment_not_verified');
  });
});
