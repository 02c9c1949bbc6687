import { ZApiError, ZBundle } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cachedRead } from '../../lib/catalogue-route.ts';
import { notFound } from '../../lib/errors.ts';
import { HTTP_CACHE } from '../../lib/read-cache.ts';
import { bundles } from '../../modules/catalogue/catalogue.service.ts';
import { ZItemId } from './v3/items.ts';

const ZBundleList = z.object({ list: z.array(ZBundle) });

export const bundleRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/bundles/joined',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'Sets sold as one line, each with its parts (skuDetails: sku, quantity, product)',
        description: 'All bundles, or the one with ?id= (404 when it is not a bundle).',
        querystring: z.object({ id: ZItemId.optional() }),
        response: { 200: ZBundleList, 400: ZApiError, 401: ZApiError, 404: ZApiError },
      },
    },
    (req, reply) =>
      cachedRead(
        app,
        req,
        reply,
        ZBundleList,
        HTTP_CACHE.catalogue,
        async (lang) => {
          const list = await bundles(app.db.kysely, req.query.id, lang);
          if (req.query.id !== undefined && !list.length) throw notFound('The bundle');
          return { list };
        },
        { localized: true },
      ),
  );
};
