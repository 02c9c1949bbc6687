import { decodeCartItems, ZApiError, ZCouponApplied, ZCouponCode, ZCouponSummary, ZPage, ZSearchRequest } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest } from '../../../lib/errors.ts';
import { applyCoupon, searchCoupons } from '../../../modules/pricing/coupon.service.ts';

export const couponRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/discount/coupons/search',
    {
      schema: {
        tags: ['pricing'],
        summary: 'Coupons the shop advertises (spec §7)',
        description:
          'Only public coupons are listed; a private coupon works for those given its code but is never listed. ' +
          '`valid` is true while a coupon is switched on, inside its window and has uses left. Amounts are BDT poisha. ' +
          'Filter fields: code, discountType, valid. Sort fields: code, startsAt, endsAt, value, minimumOrder.',
        body: ZSearchRequest,
        response: { 200: ZPage(ZCouponSummary), 400: ZApiError, 401: ZApiError },
      },
    },
    async (req) => searchCoupons(app.db.kysely, req.body),
  );

  app.get(
    '/api/discount/coupons/apply',
    {
      schema: {
        tags: ['pricing'],
        summary: 'What a coupon takes off a cart (spec §7), priced by the server from its own data',
        description:
          'The cart travels in `items` as `SKU:QTY` pairs joined by commas, for example `items=AFL-1021-WAL-1:2,BND-100:1` ' +
          '(quantities 1–99, at most 50 skus; a repeated sku adds up). Only sku codes and quantities are read: the server ' +
          'prices every line, applies the global discounts, then the coupon. Skus that no longer exist are left out. ' +
          'A coupon that does not apply answers with the reason: 404 coupon_unknown; 422 coupon_expired, coupon_not_started, ' +
          'coupon_below_minimum (fields.minimumOrder holds the minimum in poisha), coupon_empty_cart; 409 coupon_used_up, ' +
          'coupon_used_up_by_customer; 401 coupon_sign_in_required (a coupon limited per customer). ' +
          'A private code that nobody can use now answers as an unknown one. After 20 codes answered as unknown in 10 ' +
          'minutes from one address, through this call, the cart quote or checkout together, every code is refused with 429 ' +
          'until the window ends (private codes cannot be guessed).',
        querystring: z.object({
          code: ZCouponCode.describe('The coupon code, in any case'),
          items: z.string().min(1).max(4000).describe('SKU:QTY pairs joined by commas'),
        }),
        response: { 200: ZCouponApplied, 400: ZApiError, 401: ZApiError, 404: ZApiError, 409: ZApiError, 422: ZApiError, 429: ZApiError },
      },
    },
    async (req, reply) => {
      const lines = decodeCartItems(req.query.items);
      if (!lines) throw badRequest('items must be SKU:QTY pairs joined by commas (quantities 1–99, at most 50 skus)', { items: 'not SKU:QTY,SKU:QTY' });
      reply.header('cache-control', 'no-store');
      return applyCoupon(app.db.kysely, { code: req.query.code, lines, customerId: req.customerId, address: req.clientAddress });
    },
  );
};
