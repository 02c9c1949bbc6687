import type { Minor } from './money.ts';
import { cartTotals, type TCartTotals } from './pricing.ts';

// The cart of spec §3–§4 as pure rules. It lives in browser storage; the server re-prices
// it from its own data whenever money is at stake (decisions.md), so nothing stored here
// is ever trusted by the server.

export const CART_STORAGE_KEY = 'cart';
/** Bumped when the stored shape changes; a cart of another version is discarded. */
export const CART_VERSION = 1;
/**
 * The most of one item a cart line holds: the shop's default cap on one order line
 * (ORDER_MAX_LINE_QUANTITY on the server, docs/decisions/0022), so the cart never offers
 * what checkout would refuse.
 */
export const MAX_LINE_QUANTITY = 10;
/** The most of one item any request may carry at all; the server's cap is at most this. */
export const LINE_QUANTITY_CEILING = 99;
export const MAX_CART_LINES = 50;

export const SKU_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

// The stored cart is read in the browser, so its shape is checked by the plain guard below
// rather than a zod schema: the first load of every page carries no validation library
// (decision 0030). The request schemas built on the same rules are in cart-schemas.ts.

/** A cart line of spec §3: product, sku, quantity, subTotal, optionally sourceType and salesPrice. */
export interface TCartLine {
  product: {
    id: number;
    title: string;
    slug: string;
    image: string | null;
    /** The categories the product is filed under, for the browser's discount display. */
    categoryIds?: number[];
  };
  sku: {
    code: string;
    /** "Walnut / Queen": the chosen attribute values. */
    label?: string;
    /** The list price. */
    salesPrice: Minor;
    discountedSalesPrice: Minor | null;
  };
  quantity: number;
  /** unit price × quantity. */
  subTotal: Minor;
  sourceType?: 'bundle';
  /** The unit price the shopper saw when adding (after discounts). */
  salesPrice?: Minor;
}

export interface TCart {
  version: typeof CART_VERSION;
  lines: TCartLine[];
  couponCode: string | null;
  /** spec §4: saved with the cart and restored at start-up. */
  couponAmount: Minor;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown, min: number, max: number): v is number => Number.isInteger(v) && (v as number) >= min && (v as number) <= max;
const isMinor = (v: unknown): v is Minor => isInt(v, 0, Number.MAX_SAFE_INTEGER);
const isText = (v: unknown, max: number): v is string => typeof v === 'string' && v.length <= max;

/** One stored line, rebuilt from the fields it may have (anything else is dropped), or null. */
function readLine(v: unknown): TCartLine | null {
  if (!isObj(v) || !isObj(v.product) || !isObj(v.sku)) return null;
  const { product: p, sku: s } = v;
  if (!isInt(p.id, 1, Number.MAX_SAFE_INTEGER) || !isText(p.title, 300) || !isText(p.slug, 300)) return null;
  if (!(p.image === null || isText(p.image, 2000))) return null;
  const ids = p.categoryIds;
  if (ids !== undefined && !(Array.isArray(ids) && ids.length <= 20 && ids.every((x) => Number.isInteger(x)))) return null;
  if (typeof s.code !== 'string' || !SKU_CODE_PATTERN.test(s.code)) return null;
  if (s.label !== undefined && !isText(s.label, 200)) return null;
  if (!isMinor(s.salesPrice) || !(s.discountedSalesPrice === null || isMinor(s.discountedSalesPrice))) return null;
  if (!isInt(v.quantity, 1, LINE_QUANTITY_CEILING) || !isMinor(v.subTotal)) return null;
  if (v.sourceType !== undefined && v.sourceType !== 'bundle') return null;
  if (v.salesPrice !== undefined && !isMinor(v.salesPrice)) return null;
  return {
    product: { id: p.id, title: p.title, slug: p.slug, image: p.image, ...(ids ? { categoryIds: ids as number[] } : {}) },
    sku: {
      code: s.code,
      ...(s.label !== undefined ? { label: s.label } : {}),
      salesPrice: s.salesPrice,
      discountedSalesPrice: s.discountedSalesPrice,
    },
    quantity: v.quantity,
    subTotal: v.subTotal,
    ...(v.sourceType ? { sourceType: 'bundle' as const } : {}),
    ...(v.salesPrice !== undefined ? { salesPrice: v.salesPrice } : {}),
  };
}

/** A stored cart of the current version and shape, or null. */
function readStoredCart(v: unknown): TCart | null {
  if (!isObj(v) || v.version !== CART_VERSION || !Array.isArray(v.lines) || v.lines.length > MAX_CART_LINES) return null;
  if (!(v.couponCode === null || isText(v.couponCode, 64)) || !isMinor(v.couponAmount)) return null;
  const lines: TCartLine[] = [];
  for (const raw of v.lines) {
    const line = readLine(raw);
    if (!line) return null;
    lines.push(line);
  }
  return { version: CART_VERSION, lines, couponCode: v.couponCode, couponAmount: v.couponAmount };
}

/** What an add-to-cart button hands over. */
export interface TCartItemInput {
  product: TCartLine['product'];
  sku: TCartLine['sku'];
  quantity?: number;
  sourceType?: 'bundle';
  /** The unit price shown to the shopper (priceSku of pricing.ts). */
  unitPrice: Minor;
}

export function emptyCart(): TCart {
  return { version: CART_VERSION, lines: [], couponCode: null, couponAmount: 0 };
}

/** What one unit of a line costs: the price it was added at, else the sku's own prices. */
export function lineUnitPrice(line: Pick<TCartLine, 'sku' | 'salesPrice'>): Minor {
  return line.salesPrice ?? line.sku.discountedSalesPrice ?? line.sku.salesPrice;
}

function clampQuantity(q: number): number {
  if (!Number.isFinite(q)) return 1;
  return Math.min(MAX_LINE_QUANTITY, Math.max(1, Math.trunc(q)));
}

function withQuantity(line: TCartLine, quantity: number): TCartLine {
  const q = clampQuantity(quantity);
  return { ...line, quantity: q, subTotal: lineUnitPrice(line) * q };
}

/**
 * A change to the lines keeps the coupon code but drops its amount: the amount belongs to
 * the old cart (a minimum order may no longer be met) until the server prices the new one.
 */
function withLines(cart: TCart, lines: TCartLine[]): TCart {
  return { ...cart, lines, couponAmount: 0 };
}

export type TAddResult = { cart: TCart; result: 'added' | 'merged' | 'capped' | 'full' };

/**
 * spec §4: add a sku; the quantity merges when the sku code is already in the cart. The
 * merged line takes the newest product details and price (what the shopper just saw).
 */
export function addToCart(cart: TCart, item: TCartItemInput): TAddResult {
  const wanted = clampQuantity(item.quantity ?? 1);
  const unit = Math.max(0, Math.trunc(item.unitPrice));
  const at = cart.lines.findIndex((l) => l.sku.code === item.sku.code);
  const fresh = (quantity: number): TCartLine => ({
    product: item.product,
    sku: item.sku,
    quantity,
    subTotal: unit * quantity,
    ...(item.sourceType ? { sourceType: item.sourceType } : {}),
    salesPrice: unit,
  });
  if (at >= 0) {
    const old = cart.lines[at];
    const sum = old.quantity + wanted;
    const line = fresh(Math.min(sum, MAX_LINE_QUANTITY));
    const lines = cart.lines.map((l, i) => (i === at ? line : l));
    return { cart: withLines(cart, lines), result: sum > MAX_LINE_QUANTITY ? 'capped' : 'merged' };
  }
  if (cart.lines.length >= MAX_CART_LINES) return { cart, result: 'full' };
  return { cart: withLines(cart, [...cart.lines, fresh(wanted)]), result: 'added' };
}

function mapLine(cart: TCart, code: string, f: (l: TCartLine) => TCartLine): TCart {
  if (!cart.lines.some((l) => l.sku.code === code)) return cart;
  return withLines(
    cart,
    cart.lines.map((l) => (l.sku.code === code ? f(l) : l)),
  );
}

/** spec §4: increase by one (up to the most one line may hold). */
export function increase(cart: TCart, code: string): TCart {
  return mapLine(cart, code, (l) => withQuantity(l, l.quantity + 1));
}

/** spec §4: decrease by one, never below 1 (removing is its own action). */
export function decrease(cart: TCart, code: string): TCart {
  return mapLine(cart, code, (l) => withQuantity(l, l.quantity - 1));
}

/** A quantity typed on the cart page, kept within 1 and the line maximum. */
export function setQuantity(cart: TCart, code: string, quantity: number): TCart {
  return mapLine(cart, code, (l) => withQuantity(l, quantity));
}

/** spec §4: remove a line. */
export function removeLine(cart: TCart, code: string): TCart {
  if (!cart.lines.some((l) => l.sku.code === code)) return cart;
  return withLines(
    cart,
    cart.lines.filter((l) => l.sku.code !== code),
  );
}

/** spec §4: clear all, coupon included. */
export function clearCart(): TCart {
  return emptyCart();
}

export function withCoupon(cart: TCart, code: string, amount: Minor): TCart {
  return { ...cart, couponCode: code, couponAmount: Math.max(0, Math.trunc(amount)) };
}

export function withoutCoupon(cart: TCart): TCart {
  return { ...cart, couponCode: null, couponAmount: 0 };
}

/**
 * Takes the server's prices into the stored lines (after the cart page has told the
 * shopper what changed), keeping quantities and the coupon as they are.
 */
export function applyServerPrices(
  cart: TCart,
  prices: readonly { skuCode: string; salesPrice: Minor; discountedSalesPrice: Minor | null; unitPrice: Minor }[],
): TCart {
  const by = new Map(prices.map((p) => [p.skuCode, p]));
  let changed = false;
  const lines = cart.lines.map((l) => {
    const p = by.get(l.sku.code);
    if (!p) return l;
    if (l.salesPrice === p.unitPrice && l.sku.salesPrice === p.salesPrice && l.sku.discountedSalesPrice === p.discountedSalesPrice) return l;
    changed = true;
    return {
      ...l,
      sku: { ...l.sku, salesPrice: p.salesPrice, discountedSalesPrice: p.discountedSalesPrice },
      salesPrice: p.unitPrice,
      subTotal: p.unitPrice * l.quantity,
    };
  });
  return changed ? { ...cart, lines } : cart;
}

/** spec §3 totals of the stored cart, with the saved coupon amount. */
export function totalsOf(cart: TCart): TCartTotals {
  return cartTotals(
    cart.lines.map((l) => ({ quantity: l.quantity, salesPrice: l.sku.salesPrice, unitPrice: lineUnitPrice(l) })),
    cart.couponAmount,
  );
}

/**
 * Reads a stored cart. Anything that is not a cart of the current shape (broken JSON, an
 * older version, a hand-edited value) gives an empty cart instead of an error: a bad
 * stored value must never break the page. Line subtotals are recomputed, not trusted,
 * and a sku listed twice is merged.
 */
export function parseStoredCart(raw: string | null | undefined): TCart {
  if (!raw) return emptyCart();
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return emptyCart();
  }
  const stored = readStoredCart(json);
  if (!stored) return emptyCart();
  const lines: TCartLine[] = [];
  for (const l of stored.lines) {
    const seen = lines.findIndex((x) => x.sku.code === l.sku.code);
    if (seen >= 0) lines[seen] = withQuantity(lines[seen], lines[seen].quantity + l.quantity);
    else lines.push(withQuantity(l, l.quantity));
  }
  return { ...stored, lines };
}

export function serializeCart(cart: TCart): string {
  return JSON.stringify(cart);
}

// The cart's lines travel to GET /api/discount/coupons/apply in one query parameter,
// `items=CODE:QTY,CODE:QTY` — sku codes never hold ':' or ','. Compact enough for 50 lines
// in any URL limit, and readable in logs.

export function encodeCartItems(lines: readonly { skuCode: string; quantity: number }[]): string {
  return lines.map((l) => `${l.skuCode}:${l.quantity}`).join(',');
}

export const ITEMS_PARAM_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}:[1-9][0-9]?(,[A-Za-z0-9][A-Za-z0-9._-]{0,63}:[1-9][0-9]?)*$/;

/** Parses `items=CODE:QTY,…`; null when the text is not of that shape. Repeated codes merge. */
export function decodeCartItems(text: string): { skuCode: string; quantity: number }[] | null {
  if (text.length > 4000 || !ITEMS_PARAM_PATTERN.test(text)) return null;
  const merged = new Map<string, number>();
  for (const part of text.split(',')) {
    const i = part.lastIndexOf(':');
    const code = part.slice(0, i);
    merged.set(code, (merged.get(code) ?? 0) + Number(part.slice(i + 1)));
  }
  if (merged.size > MAX_CART_LINES) return null;
  return [...merged].map(([skuCode, quantity]) => ({ skuCode, quantity: Math.min(quantity, MAX_LINE_QUANTITY) }));
}
