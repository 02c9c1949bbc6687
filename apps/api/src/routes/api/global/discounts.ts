import { PAGE_SIZE, ZApiError, ZGlobalDiscount, ZPage, ZSearchRequest } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { searchDiscounts } from '../../../modules/pricing/pricing.service.ts';

export const globalDiscountRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/global/discounts/search',
    {
      schema: {
        tags: ['pricing'],
        summary: 'Global discounts (spec §3, §7): the storefront reads them with size 100 and follows nextPageToken',
        description:
          'FIXED_CATEGORY discounts reach products in the listed categories and all their descendants (coveredCategoryIds lists them); ' +
          'FIXED_PRODUCT discounts reach the listed items (every sku when skuCode is null). discountType PERCENTAGE takes value per cent, ' +
          'rounded down to the whole taka; AMOUNT takes value poisha. Where several apply, the largest saving wins; they never stack. ' +
          '`valid` is true while a discount is switched on and inside its window. Filter fields: id, type, discountType, valid, title. ' +
          'Sort fields: id, title, value, startsAt, endsAt.',
        body: ZSearchRequest.extend({ size: ZSearchRequest.shape.size.unwrap().default(PAGE_SIZE.discount) }),
        response: { 200: ZPage(ZGlobalDiscount), 400: ZApiError, 401: ZApiError },
      },
    },
    async (req) => searchDiscounts(app.db.kysely, req.body),
  );
};
