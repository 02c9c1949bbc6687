import { MESSAGES, ZApiError } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireCustomer } from '../../../plugins/auth.ts';
import { subscribe, subscriptionStatus } from '../../../modules/subscriptions/subscriptions.service.ts';
import { requestLocale } from '../../../modules/mail/locale.ts';

export const ZSubscriptionRequest = z.object({
  // spec §3: sent empty by guests. The subscriber is taken from the session, never from here.
  userId: z
    .union([z.string().max(64), z.number()])
    .nullish()
    .describe('Ignored: the signed-in customer comes from the session'),
  // Missing or blank is answered with the spec's own message (validated in the service).
  email: z.string().max(1000, MESSAGES.subscription.emailInvalid).default(''),
  extras: z
    .object({
      offer: z.string().max(200).default('').describe('The offer title the visitor answered'),
      type: z.string().max(50).default('').describe("'first-time' for the first-order offer"),
    })
    .default({ offer: '', type: '' }),
});

export const ZSubscription = z.object({ id: z.number(), email: z.string(), offer: z.string(), type: z.string(), createdAt: z.string() });

export const subscriptionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/emails/subscriptions',
    {
      schema: {
        tags: ['engagement'],
        summary: 'Subscribe an email address to the newsletter (spec §7)',
        description: '201 when subscribed; 409 when the address, in any letter case, is already subscribed.',
        body: ZSubscriptionRequest,
        response: { 201: ZSubscription, 400: ZApiError, 401: ZApiError, 409: ZApiError },
      },
    },
    async (req, reply) => {
      const created = await subscribe(app.db.kysely, {
        email: req.body.email,
        offer: req.body.extras.offer,
        type: req.body.extras.type,
        customerId: req.customerId,
        locale: requestLocale(req),
      });
      return reply.status(201).send(created);
    },
  );

  app.get(
    '/api/emails/subscriptions',
    {
      schema: {
        tags: ['engagement'],
        summary: "The signed-in customer's newsletter subscription status",
        response: { 200: z.object({ subscribed: z.boolean(), subscription: ZSubscription.nullable() }), 401: ZApiError },
      },
    },
    async (req) => {
      const customerId = requireCustomer(req);
      return subscriptionStatus(app.db.kysely, customerId);
    },
  );
};
