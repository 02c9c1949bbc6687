import { describe, expect, it } from 'vitest';
import { compileCatalog } from './compile.ts';
import { pluralCategory } from './plural.ts';
import { createI18n, translator } from './translator.ts';

// Plurals chosen and numbers written without Intl (plural.ts), in both languages.

const CART = '{count, plural, =0 {Cart, empty} one {Cart, # item} other {Cart, # items}}';

describe('plurals without Intl', () => {
  const en = translator(createI18n('en', compileCatalog('en')));
  const bn = translator(createI18n('bn', compileCatalog('bn')));

  it('chooses the exact branch, then the category, and writes # as the shop writes numbers', () => {
    expect(en(CART, { count: 0 })).toBe('Cart, empty');
    expect(en(CART, { count: 1 })).toBe('Cart, 1 item');
    expect(en(CART, { count: 2 })).toBe('Cart, 2 items');
    expect(en(CART, { count: 123456 })).toBe('Cart, 1,23,456 items');
    expect(bn(CART, { count: 0 })).toBe('কার্ট, খালি');
    expect(bn(CART, { count: 1 })).toBe('কার্ট, ১টি পণ্য');
    expect(bn(CART, { count: 123456 })).toBe('কার্ট, ১,২৩,৪৫৬টি পণ্য');
  });

  it('keeps the other values of a message with a plural', () => {
    const id = 'In stock: {total} available at {places, plural, one {# showroom} other {# showrooms}}';
    expect(en(id, { total: 'ten', places: 3 })).toBe('In stock: ten available at 3 showrooms');
    expect(bn(id, { total: '১০', places: 1 })).toBe('স্টকে আছে: ১টি শোরুমে মোট ১০টি');
  });

  it('follows CLDR’s categories', () => {
    expect([0, 1, 2, 1.5].map((n) => pluralCategory(n, 'en'))).toEqual(['other', 'one', 'other', 'other']);
    expect([0, 1, 2, 0.5, 1.5].map((n) => pluralCategory(n, 'bn'))).toEqual(['one', 'one', 'other', 'one', 'other']);
  });

  it('compiles no plural for Intl to choose', () => {
    for (const locale of ['en', 'bn'] as const) expect(JSON.stringify(compileCatalog(locale))).not.toMatch(/"plural"/);
  });
});

describe('English without a catalogue', () => {
  const en = translator(createI18n('en', compileCatalog('en')));

  it('fills plain values in ids the catalogue does not hold', () => {
    const id = 'Language: {current}. Show this page in {other}';
    expect(compileCatalog('en')[id]).toBeUndefined();
    expect(en(id, { current: 'English', other: 'বাংলা' })).toBe('Language: English. Show this page in বাংলা');
    expect(en('{a}{b} and {a}', { a: 1, b: 'x' })).toBe('1x and 1');
    expect(en('Nothing to fill')).toBe('Nothing to fill');
  });

  it('holds only the ids with a plural or a choice', () => {
    const ids = Object.keys(compileCatalog('en'));
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(id).toMatch(/\{\s*\w+\s*,/);
  });
});
