import { formatMoney } from '@storefront/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SmsMessage, SmsSender } from '../src/modules/sms/sms.ts';
import { courierDeps } from '../src/modules/couriers/deps.ts';
import { pollConsignments } from '../src/modules/couriers/poll-consignments.ts';
import { signUp, type TestCustomer } from './helpers/accounts.ts';
import { expectApiError } from './helpers/assertions.ts';
import { checkout, checkoutBody, generousOrderLimits, plainSkus, saleRow, setStock, stockOf, type TestSku } from './helpers/checkout.ts';
import { signedInStaff, type TestStaff } from './helpers/staff.ts';
import { type SteadfastDeliveryStatus, type SteadfastStandIn, startSteadfastStandIn } from './helpers/steadfast-stand-in.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// Steadfast consignments in the back office's order workflow (docs/decisions/0040), on both
// databases, against the Steadfast stand-in over real HTTP: booking one order and a
// selection, the refusals (twice, a wrong state, the courier's own), the webhook (a forged
// token, a replay, delivered, cancelled after pickup putting the lines back once), the poll
// (and two at once), and the tracking the order's own shopper sees.

let t: TestApp;
let sf: SteadfastStandIn;
let staff: TestStaff;
let skus: TestSku[];
let next = 0;

beforeAll(async () => {
  sf = await startSteadfastStandIn();
  t = await startTestApp({
    config: {
      trustProxy: true,
      orders: generousOrderLimits(),
      couriers: {
        steadfast: { apiKey: sf.apiKey, secretKey: sf.secretKey, baseUrl: sf.url, webhookToken: sf.webhookToken, timeoutMs: 5_000 },
        pathao: null,
        // The tests run the poll themselves.
        pollEveryMs: 3_600_000,
        pollStaleMs: 60_000,
      },
    },
  });
  staff = await signedInStaff(t, 'staff');
  skus = await plainSkus(t.db.kysely, 40, 200);
});
afterAll(async () => {
  await t?.close();
  await sf?.close();
});

/** A cash-on-delivery order taken to `upTo` by staff (packed: ready for the courier). */
async function order(opts: { upTo?: 'placed' | 'confirmed' | 'packed'; customer?: TestCustomer; quantity?: number; lang?: 'bn' } = {}) {
  const sku = skus[next++];
  await setStock(t.db.kysely, sku.id, [10]);
  const headers = { ...(opts.customer?.auth ?? {}), ...(opts.lang ? { cookie: `lang=${opts.lang}` } : {}) };
  const res = await checkout(t, checkoutBody([{ skuCode: sku.code, quantity: opts.quantity ?? 2 }]), headers);
  expect(res.status, res.text).toBe(201);
  const row = await saleRow(t.db.kysely, res.body.invoiceId);
  const steps = { placed: [], confirmed: ['confirm'], packed: ['confirm', 'pack'] }[opts.upTo ?? 'packed'];
  for (const action of steps) {
    const r = await t.api(`/api/admin/orders/${row.id}/actions`, { method: 'POST', json: { action }, headers: staff.headers });
    expect(r.status, r.text).toBe(200);
  }
  return { id: row.id, invoiceId: row.invoice_id, token: res.body.accessToken as string, sku, total: Number(row.total) };
}

const book = (id: number) => t.api(`/api/admin/orders/${id}/consignment`, { method: 'POST', json: { courier: 'steadfast' }, headers: staff.headers });
const consignment = (id: number) => t.api(`/api/admin/orders/${id}/consignment`, { headers: staff.headers });
const status = async (id: number) => (await t.db.kysely.selectFrom('sales').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

async function booked(opts: Parameters<typeof order>[0] = {}) {
  const o = await order(opts);
  const r = await book(o.id);
  expect(r.status, r.text).toBe(201);
  return { ...o, cid: r.body.consignmentId as string, tracking: r.body.trackingCode as string };
}

/** Steadfast's rider moves the parcel on, and Steadfast posts its webhook. */
async function courierSays(cid: string, s: SteadfastDeliveryStatus, token?: string | null) {
  sf.advance(cid, s);
  return webhook(cid, token);
}
function webhook(cid: string, token?: string | null) {
  const req = sf.webhookRequest(cid, token === undefined ? {} : { token });
  return t.api('/api/couriers/steadfast/webhook', { method: 'POST', body: req.body, headers: req.headers, apiKey: null });
}

async function events(orderId: number) {
  return t.db.kysely
    .selectFrom('consignment_events')
    .innerJoin('consignments', 'consignments.id', 'consignment_events.consignment_id')
    .select(['consignment_events.status', 'consignment_events.courier_status', 'consignment_events.source'])
    .where('consignments.sale_id', '=', orderId)
    .orderBy('consignment_events.id')
    .execute();
}

describe('booking', () => {
  it('books a packed order with Steadfast: the rider collects the whole cash-on-delivery total, and the label has what it needs', async () => {
    const o = await order();
    const r = await book(o.id);
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({
      orderId: o.id,
      courier: 'steadfast',
      status: 'booked',
      courierStatus: 'in_review',
      codAmount: o.total,
      active: true,
      bookedBy: 'Test staff',
    });
    const parcel = sf.parcels.get(Number(r.body.consignmentId))!;
    expect(parcel).toMatchObject({ invoice: o.invoiceId, cod_amount: o.total / 100, recipient_phone: '01711111111', recipient_name: 'Karim Ahmed' });
    const read = await consignment(o.id);
    expect(read.status, read.text).toBe(200);
    expect(read.body.label).toEqual({
      invoice: o.invoiceId,
      recipientName: 'Karim Ahmed',
      recipientPhone: '01711111111',
      recipientAddress: 'House 5, Road 10, Gulshan 2, Dhaka, Dhaka',
      codAmount: o.total,
      consignmentId: r.body.consignmentId,
      trackingCode: parcel.tracking_code,
    });
    expect(read.body.history).toEqual([expect.objectContaining({ status: 'booked', courierStatus: 'in_review', source: 'staff' })]);
    // Booking does not ship the order: the courier's pickup does.
    expect(await status(o.id)).toBe('packed');
  });

  it('refuses to book an order twice with 409, and asks Steadfast nothing', async () => {
    const o = await booked();
    const before = sf.requests.length;
    expectApiError(await book(o.id), 409, 'already_booked');
    expect(sf.requests.length).toBe(before);
  });

  it('refuses to book an order the fulfilment table does not let ship (409), and writes nothing', async () => {
    const o = await order({ upTo: 'confirmed' });
    const before = sf.requests.length;
    expectApiError(await book(o.id), 409, 'transition_not_allowed');
    expect(sf.requests.length).toBe(before);
    expectApiError(await consignment(o.id), 404, 'not_found');
  });

  it('answers Steadfast’s refusal in the one error shape naming the field, and the order can be booked later', async () => {
    const o = await order();
    // Steadfast already has a parcel with this invoice: it refuses the second.
    const other = await booked();
    sf.parcels.get(Number(other.cid))!.invoice = o.invoiceId;
    const r = await book(o.id);
    expectApiError(r, 422, 'courier_refused');
    expect(r.body.error.fields).toEqual({ invoice: 'The invoice has already been taken.' });
    expectApiError(await consignment(o.id), 404, 'not_found');
    sf.parcels.get(Number(other.cid))!.invoice = other.invoiceId;
    expect((await book(o.id)).status).toBe(201);
  });

  it('books a selection in one request, each order with its own outcome', async () => {
    const good = await order();
    const refused = await order();
    const early = await order({ upTo: 'placed' });
    const taken = await booked();
    sf.parcels.get(Number(taken.cid))!.invoice = refused.invoiceId;
    const r = await t.api('/api/admin/consignments/bulk', {
      method: 'POST',
      json: { courier: 'steadfast', orderIds: [good.id, refused.id, early.id, taken.id] },
      headers: staff.headers,
    });
    expect(r.status, r.text).toBe(200);
    const [a, b, c, d] = r.body.results;
    expect(a).toMatchObject({ orderId: good.id, ok: true, consignment: { status: 'booked', codAmount: good.total } });
    expect(b).toMatchObject({ orderId: refused.id, ok: false, error: { code: 'courier_refused' } });
    expect(c).toMatchObject({ orderId: early.id, ok: false, error: { code: 'transition_not_allowed' } });
    expect(d).toMatchObject({ orderId: taken.id, ok: false, error: { code: 'already_booked' } });
    expect(sf.requests.filter((q) => q.path.endsWith('/create_order/bulk-order')).length).toBe(1);
    expect((await consignment(good.id)).status).toBe(200);
    expect((await consignment(refused.id)).status).toBe(404);
  });
});

describe('the webhook', () => {
  it('moves the order along as Steadfast reports: picked up → shipped, delivered → delivered', async () => {
    const o = await booked();
    expect((await courierSays(o.cid, 'pending')).status).toBe(200);
    expect(await status(o.id)).toBe('shipped');
    const r = await courierSays(o.cid, 'delivered');
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ status: 'success', outcome: 'recorded' });
    expect(await status(o.id)).toBe('fulfilled');
    const read = (await consignment(o.id)).body;
    expect(read).toMatchObject({ status: 'delivered', courierStatus: 'delivered', active: false });
    expect(read.history.map((h: any) => [h.status, h.source])).toEqual([
      ['booked', 'staff'],
      ['in_transit', 'webhook'],
      ['delivered', 'webhook'],
    ]);
    const history = await t.db.kysely.selectFrom('sale_status_history').select(['status', 'actor']).where('sale_id', '=', o.id).orderBy('id').execute();
    expect(history.filter((h) => h.actor === 'courier').map((h) => h.status)).toEqual(['shipped', 'fulfilled']);
    // The shopper hears of each step as when staff take it (the outbox: no SMTP in this app).
    const row = await saleRow(t.db.kysely, o.invoiceId);
    const mails = await t.db.kysely.selectFrom('mail_outbox').select('subject').where('to_address', '=', row.contact_email).orderBy('id').execute();
    expect(mails.map((m) => m.subject)).toEqual(expect.arrayContaining([`Order ${o.invoiceId} — on its way`, `Order ${o.invoiceId} — delivered`]));
  });

  it('holds the order for staff when Steadfast reports delivered with another amount collected, naming both amounts', async () => {
    const o = await booked();
    await courierSays(o.cid, 'pending');
    // The rider collected less than the parcel's cash-on-delivery amount (Steadfast's
    // delivery_status carries what was collected as cod_amount).
    const collected = o.total - 50_000;
    sf.parcels.get(Number(o.cid))!.cod_amount = collected / 100;
    const r = await courierSays(o.cid, 'delivered');
    expect(r.status, r.text).toBe(200);
    expect(await status(o.id)).toBe('on_hold');
    const history = await t.db.kysely.selectFrom('sale_status_history').select(['status', 'actor', 'note']).where('sale_id', '=', o.id).orderBy('id').execute();
    const last = history.at(-1)!;
    expect(last).toMatchObject({ status: 'on_hold', actor: 'courier' });
    expect(last.note).toContain(formatMoney(collected));
    expect(last.note).toContain(formatMoney(o.total));
    expect(history.filter((h) => h.status === 'fulfilled')).toHaveLength(0);
    // The parcel's own record says delivered; staff who have checked take the order on from the hold.
    expect((await consignment(o.id)).body).toMatchObject({ status: 'delivered', active: false });
    const view = await t.api(`/api/admin/orders/${o.id}`, { headers: staff.headers });
    expect(view.body.actions).toEqual(['deliver', 'return']);
    const done = await t.api(`/api/admin/orders/${o.id}/actions`, {
      method: 'POST',
      json: { action: 'deliver', note: 'Rider paid the rest at the hub' },
      headers: staff.headers,
    });
    expect(done.status, done.text).toBe(200);
    expect(await status(o.id)).toBe('fulfilled');

    // The amount the rider was to collect is delivered as usual.
    const right = await booked();
    await courierSays(right.cid, 'delivered');
    expect(await status(right.id)).toBe('fulfilled');
  });

  it('refuses a forged or missing token with 401, and nothing changes', async () => {
    const o = await booked();
    sf.advance(o.cid, 'delivered');
    for (const token of ['sf-webhook-token-forged', null]) {
      const r = await webhook(o.cid, token);
      expectApiError(r, 401, 'unauthorized');
    }
    expect(await status(o.id)).toBe('packed');
    expect(await events(o.id)).toHaveLength(1);
  });

  it('records a replayed webhook once', async () => {
    const o = await booked();
    await courierSays(o.cid, 'pending');
    const again = await webhook(o.cid);
    expect(again.status).toBe(200);
    expect(again.body.outcome).toBe('unchanged');
    expect((await events(o.id)).map((e) => e.courier_status)).toEqual(['in_review', 'pending']);
    const shipped = await t.db.kysely.selectFrom('sale_status_history').select('id').where('sale_id', '=', o.id).where('status', '=', 'shipped').execute();
    expect(shipped).toHaveLength(1);
  });

  it('takes a parcel cancelled after pickup as a return: the lines go back to stock exactly once', async () => {
    const o = await booked({ quantity: 3 });
    const stockBefore = await stockOf(t.db.kysely, o.sku.id);
    await courierSays(o.cid, 'pending');
    expect(await status(o.id)).toBe('shipped');
    await courierSays(o.cid, 'cancelled');
    expect(await status(o.id)).toBe('returned');
    expect(await stockOf(t.db.kysely, o.sku.id)).toBe(stockBefore + 3);
    // Steadfast posts it again, and reports it again through the approval step.
    await webhook(o.cid);
    await courierSays(o.cid, 'cancelled_approval_pending');
    expect(await stockOf(t.db.kysely, o.sku.id)).toBe(stockBefore + 3);
    const moves = await t.db.kysely.selectFrom('stock_movements').select('delta').where('sku_id', '=', o.sku.id).where('reason', '=', 'returned').execute();
    expect(moves.map((m) => Number(m.delta))).toEqual([3]);
  });

  it('records a cancellation before pickup without moving the order, and the order can be booked again', async () => {
    const o = await booked();
    await courierSays(o.cid, 'cancelled');
    expect(await status(o.id)).toBe('packed');
    expect((await consignment(o.id)).body).toMatchObject({ status: 'cancelled', active: false });
    const again = await book(o.id);
    expect(again.status, again.text).toBe(201);
    // Steadfast takes an invoice once: the second parcel of the order carries a suffix.
    expect(sf.parcels.get(Number(again.body.consignmentId))!.invoice).toBe(`${o.invoiceId}-2`);
    expect(again.body.label.invoice).toBe(o.invoiceId);
  });
});

describe('the poll', () => {
  const later = () => new Date(Date.now() + 2 * 3_600_000);

  it('asks Steadfast about parcels it has not reported on, and moves the order', async () => {
    const o = await booked();
    sf.advance(o.cid, 'pending');
    const r = await pollConsignments(courierDeps(t.app), later(), 100);
    expect(r.changed).toBeGreaterThanOrEqual(1);
    expect(await status(o.id)).toBe('shipped');
    expect((await events(o.id)).map((e) => [e.courier_status, e.source])).toEqual([
      ['in_review', 'staff'],
      ['pending', 'poll'],
    ]);
  });

  it('two polls at once ask about each parcel once and record its status once', async () => {
    const o = await booked();
    sf.advance(o.cid, 'delivered');
    sf.delayMs = 100;
    const asked = () => sf.requests.filter((q) => q.path.endsWith(`/status_by_cid/${o.cid}`)).length;
    const before = asked();
    try {
      await Promise.all([pollConsignments(courierDeps(t.app), later(), 100), pollConsignments(courierDeps(t.app), later(), 100)]);
    } finally {
      sf.delayMs = 0;
    }
    expect(asked() - before).toBe(1);
    expect((await events(o.id)).filter((e) => e.source === 'poll')).toHaveLength(1);
    expect(await status(o.id)).toBe('fulfilled');
  });
});

describe('the shopper', () => {
  it('sees the courier, the tracking code and each status on their own order; another shopper does not', async () => {
    const owner = await signUp(t);
    const stranger = await signUp(t);
    const o = await booked({ customer: owner });
    await courierSays(o.cid, 'pending');
    const mine = await t.api(`/api/sales?invoiceId=${o.invoiceId}`, { headers: owner.auth });
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.shipment).toMatchObject({ courier: 'steadfast', trackingCode: o.tracking, consignmentId: o.cid, status: 'in_transit' });
    expect(mine.body.shipment.statuses.map((s: any) => s.status)).toEqual(['booked', 'in_transit']);
    for (const s of mine.body.shipment.statuses) expect(Date.parse(s.at)).not.toBeNaN();

    const list = await t.api('/api/sales', { method: 'POST', json: { page: 1, size: 10 }, headers: owner.auth });
    expect(list.status, list.text).toBe(200);
    expect(list.body.list.find((s: any) => s.invoiceId === o.invoiceId).shipment.trackingCode).toBe(o.tracking);

    expect((await t.api(`/api/sales?invoiceId=${o.invoiceId}`, { headers: stranger.auth })).status).toBe(404);
    const theirs = await t.api('/api/sales', { method: 'POST', json: { page: 1, size: 10 }, headers: stranger.auth });
    expect(theirs.status, theirs.text).toBe(200);
    expect(JSON.stringify(theirs.body)).not.toContain(o.tracking);
    // Who in the shop booked it is not the shopper's business.
    expect(mine.body.shipment.statuses[0].message).toBeNull();
  });

  it('is texted, in the order’s language, when the parcel is on its way and when it is delivered; a failing gateway changes nothing', async () => {
    const sent: SmsMessage[] = [];
    const recorder: SmsSender = { name: 'recorder', send: async (m) => void sent.push(m) };
    const before = t.app.sms;
    t.app.sms = recorder;
    try {
      const o = await booked();
      const row = await saleRow(t.db.kysely, o.invoiceId);
      expect(sent).toEqual([]); // Booking is not news to the shopper; the pickup is.
      await courierSays(o.cid, 'pending');
      await courierSays(o.cid, 'delivered');
      expect(sent.map((m) => m.to)).toEqual([row.contact_mobile, row.contact_mobile]);
      expect(sent[0].text).toMatch(new RegExp(`: your order ${o.invoiceId} is on its way\\. Follow it at http\\S+/orders\\?invoiceId=${o.invoiceId}`));
      expect(sent[1].text).toContain(`your order ${o.invoiceId} was delivered`);
      // A replayed webhook texts nobody again.
      await webhook(o.cid);
      expect(sent).toHaveLength(2);

      const bn = await booked({ lang: 'bn' });
      await courierSays(bn.cid, 'pending');
      expect(sent[2].text).toContain(`আপনার অর্ডার ${bn.invoiceId} পথে আছে`);
      expect(sent[2].text).toContain('&lang=bn');

      t.app.sms = { name: 'broken', send: async () => Promise.reject(new Error('gateway down')) };
      const down = await booked();
      const r = await courierSays(down.cid, 'pending');
      expect(r.status, r.text).toBe(200);
      expect(await status(down.id)).toBe('shipped');
    } finally {
      t.app.sms = before;
    }
  });
});
