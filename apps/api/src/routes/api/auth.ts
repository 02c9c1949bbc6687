import { ZApiError, ZChangePasswordRequest } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clearSessionCookie } from '../../modules/accounts/sessions.ts';
import { requireCustomer } from '../../plugins/auth.ts';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/auth/signout',
    {
      schema: {
        tags: ['customer'],
        summary: 'Sign out: revokes the session on the server (spec §7)',
        description: 'Always 200: the session of the request (header or cookie), if any, is revoked and the cookie cleared.',
        response: { 200: z.object({ signedOut: z.literal(true) }), 401: ZApiError },
      },
    },
    async (req, reply) => {
      await app.accounts.signOut(req.sessionId);
      clearSessionCookie(reply, app.config.publicUrl.startsWith('https:'));
      reply.header('cache-control', 'no-store');
      return { signedOut: true as const };
    },
  );

  app.post(
    '/api/auth/change',
    {
      schema: {
        tags: ['customer'],
        summary: 'Change the password (spec §7); every other session of the customer is revoked',
        description:
          'The session making the call stays signed in. A wrong current password answers 400 `wrong_password` and ' +
          'counts against the account like a failed sign-in (429 once the limit is reached).',
        body: ZChangePasswordRequest,
        response: { 200: z.object({ revokedSessions: z.number().int() }), 400: ZApiError, 401: ZApiError, 404: ZApiError, 429: ZApiError },
      },
    },
    async (req) => app.accounts.changePassword(requireCustomer(req), req.sessionId, req.body),
  );
};
