import { ZApiError, ZPage, ZSearchRequest, ZStockRow } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { cachedRead } from '../../lib/catalogue-route.ts';
import { HTTP_CACHE } from '../../lib/read-cache.ts';
import { searchStock } from '../../modules/catalogue/catalogue.service.ts';

const ZStockPage = ZPage(ZStockRow);

export const stockRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/stocks/items/skus/search',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'Stock per sku per branch',
        description:
          'Filter fields: skuCode, itemId, branchId (EXACT or IN). Sort fields: skuCode, branchId, quantity. A sku and branch without a row has none in stock. Never cached by the server; the ETag lets a client revalidate cheaply.',
        body: ZSearchRequest,
        response: { 200: ZStockPage, 400: ZApiError, 401: ZApiError },
      },
    },
    (req, reply) => cachedRead(app, req, reply, ZStockPage, HTTP_CACHE.live, () => searchStock(app.db.kysely, req.body), { cache: false }),
  );
};
