import { ZApiError, ZOption } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cachedRead } from '../../lib/catalogue-route.ts';
import { HTTP_CACHE } from '../../lib/read-cache.ts';
import { options } from '../../modules/catalogue/catalogue.service.ts';

const ZOptionList = z.object({ list: z.array(ZOption) });

export const optionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/options',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'Every attribute (Color, Size…) with the values the catalogue uses',
        response: { 200: ZOptionList, 401: ZApiError },
      },
    },
    (req, reply) => cachedRead(app, req, reply, ZOptionList, HTTP_CACHE.reference, async () => ({ list: await options(app.db.kysely) })),
  );
};
