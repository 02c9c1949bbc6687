import { ZApiError, ZAttachment, ZPage, ZProductCard, ZSearchRequest, ZVariantImages } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cachedRead } from '../../lib/catalogue-route.ts';
import { HTTP_CACHE } from '../../lib/read-cache.ts';
import { attachments, linkedItems, variantImages } from '../../modules/catalogue/catalogue.service.ts';
import { ZItemId } from './v3/items.ts';

const ZCardPage = ZPage(ZProductCard);
const ZAttachmentPage = ZPage(ZAttachment);

export const itemRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/items/linked/search',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'Related products: the same category, nearest in price first',
        description: 'textParams must hold itemId (EXACT), the product to find relatives of.',
        body: ZSearchRequest,
        response: { 200: ZCardPage, 400: ZApiError, 401: ZApiError, 404: ZApiError },
      },
    },
    (req, reply) => cachedRead(app, req, reply, ZCardPage, HTTP_CACHE.catalogue, (lang) => linkedItems(app.db.kysely, req.body, lang), { localized: true }),
  );

  app.post(
    '/api/items/attachments/search',
    {
      schema: {
        tags: ['catalogue'],
        summary: "Files that come with products, such as a 3D model (kind '3d-model')",
        description: 'Filter field: itemId (EXACT or IN). Sort field: itemId.',
        body: ZSearchRequest,
        response: { 200: ZAttachmentPage, 400: ZApiError, 401: ZApiError },
      },
    },
    (req, reply) =>
      cachedRead(app, req, reply, ZAttachmentPage, HTTP_CACHE.catalogue, (lang) => attachments(app.db.kysely, req.body, lang), { localized: true }),
  );

  app.get(
    '/api/items/cms/variants/images',
    {
      schema: {
        tags: ['catalogue'],
        summary: "A product's pictures per variant value (per colour), to swap when a shopper picks one",
        querystring: z.object({ itemId: ZItemId }),
        response: { 200: ZVariantImages, 400: ZApiError, 401: ZApiError, 404: ZApiError },
      },
    },
    (req, reply) => cachedRead(app, req, reply, ZVariantImages, HTTP_CACHE.catalogue, () => variantImages(app.db.kysely, req.query.itemId)),
  );
};
