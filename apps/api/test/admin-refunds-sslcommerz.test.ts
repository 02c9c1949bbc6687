import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectApiError } from './helpers/assertions.ts';
import { checkout, checkoutBody, plainSkus, saleRow, setStock, startSslcommerzApp, type TestSku } from './helpers/checkout.ts';
import { signedInStaff, type TestStaff } from './helpers/staff.ts';
import type { SslcommerzStandIn } from './helpers/sslcommerz-stand-in.ts';
import type { TestApp } from './helpers/test-app.ts';

// Refunds of card payments through SSLCommerz's refund API and its refund query, against the
// local stand-in that speaks them (docs/decisions/0032): the documented fields go out, the
// gateway's reference comes back, a refund it is processing is asked about until it is
// refunded or cancelled, and a cancelled or refused refund gives the balance back.

let t: TestApp;
let gw: SslcommerzStandIn;
let manager: TestStaff;
let skus: TestSku[];
let next = 0;

beforeAll(async () => {
  ({ t, gw } = await startSslcommerzApp());
  manager = await signedInStaff(t, 'manager');
  skus = await plainSkus(t.db.kysely, 10, 260);
});
afterAll(async () => {
  await t?.close();
  await gw?.close();
});

async function paidOrder() {
  const sku = skus[next++];
  await setStock(t.db.kysely, sku.id, [3]);
  const res = await checkout(t, checkoutBody([{ skuCode: sku.code, quantity: 1 }], { paymentMethod: 'card' }));
  expect(res.status, res.text).toBe(201);
  const sale = await saleRow(t.db.kysely, res.body.invoiceId);
  const payment = await t.db.kysely.selectFrom('payments').selectAll().where('sale_id', '=', sale.id).executeTakeFirstOrThrow();
  gw.complete(payment.tran_id, 'VALID');
  const ipn = await gw.sendIpn(payment.tran_id, t.baseUrl);
  expect(ipn.status).toBe(200);
  const paid = await saleRow(t.db.kysely, res.body.invoiceId);
  expect(paid.payment_status).toBe('paid');
  const verified = await t.db.kysely.selectFrom('payments').selectAll().where('id', '=', payment.id).executeTakeFirstOrThrow();
  return { id: sale.id, total: Number(sale.total), bankTranId: verified.bank_tran_id! };
}

const refund = (id: number, body: Record<string, unknown>) =>
  t.api(`/api/admin/orders/${id}/refunds`, { method: 'POST', json: body, headers: manager.headers });
const refresh = (id: number, refundId: number) => t.api(`/api/admin/orders/${id}/refunds/${refundId}/refresh`, { method: 'POST', headers: manager.headers });

describe('refunds through SSLCommerz', () => {
  it('sends the documented refund request, and follows the refund until the bank has refunded it', async () => {
    const o = await paidOrder();
    const r = await refund(o.id, { idempotencyKey: `sslrefund-${o.id}-1`, method: 'gateway', amount: 10_000, reason: 'Damaged on delivery' });
    expect(r.status, r.text).toBe(201);
    const sent = gw.requests.filter((q) => q.path === '/validator/api/merchantTransIDvalidationAPI.php' && q.fields.bank_tran_id === o.bankTranId);
    expect(sent).toHaveLength(1);
    expect(sent[0].fields).toMatchObject({
      store_id: gw.storeId,
      store_passwd: gw.storePassword,
      bank_tran_id: o.bankTranId,
      refund_amount: '100.00',
      refund_remarks: 'Damaged on delivery',
      format: 'json',
    });
    expect(sent[0].fields.refe_id).toContain(`sslrefund-${o.id}-1`);
    const refId = r.body.refund.reference;
    expect(gw.refunds.get(refId)).toMatchObject({ amount: '100.00', status: 'processing' });
    expect(r.body.refund.status).toBe('processing');

    // Still processing at the bank: it stays so.
    expect((await refresh(o.id, r.body.refund.id)).body.refund.status).toBe('processing');
    gw.settleRefund(refId, 'refunded');
    const done = await refresh(o.id, r.body.refund.id);
    expect(done.body.refund.status).toBe('refunded');
    expect(gw.requests.filter((q) => q.fields.refund_ref_id === refId)).toHaveLength(2);
    expect(done.body.order).toMatchObject({ paymentStatus: 'partially_refunded', refundedTotal: 10_000 });

    // The same key again: answered from our record, the gateway is not asked twice.
    const again = await refund(o.id, { idempotencyKey: `sslrefund-${o.id}-1`, method: 'gateway', amount: 10_000, reason: 'Damaged on delivery' });
    expect(again.status).toBe(200);
    expect(gw.requests.filter((q) => q.fields.bank_tran_id === o.bankTranId)).toHaveLength(1);
  });

  it('a refund the bank cancels gives the amount back to what can be refunded', async () => {
    const o = await paidOrder();
    const r = await refund(o.id, { idempotencyKey: `sslrefund-${o.id}-2`, method: 'gateway', amount: o.total, reason: 'Cancelled' });
    expect(r.body.order.refundable).toBe(0);
    gw.settleRefund(r.body.refund.reference, 'cancelled');
    const after = await refresh(o.id, r.body.refund.id);
    expect(after.body.refund).toMatchObject({ status: 'failed', failureReason: 'The gateway cancelled the refund' });
    expect(after.body.order).toMatchObject({ refundable: o.total, refundedTotal: 0, paymentStatus: 'paid' });
  });

  it('a gateway that cannot be reached leaves the refund processing, and asking again sends the same refe_id', async () => {
    const o = await paidOrder();
    gw.down = true;
    const r = await refund(o.id, { idempotencyKey: `sslrefund-${o.id}-3`, method: 'gateway', amount: 5_000, reason: 'Late delivery' });
    gw.down = false;
    expect(r.status, r.text).toBe(201);
    expect(r.body.refund).toMatchObject({ status: 'processing', reference: null });
    const retried = await refresh(o.id, r.body.refund.id);
    expect(retried.body.refund.reference).toMatch(/^RF/);
    const asks = gw.requests.filter((q) => q.fields.bank_tran_id === o.bankTranId);
    expect(asks).toHaveLength(2);
    expect(asks[0].fields.refe_id).toBe(asks[1].fields.refe_id);
    expect(gw.refunds.size).toBeGreaterThan(0);
    expect([...gw.refunds.values()].filter((x) => x.bankTranId === o.bankTranId)).toHaveLength(1);
  });

  it('never refunds more than was paid, whatever the gateway would take', async () => {
    const o = await paidOrder();
    expectApiError(
      await refund(o.id, { idempotencyKey: `sslrefund-${o.id}-4`, method: 'gateway', amount: o.total + 1, reason: 'too much' }),
      409,
      'refund_too_large',
    );
    expect(gw.requests.filter((q) => q.fields.bank_tran_id === o.bankTranId)).toHaveLength(0);
  });
});
