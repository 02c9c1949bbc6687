import { ZDeliveryZone } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deliveryZones } from '../../modules/delivery/delivery.service.ts';

/** The delivery zones the checkout page charges by (docs/decisions/0033). */
export const deliveryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/delivery/zones',
    {
      schema: {
        tags: ['delivery'],
        summary: 'Home-delivery zones: their districts, fee, free-delivery threshold and days',
        description: 'A district is in the first zone that names it, else in the zone with no districts. Items worth at least `freeFrom` are delivered free.',
        response: { 200: z.object({ list: z.array(ZDeliveryZone) }) },
      },
    },
    async () => ({ list: await deliveryZones(app.db.kysely) }),
  );
};
