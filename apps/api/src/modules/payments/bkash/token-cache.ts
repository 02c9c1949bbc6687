// Where bKash id_tokens are kept between calls. bKash's token-management page says an
// id_token lives an hour (expires_in 3600) and that a merchant who asks for new tokens more
// than twice within an hour may be blocked for an hour, so a token is granted once, reused,
// and renewed with its refresh_token shortly before it expires.
//
// In memory here; a later step can put the same two calls in front of a table so that every
// API process shares one token (get reads the row, set upserts it).

export interface CachedToken {
  idToken: string;
  /** bKash's refresh_token; null when the grant answer carried none. */
  refreshToken: string | null;
  /** When the id_token stops working, in epoch milliseconds (grant time + expires_in). */
  expiresAt: number;
  /** When to renew it: a safety margin before expiresAt (never less than half its life). */
  refreshAt: number;
}

export interface TokenCache {
  get(key: string): Promise<CachedToken | null>;
  /** null forgets the token (bKash refused it). */
  set(key: string, token: CachedToken | null): Promise<void>;
}

export function createMemoryTokenCache(): TokenCache {
  const tokens = new Map<string, CachedToken>();
  return {
    async get(key) {
      return tokens.get(key) ?? null;
    },
    async set(key, token) {
      if (token) tokens.set(key, { ...token });
      else tokens.delete(key);
    },
  };
}
