import { describe, expect, it } from 'vitest';
import { formatMoney } from '../money.ts';
import { formatDate, formatNumber, toBanglaDigits } from './format.ts';

describe('the shop’s number formatter', () => {
  it('groups the South Asian way in both languages', () => {
    expect(formatNumber(123456, 'en', { fractionDigits: 2 })).toBe('1,23,456.00');
    expect(formatNumber(123456, 'bn', { fractionDigits: 2 })).toBe('১,২৩,৪৫৬.০০');
    expect(formatNumber(12345678, 'en')).toBe('1,23,45,678');
    expect(formatNumber(999, 'en')).toBe('999');
    expect(formatNumber(1000, 'en')).toBe('1,000');
    expect(formatNumber(0, 'bn')).toBe('০');
    expect(formatNumber(-1500.5, 'en', { fractionDigits: 2 })).toBe('−1,500.50');
  });

  it('formats money with the currency symbol and the language’s digits', () => {
    expect(formatMoney(12345600)).toBe('৳1,23,456.00');
    expect(formatMoney(12345600, undefined, 'bn')).toBe('৳১,২৩,৪৫৬.০০');
    expect(formatMoney(-5000, undefined, 'bn')).toBe('−৳৫০.০০');
    expect(formatMoney(100, { sourceId: 'USD', rate: 120 }, 'en')).toBe('$0.01');
  });

  it('writes Bangla digits and Bangla dates in Dhaka time', () => {
    expect(toBanglaDigits('DFL-2040, 16770')).toBe('DFL-২০৪০, ১৬৭৭০');
    // 2026-01-31 20:30 UTC is 1 February 02:30 in Dhaka.
    expect(formatDate('2026-01-31T20:30:00Z', 'en')).toBe('1 February 2026');
    expect(formatDate('2026-01-31T20:30:00Z', 'bn')).toBe('১ ফেব্রুয়ারি ২০২৬');
    expect(formatDate('2026-01-31T20:30:00Z', 'en', 'dateTime')).toBe('1 February 2026, 2:30 am');
    expect(formatDate('2026-01-31T20:30:00Z', 'bn', 'dateTime')).toBe('১ ফেব্রুয়ারি ২০২৬, রাত ২:৩০');
    expect(formatDate('2026-06-15T06:05:00Z', 'en', 'dateTime')).toBe('15 June 2026, 12:05 pm');
    expect(formatDate('2026-06-15T06:05:00Z', 'en', 'short')).toBe('15 Jun 2026');
    expect(formatDate('not a date', 'en')).toBe('');
  });
});
