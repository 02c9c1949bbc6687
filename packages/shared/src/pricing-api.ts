import { z } from './zod.ts';
import { ZCouponCode, ZLineQuantity, ZSkuCode } from './cart-schemas.ts';
import { COUPON_REASONS } from './coupon.ts';
import { DISCOUNT_TYPES } from './pricing.ts';

// Request and response shapes of the cart quote, the coupon calls and the currency list
//, shared by the API's route schemas and the web app's calls.

const ZMinor = z.number().int();

/** A cart as the server prices it: sku codes and quantities only. Any price sent along is stripped. */
export const ZQuoteRequest = z.object({
  lines: z.array(z.object({ skuCode: ZSkuCode, quantity: ZLineQuantity })).max(50),
  couponCode: ZCouponCode.nullish(),
});
export type TQuoteRequest = z.infer<typeof ZQuoteRequest>;

export const ZCartTotals = z.object({
  quantity: z.number().int(),
  subTotal: ZMinor,
  discount: ZMinor,
  couponAmount: ZMinor,
  total: ZMinor,
});

export const QUOTE_LINE_STATUSES = ['ok', 'unavailable', 'out_of_stock', 'insufficient_stock'] as const;

export const ZQuoteLine = z.object({
  skuCode: z.string(),
  quantity: z.number().int(),
  status: z.enum(QUOTE_LINE_STATUSES),
  availableQuantity: z.number().int(),
  product: z
    .object({
      id: z.number().int(),
      title: z.string(),
      slug: z.string(),
      image: z.string().nullable(),
      kind: z.string(),
      categoryIds: z.array(z.number().int()),
    })
    .nullable(),
  sku: z.object({ code: z.string(), label: z.string(), salesPrice: ZMinor, discountedSalesPrice: ZMinor.nullable() }).nullable(),
  salesPrice: ZMinor,
  unitPrice: ZMinor,
  saving: ZMinor,
  discountId: z.number().int().nullable(),
  subTotal: ZMinor,
  sourceType: z.literal('bundle').optional(),
});
export type TQuoteLine = z.infer<typeof ZQuoteLine>;

export const ZQuoteCoupon = z.discriminatedUnion('applied', [
  z.object({
    code: z.string(),
    applied: z.literal(true),
    amount: ZMinor,
    title: z.string(),
    discountType: z.enum(DISCOUNT_TYPES),
    value: z.number().int(),
    minimumOrder: ZMinor.nullable(),
  }),
  z.object({
    code: z.string(),
    applied: z.literal(false),
    amount: z.literal(0),
    reason: z.enum(COUPON_REASONS),
    message: z.string(),
    minimumOrder: ZMinor.nullable(),
  }),
]);
export type TQuoteCoupon = z.infer<typeof ZQuoteCoupon>;

export const ZCartQuote = z.object({
  lines: z.array(ZQuoteLine),
  totals: ZCartTotals,
  coupon: ZQuoteCoupon.nullable(),
  currency: z.literal('BDT'),
});
export type TCartQuote = z.infer<typeof ZCartQuote>;

/** What GET /api/discount/coupons/apply answers when the coupon applies. */
export const ZCouponApplied = z.object({
  code: z.string(),
  title: z.string(),
  discountType: z.enum(DISCOUNT_TYPES),
  value: z.number().int(),
  minimumOrder: ZMinor.nullable(),
  /** What the coupon takes off this cart, in BDT poisha. */
  couponAmount: ZMinor,
  totals: ZCartTotals,
});
export type TCouponApplied = z.infer<typeof ZCouponApplied>;

export const ZCouponSummary = z.object({
  id: z.number().int(),
  code: z.string(),
  title: z.string(),
  discountType: z.enum(DISCOUNT_TYPES),
  value: z.number().int(),
  minimumOrder: ZMinor.nullable(),
  maxAmount: ZMinor.nullable(),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  perCustomerLimit: z.number().int().nullable(),
  valid: z.boolean(),
});

export const ZCurrencyConversion = z.object({
  sourceId: z.string(),
  sourceCountry: z.string(),
  rate: z.number(),
  numCode: z.string(),
  imageUrl: z.string(),
});
export type TCurrencyConversion = z.infer<typeof ZCurrencyConversion>;
