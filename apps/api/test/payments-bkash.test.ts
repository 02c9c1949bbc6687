import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { orderDeps } from '../src/modules/orders/deps.ts';
import { expireStalePayments } from '../src/modules/orders/expire-payments.ts';
import { createBkashClient } from '../src/modules/payments/bkash/bkash.client.ts';
import { expectApiError } from './helpers/assertions.ts';
import type { BkashStandIn } from './helpers/bkash-stand-in.ts';
import {
  checkout,
  checkoutBody,
  countRows,
  onApp,
  plainSkus,
  saleRow,
  setStock,
  startBkashApp,
  startPaymentsApp,
  stockOf,
  type TestSku,
} from './helpers/checkout.ts';
import { signedInStaff, type TestStaff } from './helpers/staff.ts';
import type { TestApp } from './helpers/test-app.ts';

// bKash as a wallet payment method, through its tokenized checkout, against the local
// stand-in that speaks bKash's documented API: the order is created unpaid with its stock
// held, the shopper goes to bkashURL, and bKash's redirect to our callback is believed only
// once execute (or, when that answer is lost or says "already executed", the status query)
// says Completed with the order's amount and invoice.

let t: TestApp;
let bkash: BkashStandIn;
let manager: TestStaff;
let skus: TestSku[];
let next = 0;

beforeAll(async () => {
  ({ t, bkash } = await startBkashApp());
  manager = await signedInStaff(t, 'manager');
  skus = await plainSkus(t.db.kysely, 20, 320);
});
afterAll(async () => {
  await t?.close();
  await bkash?.close();
});
beforeEach(() => {
  bkash.down = false;
  bkash.delayMs = 0;
});

async function bkashOrder(stock = 2) {
  const sku = skus[next++];
  await setStock(t.db.kysely, sku.id, [stock]);
  const res = await checkout(t, checkoutBody([{ skuCode: sku.code, quantity: 1 }], { paymentMethod: 'bkash' }));
  expect(res.status, res.text).toBe(201);
  const sale = await saleRow(t.db.kysely, res.body.invoiceId);
  const payment = await t.db.kysely.selectFrom('payments').selectAll().where('sale_id', '=', sale.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
  return {
    sku,
    res,
    invoiceId: res.body.invoiceId as string,
    token: res.body.accessToken as string,
    paymentId: payment.session_key!,
    tranId: payment.tran_id,
    total: Number(sale.total),
    saleId: sale.id,
  };
}

/** The shopper's browser following bKash's redirect to our callback; where we send it next. */
async function callback(paymentId: string, status?: 'success' | 'failure' | 'cancel') {
  const res = await fetch(onApp(t, bkash.callbackUrl(paymentId, status)), { redirect: 'manual' });
  expect(res.status).toBe(303);
  return res.headers.get('location') ?? '';
}

const state = async (invoiceId: string) => {
  const s = await saleRow(t.db.kysely, invoiceId);
  return { status: s.status, paymentStatus: s.payment_status, amountPaid: Number(s.amount_paid) };
};
const historyCount = async (saleId: number) =>
  (await t.db.kysely.selectFrom('sale_status_history').select('id').where('sale_id', '=', saleId).execute()).length;

describe('placing a bKash order', () => {
  it('lists bKash among the payment methods checkout accepts', async () => {
    const res = await t.api('/api/checkouts/payment-methods');
    expect(res.status).toBe(200);
    expect(res.body.list).toEqual(['card', 'cod', 'later', 'bkash']);
  });

  it('holds the stock, creates the bKash payment for the server total and sends the shopper to bkashURL', async () => {
    const o = await bkashOrder();
    expect(await state(o.invoiceId)).toMatchObject({ status: 'pending_payment', paymentStatus: 'pending' });
    expect(await stockOf(t.db.kysely, o.sku.id)).toBe(1);
    const p = bkash.payments.get(o.paymentId)!;
    expect(p.poisha).toBe(o.total);
    expect(p.request).toMatchObject({ mode: '0011', currency: 'BDT', intent: 'sale', merchantInvoiceNumber: o.invoiceId });
    expect(p.request.callbackURL).toBe(`${t.baseUrl}/payments/bkash/callback/${o.tranId}`);
    expect(o.res.body.paymentUrl).toMatch(new RegExp(`^${bkash.origin}/redirect/tokenized/\\?paymentID=${o.paymentId}`));
    expect(o.res.body.redirectTo).toBe(o.res.body.paymentUrl);
    expect(o.res.body.sale.paymentMethod).toBe('bkash');
  });
});

describe('the bKash callback', () => {
  it('marks the order paid once bKash executes it, and shows the wallet and its trxID to the shopper', async () => {
    const o = await bkashOrder();
    bkash.complete(o.paymentId, 'success');
    expect(await callback(o.paymentId)).toBe(`/payments/response/success?invoiceId=${o.invoiceId}`);
    expect(await state(o.invoiceId)).toEqual({ status: 'confirmed', paymentStatus: 'paid', amountPaid: o.total });
    const trxId = bkash.payments.get(o.paymentId)!.trxID!;
    expect(trxId).toMatch(/^[A-Z0-9]{10}$/);
    expect(await stockOf(t.db.kysely, o.sku.id)).toBe(1);

    const sale = await t.api(`/api/sales?invoiceId=${o.invoiceId}`, { headers: { 'x-order-token': o.token } });
    expect(sale.status, sale.text).toBe(200);
    expect(sale.body).toMatchObject({ paymentMethod: 'bkash', status: 'confirmed', paymentStatus: 'paid' });
    expect(sale.body.payments).toEqual([
      expect.objectContaining({ provider: 'bkash', status: 'valid', amount: o.total, cardType: 'bKash', transactionId: trxId }),
    ]);
  });

  it('fails the payment and releases the stock when the wallet has too little money', async () => {
    const o = await bkashOrder();
    bkash.complete(o.paymentId, 'insufficient-balance');
    expect(await callback(o.paymentId)).toBe(`/payments/response/failed?invoiceId=${o.invoiceId}`);
    expect(await state(o.invoiceId)).toMatchObject({ status: 'payment_failed', paymentStatus: 'failed', amountPaid: 0 });
    expect(await stockOf(t.db.kysely, o.sku.id)).toBe(2);
    const payment = await t.db.kysely.selectFrom('payments').selectAll().where('tran_id', '=', o.tranId).executeTakeFirstOrThrow();
    expect(payment.status).toBe('failed');
    expect(payment.failure_reason).toContain('2023');
  });

  it('cancels the payment once, releasing the stock once, however often the cancel comes back', async () => {
    const o = await bkashOrder();
    bkash.complete(o.paymentId, 'cancel');
    expect(await callback(o.paymentId)).toBe(`/payments/response/cancel?invoiceId=${o.invoiceId}`);
    expect(await state(o.invoiceId)).toMatchObject({ status: 'payment_cancelled', paymentStatus: 'cancelled' });
    expect(await stockOf(t.db.kysely, o.sku.id)).toBe(2);
    const entries = await historyCount(o.saleId);
    await Promise.all([callback(o.paymentId), callback(o.paymentId, 'failure')]);
    expect(await stockOf(t.db.kysely, o.sku.id)).toBe(2);
    expect(await historyCount(o.saleId)).toBe(entries);
    expect(await state(o.invoiceId)).toMatchObject({ status: 'payment_cancelled' });
  });

  it('lets the shopper pay a cancelled bKash order again through bKash, reserving its stock again, and pays it then', async () => {
    const o = await bkashOrder();
    bkash.complete(o.paymentId, 'cancel');
    await callback(o.paymentId);
    expect(await stockOf(t.db.kysely, o.sku.id)).toBe(2);
    const headers = { 'x-order-token': o.token };
    expect((await t.api(`/api/sales?invoiceId=${o.invoiceId}`, { headers })).body.canRetryPayment).toBe(true);

    const again = await t.api(`/api/checkouts/payments?invoiceId=${o.invoiceId}`, { method: 'POST', headers });
    expect(again.status, again.text).toBe(201);
    // A new bKash payment for the same server total: bKash's page, not the card gateway's.
    const second = await t.db.kysely.selectFrom('payments').selectAll().where('sale_id', '=', o.saleId).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(second.provider).toBe('bkash');
    expect(second.session_key).not.toBe(o.paymentId);
    expect(again.body.paymentUrl).toBe(second.gateway_url);
    expect(again.body.paymentUrl.startsWith(bkash.origin)).toBe(true);
    expect(bkash.payments.get(second.session_key!)?.poisha).toBe(o.total);
    expect(await stockOf(t.db.kysely, o.sku.id)).toBe(1);

    bkash.complete(second.session_key!, 'success');
    expect(await callback(second.session_key!)).toBe(`/payments/response/success?invoiceId=${o.invoiceId}`);
    expect(await state(o.invoiceId)).toMatchObject({ paymentStatus: 'paid', amountPaid: o.total });
    // Paid: no further attempt, and the first (cancelled) attempt's callback changes nothing.
    expectApiError(await t.api(`/api/checkouts/payments?invoiceId=${o.invoiceId}`, { method: 'POST', headers }), 409, 'cannot_pay');
    await callback(o.paymentId);
    expect(await state(o.invoiceId)).toMatchObject({ paymentStatus: 'paid', amountPaid: o.total });
  });

  it('pays once when the callback is replayed and when several arrive at the same moment', async () => {
    const o = await bkashOrder();
    bkash.complete(o.paymentId, 'success');
    const pages = await Promise.all(Array.from({ length: 5 }, () => callback(o.paymentId)));
    for (const page of pages) expect(page).toBe(`/payments/response/success?invoiceId=${o.invoiceId}`);
    expect(await callback(o.paymentId)).toBe(`/payments/response/success?invoiceId=${o.invoiceId}`);
    const p = bkash.payments.get(o.paymentId)!;
    expect(p.debits).toBe(1);
    expect(await state(o.invoiceId)).toEqual({ status: 'confirmed', paymentStatus: 'paid', amountPaid: o.total });
    const confirmed = await t.db.kysely
      .selectFrom('sale_status_history')
      .select('id')
      .where('sale_id', '=', o.saleId)
      .where('status', '=', 'confirmed')
      .execute();
    expect(confirmed).toHaveLength(1);
    expect(await stockOf(t.db.kysely, o.sku.id)).toBe(1);
  });

  it('never pays an order when bKash completed another amount or invoice', async () => {
    const o = await bkashOrder();
    bkash.complete(o.paymentId, 'success');
    // bKash's answer carries another amount than the order's total.
    bkash.payments.get(o.paymentId)!.request.amount = '1.00';
    expect(await callback(o.paymentId)).toBe(`/payments/response/failed?invoiceId=${o.invoiceId}&reason=unverified`);
    expect(await state(o.invoiceId)).toMatchObject({ status: 'pending_payment', paymentStatus: 'pending', amountPaid: 0 });
    // Asked again (a replay, the expiry job): still not paid, and then released.
    expect(await callback(o.paymentId)).toContain('reason=unverified');
    await t.db.kysely
      .updateTable('sales')
      .set({ updated_at: new Date(Date.now() - 2 * 3_600_000).toISOString() })
      .where('id', '=', o.saleId)
      .execute();
    await expireStalePayments(orderDeps(t.app));
    expect(await state(o.invoiceId)).toMatchObject({ status: 'payment_expired', amountPaid: 0 });
    expect(await stockOf(t.db.kysely, o.sku.id)).toBe(2);

    const other = await bkashOrder();
    bkash.complete(other.paymentId, 'success');
    bkash.payments.get(other.paymentId)!.request.merchantInvoiceNumber = 'INV-SOMEONE-ELSE';
    expect(await callback(other.paymentId)).toContain('reason=unverified');
    expect(await state(other.invoiceId)).toMatchObject({ paymentStatus: 'pending', amountPaid: 0 });
  });

  it('settles a payment whose execute answer was lost by asking bKash, in the callback or the expiry job', async () => {
    const o = await bkashOrder();
    bkash.complete(o.paymentId, 'success');
    // The execute happens at bKash but its answer, and the status query's, never arrive.
    const bk = t.app.bkash!;
    const shortClient = createBkashClient({ ...t.app.config.payments.bkash!, timeoutMs: 300 });
    (t.app as { bkash: typeof bk }).bkash = shortClient;
    await shortClient.idToken();
    try {
      bkash.delayMs = 600;
      expect(await callback(o.paymentId)).toBe(`/payments/response/success?invoiceId=${o.invoiceId}`);
      expect(bkash.payments.get(o.paymentId)!.transactionStatus).toBe('Completed');
      expect(await state(o.invoiceId)).toMatchObject({ status: 'pending_payment', paymentStatus: 'pending' });
    } finally {
      bkash.delayMs = 0;
      (t.app as { bkash: typeof bk }).bkash = bk;
    }
    // The confirm a success page makes: bKash's status query says Completed.
    const confirm = await t.api(`/api/checkouts/confirm?invoiceId=${o.invoiceId}`, { method: 'PATCH', json: {}, headers: { 'x-order-token': o.token } });
    expect(confirm.status, confirm.text).toBe(200);
    expect(confirm.body).toMatchObject({ status: 'confirmed', paymentStatus: 'paid', changed: true });
    expect(bkash.payments.get(o.paymentId)!.debits).toBe(1);

    // A callback that never came back at all: the expiry job asks bKash before giving up.
    const lost = await bkashOrder();
    bkash.complete(lost.paymentId, 'success');
    await bk.executePayment(lost.paymentId); // executed, the shopper's browser then closed
    await t.db.kysely
      .updateTable('sales')
      .set({ updated_at: new Date(Date.now() - 2 * 3_600_000).toISOString() })
      .where('id', '=', lost.saleId)
      .execute();
    await expireStalePayments(orderDeps(t.app));
    expect(await state(lost.invoiceId)).toEqual({ status: 'confirmed', paymentStatus: 'paid', amountPaid: lost.total });
    expect(await stockOf(t.db.kysely, lost.sku.id)).toBe(1);
  });

  it('releases the stock of an abandoned bKash payment through the expiry job', async () => {
    const o = await bkashOrder();
    await t.db.kysely
      .updateTable('sales')
      .set({ updated_at: new Date(Date.now() - 2 * 3_600_000).toISOString() })
      .where('id', '=', o.saleId)
      .execute();
    const before = bkash.calls('/payment/status');
    await expireStalePayments(orderDeps(t.app));
    expect(bkash.calls('/payment/status')).toBeGreaterThan(before);
    expect(await state(o.invoiceId)).toMatchObject({ status: 'payment_expired', paymentStatus: 'expired' });
    expect(await stockOf(t.db.kysely, o.sku.id)).toBe(2);
  });

  it('answers a made-up or mismatched callback without changing anything', async () => {
    const o = await bkashOrder();
    const res = await fetch(`${t.baseUrl}/payments/bkash/callback/${o.tranId}?paymentID=TR0011FORGED&status=cancel`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/orders');
    expect(await state(o.invoiceId)).toMatchObject({ status: 'pending_payment' });
  });
});

describe('refunds of bKash payments', () => {
  async function paidOrder() {
    const o = await bkashOrder(3);
    bkash.complete(o.paymentId, 'success');
    expect(await callback(o.paymentId)).toContain('/success');
    return o;
  }
  const refund = (id: number, body: Record<string, unknown>) =>
    t.api(`/api/admin/orders/${id}/refunds`, { method: 'POST', json: body, headers: manager.headers });

  it('refunds part and then the rest through bKash, and refuses more than was paid', async () => {
    const o = await paidOrder();
    const part = await refund(o.saleId, { idempotencyKey: `bkrefund-${o.saleId}-1`, method: 'gateway', amount: 10_000, reason: 'Scratched leg' });
    expect(part.status, part.text).toBe(201);
    const p = bkash.payments.get(o.paymentId)!;
    expect(p.refunds).toHaveLength(1);
    expect(p.refunds[0]).toMatchObject({ poisha: 10_000, reason: 'Scratched leg' });
    expect(part.body.refund).toMatchObject({ status: 'refunded', amount: 10_000, reference: p.refunds[0].refundTrxID });
    expect(part.body.order).toMatchObject({ paymentStatus: 'partially_refunded', refundedTotal: 10_000 });

    const rest = await refund(o.saleId, { idempotencyKey: `bkrefund-${o.saleId}-2`, method: 'gateway', amount: o.total - 10_000, reason: 'Returned' });
    expect(rest.status, rest.text).toBe(201);
    expect(rest.body.refund.status).toBe('refunded');
    expect(p.refunds.reduce((n, r) => n + r.poisha, 0)).toBe(o.total);

    expectApiError(
      await refund(o.saleId, { idempotencyKey: `bkrefund-${o.saleId}-3`, method: 'gateway', amount: 100, reason: 'Again' }),
      409,
      'refund_too_large',
    );
    expect(p.refunds).toHaveLength(2);
  });

  it('refunds the whole payment at once, and refuses a refund above the paid amount before asking bKash', async () => {
    const o = await paidOrder();
    const calls = bkash.calls('/payment/refund');
    expectApiError(
      await refund(o.saleId, { idempotencyKey: `bkrefund-${o.saleId}-big`, method: 'gateway', amount: o.total + 1, reason: 'Too much' }),
      409,
      'refund_too_large',
    );
    expect(bkash.calls('/payment/refund')).toBe(calls);
    const full = await refund(o.saleId, {
      idempotencyKey: `bkrefund-${o.saleId}-full`,
      method: 'gateway',
      amount: o.total,
      reason: 'Cancelled by the shopper',
    });
    expect(full.status, full.text).toBe(201);
    expect(full.body.refund).toMatchObject({ status: 'refunded', amount: o.total });
    expect(bkash.payments.get(o.paymentId)!.refunds).toEqual([expect.objectContaining({ poisha: o.total })]);
  });
});

describe('when bKash is not configured', () => {
  let plain: TestApp;
  beforeAll(async () => {
    plain = await startPaymentsApp();
  });
  afterAll(async () => {
    await plain?.close();
  });

  it('does not list bKash among the payment methods', async () => {
    expect((await plain.api('/api/checkouts/payment-methods')).body.list).toEqual(['card', 'cod', 'later']);
  });

  it('refuses bKash as a payment method with the one error shape, writing nothing', async () => {
    const [sku] = await plainSkus(plain.db.kysely, 1, 330);
    await setStock(plain.db.kysely, sku.id, [2]);
    const before = await countRows(plain.db.kysely, 'sales');
    const res = await checkout(plain, checkoutBody([{ skuCode: sku.code, quantity: 1 }], { paymentMethod: 'bkash' }));
    expectApiError(res, 400);
    expect(res.body.error.fields).toHaveProperty('paymentMethod');
    expect(await countRows(plain.db.kysely, 'sales')).toBe(before);
    expect(await stockOf(plain.db.kysely, sku.id)).toBe(2);
  });
});
