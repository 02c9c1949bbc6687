import { DISCOUNT_KINDS, DISCOUNT_TYPES } from './pricing.ts';
import { z } from './zod.ts';

// The API's shape of a discount, for the server's response schemas; the rules that use it
// are in pricing.ts, which the browser loads without zod (decision 0030).

/** A global discount of spec §3, as the API answers it. */
export const ZGlobalDiscount = z.object({
  id: z.number().int(),
  title: z.string(),
  /** True while the discount is switched on and inside its validity window. */
  valid: z.boolean(),
  type: z.enum(DISCOUNT_KINDS),
  discountType: z.enum(DISCOUNT_TYPES),
  /** Per cent (1–100) for PERCENTAGE, poisha for AMOUNT. */
  value: z.number().int(),
  categories: z.array(z.object({ categoryId: z.number().int() })),
  /** The listed categories and all their descendants: what the discount reaches. */
  coveredCategoryIds: z.array(z.number().int()),
  /** itemId is a product id; a null skuCode means every sku of that product. */
  items: z.array(z.object({ itemId: z.number().int(), skuCode: z.string().nullable() })),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
});
export type TGlobalDiscount = z.infer<typeof ZGlobalDiscount>;
