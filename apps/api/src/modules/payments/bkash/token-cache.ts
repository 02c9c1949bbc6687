// Where bKash id_tokens are kept between calls. bKash's token-management page says an
// id_token lives an hour (expires_in 3600) and that a merchant who asks for new tokens more
// than twice within an hour may be blocked for an hour, so a token is granted once, reused,
// and renewed with its refresh_token shortly before it expires.
//
// In memory here (one process, and the unit tests); in the app the cache is the database's
// (modules/provider-tokens, docs/decisions/0041), shared by every API process, which also
// offers `renewing` (one process renews at a time) and `forget` (a refused token is dropped
// only if it is still the cached one).

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
  /** null forgets the token. */
  set(key: string, token: CachedToken | null): Promise<void>;
  /** A cache shared by processes: runs `renew` holding the key's renewal lease, so one process asks bKash at a time. */
  renewing?<T>(key: string, renew: () => Promise<T>): Promise<T>;
  /** Forgets this id_token (bKash refused it) if it is still the cached one, keeping its refresh_token. */
  forget?(key: string, idToken: string): Promise<void>;
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
    async forget(key, idToken) {
      if (tokens.get(key)?.idToken === idToken) tokens.delete(key);
    },
  };
}
