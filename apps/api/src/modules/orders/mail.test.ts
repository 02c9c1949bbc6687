import type { TSale } from '@storefront/shared';
import { describe, expect, it } from 'vitest';
import { type Brand, type OrderMailKind, orderMail, shopMail } from './mail.ts';

// Each mail about an order, in both languages (docs/decisions/0038): a Bangla mail has no
// English word left but the data it quotes, and no mail shows an ICU placeholder.

const KINDS: OrderMailKind[] = [
  'placed',
  'booked',
  'paid',
  'held',
  'released',
  'confirm',
  'pack',
  'ship',
  'deliver',
  'return',
  'cancel',
  'convert',
  'cash_collected',
  'proof_accepted',
  'proof_rejected',
  'refunded',
];

const brand: Brand = {
  name: 'নিবাস',
  publicUrl: 'https://shop.example',
  logoUrl: null,
  colour: '#1f4d3a',
  hotline: '16770',
  supportEmail: 'help@shop.example',
  address: 'ঢাকা',
};

function sale(over: Partial<TSale> = {}): TSale {
  return {
    kind: 'booking',
    invoiceId: 'INV-261127-ABCDEFGH',
    holdUntil: '2026-11-30T10:05:00Z',
    status: 'booked',
    paymentStatus: 'refund_pending',
    paymentMethod: 'later',
    deliveryMethod: 'home_delivery',
    subTotal: 12_345_600,
    discount: 100_000,
    couponAmount: 50_000,
    couponCode: 'EID',
    deliveryFee: 0,
    total: 12_195_600,
    contact: { name: 'রহিমা খাতুন', email: 'r@shop.example', mobile: '+8801711111111' },
    deliveryAddress: { fullName: 'রহিমা খাতুন', addressLine: 'বাড়ি ১২', area: 'ধানমন্ডি', district: 'ঢাকা', phone: '01711111111' },
    pickupBranch: null,
    lines: [{ quantity: 2, title: 'চেয়ার', variant: null, lineTotal: 12_345_600 }],
    ...over,
  } as unknown as TSale;
}

const link = 'https://shop.example/orders?invoiceId=INV-261127-ABCDEFGH&lang=bn';
/** What a Bangla mail may keep in Latin letters: the invoice, the addresses, the coupon code, the link, HTML. */
const dataRemoved = (text: string) => text.replaceAll(link, '').replaceAll('INV-261127-ABCDEFGH', '').replaceAll('help@shop.example', '').replaceAll('EID', '');

describe('order mails', () => {
  for (const kind of KINDS) {
    for (const s of [
      sale(),
      sale({
        kind: 'order',
        status: 'confirmed',
        paymentStatus: 'paid',
        pickupBranch: { id: 1, name: 'গুলশান', address: 'রোড ১', city: 'ঢাকা', phone: '1', hours: '' },
      } as Partial<TSale>),
    ]) {
      it(`${kind} (${s.kind}) is all Bangla in Bangla, and has no placeholder left in either language`, () => {
        const bn = orderMail(s, kind, brand, { link, note: 'রং নেই', amount: 500_000, locale: 'bn' });
        expect(dataRemoved(`${bn.subject}\n${bn.text}`)).not.toMatch(/[A-Za-z{}]/);
        expect(bn.html).toContain('<html lang="bn">');
        const en = orderMail(s, kind, brand, { link, note: 'No colour', amount: 500_000 });
        expect(`${en.subject}\n${en.text}`).not.toMatch(/[{}]/);
        expect(en.subject).toMatch(/^(Order|Booking) INV-261127-ABCDEFGH — /);
        expect(en.html).toContain('<html lang="en">');
      });
    }
  }

  it('writes amounts in the language’s digits', () => {
    const bn = orderMail(sale({ kind: 'order' }), 'refunded', brand, { link, amount: 500_000, locale: 'bn' });
    expect(bn.text).toContain('আমরা ৳৫,০০০.০০ রিফান্ড করেছি।');
    const en = orderMail(sale({ kind: 'order' }), 'refunded', brand, { link, amount: 500_000 });
    expect(en.text).toContain('We have refunded ৳5,000.00. Depending on your bank it can take a few working days to reach you.');
  });

  it('keeps the shop’s own mail in English', () => {
    const m = shopMail(sale({ kind: 'order', paymentMethod: 'cod' }), 'new_sale', brand, 'orders@shop.example', 'https://shop.example/admin/orders/1');
    expect(m.subject).toBe('New order INV-261127-ABCDEFGH — ৳1,21,956.00');
    expect(m.text).toContain('Total (BDT): ৳1,21,956.00');
    expect(m.html).toContain('<html lang="en">');
  });
});
