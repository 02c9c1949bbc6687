// Where Pathao's access token is kept between calls. Pathao's documentation asks that the
// token "be saved in the database (or any persistent store) for future use": it lives for
// days (expires_in 432000 s in its example), and issuing one per call would be slow and
// impolite. In the app it is kept in the database and shared by every API process
// (modules/provider-tokens, docs/decisions/0041), which also offers `renewing` (one process
// renews at a time) and `forget` (a refused token is dropped only if it is still the stored
// one); the in-memory one serves one process and the unit tests.

export interface PathaoToken {
  accessToken: string;
  refreshToken: string | null;
  /** Epoch milliseconds at which Pathao stops accepting the access token. */
  expiresAt: number;
  /** Epoch milliseconds at which it was issued (to refresh at a share of its life). */
  issuedAt: number;
}

export interface TokenCache {
  get(): Promise<PathaoToken | null>;
  /** null forgets the token. */
  set(token: PathaoToken | null): Promise<void>;
  /** A cache shared by processes: runs `renew` holding the renewal lease, so one process asks Pathao at a time. */
  renewing?<T>(renew: () => Promise<T>): Promise<T>;
  /** Forgets this access token (Pathao refused it) if it is still the stored one, keeping the refresh token. */
  forget?(accessToken: string): Promise<void>;
}

/** Default: renew this long before expiry, at most half the token's life. */
export const PATHAO_REFRESH_BEFORE_MS = 3_600_000;

/** When a token is renewed: `refreshBeforeMs` before it expires, but never in its first half. */
export function pathaoRefreshAt(t: Pick<PathaoToken, 'issuedAt' | 'expiresAt'>, refreshBeforeMs = PATHAO_REFRESH_BEFORE_MS): number {
  return t.expiresAt - Math.min(refreshBeforeMs, (t.expiresAt - t.issuedAt) / 2);
}

export function memoryTokenCache(initial: PathaoToken | null = null): TokenCache {
  let token = initial;
  return {
    get: async () => token,
    set: async (t) => {
      token = t;
    },
  };
}
