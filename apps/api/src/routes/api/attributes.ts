import { ZApiError, ZAttribute, ZPage, ZSearchRequest } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { cachedRead } from '../../lib/catalogue-route.ts';
import { HTTP_CACHE } from '../../lib/read-cache.ts';
import { searchAttributes } from '../../modules/catalogue/catalogue.service.ts';

const ZAttributePage = ZPage(ZAttribute);

export const attributeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/attributes/search',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'The attribute search of spec §7: pages from 1, size 50, fetchCount; list of id and sortOrder',
        description:
          "Filter fields: id, name. Sort fields: sortOrder, name, id. nextPageToken is '' on the last page. The storefront caches the whole list under all-attributes for 24 hours.",
        body: ZSearchRequest,
        response: { 200: ZAttributePage, 400: ZApiError, 401: ZApiError },
      },
    },
    (req, reply) => cachedRead(app, req, reply, ZAttributePage, HTTP_CACHE.reference, () => searchAttributes(app.db.kysely, req.body)),
  );
};
