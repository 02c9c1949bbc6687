import { describe, expect, it } from 'vitest';
import { BRAND_COLOURS, contrastWithWhite, isBdPhone, isBrandColour, isHttpsUrl, isInternationalPhone, ZCurrencyUpdate } from './admin-settings-schemas.ts';

describe('the shop settings rules (docs/decisions/0037)', () => {
  it('takes the hotlines a Bangladeshi shop gives', () => {
    for (const ok of ['16770', '09612 016770', '01712-345678', '+880 9612 016770', '+8801712345678']) expect(isBdPhone(ok), ok).toBe(true);
    for (const bad of ['', '12', 'call us', '+1 212 555 0100', '1677O', '+880 12']) expect(isBdPhone(bad), bad).toBe(false);
    expect(isInternationalPhone('+880 9612 016770')).toBe(true);
    expect(isInternationalPhone('09612 016770')).toBe(false);
  });

  it('takes only https addresses', () => {
    expect(isHttpsUrl('https://www.facebook.com/nibash')).toBe(true);
    for (const bad of ['javascript:alert(1)', 'http://facebook.com', 'data:text/html,x', 'https://localhost', 'https://a:b@x.com'])
      expect(isHttpsUrl(bad), bad).toBe(false);
  });

  it('computes WCAG contrast with white and keeps every brand colour at AA', () => {
    expect(contrastWithWhite('#000000')).toBeCloseTo(21, 5);
    expect(contrastWithWhite('#ffffff')).toBeCloseTo(1, 5);
    for (const c of BRAND_COLOURS) expect(isBrandColour(c.value)).toBe(true);
    expect(isBrandColour('#ff0000')).toBe(false);
    expect(isBrandColour('#eaf3ee')).toBe(false);
  });

  it('refuses a rate of zero, a negative one and one beyond reason', () => {
    for (const rate of [0, -1, 10_001, Number.NaN]) expect(ZCurrencyUpdate.safeParse({ rate, version: 1 }).success, String(rate)).toBe(false);
    expect(ZCurrencyUpdate.safeParse({ rate: 121.5, version: 1 }).success).toBe(true);
  });
});
