import { ZApiError, ZCmsItem, ZSlide } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cachedRead } from '../../../lib/catalogue-route.ts';
import { HTTP_CACHE } from '../../../lib/read-cache.ts';
import { attributeTexts, siteBullets, sliders } from '../../../modules/catalogue/catalogue.service.ts';

const ZSlideList = z.object({ list: z.array(ZSlide) });
const ZCmsList = z.object({ list: z.array(ZCmsItem) });

/** Site content the catalogue's screens show: the home carousel, selling points, attribute help. */
export const cmsCatalogueRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/cms/sliders/images',
    {
      schema: {
        tags: ['cms'],
        summary: 'The home carousel: picture, heading, text and the page it leads to',
        response: { 200: ZSlideList, 401: ZApiError },
      },
    },
    (req, reply) =>
      cachedRead(app, req, reply, ZSlideList, HTTP_CACHE.reference, async (lang) => ({ list: await sliders(app.db.kysely, lang) }), { localized: true }),
  );

  app.get(
    '/api/cms/bullets',
    {
      schema: {
        tags: ['cms'],
        summary: "The shop's selling points (free delivery, warranty, ways to pay)",
        response: { 200: ZCmsList, 401: ZApiError },
      },
    },
    (req, reply) =>
      cachedRead(app, req, reply, ZCmsList, HTTP_CACHE.reference, async (lang) => ({ list: await siteBullets(app.db.kysely, lang) }), { localized: true }),
  );

  app.get(
    '/api/cms/attrs/text',
    {
      schema: {
        tags: ['cms'],
        summary: 'Help texts for attributes, such as a size guide; slug is the attribute name',
        querystring: z.object({ attribute: z.string().min(1).max(64).optional() }),
        response: { 200: ZCmsList, 400: ZApiError, 401: ZApiError },
      },
    },
    (req, reply) =>
      cachedRead(app, req, reply, ZCmsList, HTTP_CACHE.reference, async (lang) => ({ list: await attributeTexts(app.db.kysely, req.query.attribute, lang) }), {
        localized: true,
      }),
  );
};
