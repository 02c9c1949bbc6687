import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, newRecoveryCodes, normalizeRecoveryCode, otpauthUri, totp, verifyTotp } from './totp.ts';

// RFC 6238 Appendix B: the SHA-1 seed "12345678901234567890", 8-digit values; the last six
// digits are what a six-digit authenticator shows.
const SEED = Buffer.from('12345678901234567890');
const VECTORS: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
];

describe('TOTP (RFC 6238)', () => {
  it('matches the RFC test vectors', () => {
    const secret = base32Encode(SEED);
    for (const [t, expected] of VECTORS) expect(totp(secret, t * 1000)).toBe(expected.slice(-6));
  });

  it('matches RFC 4226 HOTP values', () => {
    expect(hotp(SEED, 0)).toBe('755224');
    expect(hotp(SEED, 9)).toBe('520489');
  });

  it('round-trips base32 and ignores case and spaces', () => {
    const s = base32Encode(Buffer.from('hello world, 20 b!!'));
    expect(base32Decode(s.toLowerCase().replace(/(.{4})/g, '$1 ')).toString()).toBe('hello world, 20 b!!');
  });

  it('accepts one step either side, refuses a code used before and anything further off', () => {
    const secret = base32Encode(SEED);
    const now = 1_700_000_000_000;
    const step = Math.floor(now / 30_000);
    expect(verifyTotp(secret, totp(secret, now), 0, now)).toBe(step);
    expect(verifyTotp(secret, totp(secret, now - 30_000), 0, now)).toBe(step - 1);
    expect(verifyTotp(secret, totp(secret, now + 30_000), 0, now)).toBe(step + 1);
    expect(verifyTotp(secret, totp(secret, now - 60_000), 0, now)).toBeNull();
    expect(verifyTotp(secret, totp(secret, now), step, now)).toBeNull();
    expect(verifyTotp(secret, '12345', 0, now)).toBeNull();
    expect(verifyTotp(secret, 'abcdef', 0, now)).toBeNull();
  });

  it('makes an otpauth address and distinct recovery codes', () => {
    expect(otpauthUri('ABC', 'a@b.c', 'Shop')).toBe('otpauth://totp/Shop%3Aa%40b.c?secret=ABC&issuer=Shop&algorithm=SHA1&digits=6&period=30');
    const codes = newRecoveryCodes();
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
    expect(normalizeRecoveryCode(' K7M2P-9QX4W ')).toBe('k7m2p9qx4w');
  });
});
