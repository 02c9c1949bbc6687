import type { Minor } from './money.ts';
import { DISCOUNT_TYPES, discountSaving, type TDiscountType } from './pricing.ts';

// Coupons (decisions.md): one per order, applied after global discounts, with an amount
// or a percentage, an optional minimum order, a validity window and usage limits in
// total and per customer.

/** Codes are matched without regard to case or surrounding spaces. */
export function normalizeCouponCode(code: string): string {
  return code.trim().toUpperCase();
}

export const COUPON_CODE_PATTERN = /^[A-Z0-9][A-Z0-9_-]{2,31}$/;

export interface TCouponRule {
  code: string;
  discountType: TDiscountType;
  /** Per cent for PERCENTAGE, poisha for AMOUNT. */
  value: number;
  /** The order must reach this (after global discounts) for the coupon to apply. */
  minimumOrder: Minor | null;
  /** A cap on what a percentage coupon takes off. */
  maxAmount: Minor | null;
  /** ISO 8601; the coupon applies from this instant (inclusive)… */
  startsAt: string | null;
  /** …until this instant (exclusive). */
  endsAt: string | null;
  usageLimit: number | null;
  perCustomerLimit: number | null;
  active: boolean;
  /**
   * A public coupon is listed by the coupon search; a private one works for whoever has
   * the code. Unset counts as public.
   */
  isPublic?: boolean;
}

export const COUPON_REASONS = [
  'unknown',
  'not_started',
  'expired',
  'below_minimum',
  'used_up',
  'used_up_by_customer',
  'sign_in_required',
  'empty_cart',
] as const;
export type TCouponReason = (typeof COUPON_REASONS)[number];

export type TCouponOutcome = { ok: true; amount: Minor } | { ok: false; reason: TCouponReason; message: string };

/** What the shopper is told for each reason. */
export const COUPON_MESSAGES = {
  unknown: 'This coupon code is not valid',
  not_started: 'This coupon is not active yet',
  expired: 'This coupon has expired',
  below_minimum: (minimum: string) => `Spend at least ${minimum} to use this coupon`,
  used_up: 'This coupon has been fully used',
  used_up_by_customer: 'You have already used this coupon',
  sign_in_required: 'Please sign in to use this coupon',
  empty_cart: 'Add something to your cart to use a coupon',
} as const;

export interface TCouponContext {
  /** What the cart costs after global discounts, before the coupon. */
  orderAmount: Minor;
  now: Date;
  /** How many times the coupon was used by anyone, and by this customer. */
  usedTotal: number;
  usedByCustomer: number;
  customerId: number | null;
  /** Formats the minimum order for the message (the shopper's display currency). */
  formatMinimum?: (minor: Minor) => string;
}

/**
 * Whether a coupon applies to a cart and what it takes off. Checked in the order a
 * shopper can act on: does it exist, is it in its window, is the cart big enough, is any
 * use left. The amount never exceeds the order (a total never goes below zero); a
 * percentage is rounded down to the whole taka like every percentage discount.
 */
export function evaluateCoupon(coupon: TCouponRule | null | undefined, ctx: TCouponContext): TCouponOutcome {
  const fail = (reason: Exclude<TCouponReason, 'below_minimum'>): TCouponOutcome => ({ ok: false, reason, message: COUPON_MESSAGES[reason] });
  if (!coupon?.active || !(DISCOUNT_TYPES as readonly string[]).includes(coupon.discountType)) return fail('unknown');
  // A private code that nobody can use now (not started, ended, used up) answers exactly as
  // an unknown one: otherwise trying codes would tell which private ones exist
  // (docs/decisions/0014). A public coupon is listed by the coupon search anyway.
  const hidden = coupon.isPublic === false;
  const now = ctx.now.getTime();
  if (coupon.startsAt && now < Date.parse(coupon.startsAt)) return fail(hidden ? 'unknown' : 'not_started');
  if (coupon.endsAt && now >= Date.parse(coupon.endsAt)) return fail(hidden ? 'unknown' : 'expired');
  if (hidden && coupon.usageLimit != null && ctx.usedTotal >= coupon.usageLimit) return fail('unknown');
  if (ctx.orderAmount <= 0) return fail('empty_cart');
  if (coupon.minimumOrder != null && ctx.orderAmount < coupon.minimumOrder) {
    const shown = ctx.formatMinimum ? ctx.formatMinimum(coupon.minimumOrder) : `৳${(coupon.minimumOrder / 100).toLocaleString('en-US')}`;
    return { ok: false, reason: 'below_minimum', message: COUPON_MESSAGES.below_minimum(shown) };
  }
  if (coupon.usageLimit != null && ctx.usedTotal >= coupon.usageLimit) return fail('used_up');
  if (coupon.perCustomerLimit != null) {
    // A per-customer limit can only be kept for a known customer.
    if (ctx.customerId == null) return fail('sign_in_required');
    if (ctx.usedByCustomer >= coupon.perCustomerLimit) return fail('used_up_by_customer');
  }
  let amount = discountSaving(ctx.orderAmount, coupon.discountType, coupon.value);
  if (coupon.maxAmount != null) amount = Math.min(amount, coupon.maxAmount);
  return { ok: true, amount: Math.max(0, Math.min(amount, ctx.orderAmount)) };
}
