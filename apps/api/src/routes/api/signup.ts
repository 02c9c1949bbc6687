import { ZApiError, ZSignUpRequest, ZSignedInUser } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signedInBody } from './signin/customers.ts';
import { clientInfo, setSessionCookie, wantsCookie } from '../../modules/accounts/sessions.ts';

export const signupRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/signup',
    {
      schema: {
        tags: ['customer'],
        summary: 'Create a customer account (spec §7) and sign it in',
        description:
          'Rules and messages of spec §5 (400 with one message per field). 409 `duplicate_email` when the email ' +
          '(compared case-insensitively after Unicode NFKC) or the mobile number (Bangladeshi numbers in any ' +
          'usual form) already has an account; `error.fields` says which. At most 20 sign-ups per client ' +
          'address in 15 minutes (429 with Retry-After). Send `x-session-cookie: 1` to receive the session ' +
          'in the httpOnly cookie `sid` instead of in `authToken`.',
        body: ZSignUpRequest,
        response: { 201: ZSignedInUser, 400: ZApiError, 401: ZApiError, 409: ZApiError, 429: ZApiError },
      },
    },
    async (req, reply) => {
      const r = await app.accounts.signUp(req.body, clientInfo(req));
      const cookie = wantsCookie(req);
      if (cookie) setSessionCookie(reply, r.session, app.config.publicUrl.startsWith('https:'));
      reply.header('cache-control', 'no-store');
      return reply.status(201).send(signedInBody(r, cookie));
    },
  );
};
