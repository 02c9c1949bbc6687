import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type PathaoStandIn, startPathaoStandIn } from '../../../test/helpers/pathao-stand-in.ts';
import { type ConsignmentRequest, CourierError } from './courier.ts';
import {
  createPathaoCourier,
  PATHAO_INTEGRATION_ANSWER,
  PATHAO_LIVE_URL,
  PATHAO_SANDBOX_URL,
  type PathaoCourier,
  type PathaoOptions,
  pathaoFromEnv,
  pathaoStatus,
  toPathaoWeight,
} from './pathao.client.ts';
import { memoryTokenCache } from './pathao-token.ts';

// One clock for the stand-in and the adapter, moved by the tests: token expiry without sleeping.
let clock = Date.parse('2026-11-27T10:00:00Z');
const now = () => clock;
const HOUR = 3_600_000;

let stand: PathaoStandIn;
let courier: PathaoCourier;
let n = 0;

const options = (over: Partial<PathaoOptions> = {}): PathaoOptions => ({
  clientId: stand.clientId,
  clientSecret: stand.clientSecret,
  username: stand.username,
  password: stand.password,
  storeId: stand.storeId,
  baseUrl: stand.url,
  webhookSecret: stand.webhookSecret,
  timeoutMs: 2_000,
  now,
  ...over,
});

const parcel = (over: Partial<ConsignmentRequest> = {}): ConsignmentRequest => ({
  invoice: `SO-${++n}`,
  recipientName: 'Karim Uddin',
  recipientPhone: '01812345678',
  recipientAddress: 'House 12, Road 6, Adabor, Dhaka',
  codAmount: 1_060_00,
  note: 'Call before coming',
  itemDescription: 'Bedside table',
  weightGrams: 4_200,
  itemCount: 1,
  destination: { cityId: 1, zoneId: 52, areaId: 37 },
  ...over,
});

const tokenRequests = () => stand.requests.filter((r) => r.path === '/aladdin/api/v1/issue-token');

beforeAll(async () => {
  stand = await startPathaoStandIn({ now, tokenTtlSeconds: 4 * 3600 });
  courier = createPathaoCourier(options());
});
afterAll(() => stand.close());
beforeEach(() => {
  stand.down = false;
  stand.delayMs = 0;
});

describe('Pathao booking', () => {
  it('books one parcel: issues a token, then sends the documented order fields', async () => {
    const before = stand.requests.length;
    const req = parcel({ codAmount: 1_060_00, weightGrams: 4_200 });
    const res = await courier.book(req);
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.consignmentId).toMatch(/^DL/);
    expect(res.courierStatus).toBe('Pending');
    expect(res.status).toBe('booked');
    expect(res.deliveryFee).toBe(120_00); // 60 for the first kg + 4 further kg or part × 15: the stand-in's tariff
    const sent = stand.requests.slice(before);
    expect(sent.map((r) => r.path)).toEqual(['/aladdin/api/v1/issue-token', '/aladdin/api/v1/orders']);
    expect(sent[0].body).toMatchObject({ grant_type: 'password', client_id: stand.clientId, username: stand.username });
    expect(sent[1].headers.authorization).toMatch(/^Bearer pathao-at-/);
    expect(sent[1].body).toEqual({
      store_id: stand.storeId,
      merchant_order_id: req.invoice,
      recipient_name: 'Karim Uddin',
      recipient_phone: '01812345678',
      recipient_address: req.recipientAddress,
      recipient_city: 1,
      recipient_zone: 52,
      recipient_area: 37,
      delivery_type: 48,
      item_type: 2,
      special_instruction: 'Call before coming',
      item_quantity: 1,
      item_weight: 4.2,
      item_description: 'Bedside table',
      amount_to_collect: 1060,
    });
  });

  it('refuses COD with poisha, a parcel over 10 kg and a missing destination without asking Pathao', async () => {
    const before = stand.requests.length;
    const res = await courier.book(parcel({ codAmount: 1_060_01, weightGrams: 10_050, destination: undefined }));
    expect(res.ok).toBe(false);
    if (res.ok) return;
    expect(res.reason).toBe('invalid');
    expect(Object.keys(res.fields).sort()).toEqual(['codAmount', 'destination', 'weightGrams']);
    expect(stand.requests.length).toBe(before);
  });

  it("reads Pathao's 422 as a typed result naming our fields", async () => {
    const res = await courier.book(parcel({ recipientAddress: 'Adabor', destination: { cityId: 1, zoneId: 420 } }));
    expect(res.ok).toBe(false);
    if (res.ok) return;
    expect(res.reason).toBe('invalid');
    expect(res.fields.recipientAddress).toMatch(/at least 10/);
    expect(res.fields.destination).toMatch(/zone/);
    expect(Object.keys(res.fields).sort()).toEqual(['destination', 'recipientAddress']);
  });

  it('charges a parcel lighter than half a kilo as half a kilo', () => {
    expect(toPathaoWeight(300)).toBe(0.5);
    expect(toPathaoWeight(1_001)).toBe(1.1);
    expect(toPathaoWeight(10_000)).toBe(10);
    expect(toPathaoWeight(10_001)).toBeNull();
    expect(toPathaoWeight(0)).toBeNull();
  });
});

describe('Pathao price', () => {
  it('asks the price plan and answers in poisha', async () => {
    const inside = await courier.price({ destination: { cityId: 1, zoneId: 52 }, weightGrams: 400 });
    expect(inside).toMatchObject({ ok: true, price: 60_00, finalPrice: 60_00, discount: 0, codPercentage: 0.01, planId: 69 });
    const outside = await courier.price({ destination: { cityId: 2, zoneId: 420 }, weightGrams: 2_300 });
    expect(outside).toMatchObject({ ok: true, finalPrice: 140_00 });
    const last = stand.requests.at(-1);
    expect(last?.path).toBe('/aladdin/api/v1/merchant/price-plan');
    expect(last?.body).toEqual({ store_id: stand.storeId, item_type: 2, delivery_type: 48, item_weight: 2.3, recipient_city: 2, recipient_zone: 420 });
  });

  it('refuses an unknown zone as a typed result', async () => {
    const res = await courier.price({ destination: { cityId: 2, zoneId: 52 }, weightGrams: 1_000 });
    expect(res).toMatchObject({ ok: false, reason: 'invalid' });
    if (!res.ok) expect(Object.keys(res.fields)).toEqual(['destination']);
  });

  it('lists cities, zones and areas', async () => {
    expect(await courier.cities()).toContainEqual({ id: 1, name: 'Dhaka' });
    expect(await courier.zones(1)).toContainEqual({ id: 52, name: 'Adabor' });
    expect(await courier.areas(52)).toContainEqual({ id: 37, name: 'Bonolota', homeDelivery: true, pickup: true });
  });
});

describe('Pathao token', () => {
  it('keeps the token between calls', async () => {
    const c = createPathaoCourier(options());
    const before = stand.issued.password;
    await c.cities();
    await c.zones(1);
    await c.price({ destination: { cityId: 1, zoneId: 52 }, weightGrams: 500 });
    expect(stand.issued.password).toBe(before + 1);
  });

  it('lets concurrent callers share one token request', async () => {
    const c = createPathaoCourier(options());
    const before = tokenRequests().length;
    stand.delayMs = 30;
    const lists = await Promise.all([c.cities(), c.zones(1), c.areas(52), c.cities(), c.zones(2)]);
    expect(lists.every((l) => l.length > 0)).toBe(true);
    expect(tokenRequests().length).toBe(before + 1);
  });

  it('refreshes with the refresh token before expiry, once for concurrent callers', async () => {
    const cache = memoryTokenCache();
    const c = createPathaoCourier(options({ tokenCache: cache }));
    await c.cities();
    const first = await cache.get();
    const { password, refresh_token } = stand.issued;
    // 4-hour tokens, refreshed an hour before expiry: at 2 h 59 min the token is kept, at 3 h 1 min it is refreshed.
    clock += 3 * HOUR - 60_000;
    await c.cities();
    expect(stand.issued.refresh_token).toBe(refresh_token);
    clock += 120_000;
    await Promise.all([c.cities(), c.zones(1), c.areas(52)]);
    expect(stand.issued).toEqual({ password, refresh_token: refresh_token + 1 });
    const second = await cache.get();
    expect(second?.accessToken).not.toBe(first?.accessToken);
    expect(second?.expiresAt).toBe(clock + 4 * HOUR);
  });

  it('falls back to the password when Pathao no longer knows the refresh token', async () => {
    const cache = memoryTokenCache({ accessToken: 'stale', refreshToken: 'pathao-rt-forgotten', issuedAt: 0, expiresAt: 1 });
    const c = createPathaoCourier(options({ tokenCache: cache }));
    const before = stand.issued.password;
    expect((await c.cities()).length).toBeGreaterThan(0);
    expect(stand.issued.password).toBe(before + 1);
  });

  it('gets a new token once when Pathao refuses the one it issued, and retries the call', async () => {
    const c = createPathaoCourier(options());
    await c.cities();
    stand.revokeAccessTokens();
    const before = { ...stand.issued };
    expect((await c.zones(1)).length).toBeGreaterThan(0);
    expect(stand.issued.refresh_token).toBe(before.refresh_token + 1);
  });

  it('throws CourierError when Pathao refuses the credentials', async () => {
    const c = createPathaoCourier(options({ password: 'wrong' }));
    await expect(c.cities()).rejects.toMatchObject({ name: 'CourierError', courier: 'pathao', reason: 'unauthorised' });
  });
});

describe('Pathao status', () => {
  it('follows a parcel to delivered', async () => {
    const res = await courier.book(parcel());
    if (!res.ok) throw new Error('not booked');
    expect(await courier.status(res.consignmentId)).toMatchObject({ found: true, courierStatus: 'Pending', status: 'booked' });
    const steps = [
      ['Pickup_Requested', 'booked'],
      ['Picked', 'picked_up'],
      ['At_the_Sorting_HUB', 'in_transit'],
      ['Assigned_for_Delivery', 'in_transit'],
      ['Delivered', 'delivered'],
    ] as const;
    for (const [slug, status] of steps) {
      stand.advance(res.consignmentId, slug);
      expect(await courier.status(res.consignmentId)).toMatchObject({ found: true, consignmentId: res.consignmentId, courierStatus: slug, status });
    }
  });

  it('follows a parcel that is returned', async () => {
    const res = await courier.book(parcel());
    if (!res.ok) throw new Error('not booked');
    stand.advance(res.consignmentId, 'Picked');
    stand.advance(res.consignmentId, 'Delivery_Failed');
    expect(await courier.status(res.consignmentId)).toMatchObject({ status: 'on_hold' });
    stand.advance(res.consignmentId, 'Return');
    expect(await courier.status(res.consignmentId)).toMatchObject({ courierStatus: 'Return', status: 'returned' });
  });

  it('says not found for an unknown consignment', async () => {
    expect(await courier.status('DL000000NOPE')).toMatchObject({ found: false });
  });

  it('maps the slugs and the webhook events to one vocabulary', () => {
    expect(pathaoStatus('Partial_Delivery')).toBe('partly_delivered');
    expect(pathaoStatus('order.partial-delivery')).toBe('partly_delivered');
    expect(pathaoStatus('order.received-at-last-mile-hub')).toBe('in_transit');
    expect(pathaoStatus('Pickup_Cancelled')).toBe('cancelled');
    expect(pathaoStatus('order.paid')).toBeNull();
    expect(pathaoStatus('Something_New')).toBe('unknown');
  });
});

describe('Pathao webhook', () => {
  it('accepts an event carrying the configured secret in X-PATHAO-Signature', async () => {
    const req = parcel({ codAmount: 2_500_00 });
    const res = await courier.book(req);
    if (!res.ok) throw new Error('not booked');
    stand.advance(res.consignmentId, 'Delivered');
    const { headers, body } = stand.webhookRequest(res.consignmentId);
    const v = courier.verifyWebhook(headers, body);
    expect(v).toMatchObject({
      ok: true,
      event: {
        kind: 'status',
        consignmentId: res.consignmentId,
        invoice: req.invoice,
        courierStatus: 'order.delivered',
        status: 'delivered',
        codAmount: 2_500_00,
      },
    });
  });

  it('reads a return with its reason', async () => {
    const res = await courier.book(parcel());
    if (!res.ok) throw new Error('not booked');
    stand.advance(res.consignmentId, 'Return');
    const { headers, body } = stand.webhookRequest(res.consignmentId);
    expect(courier.verifyWebhook(headers, body)).toMatchObject({ ok: true, event: { status: 'returned', message: 'Customer refused the parcel' } });
  });

  it('answers the integration check as the panel asks', () => {
    const { headers, body } = stand.integrationRequest();
    expect(courier.verifyWebhook(headers, body)).toMatchObject({ ok: true, event: { kind: 'integration', status: null } });
    expect(courier.webhookAnswer).toEqual({ status: 202, headers: { 'X-Pathao-Merchant-Webhook-Integration-Secret': PATHAO_INTEGRATION_ANSWER } });
  });

  it('refuses a forged or missing secret, and any webhook when no secret is configured', async () => {
    const res = await courier.book(parcel());
    if (!res.ok) throw new Error('not booked');
    for (const secret of [`${stand.webhookSecret}!`, stand.webhookSecret.toUpperCase(), '', null]) {
      const { headers, body } = stand.webhookRequest(res.consignmentId, { secret });
      expect(courier.verifyWebhook(headers, body)).toEqual({ ok: false, reason: 'unauthorised' });
    }
    const good = stand.webhookRequest(res.consignmentId);
    expect(createPathaoCourier(options({ webhookSecret: null })).verifyWebhook(good.headers, good.body)).toEqual({ ok: false, reason: 'unauthorised' });
    expect(courier.verifyWebhook(good.headers, '{"no": "event"}')).toEqual({ ok: false, reason: 'malformed' });
  });
});

describe('Pathao failures', () => {
  it('throws CourierError when Pathao is down, for the token and for the call', async () => {
    stand.down = true;
    await expect(createPathaoCourier(options()).cities()).rejects.toMatchObject({ reason: 'server_error', httpStatus: 500 });
    await expect(courier.book(parcel())).rejects.toBeInstanceOf(CourierError);
  });

  it('throws CourierError on a timeout', async () => {
    await courier.cities();
    stand.delayMs = 500;
    const slow = createPathaoCourier(options({ timeoutMs: 100 }));
    await expect(slow.cities()).rejects.toMatchObject({ reason: 'timeout' });
  });
});

describe('Pathao configuration', () => {
  const env = { PATHAO_CLIENT_ID: 'id', PATHAO_CLIENT_SECRET: 'secret', PATHAO_USERNAME: 'u@example.com', PATHAO_PASSWORD: 'p', PATHAO_STORE_ID: '130820' };
  it('reads the environment, choosing the sandbox unless told otherwise', () => {
    expect(pathaoFromEnv({})).toBeNull();
    expect(pathaoFromEnv({ ...env, PATHAO_STORE_ID: 'x' })).toBeNull();
    expect(pathaoFromEnv(env)).toMatchObject({ clientId: 'id', storeId: 130820, baseUrl: PATHAO_SANDBOX_URL, webhookSecret: null });
    expect(pathaoFromEnv({ ...env, PATHAO_SANDBOX: 'false' })?.baseUrl).toBe(PATHAO_LIVE_URL);
    expect(pathaoFromEnv({ ...env, PATHAO_SANDBOX: 'true' })?.baseUrl).toBe(PATHAO_SANDBOX_URL);
    expect(pathaoFromEnv({ ...env, PATHAO_BASE_URL: 'http://127.0.0.1:9', PATHAO_WEBHOOK_SECRET: 'w' })).toMatchObject({
      baseUrl: 'http://127.0.0.1:9',
      webhookSecret: 'w',
    });
  });
});
