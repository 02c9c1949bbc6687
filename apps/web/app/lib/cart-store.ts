import {
  addToCart,
  applyServerPrices,
  CART_STORAGE_KEY,
  clearCart,
  decrease,
  emptyCart,
  increase,
  parseStoredCart,
  removeLine,
  serializeCart,
  setQuantity,
  type TAddResult,
  type TCart,
  type TCartItemInput,
  type TCartQuote,
  withCoupon,
  withoutCoupon,
} from '@storefront/shared';
import { useSyncExternalStore } from 'react';
import { apiFetch } from './api-client.ts';

// The shopper's cart (spec §4): the pure rules of packages/shared/src/cart.ts, kept in
// localStorage. Every change is saved at once; the cart and its coupon amount are
// restored at start-up; a storage event from another tab replaces this tab's copy, so
// two tabs never disagree. What is stored is never trusted: parseStoredCart discards a
// corrupt or older-shaped value, and the server re-prices the cart whenever money is at
// stake.

type Listener = () => void;

const EMPTY = emptyCart();
const listeners = new Set<Listener>();
let cart: TCart = EMPTY;
let started = false;

function read(): TCart {
  let raw: string | null = null;
  try {
    raw = localStorage.getItem(CART_STORAGE_KEY);
  } catch {
    return EMPTY;
  }
  const parsed = parseStoredCart(raw);
  // A value we cannot read is removed, so it is not parsed again on every start.
  if (raw && parsed.lines.length === 0 && raw !== serializeCart(parsed)) {
    try {
      localStorage.removeItem(CART_STORAGE_KEY);
    } catch {}
  }
  return parsed;
}

function start() {
  if (started || typeof window === 'undefined') return;
  started = true;
  cart = read();
  window.addEventListener('storage', (e) => {
    // key null: another tab cleared all storage.
    if (e.key !== CART_STORAGE_KEY && e.key !== null) return;
    cart = read();
    emit();
  });
}

function emit() {
  for (const l of listeners) l();
}

function commit(next: TCart) {
  if (next === cart) return;
  cart = next;
  try {
    localStorage.setItem(CART_STORAGE_KEY, serializeCart(next));
  } catch {
    // Storage full or blocked (private mode): the cart still works for this visit.
  }
  emit();
}

function subscribe(listener: Listener) {
  start();
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

function getSnapshot(): TCart {
  start();
  return cart;
}

/** The server renders an empty cart: the real one lives only in the browser. */
function getServerSnapshot(): TCart {
  return EMPTY;
}

/** The cart, re-rendering on every change in this tab or another. */
export function useCart(): TCart {
  return useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot);
}

const noop = () => () => {};
/** False while the server renders and during hydration; true once the stored cart is read. */
export function useCartReady(): boolean {
  return useSyncExternalStore(
    noop,
    () => true,
    () => false,
  );
}

// A change to the lines drops the coupon amount (it belonged to the old cart); the code
// is re-priced by the server in the background so the dropdown's total stays right.
let requote: ReturnType<typeof setTimeout> | undefined;
function requoteCoupon() {
  clearTimeout(requote);
  if (!cart.couponCode || !cart.lines.length) return;
  requote = setTimeout(async () => {
    const asked = cart;
    const res = await apiFetch<TCartQuote>('/api/carts/quote', {
      body: { lines: asked.lines.map((l) => ({ skuCode: l.sku.code, quantity: l.quantity })), couponCode: asked.couponCode },
    });
    // Only if nothing changed meanwhile: a newer change schedules its own.
    if (!res.ok || cart !== asked || cart.couponCode !== asked.couponCode) return;
    const c = res.data.coupon;
    commit(c && !c.applied && c.reason === 'unknown' ? withoutCoupon(cart) : withCoupon(cart, asked.couponCode!, c?.applied ? c.amount : 0));
  }, 300);
}

function change(next: TCart) {
  const linesChanged = next.lines !== cart.lines;
  commit(next);
  if (linesChanged) requoteCoupon();
}

export const cartActions = {
  add(item: TCartItemInput): TAddResult['result'] {
    start();
    const r = addToCart(cart, item);
    change(r.cart);
    return r.result;
  },
  increase(code: string) {
    change(increase(getSnapshot(), code));
  },
  decrease(code: string) {
    change(decrease(getSnapshot(), code));
  },
  setQuantity(code: string, quantity: number) {
    change(setQuantity(getSnapshot(), code, quantity));
  },
  remove(code: string) {
    change(removeLine(getSnapshot(), code));
  },
  clear() {
    clearTimeout(requote);
    commit(clearCart());
  },
  setCoupon(code: string, amount: number) {
    commit(withCoupon(getSnapshot(), code, amount));
  },
  removeCoupon() {
    clearTimeout(requote);
    commit(withoutCoupon(getSnapshot()));
  },
  /** Takes the server's current prices into the stored lines (after the shopper was told). */
  applyServerPrices(prices: Parameters<typeof applyServerPrices>[1]) {
    commit(applyServerPrices(getSnapshot(), prices));
  },
};
