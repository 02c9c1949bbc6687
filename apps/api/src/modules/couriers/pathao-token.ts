// Where Pathao's access token is kept between calls. Pathao's documentation asks that the
// token "be saved in the database (or any persistent store) for future use": it lives for
// days (expires_in 432000 s in its example), and issuing one per call would be slow and
// impolite. The interface is tiny so that a later step can keep it in the database and share
// it between server processes; the in-memory one serves one process and the tests.

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
  /** null forgets the token (Pathao refused it). */
  set(token: PathaoToken | null): Promise<void>;
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
