import { deliveryCharge, ZApiError, ZDeliveryZone } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deliveryZones } from '../../modules/delivery/delivery.service.ts';
import { badRequest } from '../../lib/errors.ts';

/** The delivery zones the checkout page charges by (docs/decisions/0033), and the courier's quote where the shop prices by it (0045). */
export const deliveryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/delivery/zones',
    {
      schema: {
        tags: ['delivery'],
        summary: 'Home-delivery zones: their districts, fee, free-delivery threshold and days',
        description:
          'A district is in the first zone that names it, else in the zone with no districts. Items worth at least `freeFrom` are delivered free. `pricedBy` is `courier` when home delivery below the threshold costs what the courier quotes for the address (GET /api/delivery/fee), else `zones`.',
        response: { 200: z.object({ list: z.array(ZDeliveryZone), pricedBy: z.enum(['zones', 'courier']) }) },
      },
    },
    async () => ({ list: await deliveryZones(app.db.kysely), pricedBy: app.courierFee ? ('courier' as const) : ('zones' as const) }),
  );

  app.get(
    '/api/delivery/fee',
    {
      schema: {
        tags: ['delivery'],
        summary: 'What home delivery to this address costs, as checkout will charge it',
        description:
          'The zone of the district decides whether delivery is free (its threshold); below it, the courier’s quote for the district and area when the shop prices by the courier and the courier quotes one, else the zone’s fee. A district no zone covers is 400.',
        querystring: z.object({
          district: z.string().trim().min(1).max(80),
          area: z.string().trim().max(120).default(''),
          units: z.coerce.number().int().min(1).max(999),
          itemsTotal: z.coerce.number().int().min(0).max(1_000_000_000_00),
        }),
        response: { 200: z.object({ fee: z.number().int(), source: z.enum(['zone', 'courier', 'free']) }), 400: ZApiError },
      },
    },
    async (req) => {
      const { district, area, units, itemsTotal } = req.query;
      const charge = deliveryCharge(await deliveryZones(app.db.kysely), 'home_delivery', district, itemsTotal);
      if (!charge) throw badRequest('We do not deliver to this district yet; please collect from a showroom', { district: 'We do not deliver here yet' });
      if (charge.fee === 0) return { fee: 0, source: 'free' as const };
      const quoted = app.courierFee ? await app.courierFee({ district, area, units }) : null;
      return quoted === null ? { fee: charge.fee, source: 'zone' as const } : { fee: quoted, source: 'courier' as const };
    },
  );
};
