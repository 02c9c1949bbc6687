import { ZApiError, ZCartQuote, ZQuoteRequest } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { quoteForShopper } from '../../../modules/pricing/coupon.service.ts';

export const cartQuoteRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/carts/quote',
    {
      schema: {
        tags: ['pricing'],
        summary: 'Re-price a cart kept in browser storage: current prices, discounts, coupon and availability',
        description:
          'The body holds sku codes and quantities only (any price or total sent along is ignored). Every line comes back ' +
          'with its current list price, unit price after the best discount, and a status: ok, unavailable (the sku is no ' +
          'longer sold; left out of the totals), out_of_stock or insufficient_stock (availableQuantity says how many are ' +
          'left). The coupon, if given, is applied after the discounts; when it does not apply, coupon.reason says why. ' +
          'The same function prices the order at checkout. Amounts are BDT poisha. Unknown coupon codes count towards ' +
          'the same guessing limit as the coupon apply call and checkout (429).',
        body: ZQuoteRequest,
        response: { 200: ZCartQuote, 400: ZApiError, 401: ZApiError, 429: ZApiError },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return quoteForShopper(app.db.kysely, {
        lines: req.body.lines,
        couponCode: req.body.couponCode ?? null,
        customerId: req.customerId,
        address: req.clientAddress,
      });
    },
  );
};
