import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
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
}

export function viewerOf(request: FastifyRequest): OrderViewer {
  return { customerId: request.customerId, tokens: requestTokens(request) };
}

/**
 * Whether this viewer may see this sale: its customer, or the guest holding its token.
 * A customer's sale is never reachable by token, and a guest's never by another
 * customer's session.
 */
export function mayAccess(sale: { customer_id: number | null; invoice_id: string; access_token_hash: string | null }, viewer: OrderViewer): boolean {
  if (sale.customer_id !== null) return viewer.customerId === sale.customer_id;
  const { header, cookie } = viewer.tokens;
  return tokenMatches(header, sale.access_token_hash) || tokenMatches(cookie.get(sale.invoice_id), sale.access_token_hash);
}
