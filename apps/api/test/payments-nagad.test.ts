import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { orderDeps } from '../src/modules/orders/deps.ts';
import { expireStalePayments } from '../src/modules/orders/expire-payments.ts';
import { createNagadClient } from '../src/modules/payments/nagad/nagad.client.ts';
import { expectApiError } from './helpers/assertions.ts';
import { checkout, checkoutBody, countRows, onApp, plainSkus, saleRow, setStock, startPaymentsApp, stockOf, type TestSku } from './helpers/checkout.ts';
import { type NagadStandIn, startNagadStandIn } from './helpers/nagad-stand-in.ts';
import { signedInStaff, type TestStaff } from './helpers/staff.ts';
import type { TestApp } from './helpers/test-app.ts';

// Nagad as a wallet payment method (docs/decisions/0042), against the local stand-in that
// speaks Nagad's merchant API with its own keys: the order is created unpaid with its stock
// held, the shopper goes to Nagad's page, and Nagad's redirect to our callback is believed
// only once verify/payment says Success for this reference, with the order's amount and the
// attempt's order id.

let t: TestApp;
let nagad: NagadStandIn;
let manager: TestStaff;
let skus: TestSku[];
let next = 0;

beforeAll(async () => {
  nagad = await startNagadStandIn();
  const c = nagad.credentials;
  t = await startPaymentsApp({ payments: { ...loadConfig({}).payments, nagad: { ...c, baseUrl: nagad.url, timeoutMs: 5_000 } } });
  manager = await signedInStaff(t, 'manager');
  skus = await plainSkus(t.db.kysely, 24, 320);
});
afterAll(async () => {
  await t?.close();
  await nagad?.close();
});
beforeEach(() => {
  nagad.down = false;
  nagad.delayMs = 0;
});

async function nagadOrder(stock = 2) {
  const sku = skus[next++];
  await setStock(t.db.kysely, sku.id, [stock]);
  const res = await checkout(t, checkoutBody([{ skuCode: sku.code, quantity: 1 }], { paymentMethod: 'nagad' }));
  expect(res.status, res.text).toBe(201);
  const sale = await saleRow(t.db.kysely, res.body.invoiceId);
  const payment = await t.db.kysely.selectFrom('payments').selectAll().where('sale_id', '=', sale.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
  return {
    sku,
    res,
    invoiceId: res.body.invoiceId as string,
    token: res.body.accessToken as string,
    paymentRefId: payment.session_key!,
    tranId: payment.tran_id,
    total: Number(sale.total),
    saleId: sale.id,
  };
}

/** The shopper's browser following Nagad's redirect to our callback; where we send it next. */
async function callback(paymentRefId: string, override?: Record<string, string>) {
  const res = await fetch(onApp(t, nagad.callbackUrl(paymentRefId, override)), { redirect: 'manual' });
  expect(res.status).toBe(303);
  return res.headers.get('location') ?? '';
}

const state = async (invoiceId: string) => {
  const s = await saleRow(t.db.kysely, invoiceId);
  return { status: s.status, paymentStatus: s.payment_status, amountPaid: Number(s.amount_paid) };
};
const historyCount = async (saleId: number) =>
  (await t.db.kysely.selectFrom('sale_status_history').select('id').where('sale_id', '=', saleId).execute()).length;
/** The order's payment session left open past its time, for the expiry job. */
const age = (saleId: number) =>
  t.db.kysely
    .updateTable('sales')
    .set({ updated_at: new Date(Date.now() - 2 * 3_600_000).toISOString() })
    .where('id', '=', saleId)
    .execute();
const success = (invoiceId: string) => `/payments/response/success?invoiceId=${invoiceId}`;

describe('placing a Nagad order', () => {
  it('lists Nagad among the payment methods checkout accepts', async () => {
    const res = await t.api('/api/checkouts/payment-methods');
    expect(res.status).toBe(200);
    expect(res.body.list).toEqual(['card', 'cod', 'later', 'nagad']);
  });

  it('holds the stock, opens the Nagad payment for the server total and sends the shopper to Nagad’s page', async () => {
    const o = await nagadOrder();
    expect(await state(o.invoiceId)).toMatchObject({ status: 'pending_payment', paymentStatus: 'pending' });
    expect(await stockOf(t.db.kysely, o.sku.id)).toBe(1);
    const p = nagad.payments.get(o.paymentRefId)!;
    expect(p.orderId).toBe(o.tranId.slice(0, 20));
    expect(p.order).toMatchObject({ currencyCode: '050', callbackUrl: `${t.baseUrl}/payments/nagad/callback/${o.tranId}` });
    expect(p.order!.amount).toBe(`${Math.floor(o.total / 100)}.${String(o.total % 100).padStart(2, '0')}`);
    expect(p.order!.additionalMerchantInfo).toEqual({ invoiceId: o.invoiceId });
    expect(o.res.body.paymentUrl).toBe(`${nagad.origin}/check-out/${encodeURIComponent(o.paymentRefId)}`);
    expect(o.res.body.redirectTo).toBe(o.res.body.paymentUrl);
    expect(o.res.body.sale.paymentMethod).toBe('nagad');
  });

  it('fails the payment at once and releases the stock when Nagad is down or too slow to open it', async () => {
    nagad.down = true;
    const down = await nagadOrder();
    expect(down.res.body.redirectTo).toBe(`/payments/response/failed?invoiceId=${down.invoiceId}`);
    expect(await state(down.invoiceId)).toMatchObject({ status: 'payment_failed', paymentStatus: 'failed' });
    expect(await stockOf(t.db.kysely, down.sku.id)).toBe(2);
    nagad.down = false;

    const nc = t.app.nagad!;
    (t.app as { nagad: typeof nc }).nagad = createNagadClient({ ...t.app.config.payments.nagad!, timeoutMs: 200 });
    nagad.delayMs = 500;
    try {
      const slow = await nagadOrder();
      expect(slow.res.body.paymentUrl).toBeNull();
      expect(await state(slow.invoiceId)).toMatchObject({ status: 'payment_failed', paymentStatus: 'failed' });
      expect(await stockOf(t.db.kysely, slow.sku.id)).toBe(2);
    } finally {
      nagad.delayMs = 0;
      (t.app as { nagad: typeof nc }).nagad = nc;
    }
  });
});

describe('the Nagad callback', () => {
  it('marks the order paid once Nagad verifies it, and shows the wallet and its transaction id to the shopper', async () => {
    const o = await nagadOrder();
    nagad.complete(o.paymentRefId, 'success');
    expect(await callback(o.paymentRefId)).toBe(success(o.invoiceId));
    expect(await state(o.invoiceId)).toEqual({ status: 'confirmed', paymentStatus: 'paid', amountPaid: o.total });
    const issuerRef = nagad.payments.get(o.paymentRefId)!.issuerPaymentRefNo!;
    expect(await stockOf(t.db.kysely, o.sku.id)).toBe(1);

    const sale = await t.api(`/api/sales?invoiceId=${o.invoiceId}`, { headers: { 'x-order-token': o.token } });
    expect(sale.status, sale.text).toBe(200);
    expect(sale.body).toMatchObject({ paymentMethod: 'nagad', status: 'confirmed', paymentStatus: 'paid' });
    expect(sale.body.payments).toEqual([
      expect.objectContaining({ provider: 'nagad', status: 'valid', amount: o.total, cardType: 'Nagad', transactionId: issuerRef }),
    ]);
  });

  it('fails the payment and releases the stock when the wallet has too little money', async () => {
    const o = await nagadOrder();
    nagad.complete(o.paymentRefId, 'insufficient-balance');
    expect(await callback(o.paymentRefId)).toBe(`/payments/response/failed?invoiceId=${o.invoiceId}`);
    expect(await state(o.invoiceId)).toMatchObject({ status: 'payment_failed', paymentStatus: 'failed', amountPaid: 0 });
    expect(await stockOf(t.db.kysely, o.sku.id)).toBe(2);
    const payment = await t.db.kysely.selectFrom('payments').selectAll().where('tran_id', '=', o.tranId).executeTakeFirstOrThrow();
    expect(payment.status).toBe('failed');
    expect(payment.failure_reason).toContain('Failed');
  });

  it('fails the payment after wrong PINs (Nagad aborts it)', async () => {
    const o = await nagadOrder();
    nagad.complete(o.paymentRefId, 'wrong-pin');
    expect(await callback(o.paymentRefId)).toBe(`/payments/response/failed?invoiceId=${o.invoiceId}`);
    expect(await state(o.invoiceId)).toMatchObject({ status: 'payment_failed', paymentStatus: 'failed', amountPaid: 0 });
    expect(await stockOf(t.db.kysely, o.sku.id)).toBe(2);
    expect(nagad.payments.get(o.paymentRefId)!.debits).toBe(0);
  });

  it('cancels the payment once, releasing the stock once, however often the cancel comes back', async () => {
    const o = await nagadOrder();
    nagad.complete(o.paymentRefId, 'cancel');
    expect(await callback(o.paymentRefId)).toBe(`/payments/response/cancel?invoiceId=${o.invoiceId}`);
    expect(await state(o.invoiceId)).toMatchObject({ status: 'payment_cancelled', paymentStatus: 'cancelled' });
    expect(await stockOf(t.db.kysely, o.sku.id)).toBe(2);
    const entries = await historyCount(o.saleId);
    await Promise.all([callback(o.paymentRefId), callback(o.paymentRefId, { status: 'Aborted' })]);
    expect(await stockOf(t.db.kysely, o.sku.id)).toBe(2);
    expect(await historyCount(o.saleId)).toBe(entries);
    expect(await state(o.invoiceId)).toMatchObject({ status: 'payment_cancelled' });
  });

  it('lets the shopper pay a cancelled Nagad order again through Nagad, and pays it then', async () => {
    const o = await nagadOrder();
    nagad.complete(o.paymentRefId, 'cancel');
    await callback(o.paymentRefId);
    const headers = { 'x-order-token': o.token };
    const again = await t.api(`/api/checkouts/payments?invoiceId=${o.invoiceId}`, { method: 'POST', headers });
    expect(again.status, again.text).toBe(201);
    const second = await t.db.kysely.selectFrom('payments').selectAll().where('sale_id', '=', o.saleId).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(second.provider).toBe('nagad');
    expect(second.session_key).not.toBe(o.paymentRefId);
    expect(await stockOf(t.db.kysely, o.sku.id)).toBe(1);
    nagad.complete(second.session_key!, 'success');
    expect(await callback(second.session_key!)).toBe(`/payments/response/success?invoiceId=${o.invoiceId}`);
    expect(await state(o.invoiceId)).toMatchObject({ paymentStatus: 'paid', amountPaid: o.total });
  });

  it('pays once when the callback is replayed and when several arrive at the same moment', async () => {
    const o = await nagadOrder();
    nagad.complete(o.paymentRefId, 'success');
    const pages = await Promise.all(Array.from({ length: 5 }, () => callback(o.paymentRefId)));
    for (const page of pages) expect(page).toBe(success(o.invoiceId));
    const verifies = nagad.calls('/verify/payment/');
    // A replay after the payment was recorded does not even ask Nagad.
    expect(await callback(o.paymentRefId)).toBe(success(o.invoiceId));
    expect(nagad.calls('/verify/payment/')).toBe(verifies);
    expect(nagad.payments.get(o.paymentRefId)!.debits).toBe(1);
    expect(await state(o.invoiceId)).toEqual({ status: 'confirmed', paymentStatus: 'paid', amountPaid: o.total });
    const confirmed = await t.db.kysely
      .selectFrom('sale_status_history')
      .select('id')
      .where('sale_id', '=', o.saleId)
      .where('status', '=', 'confirmed')
      .execute();
    expect(confirmed).toHaveLength(1);
    expect(await stockOf(t.db.kysely, o.sku.id)).toBe(1);
    const recorded = await t.db.kysely.selectFrom('payments').select(['status']).where('sale_id', '=', o.saleId).execute();
    expect(recorded).toEqual([{ status: 'valid' }]);
  });

  it('never pays on a forged callback: the query says Success, Nagad says otherwise', async () => {
    // Nagad says the payer gave up: not paid, released.
    const aborted = await nagadOrder();
    nagad.complete(aborted.paymentRefId, 'wrong-pin');
    expect(await callback(aborted.paymentRefId, { status: 'Success', status_code: '00_0000_000', issuer_payment_ref: 'FORGED01' })).toBe(
      `/payments/response/failed?invoiceId=${aborted.invoiceId}`,
    );
    expect(await state(aborted.invoiceId)).toMatchObject({ status: 'payment_failed', paymentStatus: 'failed', amountPaid: 0 });

    // Nagad says the payer is still on its page: not paid, still waiting with its stock held.
    const open = await nagadOrder();
    expect(await callback(open.paymentRefId, { status: 'Success' })).toBe(success(open.invoiceId));
    expect(await state(open.invoiceId)).toMatchObject({ status: 'pending_payment', paymentStatus: 'pending', amountPaid: 0 });
    expect(await stockOf(t.db.kysely, open.sku.id)).toBe(1);
    const confirm = await t.api(`/api/checkouts/confirm?invoiceId=${open.invoiceId}`, { method: 'PATCH', json: {}, headers: { 'x-order-token': open.token } });
    expectApiError(confirm, 409, 'payment_not_verified');
  });

  it('never pays an order when Nagad reports another amount or order id', async () => {
    const o = await nagadOrder();
    nagad.complete(o.paymentRefId, 'success');
    nagad.payments.get(o.paymentRefId)!.order!.amount = '1.00';
    expect(await callback(o.paymentRefId)).toBe(`/payments/response/failed?invoiceId=${o.invoiceId}&reason=unverified`);
    expect(await state(o.invoiceId)).toMatchObject({ status: 'pending_payment', paymentStatus: 'pending', amountPaid: 0 });
    // The expiry job asks again: still not paid, and then released.
    await age(o.saleId);
    await expireStalePayments(orderDeps(t.app));
    expect(await state(o.invoiceId)).toMatchObject({ status: 'payment_expired', amountPaid: 0 });
    expect(await stockOf(t.db.kysely, o.sku.id)).toBe(2);

    const other = await nagadOrder();
    nagad.complete(other.paymentRefId, 'success');
    nagad.payments.get(other.paymentRefId)!.orderId = 'SOMEONEELSE01';
    expect(await callback(other.paymentRefId)).toContain('reason=unverified');
    expect(await state(other.invoiceId)).toMatchObject({ paymentStatus: 'pending', amountPaid: 0 });
  });

  it('answers a made-up or mismatched callback without changing anything', async () => {
    const o = await nagadOrder();
    const forged = await fetch(`${t.baseUrl}/payments/nagad/callback/${o.tranId}?payment_ref_id=FORGEDREF&status=Success`, { redirect: 'manual' });
    expect(forged.status).toBe(303);
    expect(forged.headers.get('location')).toBe('/orders');
    const unknown = await fetch(
      `${t.baseUrl}/payments/nagad/callback/TNOSUCHPAYMENT00000?payment_ref_id=${encodeURIComponent(o.paymentRefId)}&status=Cancelled`,
      {
        redirect: 'manual',
      },
    );
    expect(unknown.headers.get('location')).toBe('/orders');
    expect(await state(o.invoiceId)).toMatchObject({ status: 'pending_payment' });
    expect(await stockOf(t.db.kysely, o.sku.id)).toBe(1);
  });

  it('waits when Nagad cannot answer the verification in time, and settles once it can', async () => {
    const o = await nagadOrder();
    nagad.complete(o.paymentRefId, 'success');
    const nc = t.app.nagad!;
    (t.app as { nagad: typeof nc }).nagad = createNagadClient({ ...t.app.config.payments.nagad!, timeoutMs: 200 });
    try {
      nagad.delayMs = 500;
      expect(await callback(o.paymentRefId)).toBe(success(o.invoiceId));
      expect(await state(o.invoiceId)).toMatchObject({ status: 'pending_payment', paymentStatus: 'pending' });
      const busy = await t.api(`/api/checkouts/confirm?invoiceId=${o.invoiceId}`, { method: 'PATCH', json: {}, headers: { 'x-order-token': o.token } });
      expectApiError(busy, 503, 'payment_provider_unavailable');
    } finally {
      nagad.delayMs = 0;
      (t.app as { nagad: typeof nc }).nagad = nc;
    }
    // The confirm a success page makes: Nagad now verifies it.
    const confirm = await t.api(`/api/checkouts/confirm?invoiceId=${o.invoiceId}`, { method: 'PATCH', json: {}, headers: { 'x-order-token': o.token } });
    expect(confirm.status, confirm.text).toBe(200);
    expect(confirm.body).toMatchObject({ status: 'confirmed', paymentStatus: 'paid', changed: true });
  });
});

describe('the expiry job', () => {
  it('recovers a lost callback: Nagad says Success, so the order is paid instead of released', async () => {
    const o = await nagadOrder();
    nagad.complete(o.paymentRefId, 'success'); // paid, and the shopper's browser closed
    await age(o.saleId);
    const before = nagad.calls('/verify/payment/');
    await expireStalePayments(orderDeps(t.app));
    expect(nagad.calls('/verify/payment/')).toBeGreaterThan(before);
    expect(await state(o.invoiceId)).toEqual({ status: 'confirmed', paymentStatus: 'paid', amountPaid: o.total });
    expect(await stockOf(t.db.kysely, o.sku.id)).toBe(1);
    // The callback arriving late changes nothing.
    expect(await callback(o.paymentRefId)).toBe(success(o.invoiceId));
    expect(await state(o.invoiceId)).toEqual({ status: 'confirmed', paymentStatus: 'paid', amountPaid: o.total });
  });

  it('releases the stock of an abandoned Nagad payment after asking Nagad', async () => {
    const o = await nagadOrder();
    nagad.complete(o.paymentRefId, 'timeout');
    await age(o.saleId);
    await expireStalePayments(orderDeps(t.app));
    expect(await state(o.invoiceId)).toMatchObject({ status: 'payment_expired', paymentStatus: 'expired' });
    expect(await stockOf(t.db.kysely, o.sku.id)).toBe(2);
  });
});

describe('refunds of Nagad payments', () => {
  async function paidOrder() {
    const o = await nagadOrder(3);
    nagad.complete(o.paymentRefId, 'success');
    expect(await callback(o.paymentRefId)).toBe(success(o.invoiceId));
    return o;
  }
  const refund = (id: number, body: Record<string, unknown>) =>
    t.api(`/api/admin/orders/${id}/refunds`, { method: 'POST', json: body, headers: manager.headers });

  it('refuses a gateway refund clearly, since Nagad publishes no refund API, and records nothing', async () => {
    const o = await paidOrder();
    const before = nagad.requests.length;
    const res = await refund(o.saleId, { idempotencyKey: `ngrefund-${o.saleId}-gw`, method: 'gateway', amount: 10_000, reason: 'Scratched leg' });
    expectApiError(res, 409, 'refund_not_supported');
    expect(res.body.error.message).toMatch(/Nagad merchant portal/);
    expect(nagad.requests.length).toBe(before);
    expect(await t.db.kysely.selectFrom('refunds').select('id').where('sale_id', '=', o.saleId).execute()).toEqual([]);
    expect(await state(o.invoiceId)).toMatchObject({ paymentStatus: 'paid' });
    // The order screen does not offer the gateway for it in the first place.
    const screen = await t.api(`/api/admin/orders/${o.saleId}`, { headers: manager.headers });
    expect(screen.status, screen.text).toBe(200);
    expect(screen.body.gatewayRefund).toBe(false);
  });

  it('records a refund made in Nagad’s portal by hand, and refuses one over the paid amount', async () => {
    const o = await paidOrder();
    expectApiError(
      await refund(o.saleId, { idempotencyKey: `ngrefund-${o.saleId}-big`, method: 'wallet', amount: o.total + 1, reason: 'Too much', reference: 'NGD-RF-1' }),
      409,
      'refund_too_large',
    );
    const part = await refund(o.saleId, {
      idempotencyKey: `ngrefund-${o.saleId}-1`,
      method: 'wallet',
      amount: 10_000,
      reason: 'Scratched leg',
      reference: 'NGD-RF-2',
    });
    expect(part.status, part.text).toBe(201);
    expect(part.body.refund).toMatchObject({ method: 'wallet', status: 'refunded', amount: 10_000, reference: 'NGD-RF-2' });
    expect(part.body.order).toMatchObject({ paymentStatus: 'partially_refunded', refundedTotal: 10_000 });
    expectApiError(
      await refund(o.saleId, { idempotencyKey: `ngrefund-${o.saleId}-2`, method: 'wallet', amount: o.total - 9_999, reason: 'Rest', reference: 'NGD-RF-3' }),
      409,
      'refund_too_large',
    );
  });
});

describe('when Nagad is not configured', () => {
  let plain: TestApp;
  beforeAll(async () => {
    plain = await startPaymentsApp();
  });
  afterAll(async () => {
    await plain?.close();
  });

  it('does not list Nagad among the payment methods', async () => {
    expect((await plain.api('/api/checkouts/payment-methods')).body.list).not.toContain('nagad');
  });

  it('refuses Nagad as a payment method with the one error shape, writing nothing', async () => {
    const [sku] = await plainSkus(plain.db.kysely, 1, 330);
    await setStock(plain.db.kysely, sku.id, [2]);
    const before = await countRows(plain.db.kysely, 'sales');
    const res = await checkout(plain, checkoutBody([{ skuCode: sku.code, quantity: 1 }], { paymentMethod: 'nagad' }));
    expectApiError(res, 400);
    expect(res.body.error.fields).toHaveProperty('paymentMethod');
    expect(await countRows(plain.db.kysely, 'sales')).toBe(before);
    expect(await stockOf(plain.db.kysely, sku.id)).toBe(2);
  });
});
