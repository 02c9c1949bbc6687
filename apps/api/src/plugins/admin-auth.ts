import { PERMISSIONS, roleMay, type TPermission, type TStaffRole } from '@storefront/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../lib/errors.ts';
import { looksLikeToken } from '../modules/accounts/tokens.ts';
import type { Actor } from '../modules/staff/audit.ts';
import type { StaffRow } from '../modules/staff/staff.repository.ts';
import { mustEnrolTwoFactor, StaffService } from '../modules/staff/staff.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    staff: StaffService;
  }
  interface FastifyRequest {
    /** The signed-in staff member on /api/admin routes, or null. */
    staffMember: StaffRow | null;
    staffSessionId: number | null;
  }
  interface FastifyContextConfig {
    /** What an /api/admin route needs (docs/decisions/0031); `public` only for signing in. */
    permission?: TPermission | 'public';
  }
}

export const ADMIN_COOKIE = 'admin_sid';
/**
 * The back office's pages and its API: the only paths the staff cookie is sent to. The
 * back office's first screen fetches its data at /admin.data when the browser navigates to
 * it, which the path /admin does not cover (a cookie's path matches only up to a "/").
 */
export const ADMIN_COOKIE_PATHS = ['/admin', '/admin.data', '/api/admin'];

export function setAdminCookie(reply: FastifyReply, token: string, expiresAt: string, secure: boolean): void {
  for (const path of ADMIN_COOKIE_PATHS) {
    reply.setCookie(ADMIN_COOKIE, token, { path, httpOnly: true, sameSite: 'strict', secure, expires: new Date(expiresAt) });
  }
}

export function clearAdminCookie(reply: FastifyReply, secure: boolean): void {
  for (const path of ADMIN_COOKIE_PATHS) reply.clearCookie(ADMIN_COOKIE, { path, httpOnly: true, sameSite: 'strict', secure });
}

/** Who made a write, for the audit log. */
export function actorOf(request: FastifyRequest): Actor {
  const s = request.staffMember;
  return { staffId: s?.id ?? null, email: s?.email ?? 'unknown', ip: request.ip || 'unknown' };
}

export function signedInStaff(request: FastifyRequest): StaffRow {
  if (!request.staffMember) throw new ApiError('unauthorized', 'Please sign in to the back office');
  return request.staffMember;
}

/**
 * Staff sessions and permissions for every /api/admin route. A route that does not declare
 * the permission it needs fails the server's start, so no admin route can be left open by
 * omission; a request without a staff session gets 401, one whose role lacks the
 * permission 403. A customer's session counts for nothing here: it is another cookie.
 */
export const adminAuthPlugin = fp(async (app: FastifyInstance) => {
  app.decorate('staff', new StaffService(app.db, { accounts: app.config.accounts, brandName: 'Back office' }));
  app.decorateRequest('staffMember', null);
  app.decorateRequest('staffSessionId', null);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/admin')) return;
    const permission = (route.config as { permission?: string } | undefined)?.permission;
    if (permission !== 'public' && !PERMISSIONS.includes(permission as TPermission)) {
      throw new Error(`${route.method} ${route.url} does not declare the permission it needs`);
    }
    const check = async (request: FastifyRequest) => {
      const token = request.cookies?.[ADMIN_COOKIE];
      const signedIn = looksLikeToken(token) ? await app.staff.resolveToken(token) : null;
      request.staffMember = signedIn?.staff ?? null;
      request.staffSessionId = signedIn?.sessionId ?? null;
      if (permission === 'public') return;
      if (!signedIn) throw new ApiError('unauthorized', 'Please sign in to the back office');
      const staff = signedIn.staff;
      if (permission !== 'self' && mustEnrolTwoFactor(staff)) {
        throw new ApiError('two_factor_enrolment_required', 'Set up two-factor sign-in before using the back office', undefined, 403);
      }
      if (!roleMay(staff.role as TStaffRole, permission as TPermission)) {
        throw new ApiError('forbidden', 'Your role does not allow this');
      }
    };
    // Before validation: a caller without the right gets 401/403, never a report on their input.
    const existing = route.preValidation;
    route.preValidation = existing ? [check, ...(Array.isArray(existing) ? existing : [existing])] : [check];
  });
});
