import { ZApiError, ZPage, ZSearchRequest } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cachedRead } from '../../../lib/catalogue-route.ts';
import { HTTP_CACHE } from '../../../lib/read-cache.ts';
import { searchContent } from '../../../modules/site/site.service.ts';

export const ZContentItem = z.object({
  id: z.number(),
  type: z.string(),
  title: z.string(),
  slug: z.string(),
  body: z.string(),
  fields: z.record(z.string(), z.unknown()),
  sortOrder: z.number(),
  updatedAt: z.string(),
});

const ZContentPage = ZPage(ZContentItem);

export const cmsArticleRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/cms/articles/search',
    {
      schema: {
        tags: ['cms'],
        summary: 'Content search (spec §7): site pages, articles, campaign and subscription-offer items',
        description: 'Filter fields: type, slug, title. Sort fields: title, sortOrder, updatedAt.',
        body: ZSearchRequest,
        response: { 200: ZContentPage, 400: ZApiError, 401: ZApiError },
      },
    },
    (req, reply) =>
      cachedRead(app, req, reply, ZContentPage, HTTP_CACHE.reference, (lang) => searchContent(app.db.kysely, req.body, lang), { localized: true }),
  );
};
