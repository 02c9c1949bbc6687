import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMoney, parseCurrencyCode, takaToMinor, toDisplayAmount } from './money.ts';

describe('money', () => {
  it('converts taka to poisha without floating error', () => {
    expect(takaToMinor(19.99)).toBe(1999);
    expect(takaToMinor(45000)).toBe(4_500_000);
  });
  it('formats BDT by default', () => {
    expect(formatMoney(4_500_000)).toBe('৳45,000.00');
  });
  it('divides by the rate of the chosen currency, to 2 decimals', () => {
    expect(formatMoney(4_500_000, { sourceId: 'USD', rate: 120 })).toBe('$375.00');
    expect(formatMoney(100, { sourceId: 'USD', rate: 3 })).toBe('$0.33');
  });
});

describe('display currency (spec §9: BDT / rate, to 2 decimals)', () => {
  it('rounds halves away from zero', () => {
    // 1 poisha / 2 = 0.5 hundredth → 0.01; 25 poisha / 2 = 12.5 hundredths → 0.13.
    expect(toDisplayAmount(1, { sourceId: 'X', rate: 2 })).toBe(0.01);
    expect(toDisplayAmount(25, { sourceId: 'X', rate: 2 })).toBe(0.13);
    expect(toDisplayAmount(24, { sourceId: 'X', rate: 2 })).toBe(0.12);
  });
  it('is not thrown off by binary noise in the division', () => {
    // 145 / 1.45 is 100.00000000000001 in floating point; 1.45 taka is exactly ₹1.00.
    expect(toDisplayAmount(145, { sourceId: 'INR', rate: 1.45 })).toBe(1);
    expect(formatMoney(145, { sourceId: 'INR', rate: 1.45 })).toBe('₹1.00');
    // 1 taka at 1.45 per rupee is 0.6896… rupees.
    expect(formatMoney(100, { sourceId: 'INR', rate: 1.45 })).toBe('₹0.69');
  });
  it('shows each demo currency with its own symbol', () => {
    expect(formatMoney(12_200, { sourceId: 'USD', rate: 122 })).toBe('$1.00');
    expect(formatMoney(13_150_000, { sourceId: 'EUR', rate: 131.5 })).toBe('€1,000.00');
    expect(formatMoney(15_520, { sourceId: 'GBP', rate: 155.2 })).toBe('£1.00');
    expect(formatMoney(3_320, { sourceId: 'AED', rate: 33.2 })).toBe('AED 1.00');
    expect(formatMoney(100, { sourceId: 'JPY', rate: 0.8 })).toBe('JPY 1.25');
  });
  it('shows zero and negative amounts (a discount line) plainly', () => {
    expect(formatMoney(0)).toBe('৳0.00');
    expect(formatMoney(-50_000)).toBe('−৳500.00');
    expect(formatMoney(-1, { sourceId: 'USD', rate: 1000 })).toBe('$0.00');
  });
  it('falls back to BDT arithmetic when a rate is not a positive number', () => {
    expect(formatMoney(100, { sourceId: 'USD', rate: 0 })).toBe('$1.00');
    expect(formatMoney(100, { sourceId: 'USD', rate: Number.NaN })).toBe('$1.00');
  });
  it('with rate 1 shows the exact taka for any amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e12 }), (minor) => {
        expect(toDisplayAmount(minor)).toBe(minor / 100);
      }),
    );
  });
  it('is never more than half a hundredth away from the exact quotient', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e10 }), fc.double({ min: 0.01, max: 1000, noNaN: true }), (minor, rate) => {
        const exact = minor / 100 / rate;
        expect(Math.abs(toDisplayAmount(minor, { sourceId: 'X', rate }) - exact)).toBeLessThanOrEqual(0.005 + 1e-9 * Math.max(1, exact));
      }),
    );
  });
  it('reads a currency code from a cookie value, refusing anything else', () => {
    expect(parseCurrencyCode('usd')).toBe('USD');
    expect(parseCurrencyCode(' EUR ')).toBe('EUR');
    for (const bad of ['', 'US', 'USDX', 'U$D', '<script>', undefined, null, 42]) expect(parseCurrencyCode(bad)).toBeNull();
  });
});
