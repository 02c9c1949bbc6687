import { describe, expect, it } from 'vitest';
import { evaluateCoupon, normalizeCouponCode, type TCouponContext, type TCouponRule } from './coupon.ts';
import { ZCouponCode } from './cart-schemas.ts';
import { formatMoney } from './money.ts';

const coupon = (over: Partial<TCouponRule> = {}): TCouponRule => ({
  code: 'SAVE500',
  discountType: 'AMOUNT',
  value: 50_000,
  minimumOrder: null,
  maxAmount: null,
  startsAt: '2026-01-01T00:00:00.000Z',
  endsAt: '2027-01-01T00:00:00.000Z',
  usageLimit: null,
  perCustomerLimit: null,
  active: true,
  ...over,
});
const ctx = (over: Partial<TCouponContext> = {}): TCouponContext => ({
  orderAmount: 1_000_000,
  now: new Date('2026-06-01T12:00:00Z'),
  usedTotal: 0,
  usedByCustomer: 0,
  customerId: null,
  ...over,
});

describe('evaluateCoupon', () => {
  it('takes a fixed amount off the order', () => {
    expect(evaluateCoupon(coupon(), ctx())).toEqual({ ok: true, amount: 50_000 });
  });
  it('takes a percentage, rounded down to the whole taka', () => {
    // 10% of ৳12,345.67 = ৳1,234.567 → ৳1,234.
    expect(evaluateCoupon(coupon({ discountType: 'PERCENTAGE', value: 10 }), ctx({ orderAmount: 1_234_567 }))).toEqual({ ok: true, amount: 123_400 });
  });
  it('caps a percentage at its maximum amount', () => {
    expect(evaluateCoupon(coupon({ discountType: 'PERCENTAGE', value: 20, maxAmount: 100_000 }), ctx({ orderAmount: 5_000_000 }))).toEqual({
      ok: true,
      amount: 100_000,
    });
  });
  it('never takes more than the order', () => {
    expect(evaluateCoupon(coupon({ value: 5_000_000 }), ctx({ orderAmount: 30_000 }))).toEqual({ ok: true, amount: 30_000 });
    expect(evaluateCoupon(coupon({ discountType: 'PERCENTAGE', value: 100 }), ctx({ orderAmount: 12_345 }))).toEqual({ ok: true, amount: 12_345 });
  });
  it('an unknown or switched-off coupon is "unknown"', () => {
    expect(evaluateCoupon(null, ctx())).toMatchObject({ ok: false, reason: 'unknown', message: 'This coupon code is not valid' });
    expect(evaluateCoupon(coupon({ active: false }), ctx())).toMatchObject({ ok: false, reason: 'unknown' });
  });
  it('is expired from the first instant of its end, and valid up to it', () => {
    const c = coupon({ endsAt: '2026-06-01T12:00:00.000Z' });
    expect(evaluateCoupon(c, ctx({ now: new Date('2026-06-01T11:59:59.999Z') })).ok).toBe(true);
    expect(evaluateCoupon(c, ctx({ now: new Date('2026-06-01T12:00:00.000Z') }))).toMatchObject({
      ok: false,
      reason: 'expired',
      message: 'This coupon has expired',
    });
  });
  it('is not usable before its start, and usable from it', () => {
    const c = coupon({ startsAt: '2026-06-01T12:00:00.000Z' });
    expect(evaluateCoupon(c, ctx({ now: new Date('2026-06-01T11:59:59.999Z') }))).toMatchObject({ ok: false, reason: 'not_started' });
    expect(evaluateCoupon(c, ctx({ now: new Date('2026-06-01T12:00:00.000Z') })).ok).toBe(true);
  });
  it('without a window it is always in it', () => {
    expect(evaluateCoupon(coupon({ startsAt: null, endsAt: null }), ctx({ now: new Date('2099-01-01') })).ok).toBe(true);
  });
  it('a minimum order just missed by one poisha is refused, and met exactly is accepted', () => {
    const c = coupon({ minimumOrder: 1_000_000 });
    const missed = evaluateCoupon(c, ctx({ orderAmount: 999_999 }));
    expect(missed).toEqual({ ok: false, reason: 'below_minimum', message: 'Spend at least ৳10,000 to use this coupon' });
    expect(evaluateCoupon(c, ctx({ orderAmount: 1_000_000 }))).toEqual({ ok: true, amount: 50_000 });
  });
  it('states the minimum in the shopper’s currency when given a formatter', () => {
    const usd = (m: number) => formatMoney(m, { sourceId: 'USD', rate: 122 });
    expect(evaluateCoupon(coupon({ minimumOrder: 1_220_000 }), ctx({ orderAmount: 10, formatMinimum: usd }))).toMatchObject({
      message: 'Spend at least $100.00 to use this coupon',
    });
  });
  it('is used up when its total limit is reached', () => {
    expect(evaluateCoupon(coupon({ usageLimit: 3 }), ctx({ usedTotal: 2 })).ok).toBe(true);
    expect(evaluateCoupon(coupon({ usageLimit: 3 }), ctx({ usedTotal: 3 }))).toMatchObject({ ok: false, reason: 'used_up' });
    expect(evaluateCoupon(coupon({ usageLimit: 0 }), ctx())).toMatchObject({ ok: false, reason: 'used_up' });
  });
  it('keeps a per-customer limit, which needs a signed-in customer', () => {
    const c = coupon({ perCustomerLimit: 1 });
    expect(evaluateCoupon(c, ctx({ customerId: null }))).toMatchObject({ ok: false, reason: 'sign_in_required' });
    expect(evaluateCoupon(c, ctx({ customerId: 5, usedByCustomer: 0 })).ok).toBe(true);
    expect(evaluateCoupon(c, ctx({ customerId: 5, usedByCustomer: 1 }))).toMatchObject({
      ok: false,
      reason: 'used_up_by_customer',
      message: 'You have already used this coupon',
    });
  });
  it('an empty cart gets no coupon', () => {
    expect(evaluateCoupon(coupon(), ctx({ orderAmount: 0 }))).toMatchObject({ ok: false, reason: 'empty_cart' });
  });
  it('tells the reason a shopper can act on first: expired before below minimum before used up', () => {
    const c = coupon({ endsAt: '2026-01-02T00:00:00.000Z', minimumOrder: 99_999_999, usageLimit: 0 });
    expect(evaluateCoupon(c, ctx())).toMatchObject({ reason: 'expired' });
    expect(evaluateCoupon({ ...c, endsAt: null }, ctx())).toMatchObject({ reason: 'below_minimum' });
    expect(evaluateCoupon({ ...c, endsAt: null, minimumOrder: null }, ctx())).toMatchObject({ reason: 'used_up' });
  });
  it('a private code nobody can use now answers as an unknown one, whatever the cart', () => {
    const unknown = evaluateCoupon(null, ctx());
    const hidden = coupon({ isPublic: false, minimumOrder: 99_999_999 });
    expect(evaluateCoupon({ ...hidden, endsAt: '2026-01-02T00:00:00.000Z' }, ctx())).toEqual(unknown);
    expect(evaluateCoupon({ ...hidden, startsAt: '2026-07-01T00:00:00.000Z' }, ctx())).toEqual(unknown);
    expect(evaluateCoupon({ ...hidden, usageLimit: 1 }, ctx({ usedTotal: 1 }))).toEqual(unknown);
    // One the shopper can use tells what to do, like a public one.
    expect(evaluateCoupon(hidden, ctx())).toMatchObject({ reason: 'below_minimum' });
    expect(evaluateCoupon({ ...hidden, minimumOrder: null }, ctx()).ok).toBe(true);
    expect(evaluateCoupon(coupon({ isPublic: true, endsAt: '2026-01-02T00:00:00.000Z' }), ctx())).toMatchObject({ reason: 'expired' });
  });
});

describe('coupon codes', () => {
  it('are matched without regard to case or surrounding spaces', () => {
    expect(normalizeCouponCode('  nibash500 ')).toBe('NIBASH500');
    expect(ZCouponCode.parse(' welcome-10 ')).toBe('WELCOME-10');
  });
  it('refuse anything but 3–32 letters, digits, - and _', () => {
    for (const bad of ['', 'AB', 'A'.repeat(33), 'SAVE 10', "X'; DROP TABLE", '-ABC']) expect(ZCouponCode.safeParse(bad).success).toBe(false);
  });
});
