import { ZApiError } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { receivePathaoWebhook } from '../../../modules/couriers/courier-status.ts';
import { courierDeps } from '../../../modules/couriers/deps.ts';

// Pathao's webhook (docs/decisions/0040; its merchant panel's "Webhook Integration" page):
// events order.* POSTed here with X-PATHAO-Signature carrying the secret entered in the panel.
// No storefront API key (Pathao has none to send): the secret is checked instead, against the
// raw body as received. The panel's check sends { event: "webhook_integration" } and wants
// 202 with X-Pathao-Merchant-Webhook-Integration-Secret; every accepted event gets the same
// answer, so the check and real events cannot be told apart by how they are answered.

export const pathaoWebhookRoutes: FastifyPluginAsyncZod = async (app) => {
  // This route reads its body as text: the client checks and parses it itself.
  app.addContentTypeParser(['application/json', 'text/plain'], { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => done(null, body));

  app.post(
    '/api/couriers/pathao/webhook',
    {
      schema: {
        tags: ['couriers'],
        summary: 'Pathao’s status updates (its webhook)',
        description:
          'X-PATHAO-Signature with the secret set in Pathao’s panel (PATHAO_WEBHOOK_SECRET); a wrong one is a 401 and changes nothing. Answered 202 with the integration header Pathao’s panel checks. A status already recorded is accepted and recorded once.',
        response: { 202: z.object({ status: z.literal('success'), outcome: z.string() }), 400: ZApiError, 401: ZApiError },
      },
    },
    async (req, reply) => {
      const raw = typeof req.body === 'string' ? req.body : '';
      const deps = courierDeps(app, req.log);
      const outcome = await receivePathaoWebhook(deps, req.headers, raw);
      const answer = deps.couriers.pathao!.webhookAnswer;
      return reply
        .status(answer.status)
        .headers(answer.headers)
        .send({ status: 'success' as const, outcome });
    },
  );
};
