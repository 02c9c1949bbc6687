import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { parseCsv } from '../src/lib/csv.ts';
import { signOrderLink } from '../src/modules/orders/access.ts';
import { expectApiError } from './helpers/assertions.ts';
import { checkout, checkoutBody, generousOrderLimits, paySandbox, plainSkus, saleRow, setStock, stockOf, type TestSku } from './helpers/checkout.ts';
import { pngBytes, uploadForm } from './helpers/files.ts';
import { type SmtpSink, startSmtpSink } from './helpers/smtp-sink.ts';
import { signedInStaff, type TestStaff } from './helpers/staff.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// The life of an order in the back office (docs/decisions/0032), on both databases: every
// fulfilment step allowed and refused, stock back on cancel and return (as ledger lines),
// cash on delivery, payment proofs accepted and rejected, refunds against the sandbox gateway
// (full, partial, repeated, too large), the mails each step sends (parsed as received by a
// real SMTP server), the shop's own new-order mail, the signed order link of guests' mails,
// and the list's filters and CSV.

let t: TestApp;
let smtp: SmtpSink;
let staff: TestStaff;
let manager: TestStaff;
let skus: TestSku[];
let next = 0;

beforeAll(async () => {
  smtp = await startSmtpSink();
  const base = loadConfig({});
  t = await startTestApp({
    config: { trustProxy: true, orders: generousOrderLimits(), mail: { ...base.mail, smtpUrl: smtp.url, from: 'Shop <orders@shop.example>' } },
  });
  t.app.config.publicUrl = t.baseUrl;
  staff = await signedInStaff(t, 'staff');
  manager = await signedInStaff(t, 'manager');
  skus = await plainSkus(t.db.kysely, 40, 100);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

async function order(opts: { quantity?: number; lines?: number; method?: 'cod' | 'card' | 'later'; pickup?: boolean } = {}) {
  const mine = skus.slice(next, next + (opts.lines ?? 1));
  next += opts.lines ?? 1;
  for (const s of mine) await setStock(t.db.kysely, s.id, [10]);
  const branch = opts.pickup ? await t.db.kysely.selectFrom('branches').select('id').orderBy('sort_order').executeTakeFirstOrThrow() : null;
  const res = await checkout(
    t,
    checkoutBody(
      mine.map((s) => ({ skuCode: s.code, quantity: opts.quantity ?? 2 })),
      { paymentMethod: opts.method ?? 'cod', ...(branch ? { deliveryMethod: 'showroom_pickup', pickupBranchId: branch.id, address: undefined } : {}) },
    ),
  );
  expect(res.status, res.text).toBe(201);
  const row = await saleRow(t.db.kysely, res.body.invoiceId);
  return {
    id: row.id,
    invoiceId: row.invoice_id as string,
    token: res.body.accessToken as string,
    skus: mine,
    res,
    total: Number(row.total),
    email: row.contact_email,
  };
}

const act = (who: TestStaff, id: number, body: Record<string, unknown>) =>
  t.api(`/api/admin/orders/${id}/actions`, { method: 'POST', json: body, headers: who.headers });
const view = (id: number) => t.api(`/api/admin/orders/${id}`, { headers: staff.headers });

async function mailsTo(email: string, count: number) {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const found = smtp.mails.filter((m) => m.to.includes(email));
    if (found.length >= count || Date.now() > deadline) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function movements(skuId: number) {
  return t.db.kysely.selectFrom('stock_movements').selectAll().where('sku_id', '=', skuId).orderBy('id').execute();
}

describe('fulfilment steps', () => {
  it('takes a cash-on-delivery order from placed to delivered, each step in the history, the audit log and a mail', async () => {
    const o = await order();
    expect((await view(o.id)).body).toMatchObject({ status: 'placed', actions: ['confirm', 'cancel'], canCollectCash: false });
    for (const [action, status] of [
      ['confirm', 'confirmed'],
      ['pack', 'packed'],
      ['ship', 'shipped'],
      ['deliver', 'fulfilled'],
    ] as const) {
      const r = await act(staff, o.id, { action, note: `step ${action}` });
      expect(r.status, r.text).toBe(200);
      expect(r.body.status).toBe(status);
    }
    const after = (await view(o.id)).body;
    expect(after.history.filter((h: any) => h.actor === 'staff').map((h: any) => [h.status, h.staffName])).toEqual([
      ['confirmed', 'Test staff'],
      ['packed', 'Test staff'],
      ['shipped', 'Test staff'],
      ['fulfilled', 'Test staff'],
    ]);
    expect(after.confirmedAt && after.packedAt && after.shippedAt && after.fulfilledAt).toBeTruthy();
    expect(after.actions).toEqual(['return']);
    expect(after.canCollectCash).toBe(true);

    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .select(['action', 'staff_email'])
      .where('entity', '=', 'order')
      .where('entity_id', '=', o.invoiceId)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['order_confirm', 'order_pack', 'order_ship', 'order_deliver']);
    expect(new Set(audit.map((a) => a.staff_email))).toEqual(new Set([staff.email]));

    // The shopper's own view shows the same status and history.
    const mine = await t.api(`/api/sales?invoiceId=${o.invoiceId}`, { headers: { 'x-order-token': o.token } });
    expect(mine.body.status).toBe('fulfilled');
    expect(mine.body.history.map((h: any) => h.status)).toEqual(['placed', 'confirmed', 'packed', 'shipped', 'fulfilled']);

    // Placed, then one mail per step, each branded with an HTML and a text part.
    const mails = await mailsTo(o.email, 5);
    const subjects = [];
    for (const m of mails) {
      const parsed = await simpleParser(m.raw);
      subjects.push(parsed.subject);
      expect(parsed.text).toContain(o.invoiceId);
      expect(parsed.html).toContain('Nibash Furniture');
      expect(parsed.html).toContain('#1f4d3a');
      expect(parsed.text).toContain('Nibash Furniture');
    }
    expect(subjects).toEqual([
      `Order ${o.invoiceId} — confirmed`,
      `Order ${o.invoiceId} — confirmed by the shop`,
      `Order ${o.invoiceId} — packed`,
      `Order ${o.invoiceId} — on its way`,
      `Order ${o.invoiceId} — delivered`,
    ]);
  });

  it('refuses a step the order’s status does not allow with a 409 that says why, and changes nothing', async () => {
    const o = await order();
    for (const action of ['pack', 'ship', 'deliver', 'return', 'convert']) expectApiError(await act(staff, o.id, { action }), 409, 'transition_not_allowed');
    expect((await act(staff, o.id, { action: 'confirm' })).status).toBe(200);
    const again = await act(staff, o.id, { action: 'confirm' });
    expectApiError(again, 409, 'transition_not_allowed');
    expect(again.body.error.message).toMatch(/newly placed/);
    await act(staff, o.id, { action: 'pack' });
    await act(staff, o.id, { action: 'ship' });
    const cancel = await act(staff, o.id, { action: 'cancel' });
    expectApiError(cancel, 409, 'transition_not_allowed');
    expect(cancel.body.error.message).toMatch(/on its way/);
    expect((await saleRow(t.db.kysely, o.invoiceId)).status).toBe('shipped');

    // A showroom pickup is never shipped: packed, then handed over.
    const p = await order({ pickup: true });
    await act(staff, p.id, { action: 'confirm' });
    await act(staff, p.id, { action: 'pack' });
    expectApiError(await act(staff, p.id, { action: 'ship' }), 409, 'transition_not_allowed');
    expect((await act(staff, p.id, { action: 'deliver' })).body.status).toBe('fulfilled');

    // A booking is converted, not confirmed; a card order waiting for payment is not confirmed by hand.
    const b = await order({ method: 'later' });
    expectApiError(await act(staff, b.id, { action: 'confirm' }), 409, 'transition_not_allowed');
    const card = await order({ method: 'card' });
    expectApiError(await act(staff, card.id, { action: 'confirm' }), 409, 'transition_not_allowed');
    expectApiError(await act(staff, 2_000_000_000, { action: 'confirm' }), 404);
    expectApiError(await act(staff, o.id, { action: 'teleport' }), 400);
  });

  it('cancelling gives the stock back as ledger lines; a return restocks what came back', async () => {
    const o = await order({ quantity: 3 });
    const sku = o.skus[0];
    expect(await stockOf(t.db.kysely, sku.id)).toBe(7);
    const r = await act(staff, o.id, { action: 'cancel', note: 'Customer changed their mind' });
    expect(r.body).toMatchObject({ status: 'cancelled', paymentStatus: 'unpaid', actions: [] });
    expect(await stockOf(t.db.kysely, sku.id)).toBe(10);
    expect((await movements(sku.id)).map((m) => [m.delta, m.reason])).toEqual([[3, 'returned']]);
    const mail = (await mailsTo(o.email, 2)).at(-1)!;
    const parsed = await simpleParser(mail.raw);
    expect(parsed.subject).toBe(`Order ${o.invoiceId} — cancelled`);
    expect(parsed.text).toContain('Reason: Customer changed their mind');

    const d = await order({ quantity: 3, lines: 2 });
    for (const action of ['confirm', 'pack', 'ship']) await act(staff, d.id, { action });
    // Two units of the first line refused at the door: delivered in part.
    const partial = await act(staff, d.id, { action: 'deliver', lines: [{ lineNo: 1, quantity: 2 }] });
    expect(partial.body.status).toBe('fulfilled');
    expect(partial.body.lines.map((l: any) => l.returnedQuantity)).toEqual([2, 0]);
    expect(await stockOf(t.db.kysely, d.skus[0].id)).toBe(9);
    expectApiError(await act(staff, d.id, { action: 'return', lines: [{ lineNo: 1, quantity: 2 }] }), 409, 'too_many_returned');
    // The rest comes back later: the order is returned, and everything is in stock again.
    const all = await act(staff, d.id, { action: 'return' });
    expect(all.body.status).toBe('returned');
    expect(await stockOf(t.db.kysely, d.skus[0].id)).toBe(10);
    expect(await stockOf(t.db.kysely, d.skus[1].id)).toBe(10);
    expect((await movements(d.skus[1].id)).map((m) => [m.delta, m.reason, m.quantity_after])).toEqual([[3, 'returned', 10]]);
  });
});

describe('cash on delivery', () => {
  it('is recorded once the order is on its way, never above the total, with who and when', async () => {
    const o = await order();
    expectApiError(
      await t.api(`/api/admin/orders/${o.id}/cash`, { method: 'POST', json: { amount: o.total }, headers: staff.headers }),
      409,
      'transition_not_allowed',
    );
    for (const action of ['confirm', 'pack', 'ship']) await act(staff, o.id, { action });
    expectApiError(await t.api(`/api/admin/orders/${o.id}/cash`, { method: 'POST', json: { amount: o.total + 1 }, headers: staff.headers }), 400);
    expectApiError(
      await t.api(`/api/admin/orders/${o.id}/cash`, { method: 'POST', json: { amount: o.total, collectedOn: '2999-01-01' }, headers: staff.headers }),
      400,
    );
    const r = await t.api(`/api/admin/orders/${o.id}/cash`, { method: 'POST', json: { amount: o.total }, headers: staff.headers });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ paymentStatus: 'paid', amountPaid: o.total, codCollectedBy: 'Test staff', canCollectCash: false, refundable: o.total });
    expectApiError(await t.api(`/api/admin/orders/${o.id}/cash`, { method: 'POST', json: { amount: o.total }, headers: staff.headers }), 409);
  });
});

describe('bookings and payment proofs', () => {
  async function proof(o: { id: number; token: string }, name = 'slip.png') {
    const up = await t.api('/api/files', {
      method: 'POST',
      body: uploadForm({ bytes: pngBytes(20, 10), name, contentType: 'image/png' }),
      headers: { 'x-forwarded-for': '10.9.8.7' },
    });
    expect(up.status, up.text).toBe(200);
    const uuid = up.body.uuid;
    const r = await t.api('/api/sales/payments/attachments', { method: 'PATCH', json: { id: o.id, fileUuid: uuid }, headers: { 'x-order-token': o.token } });
    expect(r.status, r.text).toBe(200);
    return uuid as string;
  }

  it('rejects a proof with a reason the shopper reads, accepts the next, converts the booking, and tells the shop of each proof', async () => {
    const b = await order({ method: 'later' });
    const shopMails = () => smtp.mails.filter((m) => m.to.includes('orders@nibash.com.bd') && m.raw.includes(b.invoiceId));
    await proof(b);
    let admin = (await view(b.id)).body;
    expect(admin.paymentStatus).toBe('proof_submitted');
    expect(admin.proofs).toHaveLength(1);
    expect(admin.proofs[0]).toMatchObject({ reviewStatus: 'pending', mimeType: 'image/png' });
    expect(admin.proofs[0].url).toBeTruthy();

    expectApiError(
      await t.api(`/api/admin/orders/${b.id}/proofs/${admin.proofs[0].id}`, { method: 'POST', json: { decision: 'reject' }, headers: staff.headers }),
      400,
    );
    const rejected = await t.api(`/api/admin/orders/${b.id}/proofs/${admin.proofs[0].id}`, {
      method: 'POST',
      json: { decision: 'reject', reason: 'The slip shows another invoice number' },
      headers: staff.headers,
    });
    expect(rejected.body.paymentStatus).toBe('proof_rejected');
    const shopper = await t.api(`/api/sales?invoiceId=${b.invoiceId}`, { headers: { 'x-order-token': b.token } });
    expect(shopper.body).toMatchObject({ paymentStatus: 'proof_rejected', canUploadProof: true });
    expect(shopper.body.attachments[0]).toMatchObject({ reviewStatus: 'rejected', reviewNote: 'The slip shows another invoice number' });
    expect(shopper.body.holdUntil).toBeTruthy();
    const rejectMail = await simpleParser((await mailsTo(b.email, 2)).at(-1)!.raw);
    expect(rejectMail.subject).toBe(`Booking ${b.invoiceId} — payment proof not accepted`);
    expect(rejectMail.text).toContain('The slip shows another invoice number');
    expectApiError(
      await t.api(`/api/admin/orders/${b.id}/proofs/${admin.proofs[0].id}`, { method: 'POST', json: { decision: 'accept' }, headers: staff.headers }),
      409,
      'already_reviewed',
    );

    await proof(b, 'slip-2.png');
    admin = (await view(b.id)).body;
    const second = admin.proofs[1];
    expectApiError(
      await t.api(`/api/admin/orders/${b.id}/proofs/${second.id}`, {
        method: 'POST',
        json: { decision: 'accept', amount: b.total + 100 },
        headers: staff.headers,
      }),
      400,
    );
    const accepted = await t.api(`/api/admin/orders/${b.id}/proofs/${second.id}`, { method: 'POST', json: { decision: 'accept' }, headers: staff.headers });
    expect(accepted.body).toMatchObject({ paymentStatus: 'paid', amountPaid: b.total, holdUntil: null });
    expect((await t.api(`/api/sales?invoiceId=${b.invoiceId}`, { headers: { 'x-order-token': b.token } })).body.canUploadProof).toBe(false);
    expect(shopMails()).toHaveLength(3); // the booking and each of its two proofs

    const converted = await act(staff, b.id, { action: 'convert' });
    expect(converted.body).toMatchObject({ kind: 'order', status: 'confirmed', actions: ['pack', 'cancel'] });
  });

  it('a cancelled booking with money received shows "refund pending" until the refund is recorded', async () => {
    const b = await order({ method: 'later' });
    await proof(b);
    const p = (await view(b.id)).body.proofs[0];
    await t.api(`/api/admin/orders/${b.id}/proofs/${p.id}`, { method: 'POST', json: { decision: 'accept', amount: 100_000 }, headers: staff.headers });
    // A deposit: the booking is held for good, and the shopper may cancel it.
    const r = await t.api(`/api/sales?id=${b.id}`, { method: 'PATCH', json: { status: 'CANCELLED' }, headers: { 'x-order-token': b.token } });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ status: 'cancelled', paymentStatus: 'refund_pending', amountPaid: 100_000 });
    // Staff may not refund (money out is for managers); a manager records the bank refund.
    const body = { idempotencyKey: `bank-${b.id}-refund`, method: 'bank', amount: 100_000, reason: 'Booking cancelled', reference: 'DBBL-TRX-5531' };
    expectApiError(await t.api(`/api/admin/orders/${b.id}/refunds`, { method: 'POST', json: body, headers: staff.headers }), 403);
    expectApiError(
      await t.api(`/api/admin/orders/${b.id}/refunds`, { method: 'POST', json: { ...body, reference: undefined }, headers: manager.headers }),
      400,
    );
    const refund = await t.api(`/api/admin/orders/${b.id}/refunds`, { method: 'POST', json: body, headers: manager.headers });
    expect(refund.status, refund.text).toBe(201);
    expect(refund.body.refund).toMatchObject({ status: 'refunded', method: 'bank', reference: 'DBBL-TRX-5531', amount: 100_000 });
    const shopper = await t.api(`/api/sales?invoiceId=${b.invoiceId}`, { headers: { 'x-order-token': b.token } });
    expect(shopper.body.paymentStatus).toBe('refunded');
  });
});

describe('refunds through the sandbox gateway', () => {
  async function paidCard(lines = 2) {
    const o = await order({ method: 'card', lines, quantity: 1 });
    const paid = await paySandbox(t, o.res.body.paymentUrl, 'pay');
    expect(paid.location).toContain('/payments/response/success');
    expect((await saleRow(t.db.kysely, o.invoiceId)).payment_status).toBe('paid');
    return o;
  }
  const refund = (id: number, body: Record<string, unknown>) =>
    t.api(`/api/admin/orders/${id}/refunds`, { method: 'POST', json: body, headers: manager.headers });

  it('refunds a line, then the rest; never more than was paid; the same key refunds once', async () => {
    const o = await paidCard();
    const admin = (await view(o.id)).body;
    expect(admin).toMatchObject({ amountPaid: o.total, refundable: o.total, gatewayRefund: true });
    const line1 = admin.lines[0];

    const first = await refund(o.id, { idempotencyKey: `line-${o.id}-a`, method: 'gateway', lines: [{ lineNo: 1, quantity: 1 }], reason: 'Scratched leg' });
    expect(first.status, first.text).toBe(201);
    expect(first.body.refund).toMatchObject({ amount: line1.lineTotal, status: 'processing', lines: [{ lineNo: 1, quantity: 1 }] });
    expect(first.body.refund.reference).toMatch(/^SBR/);
    expect(first.body.order).toMatchObject({ paymentStatus: 'partially_refunded', refundedTotal: line1.lineTotal, refundable: o.total - line1.lineTotal });

    // The same request again (a double click, a retry) answers the first refund and refunds nothing more.
    const again = await refund(o.id, { idempotencyKey: `line-${o.id}-a`, method: 'gateway', lines: [{ lineNo: 1, quantity: 1 }], reason: 'Scratched leg' });
    expect(again.status).toBe(200);
    expect(again.body.refund.id).toBe(first.body.refund.id);
    const sandbox = await t.db.kysely.selectFrom('sandbox_refunds').selectAll().execute();
    expect(sandbox.filter((r) => r.refund_ref_id === first.body.refund.reference)).toHaveLength(1);

    // The same line again, and more than is left, are refused.
    expectApiError(
      await refund(o.id, { idempotencyKey: `line-${o.id}-b`, method: 'gateway', lines: [{ lineNo: 1, quantity: 1 }], reason: 'again' }),
      409,
      'refund_too_large',
    );
    expectApiError(
      await refund(o.id, { idempotencyKey: `amt-${o.id}-c`, method: 'gateway', amount: o.total - line1.lineTotal + 1, reason: 'too much' }),
      409,
      'refund_too_large',
    );
    expectApiError(await refund(o.id, { idempotencyKey: `amt-${o.id}-d`, method: 'gateway', amount: 0, reason: 'nothing' }), 400);

    // The gateway reports the refund done when asked.
    const refreshed = await t.api(`/api/admin/orders/${o.id}/refunds/${first.body.refund.id}/refresh`, { method: 'POST', headers: manager.headers });
    expect(refreshed.body.refund.status).toBe('refunded');

    const rest = await refund(o.id, { idempotencyKey: `amt-${o.id}-e`, method: 'gateway', amount: o.total - line1.lineTotal, reason: 'Order cancelled' });
    expect(rest.status, rest.text).toBe(201);
    expect(rest.body.order).toMatchObject({ paymentStatus: 'refunded', refundable: 0 });
    expectApiError(await refund(o.id, { idempotencyKey: `amt-${o.id}-f`, method: 'cash', amount: 100, reason: 'x', reference: 'R1' }), 409, 'refund_too_large');
    const mail = await simpleParser((await mailsTo(o.email, 3)).at(-1)!.raw);
    expect(mail.subject).toBe(`Order ${o.invoiceId} — refund`);
  });

  it('a key sent again with another request is refused with a 409 and refunds nothing more', async () => {
    const o = await paidCard(1);
    const body = { idempotencyKey: `reused-key-${o.id}`, method: 'bank', amount: 5_000, reason: 'Scratched leg', reference: 'DBBL-1' };
    const first = await refund(o.id, body);
    expect(first.status, first.text).toBe(201);
    // Another amount, other lines, another method or reference under the same key: a key names one request.
    for (const other of [
      { ...body, amount: 9_000 },
      { ...body, amount: undefined, lines: [{ lineNo: 1, quantity: 1 }] },
      { ...body, method: 'cash' },
      { ...body, reference: 'DBBL-2' },
    ]) {
      expectApiError(await refund(o.id, other), 409, 'idempotency_key_reused');
    }
    expect(Number((await saleRow(t.db.kysely, o.invoiceId)).refunded_total)).toBe(5_000);
    expect(await t.db.kysely.selectFrom('refunds').select('id').where('sale_id', '=', o.id).execute()).toHaveLength(1);
    // The same request again still answers the first refund.
    const again = await refund(o.id, body);
    expect(again.status).toBe(200);
    expect(again.body.refund.id).toBe(first.body.refund.id);
  });

  it('two refunds racing for the whole amount: one wins, the other is refused', async () => {
    const o = await paidCard(1);
    const [a, b] = await Promise.all([
      refund(o.id, { idempotencyKey: `race-${o.id}-1`, method: 'gateway', amount: o.total, reason: 'race' }),
      refund(o.id, { idempotencyKey: `race-${o.id}-2`, method: 'bank', amount: o.total, reason: 'race', reference: 'B-1' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    expect(Number((await saleRow(t.db.kysely, o.invoiceId)).refunded_total)).toBe(o.total);
  });

  it('cancelling a paid order leaves the money owed until it is refunded', async () => {
    const o = await paidCard(1);
    const c = await act(staff, o.id, { action: 'cancel', note: 'Out of stock at the factory' });
    expect(c.body).toMatchObject({ status: 'cancelled', paymentStatus: 'refund_pending', refundable: o.total });
    const r = await refund(o.id, { idempotencyKey: `cancel-${o.id}`, method: 'gateway', amount: 5_000, reason: 'part' });
    expect(r.body.order.paymentStatus).toBe('refund_pending');
    const all = await refund(o.id, { idempotencyKey: `cancel-${o.id}-2`, method: 'gateway', amount: o.total - 5_000, reason: 'rest' });
    expect(all.body.order.paymentStatus).toBe('refunded');
  });
});

describe('the signed order link of a guest’s mails', () => {
  it('opens the order on any device while valid; expired or tampered, it opens nothing', async () => {
    const o = await order();
    const mail = (await mailsTo(o.email, 1))[0];
    const parsed = await simpleParser(mail.raw);
    const link = /key=([\w-]+)/.exec(parsed.text ?? '')?.[1];
    expect(link).toBeTruthy();
    const read = (key: string) => t.api(`/api/sales?invoiceId=${o.invoiceId}`, { headers: { 'x-order-token': key } });
    expect((await read(link!)).status).toBe(200);
    // Another order's invoice with this key: nothing.
    const other = await order();
    expect((await t.api(`/api/sales?invoiceId=${other.invoiceId}`, { headers: { 'x-order-token': link! } })).status).toBe(404);
    const secret = t.app.orderLinkSecret;
    const expired = signOrderLink(secret, o.invoiceId, Date.now() - 61 * 86_400_000);
    expectApiError(await read(expired), 404);
    const tampered = `${link!.slice(0, 20)}${link![20] === 'A' ? 'B' : 'A'}${link!.slice(21)}`;
    expectApiError(await read(tampered), 404);
    expectApiError(await read(signOrderLink('another-secret', o.invoiceId)), 404);
    // And the invoice downloads as a PDF with it.
    const pdf = await t.api(`/api/sales/invoice?invoiceId=${o.invoiceId}`, { headers: { 'x-order-token': link! } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.text.startsWith('%PDF-')).toBe(true);
    expect((await t.api(`/api/sales/invoice?invoiceId=${o.invoiceId}`)).status).toBe(404);
  });
});

describe('the list', () => {
  it('filters, searches and exports as CSV', async () => {
    const o = await order({ method: 'later' });
    const row = await saleRow(t.db.kysely, o.invoiceId);
    const list = (q: string) => t.api(`/api/admin/orders?${q}`, { headers: staff.headers });
    expect((await list(`q=${o.invoiceId}`)).body.items.map((i: any) => i.invoiceId)).toEqual([o.invoiceId]);
    expect((await list(`q=${encodeURIComponent(row.contact_mobile.replace('+880', '0'))}`)).body.items.map((i: any) => i.invoiceId)).toEqual([o.invoiceId]);
    expect((await list(`q=${encodeURIComponent(row.contact_email.toUpperCase())}`)).body.items.map((i: any) => i.invoiceId)).toContain(o.invoiceId);
    const bookings = (await list('kind=booking&size=100')).body;
    expect(bookings.items.every((i: any) => i.kind === 'booking')).toBe(true);
    expect(bookings.items.map((i: any) => i.invoiceId)).toContain(o.invoiceId);
    const today = new Date(Date.now() + 6 * 3_600_000).toISOString().slice(0, 10);
    expect((await list(`from=${today}&to=${today}&q=${o.invoiceId}`)).body.total).toBe(1);
    expect((await list(`to=2020-01-01&q=${o.invoiceId}`)).body.total).toBe(0);
    expect((await list(`minTotal=${o.total}&maxTotal=${o.total}&q=${o.invoiceId}`)).body.total).toBe(1);
    expect((await list(`minTotal=${o.total + 1}&q=${o.invoiceId}`)).body.total).toBe(0);
    expectApiError(await list('from=yesterday'), 400);
    expectApiError(await list('status=lost'), 400);

    const csv = await t.api(`/api/admin/orders/export?kind=booking`, { headers: staff.headers });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = csv.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('invoice_id,kind,placed_at,status,payment_status,payment_method,delivery,customer,mobile,email,branch,total,paid,refunded');
    expect(lines.length - 1).toBe(bookings.total);
    expect(lines.find((l) => l.startsWith(o.invoiceId))).toContain(`,${(o.total / 100).toFixed(2)},`);
    // No cell a spreadsheet would run as a formula: a mobile (+880…) is written as text too.
    const cells = parseCsv(csv.text).rows.slice(1).flat();
    expect(cells.filter((c) => /^[=+\-@\t\r]/.test(c))).toEqual([]);
    expect(cells.filter((c) => c.startsWith("'+880")).length).toBe(bookings.total);
  });
});
