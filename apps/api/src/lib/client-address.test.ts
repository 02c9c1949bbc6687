import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientAddress } from './client-address.ts';

describe('clientAddress', () => {
  it('keeps an IPv4 address, also when it comes IPv6-mapped', () => {
    expect(clientAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddress('::FFFF:cb00:7107')).toBe('203.0.113.7');
    expect(clientAddress('0:0:0:0:0:ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts an IPv6 address by its /64, however it is written', () => {
    const key = '2001:db8:1:2::/64';
    expect(clientAddress('2001:db8:1:2::a')).toBe(key);
    expect(clientAddress('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe(key);
    expect(clientAddress('2001:DB8:1:2:0:0:0:1')).toBe(key);
    expect(clientAddress('[2001:db8:1:2::1]')).toBe(key);
    expect(clientAddress('2001:db8:1:2::1%eth0')).toBe(key);
    expect(clientAddress('2001:db8:1:2:a:b:1.2.3.4')).toBe(key);
    expect(clientAddress('2001:db8:1:3::a')).not.toBe(key);
    expect(clientAddress('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientAddress('::1')).toBe('0:0:0:0::/64');
    // NAT64 carries an IPv4 client in its last 32 bits, but its /64 is the translator's.
    expect(clientAddress('64:ff9b::203.0.113.7')).toBe('64:ff9b:0:0::/64');
  });

  it('gives every host of one /64 the same key, and hosts of two /64s different keys', () => {
    const group = fc.integer({ min: 0, max: 0xffff });
    fc.assert(
      fc.property(fc.array(group, { minLength: 8, maxLength: 8 }), fc.array(group, { minLength: 4, maxLength: 4 }), (a, hostB) => {
        const text = (g: number[]) => g.map((n) => n.toString(16)).join(':');
        if (a[0] === 0 && a[1] === 0 && a[2] === 0 && a[3] === 0 && a[4] === 0 && a[5] === 0xffff) return;
        const b = [...a.slice(0, 4), ...hostB];
        if (b[4] === 0 && b[5] === 0xffff && b[0] === 0 && b[1] === 0 && b[2] === 0 && b[3] === 0) return;
        expect(clientAddress(text(a))).toBe(clientAddress(text(b)));
        const other = [...a];
        other[3] = (other[3]! + 1) & 0xffff;
        expect(clientAddress(text(other))).not.toBe(clientAddress(text(a)));
      }),
    );
  });

  it('answers one shared key for anything that is not an address', () => {
    for (const v of ['', null, undefined, 'x'.repeat(300), '1.2.3', '2001:db8::1::2', 'localhost']) expect(clientAddress(v)).toBe('unknown');
  });
});
