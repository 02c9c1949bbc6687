import { LIMITS, validateAddress } from './account-validation.ts';
import { LINE_QUANTITY_CEILING, MAX_CART_LINES } from './cart.ts';
import { ZSkuCode } from './cart-schemas.ts';
import { DELIVERY_METHODS, PAYMENT_METHODS, PAYMENT_STATUSES, SALE_STATUSES, validateGuestContact, CHECKOUT_MESSAGES } from './checkout.ts';
import { z } from './zod.ts';

// The checkout and sales API's bodies and answers (spec §7), for the server's route
// schemas; the rules they apply are in checkout.ts.

export const ZCheckoutItem = z.object({
  skuCode: ZSkuCode,
  // Whole units only: a fractional or negative quantity is refused, never rounded.
  quantity: z.number().int().min(1).max(LINE_QUANTITY_CEILING),
});

/** A delivery address typed at checkout (the saved-address fields of the accounts feature). */
export const ZDeliveryAddress = z
  .object({
    fullName: z.string().max(LIMITS.fullName * 2),
    phone: z.string().max(LIMITS.mobile * 2),
    division: z.string().max(40),
    district: z.string().max(40),
    area: z.string().max(LIMITS.area * 2),
    addressLine: z.string().max(LIMITS.addressLine * 2),
  })
  .superRefine((v, ctx) => {
    for (const [field, message] of Object.entries(validateAddress(v))) {
      if (message) ctx.addIssue({ code: 'custom', path: [field], message });
    }
  });
export type TDeliveryAddress = z.infer<typeof ZDeliveryAddress>;

/** A guest's contact details: where the confirmation goes and whom the courier calls. */
export const ZGuestContact = z
  .object({
    name: z.string().max(LIMITS.fullName * 2),
    mobile: z.string().max(LIMITS.mobile * 2),
    email: z.string().max(LIMITS.email),
  })
  .superRefine((v, ctx) => {
    for (const [field, message] of Object.entries(validateGuestContact(v))) {
      if (message) ctx.addIssue({ code: 'custom', path: [field], message });
    }
  });
export type TGuestContact = z.infer<typeof ZGuestContact>;

/**
 * POST /api/checkouts. Only skus and quantities travel: prices, totals and currency are
 * the server's (unknown keys such as `price` or `total` are stripped and never read).
 */
export const ZCheckoutRequest = z.object({
  items: z.array(ZCheckoutItem).min(1, CHECKOUT_MESSAGES.emptyCart).max(MAX_CART_LINES),
  couponCode: z.string().max(64).nullish(),
  paymentMethod: z.enum(PAYMENT_METHODS),
  deliveryMethod: z.enum(DELIVERY_METHODS),
  /** A saved address of the signed-in customer… */
  addressId: z.number().int().positive().max(2_147_483_647).optional(),
  /** …or one typed at checkout (guests always type one for home delivery). */
  address: ZDeliveryAddress.optional(),
  /** The showroom to collect from, for showroom pickup. */
  pickupBranchId: z.number().int().positive().max(2_147_483_647).optional(),
  /** Required from guests; a customer's comes from the profile unless given. */
  contact: ZGuestContact.optional(),
  note: z.string().max(500).optional(),
});
export type TCheckoutRequest = z.infer<typeof ZCheckoutRequest>;

// ---------------------------------------------------------------------------
// A sale as the API answers it (POST /api/sales, GET /api/sales?id)

export const ZSaleLine = z.object({
  lineNo: z.number().int(),
  skuCode: z.string(),
  productId: z.number().int(),
  title: z.string(),
  /** "Walnut / Queen" */
  variant: z.string(),
  image: z.string().nullable(),
  sourceType: z.string().nullable(),
  quantity: z.number().int(),
  /** List price of one unit, poisha. */
  unitPrice: z.number().int(),
  /** What discounts took off the line, poisha. */
  discount: z.number().int(),
  lineTotal: z.number().int(),
});
export type TSaleLine = z.infer<typeof ZSaleLine>;

export const ZSaleHistoryEntry = z.object({
  status: z.enum(SALE_STATUSES),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  actor: z.string(),
  note: z.string(),
  createdAt: z.string(),
});

export const ZSalePayment = z.object({
  provider: z.string(),
  status: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  riskLevel: z.number().int().nullable(),
  cardType: z.string().nullable(),
  /** A wallet payment's own transaction id (bKash's trxID), once the wallet completed it; else null. */
  transactionId: z.string().nullable().optional(),
  createdAt: z.string(),
  verifiedAt: z.string().nullable(),
});

export const ZSaleAttachment = z.object({
  fileUuid: z.string(),
  name: z.string().nullable(),
  mimeType: z.string().nullable(),
  kind: z.string(),
  note: z.string(),
  url: z.string().nullable(),
  createdAt: z.string(),
  /** A payment proof as the shop checked it: pending, accepted or rejected (with the reason). */
  reviewStatus: z.enum(['pending', 'accepted', 'rejected']).optional(),
  reviewNote: z.string().nullable().optional(),
});

export const ZSaleAddress = z.object({
  fullName: z.string(),
  phone: z.string(),
  division: z.string().optional(),
  district: z.string().optional(),
  area: z.string().optional(),
  addressLine: z.string().optional(),
});

/** Where the parcel is, as the courier reported it (docs/decisions/0040): shown to the order's own shopper only. */
export const ZSaleShipment = z.object({
  courier: z.enum(['steadfast', 'pathao']),
  /** The courier's public tracking code (Steadfast), or its consignment id (Pathao tracks by it). */
  trackingCode: z.string().nullable(),
  consignmentId: z.string().nullable(),
  /** booked, picked_up, in_transit, delivered, partly_delivered, returned, cancelled, on_hold, unknown. */
  status: z.string(),
  statuses: z.array(z.object({ status: z.string(), message: z.string().nullable(), at: z.string() })),
});
export type TSaleShipment = z.infer<typeof ZSaleShipment>;

export const ZSale = z.object({
  id: z.number().int(),
  invoiceId: z.string(),
  kind: z.enum(['order', 'booking']),
  status: z.enum(SALE_STATUSES),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  paymentMethod: z.enum(PAYMENT_METHODS),
  deliveryMethod: z.enum(DELIVERY_METHODS),
  /** Always BDT: checkout charges in taka (decisions.md). */
  currency: z.literal('BDT'),
  subTotal: z.number().int(),
  discount: z.number().int(),
  couponCode: z.string().nullable(),
  couponAmount: z.number().int(),
  deliveryFee: z.number().int(),
  total: z.number().int(),
  itemCount: z.number().int(),
  contact: z.object({ name: z.string(), mobile: z.string(), email: z.string() }),
  deliveryAddress: ZSaleAddress.nullable(),
  pickupBranch: z.object({ id: z.number().int(), name: z.string(), address: z.string(), city: z.string(), phone: z.string(), hours: z.string() }).nullable(),
  note: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  paidAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  fulfilledAt: z.string().nullable(),
  /** What the shop has received, and refunded, in poisha. */
  amountPaid: z.number().int().optional(),
  refundedTotal: z.number().int().optional(),
  /** When an unpaid booking with no payment proof is released (BOOKING_HOLD_HOURS after it was placed); null otherwise. */
  holdUntil: z.string().nullable().optional(),
  lines: z.array(ZSaleLine),
  canCancel: z.boolean(),
  canRetryPayment: z.boolean(),
  canUploadProof: z.boolean(),
  history: z.array(ZSaleHistoryEntry).optional(),
  payments: z.array(ZSalePayment).optional(),
  attachments: z.array(ZSaleAttachment).optional(),
  /** The parcel the shop handed to a courier, once booked; absent before. */
  shipment: ZSaleShipment.nullable().optional(),
});
export type TSale = z.infer<typeof ZSale>;

/** What POST /api/checkouts answers. */
export const ZCheckoutResponse = z.object({
  invoiceId: z.string(),
  saleId: z.number().int(),
  /** Card: the provider's payment page, taken from the provider's answer only; else null. */
  paymentUrl: z.string().nullable(),
  /** Where the shopper goes next: the payment page, or an outcome page. */
  redirectTo: z.string(),
  /** A guest's order-access token (also set as an httpOnly cookie); null for customers. */
  accessToken: z.string().nullable(),
  sale: ZSale,
});
export type TCheckoutResponse = z.infer<typeof ZCheckoutResponse>;

/** What a payment session answers (paying an unpaid card order again). */
export const ZPaymentSessionResponse = z.object({ invoiceId: z.string(), paymentUrl: z.string(), sale: ZSale });
