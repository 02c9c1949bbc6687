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

// Card orders placed from this cart and not paid yet (spec §4 payment outcomes): the cart
// stays as it was until the provider's payment is verified, so a declined or cancelled
// payment leaves the shopper with their cart. Each entry keeps the lines it was placed
// with, so that a later payment takes exactly those out, not what was added since.
const AWAITING_KEY = 'cart-awaiting-payment';
const MAX_AWAITING = 10;
type Awaiting = { invoiceId: string; lines: [string, number][]; couponCode: string | null };

function readAwaiting(): Awaiting[] {
  try {
    const list: unknown = JSON.parse(localStorage.getItem(AWAITING_KEY) ?? '[]');
    if (!Array.isArray(list)) return [];
    return list.filter(
      (a): a is Awaiting =>
        typeof a?.invoiceId === 'string' &&
        Array.isArray(a.lines) &&
        a.lines.every((l: unknown) => Array.isArray(l) && typeof l[0] === 'string' && Number.isInteger(l[1])) &&
        (a.couponCode === null || typeof a.couponCode === 'string'),
    );
  } catch {
    return [];
  }
}

function writeAwaiting(list: Awaiting[]) {
  try {
    if (list.length) localStorage.setItem(AWAITING_KEY, JSON.stringify(list.slice(-MAX_AWAITING)));
    else localStorage.removeItem(AWAITING_KEY);
  } catch {}
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
  /** A card order was placed from the cart as it is now: keep the cart until its payment is verified. */
  awaitPayment(invoiceId: string) {
    const current = getSnapshot();
    writeAwaiting([
      ...readAwaiting().filter((a) => a.invoiceId !== invoiceId),
      { invoiceId, lines: current.lines.map((l) => [l.sku.code, l.quantity]), couponCode: current.couponCode },
    ]);
  },
  /**
   * The order's payment is verified: what was ordered leaves the cart (all of it, coupon
   * included, when nothing was added since). An order this browser did not place from its
   * cart, or one already settled, changes nothing.
   */
  paid(invoiceId: string) {
    const list = readAwaiting();
    const entry = list.find((a) => a.invoiceId === invoiceId);
    if (!entry) return;
    writeAwaiting(list.filter((a) => a !== entry));
    let next = getSnapshot();
    for (const [code, quantity] of entry.lines) {
      const line = next.lines.find((l) => l.sku.code === code);
      if (!line) continue;
      next = line.quantity <= quantity ? removeLine(next, code) : setQuantity(next, code, line.quantity - quantity);
    }
    if (next.lines.length === 0) next = clearCart();
    else if (entry.couponCode && next.couponCode === entry.couponCode) next = withoutCoupon(next);
    clearTimeout(requote);
    change(next);
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
