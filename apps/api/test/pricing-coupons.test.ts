import { encodeCartItems } from '@storefront/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockCoupon, quoteCart, recordCouponUse } from '../src/modules/pricing/quote.service.ts';
import { expectApiError } from './helpers/assertions.ts';
import { addCoupon, pctOffWholeTaka, removeAllDiscounts, type SkuRow, skusIn, stockUp } from './helpers/pricing-fixtures.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
let sofa: SkuRow; // no sale price of its own
let table: SkuRow;
const HOUR = 3_600_000;

beforeAll(async () => {
  t = await startTestApp();
  // Coupon amounts below are reasoned from list prices: no global discounts here.
  await removeAllDiscounts(db());
  sofa = (await skusIn(db(), 'three-seater-sofas')).find((s) => s.discounted_sales_price === null)!;
  table = (await skusIn(db(), 'coffee-tables')).find((s) => s.discounted_sales_price === null)!;
  await stockUp(db(), sofa.sku_id);
  await stockUp(db(), table.sku_id);
});
afterAll(() => t?.close());

const db = () => t.db.kysely;
const apply = (code: string, lines: { skuCode: string; quantity: number }[], extra = '') =>
  t.api(`/api/discount/coupons/apply?code=${encodeURIComponent(code)}&items=${encodeURIComponent(encodeCartItems(lines))}${extra}`);

describe('POST /api/discount/coupons/search', () => {
  it('lists the public coupons with their terms, never the private ones', async () => {
    const res = await t.api('/api/discount/coupons/search', { method: 'POST', json: { size: 100 } });
    expect(res.status).toBe(200);
    const codes = res.body.list.map((c: any) => c.code);
    expect(codes).toEqual(expect.arrayContaining(['NIBASH500', 'WELCOME10', 'BIGORDER5', 'EID2025']));
    expect(codes).not.toContain('STAFF20');
    const nibash = res.body.list.find((c: any) => c.code === 'NIBASH500');
    expect(nibash).toMatchObject({ discountType: 'AMOUNT', value: 50_000, minimumOrder: 1_000_000, valid: true });
    expect(res.body.list.find((c: any) => c.code === 'EID2025').valid).toBe(false);
    for (const c of res.body.list) expect(c).not.toHaveProperty('usageLimit');
  });

  it('finds a coupon by code in any case, and only the valid ones when asked', async () => {
    const one = await t.api('/api/discount/coupons/search', { method: 'POST', json: { textParams: [{ field: 'code', value: 'nibash500' }] } });
    expect(one.body.list.map((c: any) => c.code)).toEqual(['NIBASH500']);
    const valid = await t.api('/api/discount/coupons/search', { method: 'POST', json: { textParams: [{ field: 'valid', value: true }] } });
    expect(valid.body.list.length).toBeGreaterThan(0);
    expect(valid.body.list.every((c: any) => c.valid)).toBe(true);
    expect(valid.body.list.map((c: any) => c.code)).not.toContain('EID2025');
  });

  it('a coupon whose uses are all taken is listed as not valid', async () => {
    const id = await addCoupon(db(), { code: 'GONE1', value: 100, usageLimit: 1, isPublic: true });
    await db()
      .insertInto('coupon_usages')
      .values({ coupon_id: id, customer_id: null, order_ref: 'INV-GONE1', amount: 100, created_at: new Date().toISOString() })
      .execute();
    const res = await t.api('/api/discount/coupons/search', { method: 'POST', json: { textParams: [{ field: 'code', value: 'GONE1' }] } });
    expect(res.body.list[0]).toMatchObject({ code: 'GONE1', valid: false });
  });

  it('refuses an unknown filter field with a 400', async () => {
    expectApiError(await t.api('/api/discount/coupons/search', { method: 'POST', json: { textParams: [{ field: 'is_public', value: 0 }] } }), 400);
  });
});

describe('GET /api/discount/coupons/apply', () => {
  it('answers the coupon amount for the cart, computed by the server', async () => {
    const lines = [{ skuCode: sofa.code, quantity: 1 }];
    const res = await apply('NIBASH500', lines);
    expect(res.status).toBe(200);
    expect(sofa.sales_price).toBeGreaterThanOrEqual(1_000_000);
    expect(res.body).toMatchObject({ code: 'NIBASH500', discountType: 'AMOUNT', value: 50_000, couponAmount: 50_000, minimumOrder: 1_000_000 });
    expect(res.body.totals).toEqual({ quantity: 1, subTotal: sofa.sales_price, discount: 0, couponAmount: 50_000, total: sofa.sales_price - 50_000 });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('accepts the code in any case and with spaces', async () => {
    const res = await apply('  nibash500 ', [{ skuCode: sofa.code, quantity: 1 }]);
    expect(res.status).toBe(200);
    expect(res.body.code).toBe('NIBASH500');
  });

  it('a percentage coupon is rounded down to the whole taka and capped at its maximum', async () => {
    await addCoupon(db(), { code: 'PCT7', discountType: 'PERCENTAGE', value: 7 });
    const lines = [
      { skuCode: sofa.code, quantity: 1 },
      { skuCode: table.code, quantity: 3 },
    ];
    const total = sofa.sales_price + table.sales_price * 3;
    const res = await apply('PCT7', lines);
    expect(res.body.couponAmount).toBe(pctOffWholeTaka(total, 7));
    await addCoupon(db(), { code: 'PCT50CAP', discountType: 'PERCENTAGE', value: 50, maxAmount: 12_300 });
    expect((await apply('PCT50CAP', lines)).body.couponAmount).toBe(12_300);
  });

  it('never takes more than the order', async () => {
    await addCoupon(db(), { code: 'HUGE', value: 1_000_000_000 });
    const res = await apply('HUGE', [{ skuCode: table.code, quantity: 1 }]);
    expect(res.body).toMatchObject({ couponAmount: table.sales_price, totals: { total: 0 } });
  });

  it('an unknown coupon is a 404 with the reason', async () => {
    const res = await apply('NOSUCHCODE', [{ skuCode: sofa.code, quantity: 1 }]);
    expectApiError(res, 404, 'coupon_unknown');
    expect(res.body.error.message).toBe('This coupon code is not valid');
    await addCoupon(db(), { code: 'SWITCHEDOFF', value: 100, active: false });
    expectApiError(await apply('SWITCHEDOFF', [{ skuCode: sofa.code, quantity: 1 }]), 404, 'coupon_unknown');
  });

  // Public coupons: a private one nobody can use answers as an unknown code (abuse-limits.test.ts).
  it('an expired coupon is refused as expired, one not yet started as not started', async () => {
    const res = await apply('EID2025', [{ skuCode: sofa.code, quantity: 1 }]);
    expectApiError(res, 422, 'coupon_expired');
    expect(res.body.error.message).toBe('This coupon has expired');
    await addCoupon(db(), { code: 'JUSTENDED', value: 100, isPublic: true, endsAt: new Date(Date.now() - 1000).toISOString() });
    expectApiError(await apply('JUSTENDED', [{ skuCode: sofa.code, quantity: 1 }]), 422, 'coupon_expired');
    await addCoupon(db(), { code: 'SOON', value: 100, isPublic: true, startsAt: new Date(Date.now() + HOUR).toISOString() });
    expectApiError(await apply('SOON', [{ skuCode: sofa.code, quantity: 1 }]), 422, 'coupon_not_started');
  });

  it('a minimum order just missed is refused with the minimum; met exactly, it applies', async () => {
    const lines = [{ skuCode: table.code, quantity: 2 }];
    const total = table.sales_price * 2;
    await addCoupon(db(), { code: 'MINMISS', value: 10_000, minimumOrder: total + 1 });
    const missed = await apply('MINMISS', lines);
    expectApiError(missed, 422, 'coupon_below_minimum');
    expect(missed.body.error.fields.minimumOrder).toBe(String(total + 1));
    expect(missed.body.error.message).toMatch(/^Spend at least ৳[\d,.]+ to use this coupon$/);
    await addCoupon(db(), { code: 'MINMET', value: 10_000, minimumOrder: total });
    expect((await apply('MINMET', lines)).body.couponAmount).toBe(10_000);
  });

  it('the minimum is checked after global discounts', async () => {
    const { addDiscount } = await import('./helpers/pricing-fixtures.ts');
    await addCoupon(db(), { code: 'MINAFTER', value: 10_000, minimumOrder: table.sales_price });
    await addDiscount(db(), { type: 'FIXED_PRODUCT', discountType: 'AMOUNT', value: 100, items: [{ productId: table.product_id }] });
    try {
      expectApiError(await apply('MINAFTER', [{ skuCode: table.code, quantity: 1 }]), 422, 'coupon_below_minimum');
    } finally {
      await removeAllDiscounts(db());
    }
  });

  it('a coupon whose total uses are taken is used up', async () => {
    const id = await addCoupon(db(), { code: 'ONCEONLY', value: 10_000, usageLimit: 1, isPublic: true });
    expect((await apply('ONCEONLY', [{ skuCode: sofa.code, quantity: 1 }])).status).toBe(200);
    await db()
      .insertInto('coupon_usages')
      .values({ coupon_id: id, customer_id: 42, order_ref: 'INV-1', amount: 10_000, created_at: new Date().toISOString() })
      .execute();
    const res = await apply('ONCEONLY', [{ skuCode: sofa.code, quantity: 1 }]);
    expectApiError(res, 409, 'coupon_used_up');
    expect(res.body.error.message).toBe('This coupon has been fully used');
  });

  it('a coupon limited per customer asks a guest to sign in', async () => {
    expectApiError(await apply('WELCOME10', [{ skuCode: sofa.code, quantity: 1 }]), 401, 'coupon_sign_in_required');
  });

  it('counts a customer’s own uses for the per-customer limit (service, as checkout calls it)', async () => {
    const id = await addCoupon(db(), { code: 'PERCUST', value: 5_000, perCustomerLimit: 1 });
    const lines = [{ skuCode: sofa.code, quantity: 1 }];
    expect((await quoteCart(db(), { lines, couponCode: 'PERCUST', customerId: 7 })).coupon).toMatchObject({ applied: true, amount: 5_000 });
    await db()
      .insertInto('coupon_usages')
      .values({ coupon_id: id, customer_id: 7, order_ref: 'INV-7', amount: 5_000, created_at: new Date().toISOString() })
      .execute();
    expect((await quoteCart(db(), { lines, couponCode: 'PERCUST', customerId: 7 })).coupon).toMatchObject({ applied: false, reason: 'used_up_by_customer' });
    // Another customer still may.
    expect((await quoteCart(db(), { lines, couponCode: 'PERCUST', customerId: 8 })).coupon).toMatchObject({ applied: true });
  });

  it('ignores unknown skus, and a cart of only unknown skus gets no coupon', async () => {
    const withUnknown = await apply('NIBASH500', [
      { skuCode: sofa.code, quantity: 1 },
      { skuCode: 'NOT-A-SKU', quantity: 5 },
    ]);
    expect(withUnknown.status).toBe(200);
    expect(withUnknown.body.totals.subTotal).toBe(sofa.sales_price);
    expectApiError(await apply('NIBASH500', [{ skuCode: 'NOT-A-SKU', quantity: 5 }]), 422, 'coupon_empty_cart');
  });

  it('never trusts a price or amount in the query string', async () => {
    const lines = [{ skuCode: sofa.code, quantity: 1 }];
    const honest = await apply('NIBASH500', lines);
    const tampered = await apply('NIBASH500', lines, '&price=1&total=1&couponAmount=99999999&salesPrice=1');
    expect(tampered.status).toBe(200);
    expect(tampered.body).toEqual(honest.body);
  });

  it('refuses tampered items: negative, zero, fractional or huge quantities, bad shapes', async () => {
    for (const items of [
      `${sofa.code}:-1`,
      `${sofa.code}:0`,
      `${sofa.code}:1.5`,
      `${sofa.code}:100`,
      `${sofa.code}`,
      `${sofa.code}:2,`,
      'x'.repeat(5000),
      `${sofa.code}:1;DROP`,
    ]) {
      const res = await t.api(`/api/discount/coupons/apply?code=NIBASH500&items=${encodeURIComponent(items)}`);
      expectApiError(res, 400);
    }
    const many = Array.from({ length: 51 }, (_, i) => `S-${i}:1`).join(',');
    expectApiError(await t.api(`/api/discount/coupons/apply?code=NIBASH500&items=${many}`), 400);
  });

  it('refuses a missing or malformed code with a 400', async () => {
    expectApiError(await t.api(`/api/discount/coupons/apply?items=${sofa.code}:1`), 400, 'validation_error');
    expectApiError(await t.api(`/api/discount/coupons/apply?code=${encodeURIComponent("X' OR 1=1")}&items=${sofa.code}:1`), 400, 'validation_error');
    expectApiError(await t.api(`/api/discount/coupons/apply?code=NIBASH500`), 400, 'validation_error');
  });
});

describe('POST /api/carts/quote with a coupon', () => {
  it('applies the coupon after discounts and says why when it does not apply', async () => {
    const lines = [{ skuCode: table.code, quantity: 1 }];
    const ok = await t.api('/api/carts/quote', { method: 'POST', json: { lines: [{ skuCode: sofa.code, quantity: 1 }], couponCode: 'nibash500' } });
    expect(ok.body.coupon).toMatchObject({ code: 'NIBASH500', applied: true, amount: 50_000 });
    expect(ok.body.totals.couponAmount).toBe(50_000);
    const expired = await t.api('/api/carts/quote', { method: 'POST', json: { lines, couponCode: 'EID2025' } });
    expect(expired.status).toBe(200);
    expect(expired.body.coupon).toMatchObject({ applied: false, reason: 'expired', amount: 0 });
    expect(expired.body.totals.couponAmount).toBe(0);
  });
});

describe('coupon use at checkout', () => {
  it('a single-use coupon raced by 20 checkouts is used once', async () => {
    await addCoupon(db(), { code: 'RACE1', value: 1_000, usageLimit: 1 });
    const lines = [{ skuCode: sofa.code, quantity: 1 }];
    const attempt = (i: number) =>
      db()
        .transaction()
        .execute(async (trx) => {
          await lockCoupon(trx, t.dialect, 'RACE1');
          const q = await quoteCart(trx, { lines, couponCode: 'RACE1', customerId: 100 + i });
          if (!q.coupon?.applied) return false;
          await recordCouponUse(trx, { code: 'RACE1', customerId: 100 + i, orderRef: `RACE-${i}`, amount: q.coupon.amount });
          return true;
        });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => attempt(i)));
    expect(results.filter(Boolean)).toHaveLength(1);
    const uses = await db()
      .selectFrom('coupon_usages')
      .innerJoin('coupons', 'coupons.id', 'coupon_usages.coupon_id')
      .where('coupons.code', '=', 'RACE1')
      .select('coupon_usages.id')
      .execute();
    expect(uses).toHaveLength(1);
  });

  it('one order holds at most one coupon use', async () => {
    const id = await addCoupon(db(), { code: 'ONEPERORDER', value: 1_000 });
    const row = { coupon_id: id, customer_id: null, order_ref: 'INV-SAME', amount: 1_000, created_at: new Date().toISOString() };
    await db().insertInto('coupon_usages').values(row).execute();
    await expect(db().insertInto('coupon_usages').values(row).execute()).rejects.toThrow();
  });
});

describe('guessing coupon codes', () => {
  const clear = () => db().deleteFrom('rate_limits').where('key', 'like', 'coupon-miss:%').execute();

  it('an address that tries 20 unknown codes in 10 minutes is refused for the rest of the window; good codes never count', async () => {
    await clear();
    try {
      const lines = [{ skuCode: sofa.code, quantity: 1 }];
      for (let i = 0; i < 30; i++) expect((await apply('NIBASH500', lines)).status).toBe(200);
      for (let i = 0; i < 20; i++) expectApiError(await apply(`GUESS${i}`, lines), 404, 'coupon_unknown');
      const refused = await apply('GUESS20', lines);
      expectApiError(refused, 429, 'rate_limited');
      expect(refused.headers.get('retry-after')).toBeTruthy();
      // The same address cannot use the quote to keep guessing.
      expectApiError(await t.api('/api/carts/quote', { method: 'POST', json: { lines, couponCode: 'GUESS21' } }), 429, 'rate_limited');
      // Pricing without a coupon still works.
      expect((await t.api('/api/carts/quote', { method: 'POST', json: { lines } })).status).toBe(200);
    } finally {
      await clear();
    }
  });
});
