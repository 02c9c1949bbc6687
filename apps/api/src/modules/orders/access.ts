import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ORDER_ACCESS_COOKIE, ORDER_ACCESS_HEADER } from '@storefront/shared';
import type { FastifyRequest } from 'fastify';

// How a guest sees the orders they placed, and nobody else does (decision 0018): checkout
// returns a random order-access token (and keeps it in an httpOnly cookie for the web
// app); the sale stores only its hash. A customer's sales are theirs by customer id.

/** At most this many guest orders are remembered by one browser. */
const MAX_REMEMBERED = 20;
export const ORDER_ACCESS_MAX_AGE_S = 90 * 24 * 60 * 60;

export function newAccessToken(): { token: string; hash: string } {
  const token = randomBytes(24).toString('base64url');
  return { token, hash: hashAccessToken(token) };
}

export function hashAccessToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function tokenMatches(token: string | undefined | null, hash: string | null): boolean {
  if (!token || !hash || token.length > 100) return false;
  const a = Buffer.from(hashAccessToken(token), 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** invoiceId → token, from the cookie `INV:token|INV:token`. Malformed entries are skipped. */
export function parseAccessCookie(value: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!value || value.length > 4000) return out;
  for (const part of value.split('|')) {
    const m = /^([A-Z0-9-]{6,40}):([\w-]{16,64})$/.exec(part);
    if (m) out.set(m[1], m[2]);
  }
  return out;
}

export function serializeAccessCookie(entries: Map<string, string>): string {
  return [...entries]
    .slice(-MAX_REMEMBERED)
    .map(([inv, tok]) => `${inv}:${tok}`)
    .join('|');
}

/** The tokens a request carries: the header (API clients) for one sale, the cookie for several. */
export function requestTokens(request: FastifyRequest): { header: string | null; cookie: Map<string, string> } {
  const h = request.headers[ORDER_ACCESS_HEADER];
  return {
    header: typeof h === 'string' && h ? h : null,
    cookie: parseAccessCookie(request.cookies?.[ORDER_ACCESS_COOKIE]),
  };
}

/**
 * Who asks for an order: the signed-in customer, or a guest with the order-access tokens
 * the request carries. The order's use cases take this, not the HTTP request.
 */
export interface OrderViewer {
  customerId: number | null;
  tokens: { header: string | null; cookie: Map<string, string> };
  /** Verifies signed order links; without it only access tokens count. */
  linkSecret?: string | null;
}

export function viewerOf(request: FastifyRequest): OrderViewer {
  return { customerId: request.customerId, tokens: requestTokens(request), linkSecret: request.server.orderLinkSecret };
}

// ---- signed order links (docs/decisions/0032) --------------------------------------------
// A guest's order mail carries a link that opens the order on any device until it expires:
// the invoice id and the expiry, signed with this installation's secret. It is carried like
// an access token (the cookie, the header), and told apart from one by its length: 6 bytes
// of expiry and 32 of HMAC-SHA-256 are 51 base64url characters, a random token 32.

/** How long a mailed order link opens the order. */
export const ORDER_LINK_DAYS = 60;
const LINK_LENGTH = 51;

function linkMac(secret: string, invoiceId: string, expiresS: number): Buffer {
  return createHmac('sha256', secret).update(`order-link\n${invoiceId}\n${expiresS}`).digest();
}

export function signOrderLink(secret: string, invoiceId: string, now = Date.now()): string {
  const expiresS = Math.floor(now / 1000) + ORDER_LINK_DAYS * 86_400;
  const head = Buffer.alloc(6);
  head.writeUIntBE(expiresS, 0, 6);
  return Buffer.concat([head, linkMac(secret, invoiceId, expiresS)]).toString('base64url');
}

export function orderLinkMatches(secret: string | null | undefined, invoiceId: string, token: string | null | undefined, now = Date.now()): boolean {
  if (!secret || !token || token.length !== LINK_LENGTH) return false;
  const raw = Buffer.from(token, 'base64url');
  if (raw.length !== 38) return false;
  const expiresS = raw.readUIntBE(0, 6);
  if (expiresS * 1000 <= now) return false;
  return timingSafeEqual(raw.subarray(6), linkMac(secret, invoiceId, expiresS));
}

/**
 * Whether this viewer may see this sale: its customer, or the guest holding its token.
 * A customer's sale is never reachable by token, and a guest's never by another
 * customer's session.
 */
export function mayAccess(sale: { customer_id: number | null; invoice_id: string; access_token_hash: string | null }, viewer: OrderViewer): boolean {
  if (sale.customer_id !== null) return viewer.customerId === sale.customer_id;
  const { header, cookie } = viewer.tokens;
  const held = cookie.get(sale.invoice_id);
  return (
    tokenMatches(header, sale.access_token_hash) ||
    tokenMatches(held, sale.access_token_hash) ||
    orderLinkMatches(viewer.linkSecret, sale.invoice_id, header) ||
    orderLinkMatches(viewer.linkSecret, sale.invoice_id, held)
  );
}

/** A guest sale's link for its mails, QR code and printed invoice; null for a customer's sale (they sign in). */
export function orderLinkFor(secret: string, sale: { customer_id: number | null; invoice_id: string }, now = Date.now()): string | null {
  return sale.customer_id === null ? signOrderLink(secret, sale.invoice_id, now) : null;
}

/** The order page's address, with the signed link for a guest's sale. */
export function orderPageUrl(publicUrl: string, invoiceId: string, link: string | null): string {
  return `${publicUrl}/orders?invoiceId=${encodeURIComponent(invoiceId)}${link ? `&key=${link}` : ''}`;
}

/** The order-access cookie as checkout sets it (decision 0018), for a page response's headers. */
export function orderAccessSetCookie(value: string, publicUrl: string): string {
  const secure = publicUrl.startsWith('https:') ? '; Secure' : '';
  return `${ORDER_ACCESS_COOKIE}=${encodeURIComponent(value)}; Max-Age=${ORDER_ACCESS_MAX_AGE_S}; Path=/; HttpOnly; SameSite=Lax${secure}`;
}
