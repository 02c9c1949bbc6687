import type { TDeliveryMethod, TPaymentMethod, TPaymentStatus, TSaleStatus } from './checkout.ts';

// What staff do to an order in the back office (docs/decisions/0032). One table of steps, read
// by the API, which enforces it (a step not allowed is a 409), and by the order page, which
// offers only the steps allowed. No zod here: schemas are in admin-order-schemas.ts.

export const ORDER_ACTIONS = ['confirm', 'pack', 'ship', 'deliver', 'return', 'cancel', 'convert'] as const;
export type TOrderAction = (typeof ORDER_ACTIONS)[number];

export const ORDER_ACTION_LABELS: Record<TOrderAction, string> = {
  confirm: 'Confirm',
  pack: 'Mark packed',
  ship: 'Mark shipped',
  deliver: 'Mark delivered',
  return: 'Record a return',
  cancel: 'Cancel',
  convert: 'Convert to an order',
};

/** The status each step leads to (a return of some units keeps the order delivered). */
export const ACTION_TARGET: Record<TOrderAction, TSaleStatus> = {
  confirm: 'confirmed',
  pack: 'packed',
  ship: 'shipped',
  deliver: 'fulfilled',
  return: 'returned',
  cancel: 'cancelled',
  convert: 'confirmed',
};

export interface TFulfilmentState {
  kind: 'order' | 'booking';
  status: TSaleStatus;
  paymentStatus: TPaymentStatus;
  paymentMethod: TPaymentMethod;
  deliveryMethod: TDeliveryMethod;
  /**
   * The order has left with the courier (it was shipped). An order held after that (a
   * courier reporting it delivered with another amount collected, docs/decisions/0053) is
   * taken on by delivering it or recording its return, never by confirming or cancelling it.
   */
  shipped?: boolean;
}

const CANCELLABLE: readonly TSaleStatus[] = [
  'pending_payment',
  'placed',
  'confirmed',
  'packed',
  'booked',
  'on_hold',
  'payment_failed',
  'payment_cancelled',
  'payment_expired',
];

/**
 * Why a step is not allowed now, or null when it is. The reasons are the 409's message:
 * staff read them.
 */
export function refusalOf(action: TOrderAction, s: TFulfilmentState): string | null {
  const pickup = s.deliveryMethod === 'showroom_pickup';
  const heldOnTheWay = s.status === 'on_hold' && s.shipped === true;
  switch (action) {
    case 'confirm':
      if (s.kind === 'booking') return 'A booking is converted to an order, not confirmed';
      if (heldOnTheWay) return 'This order is with the courier: mark it delivered, or record a return';
      return s.status === 'placed' || s.status === 'on_hold' ? null : 'Only a newly placed order, or one on hold for review, can be confirmed';
    case 'pack':
      return s.status === 'confirmed' ? null : 'Only a confirmed order can be packed';
    case 'ship':
      if (pickup) return 'This order is collected from a showroom, so it is not shipped: mark it delivered when it is collected';
      return s.status === 'packed' ? null : 'Only a packed order can be shipped';
    case 'deliver':
      if (pickup) return s.status === 'packed' ? null : 'Only a packed order can be handed over';
      return s.status === 'shipped' || heldOnTheWay ? null : 'Only a shipped order can be marked delivered';
    case 'return':
      return s.status === 'shipped' || s.status === 'fulfilled' || heldOnTheWay ? null : 'Only an order that was shipped or delivered can come back';
    case 'cancel':
      if (s.status === 'shipped' || heldOnTheWay) return 'This order is on its way: record a return when it comes back';
      return CANCELLABLE.includes(s.status) ? null : `An order that is ${s.status === 'fulfilled' ? 'delivered' : s.status} cannot be cancelled`;
    case 'convert':
      return s.kind === 'booking' && s.status === 'booked' ? null : 'Only an open booking can be converted to an order';
  }
}

export function allowedActions(s: TFulfilmentState): TOrderAction[] {
  return ORDER_ACTIONS.filter((a) => refusalOf(a, s) === null);
}

/**
 * Handing an order to a courier is the ship step done by the courier (docs/decisions/0040):
 * allowed exactly where 'ship' is, so this table stays the one place that says when.
 */
export function courierBookingRefusal(s: TFulfilmentState): string | null {
  return refusalOf('ship', s);
}

/**
 * The steps a courier's report moves an order along, in order, each taken only if this
 * table allows it at that moment (a report it does not allow is kept, the order stays):
 * picked up or on the way → shipped; delivered → shipped then delivered (a parcel delivered
 * was picked up, even when that report never came); cancelled once picked up, or returned →
 * the return step, which the table allows only from shipped or delivered, so a parcel
 * cancelled before pickup moves nothing.
 */
export function courierStatusSteps(courierStatus: string): TOrderAction[] {
  switch (courierStatus) {
    case 'picked_up':
    case 'in_transit':
      return ['ship'];
    case 'delivered':
      return ['ship', 'deliver'];
    case 'cancelled':
    case 'returned':
      return ['return'];
    default:
      return [];
  }
}

/** Cash on delivery is recorded once, when the order is on its way or has arrived. */
export function canCollectCash(s: TFulfilmentState): boolean {
  return (
    s.paymentMethod === 'cod' &&
    s.paymentStatus === 'unpaid' &&
    (s.status === 'shipped' || s.status === 'fulfilled' || (s.status === 'packed' && s.deliveryMethod === 'showroom_pickup'))
  );
}

export const REFUND_METHODS = ['gateway', 'bank', 'cash', 'wallet'] as const;
export type TRefundMethod = (typeof REFUND_METHODS)[number];

export const REFUND_METHOD_LABELS: Record<TRefundMethod, string> = {
  gateway: 'Back to the card (through the payment gateway)',
  bank: 'Bank transfer',
  cash: 'Cash',
  wallet: 'Mobile wallet (sent by hand)',
};

/** The payment status after refunds: what the shopper reads. */
export function paymentStatusAfterRefund(paid: number, refunded: number, status: TSaleStatus): TPaymentStatus {
  if (refunded >= paid) return 'refunded';
  if (status === 'cancelled' || status === 'returned') return 'refund_pending';
  return 'partially_refunded';
}
