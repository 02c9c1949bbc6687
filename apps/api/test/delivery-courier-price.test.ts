import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectApiError } from './helpers/assertions.ts';
import { ADDRESS, checkout, checkoutBody, generousOrderLimits, plainSkus, saleRow, setStock, type TestSku } from './helpers/checkout.ts';
import { type PathaoStandIn, standInPrice, startPathaoStandIn } from './helpers/pathao-stand-in.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// Home delivery priced by Pathao's quote for the address (docs/decisions/0045), on both
// databases, against the Pathao stand-in over real HTTP: the district and area matched to
// Pathao's city and zone by name (a renamed district by its old name), the zone's threshold
// still making delivery free, the zones' fee wherever Pathao cannot quote (no match, too
// heavy, Pathao down), and the order charged what the page showed. The demo zones: Dhaka
// city ৳500, free from ৳20,000; other districts ৳1,500.

let t: TestApp;
let plain: TestApp;
let px: PathaoStandIn;
let skus: TestSku[];
let next = 0;

const pathaoConfig = (p: PathaoStandIn) => ({
  clientId: p.clientId,
  clientSecret: p.clientSecret,
  username: p.username,
  password: p.password,
  storeId: p.storeId,
  baseUrl: p.url,
  webhookSecret: p.webhookSecret,
  timeoutMs: 2_000,
});

beforeAll(async () => {
  px = await startPathaoStandIn();
  const couriers = { steadfast: null, pathao: pathaoConfig(px), pollEveryMs: 3_600_000, pollStaleMs: 60_000, itemWeightGrams: 1000 };
  t = await startTestApp({ config: { trustProxy: true, orders: generousOrderLimits(), couriers: { ...couriers, deliveryPriceFrom: 'pathao' } } });
  // The same courier set up, but the shop prices by its zones (the default).
  plain = await startTestApp({ config: { trustProxy: true, couriers } });
  skus = await plainSkus(t.db.kysely, 10);
});
afterAll(async () => {
  await t?.close();
  await plain?.close();
  await px?.close();
});

const fee = (app: TestApp, q: Record<string, string | number>) =>
  app.api(`/api/delivery/fee?${new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)]))}`);
const priceCalls = () => px.requests.filter((r) => r.path.endsWith('/merchant/price-plan')).length;

describe('the delivery fee', () => {
  it('says the shop prices by the courier, and quotes Pathao’s price for a matched district and area', async () => {
    expect((await t.api('/api/delivery/zones')).body.pricedBy).toBe('courier');
    const r = await fee(t, { district: 'Dhaka', area: 'adabor', units: 1, itemsTotal: 100_000 });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ fee: standInPrice(1, 1) * 100, source: 'courier' });
    // Two items weigh two kilograms; outside the store's city costs more.
    expect((await fee(t, { district: 'Dhaka', area: 'Adabor', units: 2, itemsTotal: 100_000 })).body.fee).toBe(standInPrice(1, 2) * 100);
    // Chattogram is the district's name since 2018; Pathao's list still says Chittagong.
    expect((await fee(t, { district: 'Chattogram', area: 'Agrabad', units: 1, itemsTotal: 100_000 })).body).toEqual({
      fee: standInPrice(2, 1) * 100,
      source: 'courier',
    });
  });

  it('asks Pathao once for the same address and weight', async () => {
    await fee(t, { district: 'Rajshahi', area: 'Boalia', units: 3, itemsTotal: 100_000 });
    const calls = priceCalls();
    await Promise.all([1, 2, 3].map(() => fee(t, { district: 'Rajshahi', area: 'Boalia', units: 3, itemsTotal: 100_000 })));
    expect(priceCalls()).toBe(calls);
  });

  it('keeps the zone’s free delivery from its threshold, without asking Pathao', async () => {
    const calls = priceCalls();
    expect((await fee(t, { district: 'Dhaka', area: 'Adabor', units: 1, itemsTotal: 2_000_000 })).body).toEqual({ fee: 0, source: 'free' });
    expect(priceCalls()).toBe(calls);
  });

  it('falls back to the zone’s fee where Pathao cannot quote: an unknown area, a parcel above 10 kg, Pathao down', async () => {
    expect((await fee(t, { district: 'Dhaka', area: 'Nowhere Lane', units: 1, itemsTotal: 100_000 })).body).toEqual({ fee: 50_000, source: 'zone' });
    expect((await fee(t, { district: 'Dhaka', area: 'Adabor', units: 11, itemsTotal: 100_000 })).body).toEqual({ fee: 50_000, source: 'zone' });
    px.down = true;
    try {
      expect((await fee(t, { district: 'Rajshahi', area: 'Boalia', units: 4, itemsTotal: 100_000 })).body).toEqual({ fee: 150_000, source: 'zone' });
    } finally {
      px.down = false;
    }
  });

  it('answers the zones’ fee when the shop prices by its zones, and refuses bad input with the one error shape', async () => {
    expect((await plain.api('/api/delivery/zones')).body.pricedBy).toBe('zones');
    expect((await fee(plain, { district: 'Dhaka', area: 'Adabor', units: 1, itemsTotal: 100_000 })).body).toEqual({ fee: 50_000, source: 'zone' });
    expectApiError(await fee(t, { district: '', units: 1, itemsTotal: 0 }), 400);
    expectApiError(await fee(t, { district: 'Dhaka', units: 0, itemsTotal: 0 }), 400);
    expectApiError(await fee(t, { district: 'Dhaka', units: 1, itemsTotal: -5 }), 400);
  });
});

describe('the order', () => {
  it('charges Pathao’s quote for a matched address, and the zone’s fee for one Pathao cannot quote', async () => {
    // Rajshahi is in "Other districts" (no free delivery): the fee is always charged.
    const rajshahi = { ...ADDRESS, division: 'Rajshahi', district: 'Rajshahi' };
    const sku = skus[next++];
    await setStock(t.db.kysely, sku.id, [10]);
    const quoted = await checkout(t, checkoutBody([{ skuCode: sku.code, quantity: 2 }], { address: { ...rajshahi, area: 'Boalia' } }));
    expect(quoted.status, quoted.text).toBe(201);
    const row = await saleRow(t.db.kysely, quoted.body.invoiceId);
    expect(Number(row.delivery_fee)).toBe(standInPrice(4, 2) * 100);

    const unmatched = await checkout(t, checkoutBody([{ skuCode: sku.code, quantity: 1 }], { address: { ...rajshahi, area: 'Nowhere Lane' } }));
    expect(unmatched.status, unmatched.text).toBe(201);
    expect(Number((await saleRow(t.db.kysely, unmatched.body.invoiceId)).delivery_fee)).toBe(150_000);
  });
});
