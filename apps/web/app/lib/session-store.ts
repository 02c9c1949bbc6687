import { type TPage, type TSignedInUser, type TWishlistItem, type TWishlistToggleResult, wishlistKey } from '@storefront/shared';
import { useSyncExternalStore } from 'react';
import type { ShellUser } from '../components/account/shell-user.ts';
import { apiFetch } from './api-client.ts';

// The browser's view of the session (spec §4 auth; decisions.md): the token itself lives
// in the httpOnly cookie `sid` that scripts never see; what the page knows is the
// customer (from the root loader) and what changed since (a sign-in, a sign-out, a
// wishlist toggle), so the header changes at once without waiting for the server.
// When the root loader's data changes, it wins again (acceptServerUser).

export type AuthView = 'sign-in' | 'sign-up';

interface State {
  /** undefined: nothing changed here since the server rendered; use the loader's user. */
  user: ShellUser | null | undefined;
  /** Wishlist keys (itemId:skuCode) of the signed-in customer, once loaded. */
  wishlist: ReadonlySet<string> | null;
  /** Which auth modal is open, if any. */
  authView: AuthView | null;
}

let state: State = { user: undefined, wishlist: null, authView: null };
const listeners = new Set<() => void>();
let afterSignIn: (() => void | Promise<void>) | null = null;
/** What had the focus when the modal opened: it gets it back when the modal closes. */
let opener: HTMLElement | null = null;
let wishlistLoad: Promise<void> | null = null;

function set(patch: Partial<State>) {
  state = { ...state, ...patch };
  for (const l of listeners) l();
}
function subscribe(l: () => void) {
  listeners.add(l);
  return () => {
    listeners.delete(l);
  };
}
const get = () => state;

/** The signed-in customer: the latest change made here, else the server's. */
export function useSessionUser(serverUser: ShellUser | null): ShellUser | null {
  const s = useSyncExternalStore(subscribe, get, get);
  return s.user === undefined ? serverUser : s.user;
}

export function useAuthView(): AuthView | null {
  return useSyncExternalStore(subscribe, get, get).authView;
}

export function useWishlistKeys(): ReadonlySet<string> | null {
  return useSyncExternalStore(subscribe, get, get).wishlist;
}

const PENDING_SIGNOUT = 'signout-pending';

export const session = {
  openAuth(view: AuthView, then?: () => void | Promise<void>) {
    if (then) afterSignIn = then;
    if (state.authView === null && typeof document !== 'undefined') opener = document.activeElement as HTMLElement | null;
    set({ authView: view });
  },
  /** The element to focus when the modal has closed: the opener, or the account button that replaced it. */
  takeOpener(): HTMLElement | null {
    const el = opener;
    opener = null;
    if (el?.isConnected) return el;
    return document.querySelector<HTMLElement>('[data-testid="account-menu-button"], [data-testid="account-button"]');
  },
  closeAuth() {
    afterSignIn = null;
    set({ authView: null });
  },

  /** The root loader answered again: its user is the truth from now on. */
  acceptServerUser() {
    if (state.user !== undefined) set({ user: undefined });
  },

  /**
   * After a 200 from sign-in or sign-up: the header changes at once. Resolves once the
   * pending action (a heart clicked as a guest) is done, so the caller revalidates the
   * page's data after it, never before (which would show a stale wishlist count).
   */
  signedIn(u: TSignedInUser): Promise<void> {
    wishlistLoad = null;
    // A new session: an earlier sign-out still waiting to be retried must not end it.
    try {
      localStorage.removeItem(PENDING_SIGNOUT);
    } catch {
      // Storage unavailable: nothing was pending either.
    }
    set({ user: { userId: u.userId, name: u.profile.name, imageUrl: u.profile.imageUrl, wishlistCount: 0 }, wishlist: null, authView: null });
    const then = afterSignIn;
    afterSignIn = null;
    // A pending action (a heart clicked as a guest) runs once the wishlist is known, so
    // the two never race.
    return session
      .loadWishlist(true)
      .then(() => then?.())
      .catch(() => {});
  },

  /**
   * Signs out on the server and forgets the customer here whatever the server answers
   * (spec §4). When the server could not be reached, the cookie may still be live: the
   * sign-out is tried again on the next page load (retryPendingSignOut).
   */
  async signOut(): Promise<void> {
    set({ user: null, wishlist: null, authView: null });
    wishlistLoad = null;
    // Marked before the call, so that a reload or a lost connection mid-way still ends the
    // session on the next page load.
    try {
      localStorage.setItem(PENDING_SIGNOUT, '1');
    } catch {
      // Storage may be unavailable (private mode): the call below is then the only try.
    }
    const res = await apiFetch('/api/auth/signout', { method: 'POST' });
    if (res.ok) {
      try {
        localStorage.removeItem(PENDING_SIGNOUT);
      } catch {
        // As above.
      }
    }
  },

  /** Finishes a sign-out that could not reach the server last time; true when it did now. */
  async retryPendingSignOut(): Promise<boolean> {
    try {
      if (localStorage.getItem(PENDING_SIGNOUT) !== '1') return false;
    } catch {
      return false;
    }
    const res = await apiFetch('/api/auth/signout', { method: 'POST' });
    if (!res.ok) return false;
    localStorage.removeItem(PENDING_SIGNOUT);
    set({ user: null, wishlist: null });
    return true;
  },

  /** Changes what the header shows of the customer (name, image) after a profile edit. */
  updateUser(patch: Partial<ShellUser>, current: ShellUser | null) {
    const base = state.user === undefined ? current : state.user;
    if (base) set({ user: { ...base, ...patch } });
  },

  /** The session ended on the server (a 401): show the shopper as a guest. */
  expired() {
    wishlistLoad = null;
    set({ user: null, wishlist: null });
  },

  /** Loads every wishlist key of the signed-in customer (for the hearts), once. */
  loadWishlist(force = false): Promise<void> {
    if (wishlistLoad && !force) return wishlistLoad;
    wishlistLoad = (async () => {
      const keys = new Set<string>();
      for (let page = 1; page <= 10; page++) {
        const res = await apiFetch<TPage<TWishlistItem>>('/api/wishlists/items/search', {
          body: { page, size: 100, fetchCount: page === 1, sortParams: [{ field: 'dateCreated', type: 'DESC' }] },
        });
        if (!res.ok) {
          if (res.status === 401) session.expired();
          wishlistLoad = null;
          return;
        }
        for (const i of res.data.list) keys.add(wishlistKey(i.itemId, i.skuCode));
        if (page === 1 && res.data.count !== undefined) session.setWishlistCount(res.data.count);
        if (!res.data.nextPageToken) break;
      }
      set({ wishlist: keys });
    })();
    return wishlistLoad;
  },

  setWishlistCount(count: number) {
    if (state.user) set({ user: { ...state.user, wishlistCount: count } });
  },

  /** Adds or removes one sku; answers the server's result, or null when it failed. */
  async setInWishlist(current: ShellUser | null, itemId: number, skuCode: string, add: boolean) {
    const res = await apiFetch<TWishlistToggleResult>('/api/wishlists/items', { body: { itemId, skuCode, action: add ? 'add' : 'remove' } });
    if (!res.ok) {
      if (res.status === 401) session.expired();
      return { ok: false as const, status: res.status, networkError: !!res.networkError, message: res.error?.message ?? null };
    }
    const keys = new Set(state.wishlist ?? []);
    if (res.data.inWishlist) keys.add(wishlistKey(itemId, skuCode));
    else keys.delete(wishlistKey(itemId, skuCode));
    // Only ever changes the count: a caller that saw no user (a guest's click, finished after
    // sign-in) must not make the header forget who is signed in.
    const base = state.user !== undefined ? state.user : current;
    set(base ? { wishlist: keys, user: { ...base, wishlistCount: res.data.count } } : { wishlist: keys });
    return { ok: true as const, data: res.data };
  },
};
