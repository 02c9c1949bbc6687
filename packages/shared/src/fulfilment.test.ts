import { describe, expect, it } from 'vitest';
import { allowedActions, canCollectCash, paymentStatusAfterRefund, refusalOf, type TFulfilmentState } from './fulfilment.ts';

const order = (s: Partial<TFulfilmentState>): TFulfilmentState => ({
  kind: 'order',
  status: 'placed',
  paymentStatus: 'unpaid',
  paymentMethod: 'cod',
  deliveryMethod: 'home_delivery',
  ...s,
});

describe('fulfilment steps', () => {
  it('offers each order only its next steps', () => {
    expect(allowedActions(order({}))).toEqual(['confirm', 'cancel']);
    expect(allowedActions(order({ status: 'confirmed' }))).toEqual(['pack', 'cancel']);
    expect(allowedActions(order({ status: 'packed' }))).toEqual(['ship', 'cancel']);
    expect(allowedActions(order({ status: 'shipped' }))).toEqual(['deliver', 'return']);
    expect(allowedActions(order({ status: 'fulfilled' }))).toEqual(['return']);
    expect(allowedActions(order({ status: 'returned' }))).toEqual([]);
    expect(allowedActions(order({ status: 'cancelled' }))).toEqual([]);
    // A showroom pickup goes from packed to handed over.
    expect(allowedActions(order({ status: 'packed', deliveryMethod: 'showroom_pickup' }))).toEqual(['deliver', 'cancel']);
    expect(allowedActions(order({ kind: 'booking', status: 'booked', paymentMethod: 'later' }))).toEqual(['cancel', 'convert']);
    expect(allowedActions(order({ status: 'on_hold', paymentMethod: 'card', paymentStatus: 'review' }))).toEqual(['confirm', 'cancel']);
    // Held once the parcel had left: delivered or brought back, never confirmed again or cancelled.
    expect(allowedActions(order({ status: 'on_hold', shipped: true }))).toEqual(['deliver', 'return']);
    expect(refusalOf('cancel', order({ status: 'on_hold', shipped: true }))).toMatch(/record a return/);
  });

  it('says why a step is refused', () => {
    expect(refusalOf('cancel', order({ status: 'shipped' }))).toMatch(/record a return/);
    expect(refusalOf('ship', order({ status: 'packed', deliveryMethod: 'showroom_pickup' }))).toMatch(/collected from a showroom/);
    expect(refusalOf('confirm', order({ kind: 'booking', status: 'booked' }))).toMatch(/converted/);
    expect(refusalOf('pack', order({ status: 'placed' }))).toBe('Only a confirmed order can be packed');
  });

  it('takes cash once, when the order is on its way or has arrived', () => {
    expect(canCollectCash(order({ status: 'shipped' }))).toBe(true);
    expect(canCollectCash(order({ status: 'fulfilled' }))).toBe(true);
    expect(canCollectCash(order({ status: 'confirmed' }))).toBe(false);
    expect(canCollectCash(order({ status: 'fulfilled', paymentStatus: 'paid' }))).toBe(false);
    expect(canCollectCash(order({ status: 'shipped', paymentMethod: 'card' }))).toBe(false);
  });

  it('names the payment after refunds as the shopper reads it', () => {
    expect(paymentStatusAfterRefund(10_000, 10_000, 'confirmed')).toBe('refunded');
    expect(paymentStatusAfterRefund(10_000, 4_000, 'fulfilled')).toBe('partially_refunded');
    expect(paymentStatusAfterRefund(10_000, 4_000, 'cancelled')).toBe('refund_pending');
  });
});
