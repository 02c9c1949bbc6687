import { describe, expect, it } from 'vitest';
import { safeRedirect } from './safe-redirect.ts';

const SHOP = 'https://shop.example';

/**
 * Values a browser resolves to another host (or to a script) from a page of the shop,
 * though most look like a path to a text check.
 */
const HOSTILE = [
  '//evil.com',
  '//evil.com/profile',
  '///evil.com',
  '/\\evil.com',
  '\\/evil.com',
  '\\\\evil.com',
  '/\\/evil.com',
  '/\t/evil.com',
  '/\n/evil.com',
  '/\r\n/evil.com',
  '\t//evil.com',
  ' //evil.com',
  '\u0000//evil.com',
  '\u001f//evil.com',
  'https:evil.com',
  'http:evil.com',
  'http:/evil.com',
  'https:/\\evil.com',
  'https://evil.com',
  'HTTPS://EVIL.COM',
  'https://shop.example@evil.com',
  'https://shop.example.evil.com/profile',
  'http://shop.example/profile',
  'https://shop.example:8443/profile',
  'javascript:alert(document.domain)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  'java\tscript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  '/.//evil.com',
  '/./\\evil.com',
  '/a/..//evil.com',
  'https://shop.example//evil.com',
  'https://user:pass@shop.example/profile',
  '//evil%2Ecom',
  '//%65vil.com',
];

describe('safeRedirect', () => {
  it.each(HOSTILE)('refuses %j', (value) => {
    expect(safeRedirect(value, { origin: SHOP })).toBe('/profile');
    // The same without knowing the shop's origin.
    expect(safeRedirect(value)).toBe('/profile');
  });

  it('keeps paths of the shop with their query and fragment', () => {
    expect(safeRedirect('/profile?tab=addresses', { origin: SHOP })).toBe('/profile?tab=addresses');
    expect(safeRedirect('/orders#latest', { origin: SHOP })).toBe('/orders#latest');
    expect(safeRedirect('/shop/sofas?page=2', {})).toBe('/shop/sofas?page=2');
    expect(safeRedirect('/', { origin: SHOP })).toBe('/');
  });

  it('keeps an absolute address on the shop itself as its path only', () => {
    expect(safeRedirect('https://shop.example/checkout?step=2', { origin: SHOP })).toBe('/checkout?step=2');
  });

  it('resolves relative paths and dot segments against the shop root', () => {
    expect(safeRedirect('profile', { origin: SHOP })).toBe('/profile');
    expect(safeRedirect('/a/../orders', { origin: SHOP })).toBe('/orders');
    // Percent-escapes stay escaped: /%2F%2Fevil.com is a path of the shop, not a host.
    expect(safeRedirect('/%2F%2Fevil.com', { origin: SHOP })).toBe('/%2F%2Fevil.com');
    expect(safeRedirect('/%09/evil.com', { origin: SHOP })).toBe('/%09/evil.com');
  });

  it('falls back when there is nothing to go to', () => {
    expect(safeRedirect(null)).toBe('/profile');
    expect(safeRedirect('')).toBe('/profile');
    expect(safeRedirect(undefined, { fallback: '/' })).toBe('/');
    expect(safeRedirect('//evil.com', { fallback: '/' })).toBe('/');
  });

  it('every answer is a path a browser cannot read as another host', () => {
    for (const value of [...HOSTILE, '/profile', '/x//y', '/%2F/evil.com']) {
      const out = safeRedirect(value, { origin: SHOP });
      expect(out.startsWith('/')).toBe(true);
      expect(out.startsWith('//')).toBe(false);
      expect(out).not.toMatch(/[\\\t\n\r]/);
      expect(new URL(out, SHOP).origin).toBe(SHOP);
    }
  });
});
