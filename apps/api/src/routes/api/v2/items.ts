import { ZApiError, ZCmsItem, ZItemContent, ZItemSearchRequest, ZItemSearchResult } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cachedRead, inTurn } from '../../../lib/catalogue-route.ts';
import { HTTP_CACHE } from '../../../lib/read-cache.ts';
import { itemArticles, itemBullets, itemContent } from '../../../modules/catalogue/catalogue.service.ts';
import { searchItems } from '../../../modules/catalogue/search.service.ts';
import { ZItemId } from '../v3/items.ts';

const ZCmsList = z.object({ list: z.array(ZCmsItem) });
const itemQuery = z.object({ itemId: ZItemId });

export const itemsV2Routes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/v2/items/indices',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'Product listings: by category, new arrivals, on sale, price, attributes, ids',
        description:
          'Filter fields (textParams): categoryId (EXACT or IN), categoryName (EXACT, any letter case; "all" for every category), minPrice and maxPrice (poisha), newArrival, onSale (true/false), kind (single/bundle), id (IN), and any attribute name such as color or size (EXACT or IN over display labels). Sort fields: price, createdAt, title. Set facets: true for facet counts. Full-text search is POST /api/search/indices/items.',
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
        (lang) => inTurn(app, req, () => searchItems(app.db.kysely, app.db.dialect, req.body, 'listing', { lang })),
        { localized: true },
      ),
  );

  app.get(
    '/api/v2/items/content',
    {
      schema: {
        tags: ['catalogue'],
        summary: "A product's long description and its specification (model, category, colours, sizes, set contents)",
        querystring: itemQuery,
        response: { 200: ZItemContent, 400: ZApiError, 401: ZApiError, 404: ZApiError },
      },
    },
    (req, reply) =>
      cachedRead(app, req, reply, ZItemContent, HTTP_CACHE.catalogue, (lang) => itemContent(app.db.kysely, req.query.itemId, lang), { localized: true }),
  );

  app.get(
    '/api/v2/items/cms/articles',
    {
      schema: {
        tags: ['catalogue'],
        summary: "Articles for a product's page: guides aimed at one of its categories",
        querystring: itemQuery,
        response: { 200: ZCmsList, 400: ZApiError, 401: ZApiError, 404: ZApiError },
      },
    },
    (req, reply) =>
      cachedRead(app, req, reply, ZCmsList, HTTP_CACHE.catalogue, async (lang) => ({ list: await itemArticles(app.db.kysely, req.query.itemId, lang) }), {
        localized: true,
      }),
  );

  app.get(
    '/api/v2/items/cms/bullets',
    {
      schema: {
        tags: ['catalogue'],
        summary: "Selling points for a product's page: the shop's own and those aimed at its categories",
        querystring: itemQuery,
        response: { 200: ZCmsList, 400: ZApiError, 401: ZApiError, 404: ZApiError },
      },
    },
    (req, reply) =>
      cachedRead(app, req, reply, ZCmsList, HTTP_CACHE.catalogue, async (lang) => ({ list: await itemBullets(app.db.kysely, req.query.itemId, lang) }), {
        localized: true,
      }),
  );
};
