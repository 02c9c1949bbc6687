import { describe, expect, it } from 'vitest';
import { tokenHash, tokenSealer } from './token-seal.ts';

describe('tokenSealer', () => {
  const sealer = tokenSealer('app-secret-1', 'bkash\naccount-a');

  it('opens what it sealed, and the sealed text does not contain the token', () => {
    const sealed = sealer.seal('id-token-value', 'access');
    expect(sealed).not.toContain('id-token-value');
    expect(sealer.open(sealed, 'access')).toBe('id-token-value');
    // A fresh nonce each time: the same token seals differently.
    expect(sealer.seal('id-token-value', 'access')).not.toBe(sealed);
  });

  it('does not open a token sealed with another secret, for another account or column, or altered', () => {
    const sealed = sealer.seal('id-token-value', 'access');
    expect(tokenSealer('app-secret-2', 'bkash\naccount-a').open(sealed, 'access')).toBeNull();
    expect(tokenSealer('app-secret-1', 'bkash\naccount-b').open(sealed, 'access')).toBeNull();
    expect(sealer.open(sealed, 'refresh')).toBeNull();
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3], 'base64url');
    body[0] ^= 1;
    expect(sealer.open([...parts.slice(0, 3), body.toString('base64url')].join('.'), 'access')).toBeNull();
    expect(sealer.open('not sealed', 'access')).toBeNull();
  });

  it('names a token by its SHA-256 without revealing it', () => {
    expect(tokenHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
