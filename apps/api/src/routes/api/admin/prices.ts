import { ZAdminPage, ZAdminPageQuery, ZApiError, ZBulkPriceApply, ZBulkPriceChange, ZBulkPricePreview, ZLowStockRow } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../../plugins/admin-auth.ts';
import { AdminPricesService } from '../../../modules/admin-catalogue/prices.service.ts';
import { ADMIN } from './tags.ts';

const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 409: ZApiError };

/** Bulk price changes and the low-stock view (docs/decisions/0031). */
export const adminPriceRoutes: FastifyPluginAsyncZod = async (app) => {
  const prices = new AdminPricesService(
    app.db,
    () => app.reindexCatalogue(),
    () => app.catalogueChanged(),
  );

  app.post(
    '/api/admin/prices/preview',
    {
      config: { permission: 'prices.write' },
      schema: {
        ...ADMIN,
        summary: 'What a bulk price change would do: every sku’s old and new price',
        description:
          'A category (with its sub-categories) or chosen products; a percentage (-90 to 500) or an amount in poisha; new prices rounded to `roundTo` poisha. Nothing is written.',
        body: ZBulkPriceChange,
        response: { 200: ZBulkPricePreview, ...errors },
      },
    },
    async (req) => prices.preview(req.body),
  );

  app.post(
    '/api/admin/prices/apply',
    {
      config: { permission: 'prices.write' },
      schema: {
        ...ADMIN,
        summary: 'Apply a bulk price change as previewed',
        description:
          'In one transaction; `expectedSkus` is the preview’s count: a selection that changed since is a 409 `selection_changed` and nothing is written.',
        body: ZBulkPriceApply,
        response: { 200: ZBulkPricePreview, ...errors },
      },
    },
    async (req) => prices.apply(req.body, actorOf(req)),
  );

  app.get(
    '/api/admin/stock/low',
    {
      config: { permission: 'catalogue.read' },
      schema: {
        ...ADMIN,
        summary: 'Skus at or below their low-stock threshold, lowest first',
        description: 'A sku’s own threshold, or the shop’s default of 3, against its stock in all branches together. Archived products are left out.',
        querystring: ZAdminPageQuery,
        response: { 200: ZAdminPage(ZLowStockRow), ...errors },
      },
    },
    async (req) => prices.lowStock(req.query.page, req.query.size),
  );
};
