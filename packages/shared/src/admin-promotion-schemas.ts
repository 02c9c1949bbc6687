import { ZAdminPageQuery } from './admin-schemas.ts';
import { COUPON_CODE_PATTERN, normalizeCouponCode } from './coupon.ts';
import { DISCOUNT_KINDS, DISCOUNT_TYPES } from './pricing.ts';
import { z } from './zod.ts';

// Promotions in the back office (/api/admin/promotions, docs/decisions/0034): global
// discounts with a preview of what they do to prices, and coupons with their uses. Amounts
// are poisha (docs/decisions/0002); per cents are whole numbers.

/**
 * The largest percentage staff may set. The database allows 100 (a free product), but a
 * storewide mistake of that size is worse than having to set 90 twice; decided in 0034.
 */
export const PERCENTAGE_MAX = 90;
/** ৳1,000,000 off: far above any product, far below what would overflow a sum. */
export const AMOUNT_MAX = 100_000_000;

export const PROMOTION_MESSAGES = {
  title: 'Please give it a title',
  percentage: `Enter a percentage from 1 to ${PERCENTAGE_MAX}`,
  amount: 'Enter an amount above ৳0',
  window: 'The end must be after the start',
  categories: 'Choose at least one category',
  products: 'Choose at least one product',
  code: 'Use 3 to 32 letters, digits, - or _ (starting with a letter or digit)',
  maxAmountPercentOnly: 'A cap applies only to a percentage coupon',
} as const;

/** An instant as the API takes it: ISO 8601 with a zone ("2026-12-01T00:00:00+06:00"). */
const ZInstant = z.iso.datetime({ offset: true });
const ZPoisha = z.number().int().min(0).max(1_000_000_000_00);

/** What both kinds of promotion check: the value fits its type, and the window is the right way round. */
function checkValueAndWindow(v: { discountType: string; value: number; startsAt?: string | null; endsAt?: string | null }, ctx: z.RefinementCtx) {
  if (v.discountType === 'PERCENTAGE' && !(v.value >= 1 && v.value <= PERCENTAGE_MAX)) {
    ctx.addIssue({ code: 'custom', path: ['value'], message: PROMOTION_MESSAGES.percentage });
  }
  if (v.discountType === 'AMOUNT' && !(v.value > 0 && v.value <= AMOUNT_MAX)) {
    ctx.addIssue({ code: 'custom', path: ['value'], message: PROMOTION_MESSAGES.amount });
  }
  if (v.startsAt && v.endsAt && Date.parse(v.endsAt) <= Date.parse(v.startsAt)) {
    ctx.addIssue({ code: 'custom', path: ['endsAt'], message: PROMOTION_MESSAGES.window });
  }
}

// ---- global discounts ---------------------------------------------------------------------------

/** Where a discount stands now: before its window, in it and switched on, past it, or switched off. */
export const DISCOUNT_STATES = ['scheduled', 'in_force', 'ended', 'off'] as const;
export type TDiscountState = (typeof DISCOUNT_STATES)[number];

/** The state of a promotion at `now` (ends is exclusive, as the storefront counts it). */
export function promotionState(p: { active: boolean; startsAt: string | null; endsAt: string | null }, now = new Date()): TDiscountState {
  if (!p.active) return 'off';
  const t = now.getTime();
  if (p.endsAt && Date.parse(p.endsAt) <= t) return 'ended';
  if (p.startsAt && Date.parse(p.startsAt) > t) return 'scheduled';
  return 'in_force';
}

const ZDiscountFields = z.object({
  title: z.string().trim().min(1, PROMOTION_MESSAGES.title).max(120),
  type: z.enum(DISCOUNT_KINDS),
  discountType: z.enum(DISCOUNT_TYPES),
  /** Per cent for PERCENTAGE (1–PERCENTAGE_MAX), poisha for AMOUNT. */
  value: z.number().int(),
  /** FIXED_CATEGORY: the categories (their descendants are reached too). */
  categoryIds: z.array(z.number().int().positive()).max(200).default([]),
  /** FIXED_PRODUCT: the products; a skuCode narrows one to that sku. */
  items: z
    .array(z.object({ productId: z.number().int().positive(), skuCode: z.string().trim().max(64).nullable().default(null) }))
    .max(500)
    .default([]),
  startsAt: ZInstant.nullable().default(null),
  endsAt: ZInstant.nullable().default(null),
  active: z.boolean().default(false),
});

function checkDiscount(v: z.infer<typeof ZDiscountFields>, ctx: z.RefinementCtx) {
  checkValueAndWindow(v, ctx);
  if (v.type === 'FIXED_CATEGORY' && !v.categoryIds.length) ctx.addIssue({ code: 'custom', path: ['categoryIds'], message: PROMOTION_MESSAGES.categories });
  if (v.type === 'FIXED_PRODUCT' && !v.items.length) ctx.addIssue({ code: 'custom', path: ['items'], message: PROMOTION_MESSAGES.products });
}

export const ZDiscountInput = ZDiscountFields.extend({
  /** The version read: a discount changed since answers 409 `stale_version`. */
  version: z.number().int().optional(),
}).superRefine(checkDiscount);
export type TDiscountInput = z.input<typeof ZDiscountInput>;

/** The preview of a discount as typed; `id` is the saved discount it would replace, if any. */
export const ZDiscountPreviewInput = ZDiscountFields.extend({ id: z.number().int().positive().optional() }).superRefine(checkDiscount);
export type TDiscountPreviewInput = z.input<typeof ZDiscountPreviewInput>;

export const ZDiscountSwitch = z.object({ active: z.boolean(), version: z.number().int() });
export type TDiscountSwitch = z.infer<typeof ZDiscountSwitch>;

export const ZDiscountListQuery = ZAdminPageQuery.extend({
  q: z.string().max(120).optional(),
  state: z.enum(DISCOUNT_STATES).optional(),
});
export type TDiscountListQuery = z.input<typeof ZDiscountListQuery>;

export const ZAdminDiscountRow = z.object({
  id: z.number(),
  title: z.string(),
  type: z.enum(DISCOUNT_KINDS),
  discountType: z.enum(DISCOUNT_TYPES),
  value: z.number(),
  active: z.boolean(),
  state: z.enum(DISCOUNT_STATES),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  /** Categories or products it names. */
  targets: z.number(),
  version: z.number(),
  updatedAt: z.string(),
});
export type TAdminDiscountRow = z.infer<typeof ZAdminDiscountRow>;

export const ZAdminDiscount = ZAdminDiscountRow.extend({
  categories: z.array(z.object({ id: z.number(), name: z.string() })),
  items: z.array(z.object({ productId: z.number(), title: z.string(), skuCode: z.string().nullable() })),
});
export type TAdminDiscount = z.infer<typeof ZAdminDiscount>;

export const ZDiscountPreviewQuery = ZAdminPageQuery;

/** One sku the discount reaches: its price now, and if the discount were in force. */
export const ZDiscountPreviewLine = z.object({
  productId: z.number(),
  title: z.string(),
  skuCode: z.string(),
  /** The list price. */
  salesPrice: z.number(),
  /** What a shopper pays now (the sku's own sale price or the best discount in force). */
  currentPrice: z.number(),
  /** What they would pay with this discount in force (the largest saving still wins). */
  newPrice: z.number(),
  /** False when another saving is larger, so this discount would change nothing here. */
  wins: z.boolean(),
});
export type TDiscountPreviewLine = z.infer<typeof ZDiscountPreviewLine>;

export const ZDiscountPreview = z.object({
  items: z.array(ZDiscountPreviewLine),
  /** Skus reached, over every page. */
  total: z.number(),
  products: z.number(),
  /** Skus whose price this discount would lower. */
  lowered: z.number(),
  page: z.number(),
  size: z.number(),
});
export type TDiscountPreview = z.infer<typeof ZDiscountPreview>;

// ---- coupons ------------------------------------------------------------------------------------

const ZCouponFields = z.object({
  /** Matched without regard to case; stored upper-case. */
  code: z.string().transform(normalizeCouponCode).pipe(z.string().regex(COUPON_CODE_PATTERN, PROMOTION_MESSAGES.code)),
  title: z.string().trim().min(1, PROMOTION_MESSAGES.title).max(120),
  discountType: z.enum(DISCOUNT_TYPES),
  value: z.number().int(),
  minimumOrder: ZPoisha.nullable().default(null),
  /** A cap on a percentage coupon's amount. */
  maxAmount: ZPoisha.nullable().default(null),
  startsAt: ZInstant.nullable().default(null),
  endsAt: ZInstant.nullable().default(null),
  usageLimit: z.number().int().min(1).max(10_000_000).nullable().default(null),
  perCustomerLimit: z.number().int().min(1).max(1000).nullable().default(null),
  isPublic: z.boolean().default(false),
  active: z.boolean().default(true),
  version: z.number().int().optional(),
});

export const ZCouponInput = ZCouponFields.superRefine((v, ctx) => {
  checkValueAndWindow(v, ctx);
  if (v.maxAmount != null && v.discountType !== 'PERCENTAGE') {
    ctx.addIssue({ code: 'custom', path: ['maxAmount'], message: PROMOTION_MESSAGES.maxAmountPercentOnly });
  }
});
export type TCouponInput = z.input<typeof ZCouponInput>;

export const ZCouponSwitch = ZDiscountSwitch;

export const ZCouponListQuery = ZAdminPageQuery.extend({
  q: z.string().max(120).optional(),
  state: z.enum(DISCOUNT_STATES).optional(),
});
export type TCouponListQuery = z.input<typeof ZCouponListQuery>;

export const ZAdminCoupon = z.object({
  id: z.number(),
  code: z.string(),
  title: z.string(),
  discountType: z.enum(DISCOUNT_TYPES),
  value: z.number(),
  minimumOrder: z.number().nullable(),
  maxAmount: z.number().nullable(),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  usageLimit: z.number().nullable(),
  perCustomerLimit: z.number().nullable(),
  isPublic: z.boolean(),
  active: z.boolean(),
  state: z.enum(DISCOUNT_STATES),
  /** Uses so far (orders cancelled since give theirs back). */
  uses: z.number(),
  version: z.number(),
  updatedAt: z.string(),
});
export type TAdminCoupon = z.infer<typeof ZAdminCoupon>;

export const ZCouponUsage = z.object({
  id: z.number(),
  /** The order's invoice, null for a use whose order is gone. */
  saleId: z.number().nullable(),
  invoiceId: z.string().nullable(),
  usedAt: z.string(),
  customerId: z.number().nullable(),
  /** The account's name, or the guest's contact name. */
  name: z.string().nullable(),
  guest: z.boolean(),
  amount: z.number(),
});
export type TCouponUsage = z.infer<typeof ZCouponUsage>;

export const ZCouponUsages = z.object({
  items: z.array(ZCouponUsage),
  total: z.number(),
  page: z.number(),
  size: z.number(),
  /** Over every use, not just this page. */
  totals: z.object({ uses: z.number(), amount: z.number() }),
});
export type TCouponUsages = z.infer<typeof ZCouponUsages>;
