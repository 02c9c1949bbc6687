import { type TSignedInUser, ZApiError, ZSignInRequest, ZSignedInUser } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { CustomerRow } from '../../../modules/accounts/accounts.repository.ts';
import { type NewSession, toCustomer, toProfile } from '../../../modules/accounts/accounts.service.ts';
import { clientInfo, setSessionCookie, wantsCookie } from '../../../modules/accounts/sessions.ts';

/** spec §7: a user carrying authToken and a profile; in cookie mode the token stays in the cookie. */
export function signedInBody(r: { customer: CustomerRow; subscribed: boolean; session: NewSession }, cookieMode: boolean): TSignedInUser {
  return {
    ...toCustomer(r.customer, r.subscribed),
    authToken: cookieMode ? '' : r.session.token,
    expiresAt: r.session.expiresAt,
    profile: toProfile(r.customer, r.subscribed),
  };
}

export const signinRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/signin/customers',
    {
      schema: {
        tags: ['customer'],
        summary: 'Sign in with email or mobile number and password (spec §7)',
        description:
          'userName is an email or a mobile number. Wrong credentials get one 401 `invalid_credentials` that does ' +
          'not say which part was wrong. Failed attempts are limited per account (5) and per client address (50) ' +
          'in 15 minutes, counted in the database: 429 with Retry-After, even across a restart. API clients send ' +
          'the returned authToken as `x-auth-token`; the web app sends `x-session-cookie: 1` and gets the ' +
          'httpOnly cookie `sid` instead (authToken is then empty). An account staff blocked answers 403 ' +
          '`account_blocked`, and only when the password was right.',
        body: ZSignInRequest,
        response: { 200: ZSignedInUser, 400: ZApiError, 401: ZApiError, 403: ZApiError, 429: ZApiError },
      },
    },
    async (req, reply) => {
      const r = await app.accounts.signIn(req.body, clientInfo(req));
      const cookie = wantsCookie(req);
      if (cookie) setSessionCookie(reply, r.session, app.config.publicUrl.startsWith('https:'));
      reply.header('cache-control', 'no-store');
      return signedInBody(r, cookie);
    },
  );
};
