import { COURIER_NAMES, ZApiError, ZCourierList } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ADMIN } from './tags.ts';

// Which couriers the order screen may offer (docs/decisions/0040): the ones this shop has
// credentials for. Booking with any other is refused anyway (409 `courier_not_configured`);
// this only keeps staff from being offered a button that cannot work.

export const adminCourierRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/couriers',
    {
      config: { permission: 'orders.read' },
      schema: {
        ...ADMIN,
        summary: 'The couriers parcels can be booked with',
        response: { 200: ZCourierList, 401: ZApiError, 403: ZApiError },
      },
    },
    async () => ({
      items: Object.entries(app.couriers as unknown as Record<string, unknown>)
        .filter(([id, client]) => client && id in COURIER_NAMES)
        .map(([id]) => ({ id: id as keyof typeof COURIER_NAMES, name: COURIER_NAMES[id as keyof typeof COURIER_NAMES] })),
    }),
  );
};
