import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cartTotals, discountApplies, discountSaving, priceSku, savingPercent, type TPriceInput } from './pricing.ts';
import type { TGlobalDiscount } from './pricing-schemas.ts';

const discount = (over: Partial<TGlobalDiscount>): TGlobalDiscount => ({
  id: 1,
  title: 'test',
  valid: true,
  type: 'FIXED_PRODUCT',
  discountType: 'PERCENTAGE',
  value: 10,
  categories: [],
  coveredCategoryIds: [],
  items: [],
  startsAt: null,
  endsAt: null,
  ...over,
});

// A sofa (product 7, sku AFL-1007-WAL) filed under Living Room (1) › Sofas (2) › Three-seaters (3).
const sofa: TPriceInput = { productId: 7, categoryIds: [3, 2, 1], skuCode: 'AFL-1007-WAL', salesPrice: 4_599_900, discountedSalesPrice: null };

describe('discountSaving', () => {
  it('rounds a percentage down to the whole taka', () => {
    // 15% of ৳45,999.00 is ৳6,899.85 → ৳6,899.
    expect(discountSaving(4_599_900, 'PERCENTAGE', 15)).toBe(689_900);
    // 10% of ৳9.99 is 99.9 poisha → ৳0.
    expect(discountSaving(999, 'PERCENTAGE', 10)).toBe(0);
    // 33% of ৳100 is exactly ৳33.
    expect(discountSaving(10_000, 'PERCENTAGE', 33)).toBe(3_300);
  });
  it('a 100% discount makes the item free, and never more', () => {
    expect(discountSaving(4_599_900, 'PERCENTAGE', 100)).toBe(4_599_900);
    // Rounding down would leave 45 poisha behind; 100% means free.
    expect(discountSaving(12_345, 'PERCENTAGE', 100)).toBe(12_345);
    expect(discountSaving(12_345, 'PERCENTAGE', 99)).toBe(12_200);
    expect(discountSaving(12_300, 'PERCENTAGE', 150)).toBe(12_300);
  });
  it('takes a fixed amount as given, but never below zero', () => {
    expect(discountSaving(100_000, 'AMOUNT', 25_050)).toBe(25_050);
    expect(discountSaving(100_000, 'AMOUNT', 500_000)).toBe(100_000);
    expect(discountSaving(0, 'AMOUNT', 500)).toBe(0);
    expect(discountSaving(100_000, 'AMOUNT', -500)).toBe(0);
    expect(discountSaving(100_000, 'PERCENTAGE', 0)).toBe(0);
  });
  it('never takes more than the price, for any price and value', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e11 }),
        fc.constantFrom('PERCENTAGE' as const, 'AMOUNT' as const),
        fc.integer({ min: -10, max: 1e12 }),
        (price, type, value) => {
          const s = discountSaving(price, type, value);
          expect(Number.isInteger(s)).toBe(true);
          expect(s).toBeGreaterThanOrEqual(0);
          expect(s).toBeLessThanOrEqual(price);
          if (type === 'PERCENTAGE' && value < 100) expect(s % 100).toBe(0);
        },
      ),
    );
  });
});

describe('discountApplies', () => {
  it('reaches a product through any category it is filed under, ancestors included', () => {
    expect(discountApplies(discount({ type: 'FIXED_CATEGORY', categories: [{ categoryId: 1 }] }), sofa)).toBe(true);
    expect(discountApplies(discount({ type: 'FIXED_CATEGORY', categories: [{ categoryId: 9 }] }), sofa)).toBe(false);
  });
  it('reaches descendants through coveredCategoryIds when only the leaf is known', () => {
    const leafOnly = { ...sofa, categoryIds: [3] };
    expect(discountApplies(discount({ type: 'FIXED_CATEGORY', categories: [{ categoryId: 1 }] }), leafOnly)).toBe(false);
    expect(discountApplies(discount({ type: 'FIXED_CATEGORY', categories: [{ categoryId: 1 }], coveredCategoryIds: [1, 2, 3, 4] }), leafOnly)).toBe(true);
  });
  it('reaches every sku of a listed item, or only the listed sku', () => {
    expect(discountApplies(discount({ items: [{ itemId: 7, skuCode: null }] }), sofa)).toBe(true);
    expect(discountApplies(discount({ items: [{ itemId: 7, skuCode: 'AFL-1007-WAL' }] }), sofa)).toBe(true);
    expect(discountApplies(discount({ items: [{ itemId: 7, skuCode: 'AFL-1007-GRE' }] }), sofa)).toBe(false);
    expect(discountApplies(discount({ items: [{ itemId: 8, skuCode: null }] }), sofa)).toBe(false);
  });
  it('a product discount does not reach by category, nor a category discount by item', () => {
    expect(discountApplies(discount({ type: 'FIXED_PRODUCT', categories: [{ categoryId: 1 }] }), sofa)).toBe(false);
    expect(discountApplies(discount({ type: 'FIXED_CATEGORY', items: [{ itemId: 7, skuCode: null }] }), sofa)).toBe(false);
  });
  it('an invalid discount reaches nothing', () => {
    expect(discountApplies(discount({ valid: false, items: [{ itemId: 7, skuCode: null }] }), sofa)).toBe(false);
  });
});

describe('priceSku', () => {
  it('without any discount the unit price is the list price', () => {
    expect(priceSku(sofa, [])).toEqual({ salesPrice: 4_599_900, unitPrice: 4_599_900, saving: 0, percentOff: 0, source: 'none', discountId: null });
  });
  it('uses the sku’s own sale price', () => {
    const p = priceSku({ ...sofa, discountedSalesPrice: 3_999_900 }, []);
    expect(p).toMatchObject({ unitPrice: 3_999_900, saving: 600_000, source: 'sku', percentOff: 13 });
  });
  it('ignores an own sale price above the list price', () => {
    expect(priceSku({ ...sofa, discountedSalesPrice: 5_000_000 }, [])).toMatchObject({ unitPrice: 4_599_900, source: 'none' });
  });
  it('of overlapping discounts the largest saving wins, and they do not stack', () => {
    const cat10 = discount({ id: 1, type: 'FIXED_CATEGORY', categories: [{ categoryId: 1 }], value: 10 });
    const item5000 = discount({ id: 2, items: [{ itemId: 7, skuCode: null }], discountType: 'AMOUNT', value: 500_000 });
    const cat20 = discount({ id: 3, type: 'FIXED_CATEGORY', categories: [{ categoryId: 2 }], value: 20 });
    // 10% = ৳4,599 · ৳5,000 · 20% = ৳9,199 → 20% wins alone.
    expect(priceSku(sofa, [cat10, item5000, cat20])).toMatchObject({ saving: 919_900, unitPrice: 3_680_000, source: 'global', discountId: 3 });
    expect(priceSku(sofa, [cat10, item5000])).toMatchObject({ saving: 500_000, discountId: 2 });
  });
  it('a global discount beats the sku’s sale price only when it saves more', () => {
    const tenPc = discount({ id: 4, items: [{ itemId: 7, skuCode: null }], value: 10 });
    expect(priceSku({ ...sofa, discountedSalesPrice: 4_000_000 }, [tenPc])).toMatchObject({ source: 'sku', unitPrice: 4_000_000 });
    expect(priceSku({ ...sofa, discountedSalesPrice: 4_500_000 }, [tenPc])).toMatchObject({ source: 'global', unitPrice: 4_140_000 });
  });
  it('ties go to the sku’s own price, then to the lowest discount id, whatever the order', () => {
    const a = discount({ id: 8, items: [{ itemId: 7, skuCode: null }], discountType: 'AMOUNT', value: 100_000 });
    const b = discount({ id: 5, items: [{ itemId: 7, skuCode: null }], discountType: 'AMOUNT', value: 100_000 });
    expect(priceSku(sofa, [a, b]).discountId).toBe(5);
    expect(priceSku(sofa, [b, a]).discountId).toBe(5);
    expect(priceSku({ ...sofa, discountedSalesPrice: 4_499_900 }, [a, b]).source).toBe('sku');
  });
  it('a 100% discount prices the sku at zero, a larger amount never below zero', () => {
    expect(priceSku(sofa, [discount({ items: [{ itemId: 7, skuCode: null }], value: 100 })]).unitPrice).toBe(0);
    expect(priceSku(sofa, [discount({ items: [{ itemId: 7, skuCode: null }], discountType: 'AMOUNT', value: 9_999_999 })])).toMatchObject({
      unitPrice: 0,
      percentOff: 100,
    });
  });
  it('skips discounts that are not valid', () => {
    expect(priceSku(sofa, [discount({ valid: false, items: [{ itemId: 7, skuCode: null }], value: 50 })]).source).toBe('none');
  });
});

describe('savingPercent', () => {
  it('rounds to the nearest whole per cent, a half up: 5.97% is 6%, not 5%', () => {
    expect(savingPercent(5_970, 100_000)).toBe(6);
    expect(savingPercent(5_490, 100_000)).toBe(5);
    expect(savingPercent(5_500, 100_000)).toBe(6);
    expect(savingPercent(600_000, 4_599_900)).toBe(13);
    // ৳134 off ৳2,245 (5.9688…%): the badge the shopper saw as "−5%".
    expect(savingPercent(13_400, 224_500)).toBe(6);
  });
  it('never says 0% for a real saving: under 1% it is 0, for the badge to show the amount', () => {
    expect(savingPercent(999, 100_000)).toBe(0);
    expect(savingPercent(1_000, 100_000)).toBe(1);
    expect(savingPercent(1, 4_599_900)).toBe(0);
  });
  it('says 100% only for a free item, however close a saving comes', () => {
    expect(savingPercent(99_600, 100_000)).toBe(99);
    expect(savingPercent(100_000, 100_000)).toBe(100);
  });
  it('never says 100 % of a saving short of the whole price', () => {
    expect(savingPercent(200, 201)).toBe(99);
    expect(savingPercent(201, 201)).toBe(100);
  });
  it('is 0 without a saving or a price', () => {
    expect(savingPercent(0, 100_000)).toBe(0);
    expect(savingPercent(500, 0)).toBe(0);
    expect(savingPercent(-500, 100_000)).toBe(0);
  });
  it('is always within half a per cent of the exact saving, from 1 to 99 for a partial one (99 also above 99.5 %)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000_000 }), fc.integer({ min: 1, max: 1_000_000_000 }), (a, b) => {
        const [saving, price] = a < b ? [a, b] : [b, a + 1];
        const p = savingPercent(saving, price);
        const exact = (saving * 100) / price;
        if (exact < 1) return p === 0;
        // A saving short of the whole price never reads 100 %: from 99.5 % it stays 99.
        if (exact >= 99.5) return p === 99;
        return p >= 1 && p <= 99 && Math.abs(p - exact) <= 0.5 + 1e-9;
      }),
    );
  });
  it('is what priceSku reports as percentOff', () => {
    expect(priceSku({ ...sofa, salesPrice: 224_500, discountedSalesPrice: 211_100 }, []).percentOff).toBe(6);
    expect(priceSku({ ...sofa, discountedSalesPrice: 4_599_000 }, []).percentOff).toBe(0);
  });
});

describe('cartTotals', () => {
  it('adds quantities, list prices and savings; the coupon comes off after discounts', () => {
    const t = cartTotals(
      [
        { quantity: 2, salesPrice: 100_000, unitPrice: 90_000 },
        { quantity: 1, salesPrice: 50_000, unitPrice: 50_000 },
      ],
      20_000,
    );
    expect(t).toEqual({ quantity: 3, subTotal: 250_000, discount: 20_000, couponAmount: 20_000, total: 210_000 });
  });
  it('never lets a coupon take the total below zero', () => {
    expect(cartTotals([{ quantity: 1, salesPrice: 10_000, unitPrice: 5_000 }], 80_000)).toMatchObject({ couponAmount: 5_000, total: 0 });
  });
  it('an empty cart totals zero', () => {
    expect(cartTotals([], 5_000)).toEqual({ quantity: 0, subTotal: 0, discount: 0, couponAmount: 0, total: 0 });
  });
  it('total = subTotal − discount − couponAmount, all non-negative, for any lines', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ quantity: fc.integer({ min: 1, max: 99 }), salesPrice: fc.integer({ min: 0, max: 1e9 }), unitPrice: fc.integer({ min: 0, max: 1e9 }) }),
          { maxLength: 50 },
        ),
        fc.integer({ min: -1000, max: 1e11 }),
        (lines, coupon) => {
          const t = cartTotals(lines, coupon);
          expect(t.total).toBe(t.subTotal - t.discount - t.couponAmount);
          for (const v of Object.values(t)) expect(v).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });
});
