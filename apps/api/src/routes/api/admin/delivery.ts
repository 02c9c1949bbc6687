import { ZAdminDeliveryZone, ZApiError, ZDeliveryZoneInput } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../../plugins/admin-auth.ts';
import { adminZones, createZone, deleteZone, updateZone } from '../../../modules/delivery/delivery.service.ts';
import { ADMIN, ZIdParam } from './tags.ts';

/** Delivery zones and fees, for managers and owners (docs/decisions/0033). */
export const adminDeliveryRoutes: FastifyPluginAsyncZod = async (app) => {
  const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError, 409: ZApiError };
  app.get(
    '/api/admin/delivery/zones',
    {
      config: { permission: 'orders.read' },
      schema: { ...ADMIN, summary: 'Every delivery zone', response: { 200: z.object({ items: z.array(ZAdminDeliveryZone) }), 401: ZApiError, 403: ZApiError } },
    },
    async () => ({ items: await adminZones(app.db.kysely) }),
  );
  app.post(
    '/api/admin/delivery/zones',
    {
      config: { permission: 'content.write' },
      schema: {
        ...ADMIN,
        summary: 'Add a delivery zone',
        description: 'A district belongs to one zone, and one zone (no districts) is for every other district: a clash answers 409 `district_taken`.',
        body: ZDeliveryZoneInput,
        response: { 201: ZAdminDeliveryZone, ...errors },
      },
    },
    async (req, reply) => {
      const zone = await createZone(app.db.kysely, req.body, actorOf(req));
      await app.catalogueChanged();
      return reply.status(201).send(zone);
    },
  );
  app.put(
    '/api/admin/delivery/zones/:id',
    {
      config: { permission: 'content.write' },
      schema: {
        ...ADMIN,
        summary: 'Change a delivery zone',
        description:
          '`version` is the one read: a zone changed since answers 409 `stale_version`; a district another zone has, or a second zone for every other district, 409 `district_taken`. The next checkout charges the new fee.',
        params: ZIdParam,
        body: ZDeliveryZoneInput,
        response: { 200: ZAdminDeliveryZone, ...errors },
      },
    },
    async (req) => {
      const zone = await updateZone(app.db.kysely, req.params.id, req.body, actorOf(req));
      await app.catalogueChanged();
      return zone;
    },
  );
  app.delete(
    '/api/admin/delivery/zones/:id',
    {
      config: { permission: 'content.write' },
      schema: { ...ADMIN, summary: 'Remove a delivery zone (not the one for every other district)', params: ZIdParam, response: { 204: z.null(), ...errors } },
    },
    async (req, reply) => {
      await deleteZone(app.db.kysely, req.params.id, actorOf(req));
      await app.catalogueChanged();
      return reply.status(204).send(null);
    },
  );
};
