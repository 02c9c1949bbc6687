import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courierDeps } from '../src/modules/couriers/deps.ts';
import { PATHAO_INTEGRATION_ANSWER } from '../src/modules/couriers/pathao.client.ts';
import { pollConsignments } from '../src/modules/couriers/poll-consignments.ts';
import { expectApiError } from './helpers/assertions.ts';
import { checkout, checkoutBody, generousOrderLimits, plainSkus, saleRow, setStock, stockOf, type TestSku } from './helpers/checkout.ts';
import { type PathaoSlug, type PathaoStandIn, standInPrice, startPathaoStandIn } from './helpers/pathao-stand-in.ts';
import { signedInStaff, type TestStaff } from './helpers/staff.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// Pathao consignments in the back office's order workflow (docs/decisions/0040), on both
// databases, against the Pathao stand-in over real HTTP: booking one order to Pathao's city,
// zone and area with its weight, a selection (one request per order), Pathao's refusals under
// our field names, Pathao not set up, the webhook (its integration check, a forged signature,
// a replay, a return putting the lines back once), the poll, and the location lists.

let t: TestApp;
let px: PathaoStandIn;
let staff: TestStaff;
let skus: TestSku[];
let next = 0;

const DHAKA_ADABOR = { cityId: 1, zoneId: 52, areaId: 37 };

beforeAll(async () => {
  px = await startPathaoStandIn();
  t = await startTestApp({
    config: {
      trustProxy: true,
      orders: generousOrderLimits(),
      couriers: {
        steadfast: null,
        pathao: {
          clientId: px.clientId,
          clientSecret: px.clientSecret,
          username: px.username,
          password: px.password,
          storeId: px.storeId,
          baseUrl: px.url,
          webhookSecret: px.webhookSecret,
          timeoutMs: 5_000,
        },
        // The tests run the poll themselves.
        pollEveryMs: 3_600_000,
        pollStaleMs: 60_000,
      },
    },
  });
  staff = await signedInStaff(t, 'staff');
  skus = await plainSkus(t.db.kysely, 30, 200);
});
afterAll(async () => {
  await t?.close();
  await px?.close();
});

/** A cash-on-delivery order taken to `upTo` by staff (packed: ready for the courier). */
async function order(opts: { upTo?: 'placed' | 'packed'; quantity?: number } = {}) {
  const sku = skus[next++];
  await setStock(t.db.kysely, sku.id, [10]);
  const res = await checkout(t, checkoutBody([{ skuCode: sku.code, quantity: opts.quantity ?? 2 }]));
  expect(res.status, res.text).toBe(201);
  const row = await saleRow(t.db.kysely, res.body.invoiceId);
  for (const action of opts.upTo === 'placed' ? [] : ['confirm', 'pack']) {
    const r = await t.api(`/api/admin/orders/${row.id}/actions`, { method: 'POST', json: { action }, headers: staff.headers });
    expect(r.status, r.text).toBe(200);
  }
  return { id: row.id, invoiceId: row.invoice_id, sku, total: Number(row.total) };
}

const book = (id: number, body: Record<string, unknown> = { destination: DHAKA_ADABOR, weightGrams: 2500 }) =>
  t.api(`/api/admin/orders/${id}/consignment`, { method: 'POST', json: { courier: 'pathao', ...body }, headers: staff.headers });
const consignment = (id: number) => t.api(`/api/admin/orders/${id}/consignment`, { headers: staff.headers });
const status = async (id: number) => (await t.db.kysely.selectFrom('sales').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

async function booked(opts: Parameters<typeof order>[0] = {}) {
  const o = await order(opts);
  const r = await book(o.id);
  expect(r.status, r.text).toBe(201);
  return { ...o, cid: r.body.consignmentId as string };
}

function webhook(cid: string, secret?: string | null) {
  const req = px.webhookRequest(cid, secret === undefined ? {} : { secret });
  return t.api('/api/couriers/pathao/webhook', { method: 'POST', body: req.body, headers: req.headers, apiKey: null });
}
/** Pathao's rider moves the parcel on, and Pathao posts its webhook. */
function courierSays(cid: string, slug: PathaoSlug) {
  px.advance(cid, slug);
  return webhook(cid);
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
  it('books a packed order with Pathao to its city, zone and area: the rider collects the total, and Pathao’s fee is kept', async () => {
    const o = await order({ quantity: 3 });
    const r = await book(o.id);
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({
      orderId: o.id,
      courier: 'pathao',
      status: 'booked',
      courierStatus: 'Pending',
      codAmount: o.total,
      active: true,
      deliveryFee: standInPrice(1, 2.5) * 100,
      destination: DHAKA_ADABOR,
    });
    const sent = px.orders.get(r.body.consignmentId)!.body;
    expect(sent).toMatchObject({
      merchant_order_id: o.invoiceId,
      recipient_city: 1,
      recipient_zone: 52,
      recipient_area: 37,
      item_weight: 2.5,
      item_quantity: 3,
      amount_to_collect: o.total / 100,
      recipient_phone: '01711111111',
      store_id: px.storeId,
    });
    const read = await consignment(o.id);
    expect(read.status, read.text).toBe(200);
    expect(read.body).toMatchObject({ deliveryFee: standInPrice(1, 2.5) * 100, destination: DHAKA_ADABOR });
    expect(await status(o.id)).toBe('packed');
    // The shopper tracks a Pathao parcel by its consignment id.
    expect(read.body.label.consignmentId).toBe(r.body.consignmentId);
  });

  it('answers Pathao’s refusal as 422 courier_refused under our field names, and the order can be booked later', async () => {
    const o = await order();
    // Agrabad is a zone of Chittagong, not of Dhaka: Pathao refuses the zone.
    const r = await book(o.id, { destination: { cityId: 1, zoneId: 420 }, weightGrams: 1000 });
    expectApiError(r, 422, 'courier_refused');
    expect(r.body.error.fields).toEqual({ destination: 'The selected recipient zone is invalid.' });
    expectApiError(await consignment(o.id), 404, 'not_found');
    // Refused before asking Pathao: no destination, a parcel heavier than Pathao carries.
    const before = px.requests.filter((q) => q.path.endsWith('/orders')).length;
    const missing = await book(o.id, {});
    expectApiError(missing, 422, 'courier_refused');
    expect(Object.keys(missing.body.error.fields)).toEqual(['destination']);
    const heavy = await book(o.id, { destination: DHAKA_ADABOR, weightGrams: 25_000 });
    expectApiError(heavy, 422, 'courier_refused');
    expect(Object.keys(heavy.body.error.fields)).toEqual(['weightGrams']);
    expect(px.requests.filter((q) => q.path.endsWith('/orders')).length).toBe(before);
    expect((await book(o.id)).status).toBe(201);
  });

  it('refuses an order already booked (409) and asks Pathao nothing', async () => {
    const o = await booked();
    const before = px.requests.length;
    expectApiError(await book(o.id), 409, 'already_booked');
    expect(px.requests.length).toBe(before);
  });

  it('books a selection with one request per order, each order with its own outcome', async () => {
    const good = await order();
    const alsoGood = await order();
    const noPlace = await order();
    const early = await order({ upTo: 'placed' });
    const taken = await booked();
    const before = px.requests.filter((q) => q.path.endsWith('/orders')).length;
    const r = await t.api('/api/admin/consignments/bulk', {
      method: 'POST',
      json: {
        courier: 'pathao',
        orderIds: [good.id, alsoGood.id, noPlace.id, early.id, taken.id],
        parcels: [
          { orderId: good.id, destination: DHAKA_ADABOR, weightGrams: 1200 },
          { orderId: alsoGood.id, destination: { cityId: 2, zoneId: 420 } },
          { orderId: early.id, destination: DHAKA_ADABOR },
        ],
      },
      headers: staff.headers,
    });
    expect(r.status, r.text).toBe(200);
    const [a, b, c, d, e] = r.body.results;
    expect(a).toMatchObject({ orderId: good.id, ok: true, consignment: { courier: 'pathao', status: 'booked', codAmount: good.total } });
    expect(b).toMatchObject({
      orderId: alsoGood.id,
      ok: true,
      consignment: { destination: { cityId: 2, zoneId: 420 }, deliveryFee: standInPrice(2, 2) * 100 },
    });
    expect(c).toMatchObject({ orderId: noPlace.id, ok: false, error: { code: 'courier_refused', fields: { destination: expect.any(String) } } });
    expect(d).toMatchObject({ orderId: early.id, ok: false, error: { code: 'transition_not_allowed' } });
    expect(e).toMatchObject({ orderId: taken.id, ok: false, error: { code: 'already_booked' } });
    expect(px.requests.filter((q) => q.path.endsWith('/orders')).length - before).toBe(2);
    expect((await consignment(noPlace.id)).status).toBe(404);
  });

  it('is refused with 409 courier_not_configured when Pathao is not set up, booking or listing places', async () => {
    const o = await order();
    const saved = t.app.couriers.pathao;
    t.app.couriers.pathao = null;
    try {
      expectApiError(await book(o.id), 409, 'courier_not_configured');
      const bulk = await t.api('/api/admin/consignments/bulk', { method: 'POST', json: { courier: 'pathao', orderIds: [o.id] }, headers: staff.headers });
      expectApiError(bulk, 409, 'courier_not_configured');
      expectApiError(await t.api('/api/admin/couriers/pathao/cities', { headers: staff.headers }), 409, 'courier_not_configured');
      expectApiError(await t.api('/api/admin/couriers/pathao/cities/1/zones', { headers: staff.headers }), 409, 'courier_not_configured');
      const list = await t.api('/api/admin/couriers', { headers: staff.headers });
      if (list.status === 200) expect(list.body.items.map((c: any) => c.id)).not.toContain('pathao');
    } finally {
      t.app.couriers.pathao = saved;
    }
    expectApiError(await consignment(o.id), 404, 'not_found');
  });
});

describe('the webhook', () => {
  it('answers Pathao’s integration check with 202 and the header its panel expects', async () => {
    const req = px.integrationRequest();
    const r = await t.api('/api/couriers/pathao/webhook', { method: 'POST', body: req.body, headers: req.headers, apiKey: null });
    expect(r.status, r.text).toBe(202);
    expect(r.headers.get('x-pathao-merchant-webhook-integration-secret')).toBe(PATHAO_INTEGRATION_ANSWER);
    expect(r.body).toEqual({ status: 'success', outcome: 'integration' });
  });

  it('moves the order along as Pathao reports: picked → shipped, sorting hub → still shipped, delivered → delivered', async () => {
    const o = await booked();
    const picked = await courierSays(o.cid, 'Picked');
    expect(picked.status, picked.text).toBe(202);
    expect(picked.headers.get('x-pathao-merchant-webhook-integration-secret')).toBe(PATHAO_INTEGRATION_ANSWER);
    expect(await status(o.id)).toBe('shipped');
    await courierSays(o.cid, 'At_the_Sorting_HUB');
    expect(await status(o.id)).toBe('shipped');
    const r = await courierSays(o.cid, 'Delivered');
    expect(r.body).toEqual({ status: 'success', outcome: 'recorded' });
    expect(await status(o.id)).toBe('fulfilled');
    const read = (await consignment(o.id)).body;
    expect(read).toMatchObject({ status: 'delivered', courierStatus: 'Delivered', active: false });
    expect(read.history.map((h: any) => [h.status, h.courierStatus, h.source])).toEqual([
      ['booked', 'Pending', 'staff'],
      ['picked_up', 'Picked', 'webhook'],
      ['in_transit', 'At_the_Sorting_HUB', 'webhook'],
      ['delivered', 'Delivered', 'webhook'],
    ]);
    const history = await t.db.kysely.selectFrom('sale_status_history').select(['status', 'actor']).where('sale_id', '=', o.id).orderBy('id').execute();
    expect(history.filter((h) => h.actor === 'courier').map((h) => h.status)).toEqual(['shipped', 'fulfilled']);
  });

  it('refuses a forged or missing signature with 401, and nothing changes', async () => {
    const o = await booked();
    px.advance(o.cid, 'Delivered');
    for (const secret of ['pathao-webhook-secret-forged', null]) expectApiError(await webhook(o.cid, secret), 401, 'unauthorized');
    expect(await status(o.id)).toBe('packed');
    expect(await events(o.id)).toHaveLength(1);
  });

  it('records a replayed webhook once, and what the webhook said is not recorded again by the poll', async () => {
    const o = await booked();
    await courierSays(o.cid, 'Picked');
    const again = await webhook(o.cid);
    expect(again.status).toBe(202);
    expect(again.body.outcome).toBe('unchanged');
    await pollConsignments(courierDeps(t.app), new Date(Date.now() + 2 * 3_600_000), 100);
    expect((await events(o.id)).map((e) => e.courier_status)).toEqual(['Pending', 'Picked']);
    const shipped = await t.db.kysely.selectFrom('sale_status_history').select('id').where('sale_id', '=', o.id).where('status', '=', 'shipped').execute();
    expect(shipped).toHaveLength(1);
  });

  it('takes a returned parcel back into stock exactly once', async () => {
    const o = await booked({ quantity: 3 });
    const stockBefore = await stockOf(t.db.kysely, o.sku.id);
    await courierSays(o.cid, 'Picked');
    await courierSays(o.cid, 'Return');
    expect(await status(o.id)).toBe('returned');
    expect(await stockOf(t.db.kysely, o.sku.id)).toBe(stockBefore + 3);
    // Pathao posts it again, then settles the return.
    await webhook(o.cid);
    await courierSays(o.cid, 'Paid_Return');
    expect(await stockOf(t.db.kysely, o.sku.id)).toBe(stockBefore + 3);
    const moves = await t.db.kysely.selectFrom('stock_movements').select('delta').where('sku_id', '=', o.sku.id).where('reason', '=', 'returned').execute();
    expect(moves.map((m) => Number(m.delta))).toEqual([3]);
  });

  it('records a pickup cancelled before pickup without moving the order', async () => {
    const o = await booked();
    await courierSays(o.cid, 'Pickup_Cancelled');
    expect(await status(o.id)).toBe('packed');
    expect((await consignment(o.id)).body).toMatchObject({ status: 'cancelled', active: false });
  });
});

describe('the poll', () => {
  it('asks Pathao about parcels it has not reported on, and moves the order', async () => {
    const o = await booked();
    px.advance(o.cid, 'In_Transit');
    const r = await pollConsignments(courierDeps(t.app), new Date(Date.now() + 2 * 3_600_000), 100);
    expect(r.changed).toBeGreaterThanOrEqual(1);
    expect(await status(o.id)).toBe('shipped');
    expect((await events(o.id)).map((e) => [e.courier_status, e.source])).toEqual([
      ['Pending', 'staff'],
      ['In_Transit', 'poll'],
    ]);
    // Pathao's webhook for the same step, arriving late, records nothing more.
    expect((await webhook(o.cid)).body.outcome).toBe('unchanged');
  });
});

describe('Pathao’s places', () => {
  it('lists cities, zones of a city and areas of a zone, kept in memory for a while', async () => {
    const cities = await t.api('/api/admin/couriers/pathao/cities', { headers: staff.headers });
    expect(cities.status, cities.text).toBe(200);
    expect(cities.body.items).toEqual([
      { id: 1, name: 'Dhaka' },
      { id: 2, name: 'Chittagong' },
      { id: 4, name: 'Rajshahi' },
    ]);
    const zones = await t.api('/api/admin/couriers/pathao/cities/1/zones', { headers: staff.headers });
    expect(zones.body.items).toContainEqual({ id: 52, name: 'Adabor' });
    const areas = await t.api('/api/admin/couriers/pathao/zones/52/areas', { headers: staff.headers });
    expect(areas.body.items).toEqual([
      { id: 37, name: 'Bonolota', homeDelivery: true },
      { id: 3, name: 'Road 03', homeDelivery: true },
    ]);
    const asked = px.requests.length;
    await t.api('/api/admin/couriers/pathao/cities', { headers: staff.headers });
    await t.api('/api/admin/couriers/pathao/cities/1/zones', { headers: staff.headers });
    expect(px.requests.length).toBe(asked);
    expectApiError(await t.api('/api/admin/couriers/pathao/cities/abc/zones', { headers: staff.headers }), 400, 'validation_error');
  });

  it('answers 502 courier_unavailable when Pathao is down, and keeps no failure', async () => {
    px.down = true;
    try {
      expectApiError(await t.api('/api/admin/couriers/pathao/zones/610/areas', { headers: staff.headers }), 502, 'courier_unavailable');
    } finally {
      px.down = false;
    }
    expect((await t.api('/api/admin/couriers/pathao/zones/610/areas', { headers: staff.headers })).status).toBe(200);
  });
});
