import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionResolver } from '../../plugins/auth.ts';
import { requestLocale } from '../mail/locale.ts';
import type { AccountsService, ClientInfo, NewSession } from './accounts.service.ts';
import { looksLikeToken } from './tokens.ts';

// How a request carries its session (docs/decisions/0008): API clients send the token in
// the x-auth-token header (spec §7); the web app's browser holds it in the httpOnly cookie
// `sid`, which scripts cannot read, and which the server-side renderer forwards.

export const SESSION_COOKIE = 'sid';
export const AUTH_HEADER = 'x-auth-token';
/** Sent by the web app on sign-in and sign-up: "keep my session in the cookie". */
export const COOKIE_MODE_HEADER = 'x-session-cookie';

export function sessionToken(request: FastifyRequest): string | null {
  const header = request.headers[AUTH_HEADER];
  if (looksLikeToken(header)) return header;
  const cookie = request.cookies?.[SESSION_COOKIE];
  return looksLikeToken(cookie) ? cookie : null;
}

export function createSessionResolver(accounts: AccountsService): SessionResolver {
  return async (request) => {
    const token = sessionToken(request);
    return token ? accounts.resolveToken(token) : null;
  };
}

export function clientInfo(request: FastifyRequest): ClientInfo {
  const ua = request.headers['user-agent'];
  return { ip: request.ip || 'unknown', address: request.clientAddress, userAgent: typeof ua === 'string' ? ua : '', locale: requestLocale(request) };
}

export function wantsCookie(request: FastifyRequest): boolean {
  return request.headers[COOKIE_MODE_HEADER] === '1';
}

/**
 * httpOnly (scripts cannot read it), SameSite=Lax (not sent on cross-site sub-requests
 * or posts), Secure when the shop is served over https, Path=/ so server rendering sees
 * it on every page. It lives as long as the session's absolute lifetime; the server
 * ends it earlier when it is idle, revoked or the password changes.
 */
export function setSessionCookie(reply: FastifyReply, session: NewSession, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE, session.token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    expires: new Date(session.expiresAt),
  });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure });
}
