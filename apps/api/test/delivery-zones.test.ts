import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectApiError } from './helpers/assertions.ts';
import { ADDRESS, checkout, checkoutBody, generousOrderLimits, plainSkus, setStock, type TestSku } from './helpers/checkout.ts';
import { removeAllDiscounts } from './helpers/pricing-fixtures.ts';
import { signedInStaff, type TestStaff } from './helpers/staff.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// Delivery zones (docs/decisions/0033), on both databases: the three zones every shop starts
// with, the checkout charging each below, at and above its free-delivery threshold, the
// back office changing a zone (the next checkout charges it), and bad zones refused with the
// one error shape.

let t: TestApp;
let manager: TestStaff;
let staff: TestStaff;
let sku: TestSku;

beforeAll(async () => {
  t = await startTestApp({ config: { trustProxy: true, orders: generousOrderLimits() } });
  await removeAllDiscounts(t.db.kysely);
  manager = await signedInStaff(t, 'manager');
  staff = await signedInStaff(t, 'staff');
  [sku] = await plainSkus(t.db.kysely, 1, 120);
  await setStock(t.db.kysely, sku.id, [1000]);
});
afterAll(() => t?.close());

/** A cash-on-delivery order of one unit priced `price` poisha, delivered to `district` (or collected). */
async function orderAt(price: number, district: string | null) {
  await t.db.kysely.updateTable('skus').set({ sales_price: price, discounted_sales_price: null }).where('id', '=', sku.id).execute();
  const body = checkoutBody([{ skuCode: sku.code, quantity: 1 }], district ? { address: { ...ADDRESS, division: divisionOf(district), district } } : {});
  const res = await checkout(t, district ? body : { ...body, deliveryMethod: 'showroom_pickup', address: undefined, pickupBranchId: await showroom() });
  expect(res.status, res.text).toBe(201);
  expect(res.body.sale.subTotal).toBe(price);
  return res.body.sale as { deliveryFee: number; total: number };
}

const divisionOf = (district: string) => ({ Dhaka: 'Dhaka', Gazipur: 'Dhaka', Narayanganj: 'Dhaka', Chattogram: 'Chattogram', Sylhet: 'Sylhet' })[district]!;
const showroom = async () =>
  (await t.db.kysely.selectFrom('branches').select('id').where('kind', '<>', 'warehouse').orderBy('sort_order').executeTakeFirstOrThrow()).id;

describe('the zones a shop starts with', () => {
  it('are Dhaka city, Dhaka suburbs and everywhere else, as the shop’s pages promise', async () => {
    const res = await t.api('/api/delivery/zones');
    expect(res.status).toBe(200);
    expect(res.body.list.map((z: any) => [z.name, z.fee, z.freeFrom, `${z.etaMinDays}-${z.etaMaxDays}`])).toEqual([
      ['Dhaka city', 50_000, 2_000_000, '1-3'],
      ['Dhaka suburbs', 100_000, null, '2-4'],
      ['Other districts', 150_000, null, '3-7'],
    ]);
    expect(res.body.list[0].districts).toEqual(['Dhaka']);
    expect(res.body.list[2].districts).toEqual([]);
  });

  it('charge below the threshold, and nothing at or above it, in each zone', async () => {
    // Dhaka city: free from ৳20,000.
    expect((await orderAt(1_999_900, 'Dhaka')).deliveryFee).toBe(50_000);
    expect((await orderAt(2_000_000, 'Dhaka')).deliveryFee).toBe(0);
    const above = await orderAt(2_000_100, 'Dhaka');
    expect(above).toMatchObject({ deliveryFee: 0, total: 2_000_100 });
    // The suburbs and elsewhere have no threshold: the fee whatever the amount.
    for (const price of [1_999_900, 2_000_000, 9_000_000]) {
      expect((await orderAt(price, 'Gazipur')).deliveryFee).toBe(100_000);
      expect((await orderAt(price, 'Sylhet')).deliveryFee).toBe(150_000);
    }
    // A showroom pickup is free.
    expect((await orderAt(500_000, null)).deliveryFee).toBe(0);
  });
});

describe('the back office', () => {
  const zones = async () => (await t.api('/api/admin/delivery/zones', { headers: manager.headers })).body.items as any[];
  const put = (who: TestStaff, z: any, patch: Record<string, unknown>) =>
    t.api(`/api/admin/delivery/zones/${z.id}`, {
      method: 'PUT',
      json: {
        name: z.name,
        districts: z.districts,
        fee: z.fee,
        freeFrom: z.freeFrom,
        etaMinDays: z.etaMinDays,
        etaMaxDays: z.etaMaxDays,
        version: z.version,
        ...patch,
      },
      headers: who.headers,
    });

  it('a manager changes a zone and the next checkout charges it; the change is audited', async () => {
    const suburbs = (await zones()).find((z) => z.name === 'Dhaka suburbs');
    const r = await put(manager, suburbs, { freeFrom: 3_000_000, fee: 80_000 });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ fee: 80_000, freeFrom: 3_000_000, version: suburbs.version + 1 });
    expect((await orderAt(2_999_900, 'Narayanganj')).deliveryFee).toBe(80_000);
    expect((await orderAt(3_000_000, 'Narayanganj')).deliveryFee).toBe(0);
    // The version read is stale now.
    expectApiError(await put(manager, suburbs, { fee: 1 }), 409, 'stale_version');
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('entity', '=', 'delivery_zone')
      .where('entity_id', '=', String(suburbs.id))
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['delivery_zone_updated']);
    expect(JSON.parse(audit[0].diff)).toHaveProperty('fee');
    // Staff fulfil orders; they do not set prices.
    expectApiError(await put(staff, r.body, { fee: 1 }), 403);
  });

  it('adds a zone for some districts, which then win over everywhere else', async () => {
    const made = await t.api('/api/admin/delivery/zones', {
      method: 'POST',
      json: { name: 'Chattogram city', districts: ['chattogram'], fee: 120_000, freeFrom: null, etaMinDays: 2, etaMaxDays: 5, sortOrder: 1 },
      headers: manager.headers,
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body.districts).toEqual(['Chattogram']);
    expect((await orderAt(1_000_000, 'Chattogram')).deliveryFee).toBe(120_000);
    const removed = await t.api(`/api/admin/delivery/zones/${made.body.id}`, { method: 'DELETE', headers: manager.headers });
    expect(removed.status).toBe(204);
    expect((await orderAt(1_000_000, 'Chattogram')).deliveryFee).toBe(150_000);
  });

  it('refuses a bad zone with the one error shape, and writes nothing', async () => {
    const [dhaka, , rest] = await zones();
    // A district another zone has is a conflict with that zone (409), as when two saves race.
    const cases: [Record<string, unknown>, string, number][] = [
      [{ fee: -100 }, 'fee', 400],
      [{ freeFrom: -1 }, 'freeFrom', 400],
      [{ etaMinDays: 5, etaMaxDays: 2 }, 'etaMaxDays', 400],
      [{ districts: ['Dhaka', 'Atlantis'] }, 'districts', 400],
      [{ districts: ['Gazipur'] }, 'districts', 409],
      [{ name: '   ' }, 'name', 400],
    ];
    for (const [patch, field, status] of cases) {
      const r = await put(manager, dhaka, patch);
      expectApiError(r, status);
      expect(Object.keys(r.body.error.fields ?? {}), JSON.stringify(patch)).toContain(field);
    }
    // A second zone for every other district, and removing the one there is, are refused.
    expectApiError(await put(manager, dhaka, { districts: [] }), 409, 'district_taken');
    expectApiError(await t.api(`/api/admin/delivery/zones/${rest.id}`, { method: 'DELETE', headers: manager.headers }), 400);
    expect(await zones()).toEqual(await zones());
    expect((await zones())[0]).toMatchObject({ fee: dhaka.fee, districts: ['Dhaka'], version: dhaka.version });
  });
});
