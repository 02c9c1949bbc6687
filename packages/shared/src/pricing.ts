import type { Minor } from './money.ts';
import type { TGlobalDiscount } from './pricing-schemas.ts';

// The shop's price rules (decisions.md, "Discounts and coupons"), as pure functions that
// the server's quote and the browser's display both call, so the two never disagree.
// Every amount is an integer number of poisha.

export const DISCOUNT_KINDS = ['FIXED_CATEGORY', 'FIXED_PRODUCT'] as const;
/** PERCENTAGE takes `value` per cent; AMOUNT takes `value` poisha off. */
export const DISCOUNT_TYPES = ['PERCENTAGE', 'AMOUNT'] as const;
export type TDiscountKind = (typeof DISCOUNT_KINDS)[number];
export type TDiscountType = (typeof DISCOUNT_TYPES)[number];

/** What pricing needs to know about one sku. */
export interface TPriceInput {
  productId: number;
  /** Any categories the product is filed under (its leaf, and its ancestors if known). */
  categoryIds: readonly number[];
  skuCode: string;
  salesPrice: Minor;
  /** The sku's own sale price, if it has one. */
  discountedSalesPrice: Minor | null;
}

export interface TSkuPrice {
  /** The list price, shown struck through when there is a saving. */
  salesPrice: Minor;
  /** What one unit costs after the best discount. */
  unitPrice: Minor;
  saving: Minor;
  /**
   * The saving in whole per cent, for a badge ("−15%"), rounded to the nearest (savingPercent);
   * 0 without a saving or when it is under 1%: the badge shows the amount then.
   */
  percentOff: number;
  /** Where the saving comes from: the sku's own sale price or a global discount. */
  source: 'none' | 'sku' | 'global';
  discountId: number | null;
}

/**
 * What a discount takes off one unit priced `price`. A percentage is rounded down to the
 * whole taka (decisions.md), except that 100% is the whole price; an amount is taken as
 * given. Never more than the price, so a price never goes below zero, and never negative.
 */
export function discountSaving(price: Minor, discountType: TDiscountType, value: number): Minor {
  if (price <= 0 || !(value > 0)) return 0;
  // 100% means free, even for a price with poisha that rounding down would leave behind.
  if (discountType === 'PERCENTAGE' && value >= 100) return price;
  const raw = discountType === 'PERCENTAGE' ? Math.floor((price * value) / 10_000) * 100 : Math.floor(value);
  return Math.min(Math.max(raw, 0), price);
}

/** Whether a global discount reaches this sku: by category (or a descendant), or by item. */
export function discountApplies(d: TGlobalDiscount, input: Pick<TPriceInput, 'productId' | 'categoryIds' | 'skuCode'>): boolean {
  if (!d.valid) return false;
  if (d.type === 'FIXED_CATEGORY') {
    const reached = new Set<number>(d.coveredCategoryIds);
    for (const c of d.categories) reached.add(c.categoryId);
    return input.categoryIds.some((id) => reached.has(id));
  }
  return d.items.some((i) => i.itemId === input.productId && (i.skuCode == null || i.skuCode === '' || i.skuCode === input.skuCode));
}

/**
 * The price of one unit of a sku. Candidates are the sku's own sale price and every
 * global discount that reaches it, each taken off the list price; the largest saving
 * wins and they never stack (decisions.md). Ties go to the sku's own price, then to the
 * lowest discount id, so the answer never depends on the order of the list.
 */
export function priceSku(input: TPriceInput, discounts: readonly TGlobalDiscount[]): TSkuPrice {
  const salesPrice = Math.max(0, input.salesPrice);
  let saving = 0;
  let source: TSkuPrice['source'] = 'none';
  let discountId: number | null = null;
  const own = input.discountedSalesPrice;
  if (own != null && own >= 0 && own < salesPrice) {
    saving = salesPrice - own;
    source = 'sku';
  }
  for (const d of discounts) {
    if (!discountApplies(d, input)) continue;
    const s = discountSaving(salesPrice, d.discountType, d.value);
    if (s > saving || (s === saving && s > 0 && source === 'global' && discountId !== null && d.id < discountId)) {
      saving = s;
      source = 'global';
      discountId = d.id;
    }
  }
  const percentOff = savingPercent(saving, salesPrice);
  return { salesPrice, unitPrice: salesPrice - saving, saving, percentOff, source, discountId };
}

/**
 * A saving as the whole per cent a shopper expects on a badge: the nearest one (5.97% is
 * "6%", not "5%"; a half rounds up), never "0%" for a real saving (under 1% gives 0, and the
 * badge shows the amount instead), and "100%" only when the item is free: rounding must not
 * promise a free item. Integer arithmetic, so no floating-point edge decides a label.
 */
export function savingPercent(saving: Minor, salesPrice: Minor): number {
  if (!(salesPrice > 0) || !(saving > 0)) return 0;
  if (saving >= salesPrice) return 100;
  if (saving * 100 < salesPrice) return 0;
  return Math.min(99, Math.floor((saving * 200 + salesPrice) / (salesPrice * 2)));
}

/** Cart totals of spec §3. */
export interface TCartTotals {
  quantity: number;
  /** Sum of list prices × quantities. */
  subTotal: Minor;
  /** What discounts take off the subTotal. */
  discount: Minor;
  couponAmount: Minor;
  /** What the shopper pays: subTotal − discount − couponAmount, never below zero. */
  total: Minor;
}

/**
 * Totals of priced lines. The coupon is applied after discounts and never takes more
 * than is left (decisions.md: one coupon, after global discounts).
 */
export function cartTotals(lines: readonly { quantity: number; salesPrice: Minor; unitPrice: Minor }[], couponAmount: Minor = 0): TCartTotals {
  let quantity = 0;
  let subTotal = 0;
  let afterDiscounts = 0;
  for (const l of lines) {
    quantity += l.quantity;
    // A list price below the unit price (a stale stored line) counts as no discount.
    subTotal += Math.max(l.salesPrice, l.unitPrice) * l.quantity;
    afterDiscounts += l.unitPrice * l.quantity;
  }
  const coupon = Math.min(Math.max(0, Math.floor(couponAmount)), afterDiscounts);
  return { quantity, subTotal, discount: subTotal - afterDiscounts, couponAmount: coupon, total: afterDiscounts - coupon };
}
