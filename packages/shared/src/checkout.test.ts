import { describe, expect, it } from 'vitest';
import {
  canCustomerCancel,
  canRetryPayment,
  canUploadProof,
  DELIVERY_FEES,
  deliveryFee,
  mergeCheckoutItems,
  outcomePath,
  type TSaleState,
  validateGuestContact,
} from './checkout.ts';
import { ZCheckoutRequest } from './checkout-schemas.ts';

const state = (s: Partial<TSaleState>): TSaleState => ({ kind: 'order', paymentMethod: 'card', status: 'pending_payment', paymentStatus: 'pending', ...s });

describe('delivery fee', () => {
  it('is the inside-Dhaka fee for Dhaka district, in any case', () => {
    expect(deliveryFee('home_delivery', 'Dhaka')).toBe(DELIVERY_FEES.insideDhaka);
    expect(deliveryFee('home_delivery', ' dhaka ')).toBe(DELIVERY_FEES.insideDhaka);
  });
  it('is the outside-Dhaka fee elsewhere and when unknown', () => {
    expect(deliveryFee('home_delivery', 'Gazipur')).toBe(DELIVERY_FEES.outsideDhaka);
    expect(deliveryFee('home_delivery', null)).toBe(DELIVERY_FEES.outsideDhaka);
  });
  it('is free for showroom pickup', () => {
    expect(deliveryFee('showroom_pickup', 'Dhaka')).toBe(0);
  });
});

describe('what a customer may do with a sale', () => {
  it('pays an unpaid card order again, never a paid, held or non-card one', () => {
    expect(canRetryPayment(state({ status: 'payment_failed', paymentStatus: 'failed' }))).toBe(true);
    expect(canRetryPayment(state({ status: 'payment_cancelled', paymentStatus: 'cancelled' }))).toBe(true);
    expect(canRetryPayment(state({ status: 'payment_expired', paymentStatus: 'expired' }))).toBe(true);
    expect(canRetryPayment(state({}))).toBe(true);
    expect(canRetryPayment(state({ status: 'confirmed', paymentStatus: 'paid' }))).toBe(false);
    expect(canRetryPayment(state({ status: 'on_hold', paymentStatus: 'review' }))).toBe(false);
    expect(canRetryPayment(state({ status: 'cancelled', paymentStatus: 'failed' }))).toBe(false);
    expect(canRetryPayment(state({ paymentMethod: 'cod', status: 'confirmed', paymentStatus: 'unpaid' }))).toBe(false);
    expect(canRetryPayment(state({ paymentMethod: 'bkash', status: 'payment_cancelled', paymentStatus: 'cancelled' }))).toBe(true);
    expect(canRetryPayment(state({ paymentMethod: 'nagad', status: 'payment_failed', paymentStatus: 'failed' }))).toBe(true);
    expect(canRetryPayment(state({ paymentMethod: 'later', status: 'booked', paymentStatus: 'unpaid' }))).toBe(false);
  });
  it('cancels until fulfilment, but never a paid or held order', () => {
    expect(canCustomerCancel(state({ kind: 'booking', paymentMethod: 'later', status: 'booked', paymentStatus: 'unpaid' }))).toBe(true);
    // A cash-on-delivery order the shop has not packed yet; once packed, only the shop cancels it.
    expect(canCustomerCancel(state({ paymentMethod: 'cod', status: 'placed', paymentStatus: 'unpaid' }))).toBe(true);
    expect(canCustomerCancel(state({ paymentMethod: 'cod', status: 'packed', paymentStatus: 'unpaid' }))).toBe(false);
    // Money that reached the shop (some of it refunded since) is never handed back by a button.
    for (const paymentStatus of ['partially_refunded', 'refunded', 'refund_pending'] as const) {
      expect(canCustomerCancel(state({ status: 'confirmed', paymentStatus }))).toBe(false);
      expect(canRetryPayment(state({ status: 'pending_payment', paymentStatus }))).toBe(false);
    }
    expect(canCustomerCancel(state({ kind: 'booking', paymentMethod: 'later', status: 'booked', paymentStatus: 'proof_submitted' }))).toBe(true);
    expect(canCustomerCancel(state({ paymentMethod: 'cod', status: 'confirmed', paymentStatus: 'unpaid' }))).toBe(true);
    expect(canCustomerCancel(state({ kind: 'booking', paymentMethod: 'later', status: 'fulfilled', paymentStatus: 'unpaid' }))).toBe(false);
    expect(canCustomerCancel(state({ status: 'confirmed', paymentStatus: 'paid' }))).toBe(false);
    expect(canCustomerCancel(state({ status: 'on_hold', paymentStatus: 'review' }))).toBe(false);
    expect(canCustomerCancel(state({ status: 'cancelled', paymentStatus: 'unpaid' }))).toBe(false);
  });
  it('uploads a payment proof only to an open booking', () => {
    expect(canUploadProof(state({ kind: 'booking', paymentMethod: 'later', status: 'booked', paymentStatus: 'unpaid' }))).toBe(true);
    expect(canUploadProof(state({ kind: 'booking', paymentMethod: 'later', status: 'booked', paymentStatus: 'proof_rejected' }))).toBe(true);
    expect(canUploadProof(state({ kind: 'booking', paymentMethod: 'later', status: 'booked', paymentStatus: 'paid' }))).toBe(false);
    expect(canUploadProof(state({ kind: 'booking', paymentMethod: 'later', status: 'cancelled', paymentStatus: 'unpaid' }))).toBe(false);
    expect(canUploadProof(state({ paymentMethod: 'cod', status: 'confirmed', paymentStatus: 'unpaid' }))).toBe(false);
  });
});

describe('the checkout request', () => {
  const base = { items: [{ skuCode: 'AFL-1001-WAL', quantity: 1 }], paymentMethod: 'cod', deliveryMethod: 'showroom_pickup', pickupBranchId: 1 };
  it('keeps skus and quantities and drops prices and totals', () => {
    const parsed = ZCheckoutRequest.parse({ ...base, total: 1, items: [{ skuCode: 'AFL-1001-WAL', quantity: 2, price: 1 }] });
    expect(parsed.items).toEqual([{ skuCode: 'AFL-1001-WAL', quantity: 2 }]);
    expect(parsed).not.toHaveProperty('total');
  });
  it('refuses negative, zero, fractional and oversized quantities and an empty cart', () => {
    for (const quantity of [-1, 0, 0.5, 100]) expect(ZCheckoutRequest.safeParse({ ...base, items: [{ skuCode: 'A1', quantity }] }).success).toBe(false);
    expect(ZCheckoutRequest.safeParse({ ...base, items: [] }).success).toBe(false);
  });
  it('checks a typed address with the address rules', () => {
    const r = ZCheckoutRequest.safeParse({
      ...base,
      deliveryMethod: 'home_delivery',
      address: { fullName: '', phone: '1', division: 'Nowhere', district: 'X', area: '', addressLine: '' },
    });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.path.join('.')).sort()).toEqual([
      'address.addressLine',
      'address.area',
      'address.district',
      'address.division',
      'address.fullName',
      'address.phone',
    ]);
  });
  it('merges lines of one sku', () => {
    expect(
      mergeCheckoutItems([
        { skuCode: 'A', quantity: 1 },
        { skuCode: 'B', quantity: 2 },
        { skuCode: 'A', quantity: 3 },
      ]),
    ).toEqual([
      { skuCode: 'A', quantity: 4 },
      { skuCode: 'B', quantity: 2 },
    ]);
  });
});

describe('guest contact', () => {
  it('needs a name, a mobile that is one, and an email shaped like one', () => {
    expect(validateGuestContact({ name: 'Nusrat', mobile: '01711-111111', email: 'n@example.com' })).toEqual({});
    expect(validateGuestContact({ name: ' ', mobile: '', email: '' })).toEqual({
      name: 'Please Give Your Name',
      mobile: 'Please Give Your Mobile No',
      email: 'Please Give Your Email',
    });
    expect(validateGuestContact({ name: 'N', mobile: '12345', email: 'n@' })).toEqual({
      mobile: 'Please Give a Correct Mobile No',
      email: 'Please Give a Correct Email',
    });
  });
});

describe('outcome pages', () => {
  it('carry the invoice id, encoded', () => {
    expect(outcomePath('later', 'INV-261121-ABC')).toBe('/payments/response/later?invoiceId=INV-261121-ABC');
  });
});
