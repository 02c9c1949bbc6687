import { describe, expect, it } from 'vitest';
import { parseTaka, ROLE_PERMISSIONS, roleMay, slugify, takaInput } from './admin.ts';

describe('back office rules', () => {
  it('reads taka as staff type it, in poisha', () => {
    expect(parseTaka('12,500')).toBe(1_250_000);
    expect(parseTaka('12500.5')).toBe(1_250_050);
    expect(parseTaka('৳ 12,500.05')).toBe(1_250_005);
    expect(parseTaka('-5')).toBeNull();
    expect(parseTaka('1.234')).toBeNull();
    expect(parseTaka('abc')).toBeNull();
    expect(parseTaka('')).toBeNull();
    expect(takaInput(1_250_050)).toBe('12500.50');
    expect(takaInput(1_250_000)).toBe('12500');
  });

  it('makes slugs', () => {
    expect(slugify('  Café Sofa — 3 Seater! ')).toBe('cafe-sofa-3-seater');
  });

  it('gives staff orders and stock only, read-only no writes', () => {
    expect(roleMay('staff', 'stock.write')).toBe(true);
    expect(roleMay('staff', 'catalogue.write')).toBe(false);
    expect(ROLE_PERMISSIONS.read_only.some((p) => p.endsWith('.write') || p.endsWith('.manage'))).toBe(false);
    expect(roleMay('manager', 'staff.manage')).toBe(false);
    expect(roleMay('owner', 'audit.read')).toBe(true);
  });
});
