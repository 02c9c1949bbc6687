import { describe, expect, it } from 'vitest';
import { guestAddressKey } from './upload-quota.ts';

describe('guestAddressKey', () => {
  it('keeps an IPv4 address, also when it comes IPv6-mapped', () => {
    expect(guestAddressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(guestAddressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts an IPv6 address by its /64, however it is written', () => {
    const key = '2001:db8:1:2::/64';
    expect(guestAddressKey('2001:db8:1:2::a')).toBe(key);
    expect(guestAddressKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe(key);
    expect(guestAddressKey('2001:DB8:1:2:0:0:0:1')).toBe(key);
    expect(guestAddressKey('2001:db8:1:3::a')).not.toBe(key);
    expect(guestAddressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(guestAddressKey('::1')).toBe('0:0:0:0::/64');
  });

  it('keeps anything else as it is, bounded', () => {
    expect(guestAddressKey('')).toBe('unknown');
    expect(guestAddressKey('x'.repeat(300))).toHaveLength(64);
  });
});
