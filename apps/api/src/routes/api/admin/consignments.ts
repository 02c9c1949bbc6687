import { ZApiError, ZBookConsignmentBody, ZBulkBookConsignmentBody, ZBulkBookResult, ZConsignment, ZCourierPlaceList } from '@storefront/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, signedInStaff } from '../../../plugins/admin-auth.ts';
import type { StaffActor } from '../../../modules/admin-orders/staff-history.ts';
import { bookConsignment, bookConsignments, orderConsignment } from '../../../modules/couriers/book-consignment.ts';
import { courierDeps } from '../../../modules/couriers/deps.ts';
import { pathaoPlaces } from '../../../modules/couriers/pathao-places.ts';
import { ADMIN, ZIdParam } from './tags.ts';

// Parcels handed to a courier from the back office (docs/decisions/0040): one order, a
// selection, and an order's consignment with its history and the label's data; Pathao's
// cities, zones and areas for the booking form.

const staffOf = (req: FastifyRequest): StaffActor => ({ ...actorOf(req), name: signedInStaff(req).full_name });

const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError, 409: ZApiError, 422: ZApiError, 502: ZApiError };
const placeErrors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 409: ZApiError, 502: ZApiError };
const placeId = z.coerce.number().int().positive().max(2_147_483_647);

export const adminConsignmentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/admin/orders/:id/consignment',
    {
      config: { permission: 'orders.write' },
      schema: {
        ...ADMIN,
        summary: 'Book the order with a courier',
        description:
          'Allowed where the ship step is (a packed order for home delivery), else 409 `transition_not_allowed`; a live consignment already is 409 `already_booked`; a courier not set up is 409 `courier_not_configured`. The rider collects what the order still has to receive (poisha). Pathao needs `destination` (its city, zone and optional area ids) and prices by `weightGrams` (0.5–10 kg; default a kilogram an item); Steadfast ignores both. The courier’s refusal is 422 `courier_refused` naming our fields (`destination`, `weightGrams`, `recipientPhone`…); a courier that cannot be reached is 502 `courier_unavailable`.',
        params: ZIdParam,
        body: ZBookConsignmentBody,
        response: { 201: ZConsignment, ...errors },
      },
    },
    async (req, reply) => {
      const { courier, note, destination, weightGrams, itemCount } = req.body;
      const c = await bookConsignment(courierDeps(app, req.log), req.params.id, courier, staffOf(req), note, { destination, weightGrams, itemCount });
      return reply.status(201).send(c);
    },
  );

  app.post(
    '/api/admin/consignments/bulk',
    {
      config: { permission: 'orders.write' },
      schema: {
        ...ADMIN,
        summary: 'Book a selection of orders with a courier, each with its own outcome',
        description:
          'Steadfast: one request for the orders that may be booked. Pathao: one request per order, a few at a time (its bulk endpoint answers without consignment ids), each with its `parcels` entry (destination, weight). Each order answers its consignment or its error in the one error shape.',
        body: ZBulkBookConsignmentBody,
        response: { 200: ZBulkBookResult, ...errors },
      },
    },
    async (req) => {
      const parcels = new Map((req.body.parcels ?? []).map(({ orderId, ...p }) => [orderId, p]));
      const outcomes = await bookConsignments(courierDeps(app, req.log), req.body.orderIds, req.body.courier, staffOf(req), parcels);
      return {
        results: outcomes.map((o) =>
          o.ok
            ? { orderId: o.orderId, ok: true, consignment: o.consignment }
            : {
                orderId: o.orderId,
                ok: false,
                error: { code: String(o.error.code), message: o.error.message, ...(o.error.fields ? { fields: o.error.fields } : {}) },
              },
        ),
      };
    },
  );

  app.get(
    '/api/admin/orders/:id/consignment',
    {
      config: { permission: 'orders.read' },
      schema: {
        ...ADMIN,
        summary: 'The order’s consignment with its status history and the label’s data',
        params: ZIdParam,
        response: { 200: ZConsignment, ...errors },
      },
    },
    async (req) => orderConsignment(courierDeps(app, req.log), req.params.id),
  );

  // Pathao's places, asked of Pathao and kept in memory for ten minutes (pathao-places.ts).
  const places = pathaoPlaces(app.couriers);
  const placeSchema = (summary: string) => ({
    ...ADMIN,
    summary,
    description: 'Only when Pathao is set up (else 409 `courier_not_configured`); Pathao unreachable is 502 `courier_unavailable`.',
    response: { 200: ZCourierPlaceList, ...placeErrors },
  });

  app.get('/api/admin/couriers/pathao/cities', { config: { permission: 'orders.read' }, schema: placeSchema('Pathao’s cities') }, async () =>
    places.list({ kind: 'cities' }),
  );

  app.get(
    '/api/admin/couriers/pathao/cities/:cityId/zones',
    {
      config: { permission: 'orders.read' },
      schema: { ...placeSchema('The zones of a Pathao city'), params: z.object({ cityId: placeId }) },
    },
    async (req) => places.list({ kind: 'zones', cityId: req.params.cityId }),
  );

  app.get(
    '/api/admin/couriers/pathao/zones/:zoneId/areas',
    {
      config: { permission: 'orders.read' },
      schema: { ...placeSchema('The areas of a Pathao zone'), params: z.object({ zoneId: placeId }) },
    },
    async (req) => places.list({ kind: 'areas', zoneId: req.params.zoneId }),
  );
};
