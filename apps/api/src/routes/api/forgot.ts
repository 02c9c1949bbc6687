import { ACCOUNT_MESSAGES, ZApiError, ZForgotRequest, ZResetRequest } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clientInfo } from '../../modules/accounts/sessions.ts';

export const forgotRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/forgot',
    {
      schema: {
        tags: ['customer'],
        summary: 'Mail a password-reset link (spec §7)',
        description:
          'The answer is the same whether or not the email has an account. The link opens /reset-password and ' +
          'works once, for one hour. At most 3 requests per email and 20 per client address an hour (429).',
        body: ZForgotRequest,
        response: { 200: z.object({ message: z.string() }), 400: ZApiError, 401: ZApiError, 429: ZApiError },
      },
    },
    async (req) => {
      await app.accounts.forgot(req.body, clientInfo(req));
      return { message: ACCOUNT_MESSAGES.resetSent };
    },
  );

  app.post(
    '/api/forgot/reset',
    {
      schema: {
        tags: ['customer'],
        summary: 'Set a new password with the token of a reset link',
        description: 'Every session of the account ends. 400 `invalid_token` for a used, expired or unknown token.',
        body: ZResetRequest,
        response: { 200: z.object({ message: z.string() }), 400: ZApiError, 401: ZApiError },
      },
    },
    async (req) => {
      await app.accounts.resetPassword(req.body);
      return { message: ACCOUNT_MESSAGES.passwordReset };
    },
  );
};
