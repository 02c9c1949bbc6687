import { ACCOUNT_MESSAGES, LIMITS, normalizeMobile } from './account-validation.ts';
import { isEmailShaped } from './email.ts';
import { nameHasInvisibleCharacters } from './invisible-characters.ts';
import type { Minor } from './money.ts';

// Checkout, orders and bookings: what the checkout page sends, the states a sale
// goes through and the rules that both the server and the order pages apply to them. The
// API's bodies and answers are in checkout-schemas.ts: the browser loads no zod (decision 0030).

// bkash: the bKash wallet's tokenized checkout, offered only when the shop has bKash credentials.
// nagad: the Nagad wallet's online payment gateway, offered only when the shop has Nagad's keys.
export const PAYMENT_METHODS = ['card', 'cod', 'later', 'bkash', 'nagad'] as const;
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
  bkash: 'bKash',
  nagad: 'Nagad',
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
  'placed',
  'confirmed',
  'packed',
  'shipped',
  'booked',
  'on_hold',
  'payment_failed',
  'payment_cancelled',
  'payment_expired',
  'cancelled',
  'fulfilled',
  'returned',
] as const;
export type TSaleStatus = (typeof SALE_STATUSES)[number];

export const PAYMENT_STATUSES = [
  'unpaid',
  'pending',
  'paid',
  'review',
  'failed',
  'cancelled',
  'expired',
  'proof_submitted',
  'proof_rejected',
  'refund_pending',
  'partially_refunded',
  'refunded',
] as const;
export type TPaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const SALE_STATUS_LABELS: Record<TSaleStatus, string> = {
  pending_payment: 'Awaiting payment',
  placed: 'Order placed',
  confirmed: 'Confirmed',
  packed: 'Packed',
  shipped: 'On its way',
  booked: 'Booked',
  on_hold: 'On hold for review',
  payment_failed: 'Payment failed',
  payment_cancelled: 'Payment cancelled',
  payment_expired: 'Payment not completed',
  cancelled: 'Cancelled',
  fulfilled: 'Delivered',
  returned: 'Returned',
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
  proof_rejected: 'Payment proof not accepted',
  refund_pending: 'Refund pending',
  partially_refunded: 'Partly refunded',
  refunded: 'Refunded',
};

/**
 * Payment states in which money has reached the shop (some may have gone back since): such
 * an order is never cancelled by the shopper's button, and is never paid again.
 */
export const MONEY_RECEIVED_STATUSES: readonly TPaymentStatus[] = ['paid', 'review', 'partially_refunded', 'refund_pending', 'refunded'];

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
    // Cards and the wallets alike (docs/decisions/0041, 0042): a failed, cancelled or expired
    // online payment may be tried again with the same method.
    (s.paymentMethod === 'card' || s.paymentMethod === 'bkash' || s.paymentMethod === 'nagad') &&
    (RETRYABLE_STATUSES.includes(s.status) || s.status === 'pending_payment') &&
    !MONEY_RECEIVED_STATUSES.includes(s.paymentStatus)
  );
}

/**
 * The customer may cancel a booking, a cash-on-delivery order or an unpaid card order
 * until it is fulfilled. Money that was paid is never handed back by a button: a paid or
 * held order is cancelled by the shop, which refunds it.
 */
export function canCustomerCancel(s: TSaleState): boolean {
  if (!CUSTOMER_CANCELLABLE.includes(s.status)) return false;
  return !MONEY_RECEIVED_STATUSES.includes(s.paymentStatus);
}

/** Once an order is packed, the shop has started on it: only the shop cancels it then. */
const CUSTOMER_CANCELLABLE: readonly TSaleStatus[] = [
  'pending_payment',
  'placed',
  'confirmed',
  'booked',
  'payment_failed',
  'payment_cancelled',
  'payment_expired',
];

/** A payment proof (a bank deposit slip) can be attached to a live booking. */
export function canUploadProof(s: TSaleState): boolean {
  return s.kind === 'booking' && s.status === 'booked' && s.paymentStatus !== 'paid';
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

export function validateGuestContact(v: { name: string; mobile: string; email: string }): Partial<Record<'name' | 'mobile' | 'email', string>> {
  const e: Partial<Record<'name' | 'mobile' | 'email', string>> = {};
  if (!v.name.trim()) e.name = CHECKOUT_MESSAGES.nameRequired;
  else if ([...v.name.trim()].length > LIMITS.fullName) e.name = ACCOUNT_MESSAGES.fullNameTooLong;
  else if (nameHasInvisibleCharacters(v.name.trim())) e.name = ACCOUNT_MESSAGES.nameInvisible;
  if (!v.mobile.trim()) e.mobile = CHECKOUT_MESSAGES.mobileRequired;
  else if (!normalizeMobile(v.mobile)) e.mobile = CHECKOUT_MESSAGES.mobileInvalid;
  if (!v.email.trim()) e.email = CHECKOUT_MESSAGES.emailRequired;
  else if (!isEmailShaped(v.email.trim())) e.email = CHECKOUT_MESSAGES.emailInvalid;
  return e;
}

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
