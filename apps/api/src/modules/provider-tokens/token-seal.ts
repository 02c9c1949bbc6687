import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

// Provider tokens at rest (docs/decisions/0041). The repository keeps no encryption key of its
// own (installation_secrets lives in the database it would protect), but each provider account
// has a secret setting that never reaches the database (BKASH_APP_SECRET, PATHAO_CLIENT_SECRET,
// from the environment or a _FILE). The sealing key is derived from it with HKDF, so a copy of
// the database alone (a backup, a dump) does not hand out a bearer token that moves money or
// books parcels; a changed secret simply makes the stored token unreadable, and a new one is
// asked for. AES-256-GCM: a token altered in the database fails to open instead of being used.

const VERSION = 'v1';

export interface TokenSealer {
  seal(plain: string, label: string): string;
  /** Null when the text was sealed with another key (the secret changed) or altered. */
  open(sealed: string, label: string): string | null;
}

export function tokenSealer(secret: string, context: string): TokenSealer {
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.from('provider-tokens', 'utf8'), Buffer.from(context, 'utf8'), 32));
  return {
    seal(plain, label) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      // The label (which column of which account) is authenticated: a token cannot be moved to another row or column.
      cipher.setAAD(Buffer.from(`${context}\n${label}`, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    open(sealed, label) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || body === undefined) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAAD(Buffer.from(`${context}\n${label}`, 'utf8'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}

/** Names a token without revealing it: what "forget the token the provider refused" compares. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
