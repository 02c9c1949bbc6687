import { ZAdminSession, ZAdminSignIn, ZApiError, ZRecoveryCodes, ZTwoFactorCode, ZTwoFactorSetup } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import QRCode from 'qrcode';
import { z } from 'zod';
import { actorOf, clearAdminCookie, setAdminCookie, signedInStaff } from '../../../plugins/admin-auth.ts';
import { clientInfo } from '../../../modules/accounts/sessions.ts';
import { staffById } from '../../../modules/staff/staff.repository.ts';
import { toAdminSession } from '../../../modules/staff/staff.service.ts';
import { ADMIN } from './tags.ts';

/** Signing in and out of the back office, and one's own two-factor sign-in (docs/decisions/0031). */
export const adminSessionRoutes: FastifyPluginAsyncZod = async (app) => {
  const secure = app.config.publicUrl.startsWith('https:');

  app.post(
    '/api/admin/session',
    {
      config: { permission: 'public' },
      schema: {
        ...ADMIN,
        security: [{ apiKey: [] }],
        summary: 'Sign in to the back office',
        description:
          'Email and password, and the six-digit code of the authenticator app (or a recovery code) when two-factor is on: ' +
          'without one the answer is 401 `two_factor_required`. Limited as customer sign-in is (per account and per address). ' +
          'Sets the httpOnly, SameSite=Strict cookie `admin_sid` for /admin and /api/admin.',
        body: ZAdminSignIn,
        response: { 200: ZAdminSession, 400: ZApiError, 401: ZApiError, 429: ZApiError },
      },
    },
    async (req, reply) => {
      const r = await app.staff.signIn(req.body, clientInfo(req));
      setAdminCookie(reply, r.token, r.expiresAt, secure);
      reply.header('cache-control', 'no-store');
      return toAdminSession(r.staff);
    },
  );

  app.get(
    '/api/admin/session',
    {
      config: { permission: 'self' },
      schema: { ...ADMIN, summary: 'The signed-in staff member and what their role may do', response: { 200: ZAdminSession, 401: ZApiError } },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return toAdminSession(signedInStaff(req));
    },
  );

  app.delete(
    '/api/admin/session',
    { config: { permission: 'self' }, schema: { ...ADMIN, summary: 'Sign out of the back office', response: { 204: z.null(), 401: ZApiError } } },
    async (req, reply) => {
      if (req.staffSessionId != null) await app.staff.signOut(req.staffSessionId);
      clearAdminCookie(reply, secure);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/admin/two-factor/setup',
    {
      config: { permission: 'self' },
      schema: {
        ...ADMIN,
        summary: 'Start setting up two-factor sign-in',
        description: 'A new secret with its otpauth:// address and QR code; it is in force once a code from it is confirmed.',
        response: { 200: ZTwoFactorSetup, 401: ZApiError, 409: ZApiError },
      },
    },
    async (req, reply) => {
      const r = await app.staff.beginTwoFactor(signedInStaff(req));
      reply.header('cache-control', 'no-store');
      const qrSvg = await QRCode.toString(r.otpauthUri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, color: { dark: '#1d2327', light: '#ffffff' } });
      return { ...r, qrSvg };
    },
  );

  app.post(
    '/api/admin/two-factor/enable',
    {
      config: { permission: 'self' },
      schema: {
        ...ADMIN,
        summary: 'Confirm two-factor sign-in with a code from the app',
        description: 'Answers ten one-use recovery codes, shown this once.',
        body: ZTwoFactorCode,
        response: { 200: ZRecoveryCodes, 400: ZApiError, 401: ZApiError, 409: ZApiError },
      },
    },
    async (req, reply) => {
      const recoveryCodes = await app.staff.enableTwoFactor(signedInStaff(req), req.body.code, actorOf(req), req.clientAddress);
      reply.header('cache-control', 'no-store');
      return { recoveryCodes };
    },
  );

  app.post(
    '/api/admin/two-factor/disable',
    {
      config: { permission: 'self' },
      schema: {
        ...ADMIN,
        summary: 'Turn two-factor sign-in off (not for owners)',
        body: ZTwoFactorCode,
        response: { 204: z.null(), 400: ZApiError, 401: ZApiError, 409: ZApiError },
      },
    },
    async (req, reply) => {
      const staff = await staffById(app.db.kysely, signedInStaff(req).id);
      if (staff) await app.staff.disableTwoFactor(staff, req.body.code, actorOf(req), req.clientAddress);
      return reply.status(204).send(null);
    },
  );
};
