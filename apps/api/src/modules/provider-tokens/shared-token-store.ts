import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import * as repo from './provider-tokens.repository.ts';
import type { TokenProvider } from './provider-tokens.repository.ts';
import { type TokenSealer, tokenHash, tokenSealer } from './token-seal.ts';

// A provider's access token shared by every API process on the database (docs/decisions/0041).
// bKash blocks a merchant that asks for tokens too often and Pathao asks that its token be
// kept "in the database (or any persistent store)", so processes must not each grant their
// own. Reads go to an in-process copy while it is fresh (no query per payment), then to the
// row. Renewal is done under a lease on the row (a conditional update): one process asks the
// provider, the others wait a moment and read what it wrote. A token the provider refuses is
// forgotten only if it is still the stored one, so one 401 costs one renewal, not one per process.

export interface SharedToken {
  accessToken: string;
  refreshToken: string | null;
  /** Epoch milliseconds. */
  issuedAt: number;
  /** When the client renews it (before expiresAt). */
  refreshAt: number;
  expiresAt: number;
}

export interface SharedTokenStoreOptions {
  db: Kysely<Database>;
  provider: TokenProvider;
  /** The merchant account and environment (e.g. base URL and app key). */
  accountKey: string;
  /** The account's own secret setting: the sealing key is derived from it. */
  secret: string;
  /** How long a renewing process holds the lease: longer than a token request may take. Default 45 s. */
  leaseMs?: number;
  /** How often a waiting process looks at the row again. Default 100 ms. */
  pollMs?: number;
  now?: () => number;
}

export interface SharedTokenStore {
  /** The token, from this process's copy while it is fresh, else from the row; a refused one comes back with only its refresh token. */
  get(): Promise<SharedToken | null>;
  set(token: SharedToken | null): Promise<void>;
  /** Runs `renew` holding the lease; while another process holds it, waits for it first. `renew` must read the token again. */
  renewing<T>(renew: () => Promise<T>): Promise<T>;
  /** Forgets this access token if it is still the stored one (the provider refused it). */
  forget(accessToken: string): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function createSharedTokenStore(opts: SharedTokenStoreOptions): SharedTokenStore {
  const { db, provider, accountKey } = opts;
  const now = opts.now ?? Date.now;
  const leaseMs = opts.leaseMs ?? 45_000;
  const pollMs = opts.pollMs ?? 100;
  const sealer: TokenSealer = tokenSealer(opts.secret, `${provider}\n${accountKey}`);
  // Who holds the lease: this store in this process (two stores in one process are two owners).
  const owner = `${os.hostname()}:${process.pid}:${randomBytes(6).toString('hex')}`;
  let memo: SharedToken | null = null;
  const iso = () => new Date(now()).toISOString();

  async function readRow(): Promise<SharedToken | null> {
    const row = await repo.readToken(db, provider, accountKey);
    if (!row) return null;
    const refreshToken = row.refresh_token ? sealer.open(row.refresh_token, 'refresh') : null;
    const accessToken = row.access_token ? sealer.open(row.access_token, 'access') : null;
    if (!accessToken || row.expires_at === null || row.refresh_at === null) {
      // Refused or never issued: what is left is the refresh token, if it still opens.
      return refreshToken ? { accessToken: '', refreshToken, issuedAt: 0, refreshAt: 0, expiresAt: 0 } : null;
    }
    return {
      accessToken,
      refreshToken,
      issuedAt: Number(row.issued_at ?? 0),
      refreshAt: Number(row.refresh_at),
      expiresAt: Number(row.expires_at),
    };
  }

  async function get(): Promise<SharedToken | null> {
    if (memo && now() < memo.refreshAt) return memo;
    const t = await readRow();
    memo = t?.accessToken ? t : null;
    return t;
  }

  return {
    get,

    async set(token) {
      if (!token) {
        memo = null;
        await repo.clearToken(db, provider, accountKey, iso());
        return;
      }
      await repo.writeToken(
        db,
        provider,
        accountKey,
        {
          access_token: sealer.seal(token.accessToken, 'access'),
          refresh_token: token.refreshToken ? sealer.seal(token.refreshToken, 'refresh') : null,
          token_hash: tokenHash(token.accessToken),
          issued_at: Math.round(token.issuedAt),
          refresh_at: Math.round(token.refreshAt),
          expires_at: Math.round(token.expiresAt),
        },
        iso(),
      );
      memo = { ...token };
    },

    async renewing(renew) {
      await repo.ensureRow(db, provider, accountKey, iso());
      // Past this, a holder that has not finished has died or hung: its lease has lapsed too.
      const giveUpAt = now() + leaseMs + 5 * pollMs;
      for (;;) {
        if (await repo.claimLease(db, provider, accountKey, owner, now(), now() + leaseMs)) {
          try {
            memo = null;
            return await renew();
          } finally {
            await repo.releaseLease(db, provider, accountKey, owner);
          }
        }
        // Another process is asking the provider: wait for its token rather than ask too.
        await sleep(pollMs);
        const t = await readRow();
        if (t?.accessToken && now() < t.refreshAt) {
          memo = t;
          return renew();
        }
        if (now() > giveUpAt) return renew();
      }
    },

    async forget(accessToken) {
      if (memo?.accessToken === accessToken) memo = null;
      await repo.forgetAccessToken(db, provider, accountKey, tokenHash(accessToken), iso());
    },
  };
}
