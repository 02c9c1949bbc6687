import { z } from './zod.ts';
import { ACCOUNT_MESSAGES, LIMITS, normalizeMobile, validateAddress } from './account-validation.ts';
import { LINE_QUANTITY_CEILING, MAX_CART_LINES, ZSkuCode } from './cart.ts';
import { isEmailShaped } from './email.ts';
import type { Minor } from './money.ts';

// Checkout, orders and bookings: what the checkout page sends, the states a sale
// goes through and the rules that both the server and the order pages apply to them.

export const PAYMENT_METHODS = ['card', 'cod', 'later'] as const;
export type TPaymentMethod = (typeof PAYMENT_METHODS)[number];

export const DELIVERY_METHODS = ['home_delivery', 'showroom_pickup'] as const;
export type TDeliveryMethod = (typeof DELIVERY_METHODS)[number];

/**
 * Delivery fees in poisha. Furniture is delivered and assembled by the shop's own team:
 * a flat fee inside Dhaka district, a higher one elsewhere; collecting from a showroom is
 * free. The server charges what this function says; the page shows the same figure.
 */
export const DELIVERY_FEES = { insideDhaka: 50_000, outsideDhaka: 150_000, pickup: 0 } as const;

export function deliveryFee(method: TDeliveryMethod, district: string | null | undefined): Minor {
  if (method === 'showroom_pickup') return DELIVERY_FEES.pickup;
  return (district ?? '').trim().toLowerCase() === 'dhaka' ? DELIVERY_FEES.insideDhaka : DELIVERY_FEES.outsideDhaka;
}

export const DELIVERY_METHOD_LABELS: Record<TDeliveryMethod, string> = {
  home_delivery: 'Home delivery and assembly',
  showroom_pickup: 'Collect from a showroom',
};

export const PAYMENT_METHOD_LABELS: Record<TPaymentMethod, string> = {
  card: 'Card or mobile banking',
  cod: 'Cash on delivery',
  later: 'Pay later (booking)',
};

// ---------------------------------------------------------------------------
// States

/**
 * The life of a sale. A card order waits for its payment (`pending_payment`); a failed,
 * cancelled or expired payment releases the stock but keeps the order, which can be paid
 * again (a new payment session reserves the stock again). Cash-on-delivery orders and
 * paid card orders are `confirmed`; a booking is `booked` until it is fulfilled or
 * cancelled. `on_hold` is a paid order a person must look at (a risky payment, or a
 * payment that arrived after its stock was released and could not be reserved again).
 */
export const SALE_STATUSES = [
  'pending_payment',
  'confirmed',
  'booked',
  'on_hold',
  'payment_failed',
  'payment_cancelled',
  'payment_expired',
  'cancelled',
  'fulfilled',
] as const;
export type TSaleStatus = (typeof SALE_STATUSES)[number];

export const PAYMENT_STATUSES = ['unpaid', 'pending', 'paid', 'review', 'failed', 'cancelled', 'expired', 'proof_submitted'] as const;
export type TPaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const SALE_STATUS_LABELS: Record<TSaleStatus, string> = {
  pending_payment: 'Awaiting payment',
  confirmed: 'Confirmed',
  booked: 'Booked',
  on_hold: 'On hold for review',
  payment_failed: 'Payment failed',
  payment_cancelled: 'Payment cancelled',
  payment_expired: 'Payment not completed',
  cancelled: 'Cancelled',
  fulfilled: 'Delivered',
};

export const PAYMENT_STATUS_LABELS: Record<TPaymentStatus, string> = {
  unpaid: 'Not paid',
  pending: 'Payment in progress',
  paid: 'Paid',
  review: 'Paid, under review',
  failed: 'Payment failed',
  cancelled: 'Payment cancelled',
  expired: 'Payment not completed',
  proof_submitted: 'Payment proof received',
};

/** States of a card order whose stock was released and that may be paid again. */
export const RETRYABLE_STATUSES: readonly TSaleStatus[] = ['payment_failed', 'payment_cancelled', 'payment_expired'];

export interface TSaleState {
  kind: 'order' | 'booking';
  paymentMethod: TPaymentMethod;
  status: TSaleStatus;
  paymentStatus: TPaymentStatus;
}

/** An unpaid card order can be paid again from its order page (a new payment session). */
export function canRetryPayment(s: TSaleState): boolean {
  return (
    s.paymentMethod === 'card' &&
    (RETRYABLE_STATUSES.includes(s.status) || s.status === 'pending_payment') &&
    s.paymentStatus !== 'paid' &&
    s.paymentStatus !== 'review'
  );
}

/**
 * The customer may cancel a booking, a cash-on-delivery order or an unpaid card order
 * until it is fulfilled. Money that was paid is never handed back by a button: a paid or
 * held order is cancelled by the shop, which refunds it.
 */
export function canCustomerCancel(s: TSaleState): boolean {
  if (s.status === 'cancelled' || s.status === 'fulfilled' || s.status === 'on_hold') return false;
  return s.paymentStatus !== 'paid' && s.paymentStatus !== 'review';
}

/** A payment proof (a bank deposit slip) can be attached to a live booking. */
export function canUploadProof(s: TSaleState): boolean {
  return s.kind === 'booking' && s.status === 'booked';
}

export const PAYMENT_OUTCOMES = ['success', 'failed', 'cancel', 'later'] as const;
export type TPaymentOutcome = (typeof PAYMENT_OUTCOMES)[number];

/** Where a shopper lands after placing an order or returning from the payment page. */
export function outcomePath(outcome: TPaymentOutcome, invoiceId: string): string {
  return `/payments/response/${outcome}?invoiceId=${encodeURIComponent(invoiceId)}`;
}

// ---------------------------------------------------------------------------
// The checkout request (POST /api/checkouts)

export const CHECKOUT_MESSAGES = {
  emailRequired: 'Please Give Your Email',
  emailInvalid: 'Please Give a Correct Email',
  nameRequired: 'Please Give Your Name',
  mobileRequired: 'Please Give Your Mobile No',
  mobileInvalid: ACCOUNT_MESSAGES.mobileInvalid,
  addressRequired: 'Please give a delivery address',
  pickupRequired: 'Please choose the showroom you will collect from',
  emptyCart: 'Your cart is empty',
  outOfStock: 'Some items are no longer in stock in the quantity you asked for',
} as const;

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

export function validateGuestContact(v: { name: string; mobile: string; email: string }): Partial<Record<'name' | 'mobile' | 'email', string>> {
  const e: Partial<Record<'name' | 'mobile' | 'email', string>> = {};
  if (!v.name.trim()) e.name = CHECKOUT_MESSAGES.nameRequired;
  else if ([...v.name.trim()].length > LIMITS.fullName) e.name = ACCOUNT_MESSAGES.fullNameTooLong;
  if (!v.mobile.trim()) e.mobile = CHECKOUT_MESSAGES.mobileRequired;
  else if (!normalizeMobile(v.mobile)) e.mobile = CHECKOUT_MESSAGES.mobileInvalid;
  if (!v.email.trim()) e.email = CHECKOUT_MESSAGES.emailRequired;
  else if (!isEmailShaped(v.email.trim())) e.email = CHECKOUT_MESSAGES.emailInvalid;
  return e;
}

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

/** Lines that ask for the same sku are one line (their quantities add up, within the limit). */
export function mergeCheckoutItems(items: readonly { skuCode: string; quantity: number }[]): { skuCode: string; quantity: number }[] {
  const merged = new Map<string, number>();
  for (const i of items) merged.set(i.skuCode, (merged.get(i.skuCode) ?? 0) + i.quantity);
  return [...merged].map(([skuCode, quantity]) => ({ skuCode, quantity }));
}

/** The cookie that lets a guest's browser see the orders it placed (decision 0018). */
export const ORDER_ACCESS_COOKIE = 'order_access';
/** The header an API client sends the order-access token in instead. */
export const ORDER_ACCESS_HEADER = 'x-order-token';

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
});

export const ZSaleAddress = z.object({
  fullName: z.string(),
  phone: z.string(),
  division: z.string().optional(),
  district: z.string().optional(),
  area: z.string().optional(),
  addressLine: z.string().optional(),
});

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
  /** When an unpaid booking with no payment proof is released (BOOKING_HOLD_HOURS after it was placed); null otherwise. */
  holdUntil: z.string().nullable().optional(),
  lines: z.array(ZSaleLine),
  canCancel: z.boolean(),
  canRetryPayment: z.boolean(),
  canUploadProof: z.boolean(),
  history: z.array(ZSaleHistoryEntry).optional(),
  payments: z.array(ZSalePayment).optional(),
  attachments: z.array(ZSaleAttachment).optional(),
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
