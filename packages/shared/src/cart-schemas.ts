import { LINE_QUANTITY_CEILING, SKU_CODE_PATTERN } from './cart.ts';
import { COUPON_CODE_PATTERN, normalizeCouponCode } from './coupon.ts';
import { z } from './zod.ts';

// Request schemas for cart lines and coupon codes (the server's quote, coupon and checkout
// bodies), on the rules of cart.ts and coupon.ts. Kept apart from cart.ts so that the browser, which needs the rules but
// not the schemas, never loads zod (decision 0030).

export const ZSkuCode = z.string().regex(SKU_CODE_PATTERN, 'A sku code is 1 to 64 letters, digits, ., _ or -');
export const ZLineQuantity = z.number().int().min(1).max(LINE_QUANTITY_CEILING);

/** A coupon code as a shopper may type it: trimmed, upper-cased, 3–32 letters, digits, _ or -. */
export const ZCouponCode = z
  .string()
  .max(64)
  .transform(normalizeCouponCode)
  .pipe(z.string().regex(COUPON_CODE_PATTERN, 'A coupon code is 3 to 32 letters, digits, - or _'));
