import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addToCart,
  applyServerPrices,
  CART_VERSION,
  clearCart,
  decodeCartItems,
  decrease,
  emptyCart,
  encodeCartItems,
  increase,
  MAX_CART_LINES,
  MAX_LINE_QUANTITY,
  parseStoredCart,
  removeLine,
  serializeCart,
  setQuantity,
  type TCart,
  type TCartItemInput,
  totalsOf,
  withCoupon,
  withoutCoupon,
} from './cart.ts';

const item = (code: string, over: Partial<TCartItemInput> = {}): TCartItemInput => ({
  product: { id: 7, title: 'Shapla Teak Sofa', slug: 'shapla-teak-sofa', image: '/media/demo/sofa/5f7a8a.svg' },
  sku: { code, salesPrice: 100_000, discountedSalesPrice: null },
  unitPrice: 100_000,
  ...over,
});
const add = (cart: TCart, i: TCartItemInput) => addToCart(cart, i).cart;

describe('cart rules (spec §4)', () => {
  it('adds a sku as a new line with its subtotal and the price the shopper saw', () => {
    const { cart, result } = addToCart(emptyCart(), item('A-1', { quantity: 2, unitPrice: 90_000 }));
    expect(result).toBe('added');
    expect(cart.lines).toHaveLength(1);
    expect(cart.lines[0]).toMatchObject({ quantity: 2, subTotal: 180_000, salesPrice: 90_000, sku: { code: 'A-1' } });
    expect(cart.lines[0].sourceType).toBeUndefined();
  });
  it('merges the quantity when the sku code is already in the cart', () => {
    let cart = add(emptyCart(), item('A-1'));
    cart = add(cart, item('B-2'));
    const merged = addToCart(cart, item('A-1', { quantity: 3 }));
    expect(merged.result).toBe('merged');
    expect(merged.cart.lines.map((l) => [l.sku.code, l.quantity])).toEqual([
      ['A-1', 4],
      ['B-2', 1],
    ]);
    expect(merged.cart.lines[0].subTotal).toBe(400_000);
  });
  it('a merged line takes the newest price', () => {
    const cart = add(add(emptyCart(), item('A-1')), item('A-1', { unitPrice: 80_000 }));
    expect(cart.lines[0]).toMatchObject({ quantity: 2, salesPrice: 80_000, subTotal: 160_000 });
  });
  it('caps a merged line at the line maximum and says so', () => {
    const cart = add(emptyCart(), item('A-1', { quantity: 98 }));
    const r = addToCart(cart, item('A-1', { quantity: 5 }));
    expect(r.result).toBe('capped');
    expect(r.cart.lines[0].quantity).toBe(MAX_LINE_QUANTITY);
  });
  it('refuses a new line once the cart holds the most lines it may', () => {
    let cart = emptyCart();
    for (let i = 0; i < MAX_CART_LINES; i++) cart = add(cart, item(`S-${i}`));
    const r = addToCart(cart, item('ONE-MORE'));
    expect(r.result).toBe('full');
    expect(r.cart).toBe(cart);
    expect(addToCart(cart, item('S-0')).result).toBe('merged');
  });
  it('adds a bundle as one line with sourceType bundle', () => {
    const cart = add(emptyCart(), item('BND-100', { sourceType: 'bundle' }));
    expect(cart.lines[0].sourceType).toBe('bundle');
  });
  it('increases by one', () => {
    const cart = increase(add(emptyCart(), item('A-1')), 'A-1');
    expect(cart.lines[0]).toMatchObject({ quantity: 2, subTotal: 200_000 });
  });
  it('decreases by one but never below 1', () => {
    let cart = add(emptyCart(), item('A-1', { quantity: 2 }));
    cart = decrease(cart, 'A-1');
    expect(cart.lines[0]).toMatchObject({ quantity: 1, subTotal: 100_000 });
    cart = decrease(cart, 'A-1');
    expect(cart.lines).toHaveLength(1);
    expect(cart.lines[0].quantity).toBe(1);
  });
  it('increase stops at the line maximum', () => {
    const cart = increase(add(emptyCart(), item('A-1', { quantity: MAX_LINE_QUANTITY })), 'A-1');
    expect(cart.lines[0].quantity).toBe(MAX_LINE_QUANTITY);
  });
  it('sets a typed quantity within 1 and the maximum', () => {
    const cart = add(emptyCart(), item('A-1'));
    expect(setQuantity(cart, 'A-1', 5).lines[0].quantity).toBe(5);
    expect(setQuantity(cart, 'A-1', 0).lines[0].quantity).toBe(1);
    expect(setQuantity(cart, 'A-1', -3).lines[0].quantity).toBe(1);
    expect(setQuantity(cart, 'A-1', 2.7).lines[0].quantity).toBe(2);
    expect(setQuantity(cart, 'A-1', 1000).lines[0].quantity).toBe(MAX_LINE_QUANTITY);
    expect(setQuantity(cart, 'A-1', Number.NaN).lines[0].quantity).toBe(1);
  });
  it('removes a line', () => {
    const cart = removeLine(add(add(emptyCart(), item('A-1')), item('B-2')), 'A-1');
    expect(cart.lines.map((l) => l.sku.code)).toEqual(['B-2']);
  });
  it('changes nothing for a sku that is not in the cart', () => {
    const cart = add(emptyCart(), item('A-1'));
    for (const f of [increase, decrease, removeLine]) expect(f(cart, 'NOPE')).toBe(cart);
  });
  it('clears all, coupon included', () => {
    const cart = withCoupon(add(emptyCart(), item('A-1')), 'SAVE500', 50_000);
    expect(clearCart()).toEqual(emptyCart());
    expect(totalsOf(clearCart())).toEqual({ quantity: 0, subTotal: 0, discount: 0, couponAmount: 0, total: 0 });
    expect(cart.couponCode).toBe('SAVE500');
  });
  it('a change to the lines keeps the coupon code but drops its amount until re-priced', () => {
    const cart = withCoupon(add(emptyCart(), item('A-1', { quantity: 2 })), 'SAVE500', 50_000);
    for (const changed of [increase(cart, 'A-1'), decrease(cart, 'A-1'), removeLine(cart, 'A-1'), add(cart, item('B-2'))]) {
      expect(changed.couponCode).toBe('SAVE500');
      expect(changed.couponAmount).toBe(0);
    }
    expect(withoutCoupon(cart)).toMatchObject({ couponCode: null, couponAmount: 0 });
  });
  it('totals quantity, subTotal, discount, coupon amount and total', () => {
    let cart = add(emptyCart(), item('A-1', { quantity: 2, unitPrice: 90_000 }));
    cart = add(cart, item('B-2', { sku: { code: 'B-2', salesPrice: 50_000, discountedSalesPrice: null }, unitPrice: 50_000 }));
    cart = withCoupon(cart, 'SAVE', 30_000);
    expect(totalsOf(cart)).toEqual({ quantity: 3, subTotal: 250_000, discount: 20_000, couponAmount: 30_000, total: 200_000 });
  });
  it('takes the server’s prices into the lines, keeping quantities', () => {
    const cart = add(emptyCart(), item('A-1', { quantity: 3 }));
    const repriced = applyServerPrices(cart, [{ skuCode: 'A-1', salesPrice: 120_000, discountedSalesPrice: 110_000, unitPrice: 105_000 }]);
    expect(repriced.lines[0]).toMatchObject({
      quantity: 3,
      salesPrice: 105_000,
      subTotal: 315_000,
      sku: { salesPrice: 120_000, discountedSalesPrice: 110_000 },
    });
    expect(applyServerPrices(repriced, [{ skuCode: 'A-1', salesPrice: 120_000, discountedSalesPrice: 110_000, unitPrice: 105_000 }])).toBe(repriced);
  });
});

describe('the stored cart', () => {
  it('survives a round trip with its coupon amount', () => {
    const cart = withCoupon(add(add(emptyCart(), item('A-1', { quantity: 2 })), item('BND-100', { sourceType: 'bundle' })), 'SAVE500', 50_000);
    expect(parseStoredCart(serializeCart(cart))).toEqual(cart);
  });
  it('is discarded safely when corrupt, of an older shape, or hostile', () => {
    const good = JSON.parse(serializeCart(add(emptyCart(), item('A-1'))));
    for (const raw of [
      null,
      '',
      '{',
      'null',
      '[]',
      '42',
      JSON.stringify({ ...good, version: CART_VERSION - 1 }),
      // The earlier shape: a bare array of lines.
      JSON.stringify(good.lines),
      JSON.stringify({ ...good, lines: [{ ...good.lines[0], quantity: -2 }] }),
      JSON.stringify({ ...good, lines: [{ ...good.lines[0], quantity: 1.5 }] }),
      JSON.stringify({ ...good, lines: [{ ...good.lines[0], sku: { ...good.lines[0].sku, salesPrice: '100' } }] }),
      JSON.stringify({ ...good, lines: [{ ...good.lines[0], sku: { ...good.lines[0].sku, code: 'A:1,B' } }] }),
      JSON.stringify({ ...good, couponAmount: -5 }),
      JSON.stringify({ ...good, lines: 'x' }),
    ]) {
      expect(parseStoredCart(raw)).toEqual(emptyCart());
    }
  });
  it('keeps only the fields of the stored shape', () => {
    const good = JSON.parse(serializeCart(add(emptyCart(), item('A-1'))));
    const padded = {
      ...good,
      extra: 1,
      lines: [{ ...good.lines[0], price: 1, product: { ...good.lines[0].product, html: '<b>' }, sku: { ...good.lines[0].sku, cost: 5 } }],
    };
    expect(parseStoredCart(JSON.stringify(padded))).toEqual(parseStoredCart(JSON.stringify(good)));
  });
  it('recomputes line subtotals instead of trusting them, and merges a sku listed twice', () => {
    const good = JSON.parse(serializeCart(add(emptyCart(), item('A-1', { quantity: 2 }))));
    const tampered = {
      ...good,
      lines: [
        { ...good.lines[0], subTotal: 1 },
        { ...good.lines[0], quantity: 3, subTotal: 5 },
      ],
    };
    const cart = parseStoredCart(JSON.stringify(tampered));
    expect(cart.lines).toHaveLength(1);
    expect(cart.lines[0]).toMatchObject({ quantity: 5, subTotal: 500_000 });
  });
  it('never throws, whatever is stored', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (raw) => {
        const cart = parseStoredCart(raw);
        expect(cart.version).toBe(CART_VERSION);
      }),
    );
  });
});

describe('the items parameter of the coupon apply call', () => {
  it('round-trips skus and quantities', () => {
    const lines = [
      { skuCode: 'AFL-1021-WAL-2', quantity: 2 },
      { skuCode: 'BND-100', quantity: 1 },
    ];
    expect(encodeCartItems(lines)).toBe('AFL-1021-WAL-2:2,BND-100:1');
    expect(decodeCartItems(encodeCartItems(lines))).toEqual(lines);
  });
  it('merges a repeated sku', () => {
    expect(decodeCartItems('A-1:2,A-1:3')).toEqual([{ skuCode: 'A-1', quantity: 5 }]);
  });
  it('refuses negative, zero, fractional or huge quantities and malformed text', () => {
    for (const bad of ['', 'A-1', 'A-1:', 'A-1:0', 'A-1:-2', 'A-1:1.5', 'A-1:100', ':2', 'A-1:2,', 'A 1:2', 'A-1:2;B:1', 'A-1:02x']) {
      expect(decodeCartItems(bad), bad).toBeNull();
    }
  });
  it('refuses more lines than a cart may hold', () => {
    const many = Array.from({ length: MAX_CART_LINES + 1 }, (_, i) => `S-${i}:1`).join(',');
    expect(decodeCartItems(many)).toBeNull();
  });
});
