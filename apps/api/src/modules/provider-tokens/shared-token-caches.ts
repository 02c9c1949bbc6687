import type { TokenCache as PathaoTokenCache } from '../couriers/pathao-token.ts';
import { PATHAO_REFRESH_BEFORE_MS, pathaoRefreshAt } from '../couriers/pathao-token.ts';
import type { TokenCache as BkashTokenCache } from '../payments/bkash/token-cache.ts';
import { createSharedTokenStore, type SharedTokenStore, type SharedTokenStoreOptions } from './shared-token-store.ts';

// The bKash and Pathao clients' token caches on the shared store (docs/decisions/0041): each
// client keeps its own token shape and freshness rule; the store keeps the row, the lease and
// this process's copy.

type StoreOptions = Omit<SharedTokenStoreOptions, 'provider' | 'accountKey'>;

/** bKash's cache: one row per cache key (bKash's base URL and app key, as the client names it). */
export function sharedBkashTokenCache(opts: StoreOptions): BkashTokenCache {
  const stores = new Map<string, SharedTokenStore>();
  const store = (key: string) => {
    let s = stores.get(key);
    if (!s) {
      s = createSharedTokenStore({ ...opts, provider: 'bkash', accountKey: key });
      stores.set(key, s);
    }
    return s;
  };
  const now = opts.now ?? Date.now;
  return {
    async get(key) {
      const t = await store(key).get();
      return t ? { idToken: t.accessToken, refreshToken: t.refreshToken, expiresAt: t.expiresAt, refreshAt: t.refreshAt } : null;
    },
    async set(key, t) {
      await store(key).set(
        t ? { accessToken: t.idToken, refreshToken: t.refreshToken, issuedAt: now(), refreshAt: t.refreshAt, expiresAt: t.expiresAt } : null,
      );
    },
    renewing: (key, renew) => store(key).renewing(renew),
    forget: (key, idToken) => store(key).forget(idToken),
  };
}

/** Pathao's cache for one merchant account; `refreshBeforeMs` must be the client's own. */
export function sharedPathaoTokenCache(opts: StoreOptions & { accountKey: string; refreshBeforeMs?: number }): PathaoTokenCache {
  const store = createSharedTokenStore({ ...opts, provider: 'pathao' });
  const before = opts.refreshBeforeMs ?? PATHAO_REFRESH_BEFORE_MS;
  return {
    async get() {
      const t = await store.get();
      return t ? { accessToken: t.accessToken, refreshToken: t.refreshToken, issuedAt: t.issuedAt, expiresAt: t.expiresAt } : null;
    },
    async set(t) {
      await store.set(t ? { ...t, refreshAt: pathaoRefreshAt(t, before) } : null);
    },
    renewing: (renew) => store.renewing(renew),
    forget: (accessToken) => store.forget(accessToken),
  };
}
