import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SteadfastStandIn, startSteadfastStandIn } from '../../../test/helpers/steadfast-stand-in.ts';
import { CodAmountError, type ConsignmentRequest, CourierError, takaTextToMinor, toCourierPhone, toCourierTaka } from './courier.ts';
import { createSteadfastCourier, STEADFAST_LIVE_URL, type SteadfastCourier, steadfastFromEnv, steadfastStatus } from './steadfast.client.ts';

let stand: SteadfastStandIn;
let courier: SteadfastCourier;
let n = 0;

const parcel = (over: Partial<ConsignmentRequest> = {}): ConsignmentRequest => ({
  invoice: `INV-${Date.now().toString(36)}-${++n}`,
  recipientName: 'Rahima Akter',
  recipientPhone: '+880 1712-345678',
  recipientAddress: 'Flat A1, House 17/1, Road 3/A, Dhanmondi, Dhaka-1209',
  codAmount: 1_060_00,
  note: 'Deliver within 3 PM',
  itemDescription: 'Teak dining chair',
  weightGrams: 7_500,
  itemCount: 2,
  ...over,
});

beforeAll(async () => {
  stand = await startSteadfastStandIn();
  courier = createSteadfastCourier({
    apiKey: stand.apiKey,
    secretKey: stand.secretKey,
    baseUrl: stand.url,
    webhookToken: stand.webhookToken,
    timeoutMs: 2_000,
  });
});
afterAll(() => stand.close());
beforeEach(() => {
  stand.down = false;
  stand.delayMs = 0;
});

describe('Steadfast booking', () => {
  it('books one parcel with the documented headers and fields, COD in whole taka', async () => {
    const before = stand.requests.length;
    const res = await courier.book(parcel({ codAmount: 1_060_00 }));
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.consignmentId).toMatch(/^\d+$/);
    expect(res.trackingCode).toMatch(/^[0-9A-F]{8}$/);
    expect(res.courierStatus).toBe('in_review');
    expect(res.status).toBe('booked');
    const sent = stand.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0].path).toBe('/api/v1/create_order');
    expect(sent[0].headers['api-key']).toBe(stand.apiKey);
    expect(sent[0].headers['secret-key']).toBe(stand.secretKey);
    expect(sent[0].headers['content-type']).toBe('application/json');
    const body = sent[0].body as Record<string, unknown>;
    expect(body.cod_amount).toBe(1060);
    expect(body.recipient_phone).toBe('01712345678');
    expect(body.total_lot).toBe(2);
    expect(stand.parcels.get(Number(res.consignmentId))?.cod_amount).toBe(1060);
  });

  it('refuses a COD amount with poisha without asking Steadfast', async () => {
    const before = stand.requests.length;
    const res = await courier.book(parcel({ codAmount: 1_060_50 }));
    expect(res).toMatchObject({ ok: false, reason: 'invalid' });
    if (res.ok) return;
    expect(Object.keys(res.fields)).toEqual(['codAmount']);
    expect(res.fields.codAmount).toMatch(/1060\.50/);
    expect(stand.requests.length).toBe(before);
  });

  it('refuses a phone that is not a Bangladeshi mobile without asking Steadfast', async () => {
    const before = stand.requests.length;
    const res = await courier.book(parcel({ recipientPhone: '02-9123456' }));
    expect(res.ok).toBe(false);
    if (res.ok) return;
    expect(res.fields.recipientPhone).toBeTruthy();
    expect(stand.requests.length).toBe(before);
  });

  it("reads Steadfast's validation refusal as a typed result naming our fields", async () => {
    const first = parcel();
    expect((await courier.book(first)).ok).toBe(true);
    const res = await courier.book(parcel({ invoice: first.invoice, recipientAddress: 'x'.repeat(251) }));
    expect(res.ok).toBe(false);
    if (res.ok) return;
    expect(res.reason).toBe('invalid');
    expect(res.fields.invoice).toMatch(/already been taken/);
    expect(res.fields.recipientAddress).toMatch(/250/);
    expect(Object.keys(res.fields).sort()).toEqual(['invoice', 'recipientAddress']);
  });

  it('bulk-books several parcels and reports each one, some booked and some refused', async () => {
    const taken = parcel();
    expect((await courier.book(taken)).ok).toBe(true);
    const reqs = [parcel(), parcel({ invoice: taken.invoice }), parcel({ codAmount: 99_99 }), parcel()];
    const before = stand.requests.length;
    const results = await courier.bookMany(reqs);
    expect(results.map((r) => r.invoice)).toEqual(reqs.map((r) => r.invoice));
    expect(results.map((r) => r.ok)).toEqual([true, false, false, true]);
    expect(results[1]).toMatchObject({ ok: false, reason: 'refused' });
    expect(results[2]).toMatchObject({ ok: false, reason: 'invalid' });
    if (!results[2].ok) expect(Object.keys(results[2].fields)).toEqual(['codAmount']);
    // One request for what could be sent; the poisha order never left the shop.
    const sent = stand.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0].path).toBe('/api/v1/create_order/bulk-order');
    const data = JSON.parse((sent[0].body as { data: string }).data) as { invoice: string }[];
    expect(data.map((d) => d.invoice)).toEqual([reqs[0].invoice, reqs[1].invoice, reqs[3].invoice]);
    for (const r of [results[0], results[3]]) {
      if (r.ok) expect(stand.parcels.get(Number(r.consignmentId))?.invoice).toBe(r.invoice);
    }
  });

  it('splits a bulk booking into requests of at most 500', async () => {
    const before = stand.requests.length;
    const reqs = Array.from({ length: 501 }, () => parcel());
    const results = await courier.bookMany(reqs);
    expect(results.every((r) => r.ok)).toBe(true);
    const sent = stand.requests.slice(before).map((r) => (JSON.parse((r.body as { data: string }).data) as unknown[]).length);
    expect(sent).toEqual([500, 1]);
  });
});

describe('Steadfast status', () => {
  it('follows a parcel to delivered by consignment id, invoice and tracking code', async () => {
    const req = parcel();
    const res = await courier.book(req);
    if (!res.ok) throw new Error('not booked');
    expect(await courier.status(res.consignmentId)).toMatchObject({ found: true, courierStatus: 'in_review', status: 'booked' });
    stand.advance(res.consignmentId, 'pending');
    expect(await courier.statusByInvoice(req.invoice)).toMatchObject({ found: true, courierStatus: 'pending', status: 'in_transit' });
    stand.advance(res.consignmentId, 'delivered_approval_pending');
    expect(await courier.status(res.consignmentId)).toMatchObject({ status: 'delivered' });
    stand.advance(res.consignmentId, 'delivered');
    expect(await courier.statusByInvoice(req.invoice)).toMatchObject({ courierStatus: 'delivered', status: 'delivered' });
    expect(await courier.statusByTrackingCode(res.trackingCode!)).toMatchObject({ status: 'delivered' });
    expect(await courier.balance()).toBe(stand.balance * 100);
  });

  it('follows a parcel that comes back: hold, then cancelled, by id and by invoice', async () => {
    const req = parcel();
    const res = await courier.book(req);
    if (!res.ok) throw new Error('not booked');
    stand.advance(res.consignmentId, 'pending');
    stand.advance(res.consignmentId, 'hold');
    expect(await courier.status(res.consignmentId)).toMatchObject({ status: 'on_hold' });
    stand.advance(res.consignmentId, 'partial_delivered_approval_pending');
    expect(await courier.statusByInvoice(req.invoice)).toMatchObject({ status: 'partly_delivered' });
    stand.advance(res.consignmentId, 'cancelled');
    expect(await courier.status(res.consignmentId)).toMatchObject({ courierStatus: 'cancelled', status: 'cancelled' });
    expect(await courier.statusByInvoice(req.invoice)).toMatchObject({ status: 'cancelled' });
  });

  it('says not found for an unknown consignment or invoice', async () => {
    expect(await courier.status('999999999')).toMatchObject({ found: false });
    expect(await courier.statusByInvoice('NO-SUCH-INVOICE')).toMatchObject({ found: false });
  });

  it('maps every documented delivery_status, case-insensitively', () => {
    expect(steadfastStatus('in_review')).toBe('booked');
    expect(steadfastStatus('Delivered')).toBe('delivered');
    expect(steadfastStatus('partial_delivered')).toBe('partly_delivered');
    expect(steadfastStatus('cancelled_approval_pending')).toBe('cancelled');
    expect(steadfastStatus('hold')).toBe('on_hold');
    expect(steadfastStatus('unknown_approval_pending')).toBe('unknown');
    expect(steadfastStatus('something new')).toBe('unknown');
  });
});

describe('Steadfast webhook', () => {
  it('accepts a delivery_status update carrying the configured bearer token', async () => {
    const res = await courier.book(parcel({ codAmount: 1_500_00 }));
    if (!res.ok) throw new Error('not booked');
    stand.advance(res.consignmentId, 'delivered', 'Your package has been delivered successfully.');
    const { headers, body } = stand.webhookRequest(res.consignmentId);
    const v = courier.verifyWebhook(headers, body);
    expect(v.ok).toBe(true);
    if (!v.ok) return;
    expect(v.event).toMatchObject({
      kind: 'status',
      consignmentId: res.consignmentId,
      courierStatus: 'delivered',
      status: 'delivered',
      codAmount: 1_500_00,
      deliveryFee: 100_00,
      message: 'Your package has been delivered successfully.',
    });
  });

  it('accepts a tracking_update as a note that does not move the parcel', async () => {
    const res = await courier.book(parcel());
    if (!res.ok) throw new Error('not booked');
    stand.advance(res.consignmentId, 'pending', 'Package arrived at the sorting center.');
    const { headers, body } = stand.webhookRequest(res.consignmentId, { type: 'tracking_update' });
    expect(courier.verifyWebhook(headers, body)).toMatchObject({
      ok: true,
      event: { kind: 'tracking', status: null, message: 'Package arrived at the sorting center.' },
    });
  });

  it('refuses a forged or missing token, and any webhook when no token is configured', async () => {
    const res = await courier.book(parcel());
    if (!res.ok) throw new Error('not booked');
    const forged = stand.webhookRequest(res.consignmentId, { token: `${stand.webhookToken}x` });
    expect(courier.verifyWebhook(forged.headers, forged.body)).toEqual({ ok: false, reason: 'unauthorised' });
    const short = stand.webhookRequest(res.consignmentId, { token: stand.webhookToken.slice(0, -1) });
    expect(courier.verifyWebhook(short.headers, short.body)).toEqual({ ok: false, reason: 'unauthorised' });
    const none = stand.webhookRequest(res.consignmentId, { token: null });
    expect(courier.verifyWebhook(none.headers, none.body)).toEqual({ ok: false, reason: 'unauthorised' });
    const good = stand.webhookRequest(res.consignmentId);
    const unconfigured = createSteadfastCourier({ apiKey: 'k', secretKey: 's', baseUrl: stand.url, webhookToken: null });
    expect(unconfigured.verifyWebhook(good.headers, good.body)).toEqual({ ok: false, reason: 'unauthorised' });
  });

  it('refuses a body that is not a Steadfast update even with the right token', async () => {
    const headers = { authorization: `Bearer ${stand.webhookToken}` };
    expect(courier.verifyWebhook(headers, 'not json')).toEqual({ ok: false, reason: 'malformed' });
    expect(courier.verifyWebhook(headers, JSON.stringify({ notification_type: 'other', consignment_id: 1 }))).toEqual({ ok: false, reason: 'malformed' });
  });
});

describe('Steadfast failures', () => {
  it('throws CourierError when Steadfast is down', async () => {
    stand.down = true;
    await expect(courier.book(parcel())).rejects.toMatchObject({ name: 'CourierError', courier: 'steadfast', reason: 'server_error', httpStatus: 500 });
    await expect(courier.status('1')).rejects.toBeInstanceOf(CourierError);
  });

  it('throws CourierError on a timeout', async () => {
    stand.delayMs = 500;
    const slow = createSteadfastCourier({ apiKey: stand.apiKey, secretKey: stand.secretKey, baseUrl: stand.url, webhookToken: null, timeoutMs: 100 });
    await expect(slow.status('1')).rejects.toMatchObject({ reason: 'timeout' });
  });

  it('throws CourierError when nothing listens', async () => {
    const gone = await startSteadfastStandIn();
    const url = gone.url;
    await gone.close();
    const c = createSteadfastCourier({ apiKey: 'k', secretKey: 's', baseUrl: url, webhookToken: null, timeoutMs: 1_000 });
    await expect(c.book(parcel())).rejects.toMatchObject({ reason: 'unreachable' });
  });

  it('throws CourierError when Steadfast refuses the keys', async () => {
    const wrong = createSteadfastCourier({ apiKey: stand.apiKey, secretKey: 'wrong', baseUrl: stand.url, webhookToken: null });
    await expect(wrong.book(parcel())).rejects.toMatchObject({ reason: 'unauthorised', httpStatus: 401 });
  });
});

describe('money, phones and configuration', () => {
  it('converts COD exactly and refuses what a rider cannot collect', () => {
    expect(toCourierTaka(0)).toBe(0);
    expect(toCourierTaka(1_060_00)).toBe(1060);
    expect(toCourierTaka(9_007_199_254_740_900)).toBe(90_071_992_547_409);
    for (const bad of [1, 1_060_50, -100, 10.5, Number.NaN]) expect(() => toCourierTaka(bad)).toThrow(CodAmountError);
    expect(takaTextToMinor('1060.00')).toBe(1_060_00);
    expect(takaTextToMinor(83.46)).toBe(83_46);
    expect(takaTextToMinor(0.1 + 0.2)).toBeNull();
    expect(takaTextToMinor('12.345')).toBeNull();
  });

  it('sends mobiles as the 11 digits couriers want', () => {
    expect(toCourierPhone('01712345678')).toBe('01712345678');
    expect(toCourierPhone('+8801712345678')).toBe('01712345678');
    expect(toCourierPhone('৮৮০১৭১২৩৪৫৬৭৮')).toBe('01712345678');
    expect(toCourierPhone('01212345678')).toBeNull();
    expect(toCourierPhone('+447700900123')).toBeNull();
  });

  it('reads its configuration from the environment, or none', () => {
    expect(steadfastFromEnv({})).toBeNull();
    expect(steadfastFromEnv({ STEADFAST_API_KEY: 'k' })).toBeNull();
    expect(steadfastFromEnv({ STEADFAST_API_KEY: 'k', STEADFAST_SECRET_KEY: 's' })).toEqual({
      apiKey: 'k',
      secretKey: 's',
      baseUrl: STEADFAST_LIVE_URL,
      webhookToken: null,
    });
    expect(
      steadfastFromEnv({ STEADFAST_API_KEY: 'k', STEADFAST_SECRET_KEY: 's', STEADFAST_BASE_URL: 'http://127.0.0.1:1', STEADFAST_WEBHOOK_TOKEN: 't' }),
    ).toMatchObject({ baseUrl: 'http://127.0.0.1:1', webhookToken: 't' });
  });
});
