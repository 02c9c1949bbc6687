import { ZApiError, ZItemSearchRequest, ZItemSearchResult } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { cachedRead, inTurn } from '../../../lib/catalogue-route.ts';
import { HTTP_CACHE } from '../../../lib/read-cache.ts';
import { searchItems } from '../../../modules/catalogue/search.service.ts';

export const searchIndexRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/search/indices/items',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'Full-text product search with facets, sorting and pages',
        description:
          'textParams: query (the search term: every word must match the title, model number, categories or attribute values, as a word or the start of one; ranked by where the words are found), model (a model number: an exact match is the whole answer), and every filter of POST /api/v2/items/indices. A query starting with AFL- or DFL- is looked up as a model number first (spec §5). Sort fields: relevance (default with a query), price, createdAt (default without), title. facets: true adds counts per sub-category and attribute value, and the price range.',
        body: ZItemSearchRequest,
        response: { 200: ZItemSearchResult, 400: ZApiError, 401: ZApiError },
      },
    },
    (req, reply) =>
      cachedRead(
        app,
        req,
        reply,
        ZItemSearchResult,
        HTTP_CACHE.catalogue,
        (lang) => inTurn(app, req, () => searchItems(app.db.kysely, app.db.dialect, req.body, 'search', { lang })),
        { localized: true },
      ),
  );
};
