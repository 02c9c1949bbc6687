import { describe, expect, it } from 'vitest';
import { addressPolicy, embeddedIPv4, refusedKind } from './address-policy.ts';

describe('refusedKind', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.20.30.40', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.10', 'private'],
    ['169.254.169.254', 'metadata'],
    ['169.254.10.1', 'link-local'],
    ['100.100.100.200', 'metadata'],
    ['100.64.0.1', 'shared'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['2002:c0a8:0101::1', 'private'],
    ['fe80::1', 'link-local'],
    ['fd00:ec2::254', 'metadata'],
    ['fc00::1', 'private'],
    ['ff02::1', 'multicast'],
    ['[::1]', 'loopback'],
    ['localhost', 'not an address'],
  ])('refuses %s (%s)', (ip, kind) => {
    expect(refusedKind(ip)).toBe(kind);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '103.4.145.2', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows the public address %s', (ip) => {
    expect(refusedKind(ip)).toBeNull();
  });
});

describe('embeddedIPv4', () => {
  it('finds the IPv4 address inside mapped, NAT64 and 6to4 addresses', () => {
    expect(embeddedIPv4('::ffff:192.168.1.1')).toBe('192.168.1.1');
    expect(embeddedIPv4('::ffff:c0a8:101')).toBe('192.168.1.1');
    expect(embeddedIPv4('64:ff9b::7f00:1')).toBe('127.0.0.1');
    expect(embeddedIPv4('2002:7f00:0001::')).toBe('127.0.0.1');
    expect(embeddedIPv4('2606:4700::1')).toBeNull();
  });
});

describe('addressPolicy', () => {
  it('allows only the exact address and port given as an exception', () => {
    const p = addressPolicy(['127.0.0.1:4000', '[::1]:4000']);
    expect(p.check('127.0.0.1', 4000)).toBeNull();
    expect(p.check('::1', 4000)).toBeNull();
    expect(p.check('127.0.0.1', 4001)).toBe('loopback');
    expect(p.check('127.0.0.2', 4000)).toBe('loopback');
    expect(p.check('::ffff:127.0.0.1', 4000)).toBe('loopback');
    expect(addressPolicy().check('127.0.0.1', 4000)).toBe('loopback');
  });
});
