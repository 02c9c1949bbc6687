import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: session and password-reset tokens. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored only as their sha-256, so a copy of the database signs nobody in. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A token as a client may send it: base64url of 32 bytes. */
export function looksLikeToken(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);
}
