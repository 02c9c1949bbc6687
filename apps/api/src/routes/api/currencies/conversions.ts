import { PAGE_SIZE, ZApiError, ZCurrencyConversion, ZPage } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listCurrencies } from '../../../modules/currencies/currencies.service.ts';

export const currencyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/currencies/conversions',
    {
      schema: {
        tags: ['pricing'],
        summary: 'Display currencies (spec §3, §7): flag image, code, country and rate in BDT per unit',
        description:
          'A price in a display currency is the BDT amount divided by rate, to 2 decimals. BDT (rate 1, country bangladesh, ' +
          'numCode +88) is always first. The shop charges in BDT whatever currency is displayed.',
        querystring: z.object({
          size: z.coerce.number().int().min(1).max(50).default(PAGE_SIZE.currency),
          page: z.coerce.number().int().min(1).max(1000).default(1),
        }),
        response: { 200: ZPage(ZCurrencyConversion), 400: ZApiError, 401: ZApiError },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return listCurrencies(app.db.kysely, req.query.page, req.query.size);
    },
  );
};
