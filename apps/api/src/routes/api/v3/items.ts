import { ZApiError, ZProductDetails } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cachedRead } from '../../../lib/catalogue-route.ts';
import { badRequest } from '../../../lib/errors.ts';
import { HTTP_CACHE } from '../../../lib/read-cache.ts';
import { itemDetails } from '../../../modules/catalogue/catalogue.service.ts';

export const ZItemId = z.coerce.number().int().min(1).max(2_147_483_647);
/** Which product: exactly one of these (checked by the caller). */
export const ZItemLookup = z.object({
  id: ZItemId.optional(),
  slug: z.string().min(1).max(300).optional(),
  code: z.string().min(1).max(64).optional(),
});

export const itemsV3Routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v3/items/joined',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'One product with its skus (prices, attribute values), pictures, categories and bundle parts',
        description: 'Choose the product by exactly one of id, slug or code (its model number).',
        querystring: ZItemLookup,
        response: { 200: ZProductDetails, 400: ZApiError, 401: ZApiError, 404: ZApiError },
      },
    },
    (req, reply) => {
      const { id, slug, code } = req.query;
      if ([id, slug, code].filter((v) => v !== undefined).length !== 1) {
        throw badRequest('Give exactly one of id, slug or code', { id: 'exactly one of id, slug or code' });
      }
      return cachedRead(
        app,
        req,
        reply,
        ZProductDetails,
        HTTP_CACHE.catalogue,
        (lang) => itemDetails(app.db.kysely, { id, slug, code: code?.trim().toUpperCase() }, lang),
        { localized: true },
      );
    },
  );
};
