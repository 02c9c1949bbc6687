import {
  ZAdminCoupon,
  ZAdminDiscount,
  ZAdminDiscountRow,
  ZAdminPage,
  ZAdminPageQuery,
  ZApiError,
  ZCouponInput,
  ZCouponListQuery,
  ZCouponSwitch,
  ZCouponUsages,
  ZDiscountInput,
  ZDiscountListQuery,
  ZDiscountPreview,
  ZDiscountPreviewInput,
  ZDiscountPreviewQuery,
  ZDiscountSwitch,
} from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AdminCouponsService } from '../../../modules/admin-promotions/coupons.service.ts';
import { AdminDiscountsService } from '../../../modules/admin-promotions/discounts.service.ts';
import { bumpReadSideVersion } from '../../../modules/catalogue/search-index.ts';
import { actorOf } from '../../../plugins/admin-auth.ts';
import { ADMIN, ZIdParam } from './tags.ts';

const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError, 409: ZApiError };

/**
 * Global discounts and coupons in the back office (docs/decisions/0034): read by everyone who
 * reads the catalogue, changed by managers and owners (promotions.write). A coupon's uses
 * name customers and orders, so they need orders.read.
 */
export const adminPromotionsRoutes: FastifyPluginAsyncZod = async (app) => {
  const discounts = new AdminDiscountsService(app.db.kysely, async () => {
    // The listings are priced with the discounts in force (docs/decisions/0006): rebuilt
    // first when those changed, and only then is every process told, so none caches a
    // listing from the old index.
    await app.checkCatalogueDiscounts();
    await bumpReadSideVersion(app.db.kysely);
    await app.catalogueChanged();
  });
  const coupons = new AdminCouponsService(app.db.kysely);

  // ---- global discounts -------------------------------------------------------------------------

  app.get(
    '/api/admin/promotions/discounts',
    {
      config: { permission: 'catalogue.read' },
      schema: {
        ...ADMIN,
        summary: 'Global discounts, newest first, with their state now',
        description: 'Search by title; filter by state: scheduled, in_force, ended or off.',
        querystring: ZDiscountListQuery,
        response: { 200: ZAdminPage(ZAdminDiscountRow), ...errors },
      },
    },
    async (req) => discounts.list(req.query),
  );
  app.get(
    '/api/admin/promotions/discounts/:id',
    {
      config: { permission: 'catalogue.read' },
      schema: { ...ADMIN, summary: 'One global discount with its categories or products', params: ZIdParam, response: { 200: ZAdminDiscount, ...errors } },
    },
    async (req) => discounts.get(req.params.id),
  );
  app.post(
    '/api/admin/promotions/discounts/preview',
    {
      config: { permission: 'catalogue.read' },
      schema: {
        ...ADMIN,
        summary: 'What a discount as typed would do to prices: each sku it reaches, its price now and with the discount in force',
        description:
          'Nothing is saved. `id` names the saved discount being edited (it is left out of the new prices). Prices follow the storefront’s rule: ' +
          'the largest saving wins, so a sku with a larger saving keeps its price (`wins` false).',
        querystring: ZDiscountPreviewQuery,
        body: ZDiscountPreviewInput,
        response: { 200: ZDiscountPreview, ...errors },
      },
    },
    async (req) => discounts.preview(req.body, req.query.page, req.query.size),
  );
  app.post(
    '/api/admin/promotions/discounts',
    {
      config: { permission: 'promotions.write' },
      schema: {
        ...ADMIN,
        summary: 'Add a global discount',
        description: 'Listings, product pages and the cart quote show it from the next request when it is switched on and in its window.',
        body: ZDiscountInput,
        response: { 201: ZAdminDiscount, ...errors },
      },
    },
    async (req, reply) => reply.status(201).send(await discounts.create(req.body, actorOf(req))),
  );
  app.put(
    '/api/admin/promotions/discounts/:id',
    {
      config: { permission: 'promotions.write' },
      schema: {
        ...ADMIN,
        summary: 'Change a global discount',
        description: '`version` is the one read: a discount changed since answers 409 `stale_version`.',
        params: ZIdParam,
        body: ZDiscountInput,
        response: { 200: ZAdminDiscount, ...errors },
      },
    },
    async (req) => discounts.update(req.params.id, req.body, actorOf(req)),
  );
  app.patch(
    '/api/admin/promotions/discounts/:id',
    {
      config: { permission: 'promotions.write' },
      schema: {
        ...ADMIN,
        summary: 'Switch a global discount on or off',
        params: ZIdParam,
        body: ZDiscountSwitch,
        response: { 200: ZAdminDiscount, ...errors },
      },
    },
    async (req) => discounts.setActive(req.params.id, req.body, actorOf(req)),
  );
  app.delete(
    '/api/admin/promotions/discounts/:id',
    {
      config: { permission: 'promotions.write' },
      schema: {
        ...ADMIN,
        summary: 'Remove a global discount (orders keep the prices they were placed at)',
        params: ZIdParam,
        querystring: z.object({ version: z.coerce.number().int() }),
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await discounts.remove(req.params.id, req.query.version, actorOf(req));
      return reply.status(204).send(null);
    },
  );

  // ---- coupons ----------------------------------------------------------------------------------

  app.get(
    '/api/admin/promotions/coupons',
    {
      config: { permission: 'catalogue.read' },
      schema: {
        ...ADMIN,
        summary: 'Coupons, newest first, with their state and uses',
        description: 'Search by code or title; filter by state: scheduled, in_force, ended or off.',
        querystring: ZCouponListQuery,
        response: { 200: ZAdminPage(ZAdminCoupon), ...errors },
      },
    },
    async (req) => coupons.list(req.query),
  );
  app.get(
    '/api/admin/promotions/coupons/:id',
    {
      config: { permission: 'catalogue.read' },
      schema: { ...ADMIN, summary: 'One coupon', params: ZIdParam, response: { 200: ZAdminCoupon, ...errors } },
    },
    async (req) => coupons.get(req.params.id),
  );
  app.get(
    '/api/admin/promotions/coupons/:id/usages',
    {
      config: { permission: 'orders.read' },
      schema: {
        ...ADMIN,
        summary: 'The orders that used a coupon, newest first, with the totals over all its uses',
        params: ZIdParam,
        querystring: ZAdminPageQuery,
        response: { 200: ZCouponUsages, ...errors },
      },
    },
    async (req) => coupons.usages(req.params.id, req.query.page, req.query.size),
  );
  app.post(
    '/api/admin/promotions/coupons',
    {
      config: { permission: 'promotions.write' },
      schema: {
        ...ADMIN,
        summary: 'Add a coupon',
        description: 'A code another coupon has in any case ("save10" beside "SAVE10") answers 409 `code_taken`.',
        body: ZCouponInput,
        response: { 201: ZAdminCoupon, ...errors },
      },
    },
    async (req, reply) => reply.status(201).send(await coupons.create(req.body, actorOf(req))),
  );
  app.put(
    '/api/admin/promotions/coupons/:id',
    {
      config: { permission: 'promotions.write' },
      schema: {
        ...ADMIN,
        summary: 'Change a coupon',
        description: '`version` is the one read: a coupon changed since answers 409 `stale_version`; a code taken answers 409 `code_taken`.',
        params: ZIdParam,
        body: ZCouponInput,
        response: { 200: ZAdminCoupon, ...errors },
      },
    },
    async (req) => coupons.update(req.params.id, req.body, actorOf(req)),
  );
  app.patch(
    '/api/admin/promotions/coupons/:id',
    {
      config: { permission: 'promotions.write' },
      schema: { ...ADMIN, summary: 'Switch a coupon off (or on again)', params: ZIdParam, body: ZCouponSwitch, response: { 200: ZAdminCoupon, ...errors } },
    },
    async (req) => coupons.setActive(req.params.id, req.body, actorOf(req)),
  );
};
