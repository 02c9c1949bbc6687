import { ZApiError, ZCategory, ZPage, ZSearchRequest } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { cachedRead } from '../../lib/catalogue-route.ts';
import { HTTP_CACHE } from '../../lib/read-cache.ts';
import { searchCategories } from '../../modules/catalogue/catalogue.service.ts';

const ZCategoryPage = ZPage(ZCategory);

export const categoryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/categories/search',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'The category tree as a paged list (spec §7: page size 50, follow nextPageToken)',
        description:
          'Each category carries its direct children, its picture (img), its shop banner (extras.shop_banner_image_url) and its options (discriminator and values). Filter fields: id, parentId, name, slug. Sort fields: sortOrder, name, id, parentId; without a sort, parents come before their children.',
        body: ZSearchRequest,
        response: { 200: ZCategoryPage, 400: ZApiError, 401: ZApiError },
      },
    },
    (req, reply) =>
      cachedRead(app, req, reply, ZCategoryPage, HTTP_CACHE.reference, (lang) => searchCategories(app.db.kysely, req.body, lang), { localized: true }),
  );
};
