import { ZApiError } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { receiveSteadfastWebhook } from '../../../modules/couriers/courier-status.ts';
import { courierDeps } from '../../../modules/couriers/deps.ts';

// Steadfast's webhook (docs/decisions/0040): the merchant panel's "Webhook Integration" POSTs
// status updates here with "Authorization: Bearer {token}". No storefront API key (Steadfast
// has none to send): the bearer token is checked instead, against the raw body as received.

export const steadfastWebhookRoutes: FastifyPluginAsyncZod = async (app) => {
  // This route reads its body as text: the client checks and parses it itself.
  app.addContentTypeParser(['application/json', 'text/plain'], { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => done(null, body));

  app.post(
    '/api/couriers/steadfast/webhook',
    {
      schema: {
        tags: ['couriers'],
        summary: 'Steadfast’s status updates (its webhook)',
        description:
          'Authorization: Bearer with the token set in Steadfast’s panel; a wrong token is a 401 and changes nothing. A status already recorded is accepted and recorded once.',
        response: { 200: z.object({ status: z.literal('success'), outcome: z.string() }), 400: ZApiError, 401: ZApiError },
      },
    },
    async (req) => {
      const raw = typeof req.body === 'string' ? req.body : '';
      const outcome = await receiveSteadfastWebhook(courierDeps(app, req.log), req.headers, raw);
      // Steadfast's documentation asks for { status: "success" } with HTTP 200.
      return { status: 'success' as const, outcome };
    },
  );
};
