import { ZApiError, ZBookConsignmentBody, ZBulkBookConsignmentBody, ZBulkBookResult, ZConsignment } from '@storefront/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf, signedInStaff } from '../../../plugins/admin-auth.ts';
import type { StaffActor } from '../../../modules/admin-orders/staff-history.ts';
import { bookConsignment, bookConsignments, orderConsignment } from '../../../modules/couriers/book-consignment.ts';
import { courierDeps } from '../../../modules/couriers/deps.ts';
import { ADMIN, ZIdParam } from './tags.ts';

// Parcels handed to a courier from the back office (docs/decisions/0040): one order, a
// selection, and an order's consignment with its history and the label's data.

const staffOf = (req: FastifyRequest): StaffActor => ({ ...actorOf(req), name: signedInStaff(req).full_name });

const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError, 409: ZApiError, 422: ZApiError, 502: ZApiError };

export const adminConsignmentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/admin/orders/:id/consignment',
    {
      config: { permission: 'orders.write' },
      schema: {
        ...ADMIN,
        summary: 'Book the order with a courier',
        description:
          'Allowed where the ship step is (a packed order for home delivery), else 409 `transition_not_allowed`; a live consignment already is 409 `already_booked`; a courier not set up is 409 `courier_not_configured`. The rider collects what the order still has to receive (poisha). The courier’s refusal is 422 `courier_refused` naming the fields; a courier that cannot be reached is 502 `courier_unavailable`.',
        params: ZIdParam,
        body: ZBookConsignmentBody,
        response: { 201: ZConsignment, ...errors },
      },
    },
    async (req, reply) => {
      const c = await bookConsignment(courierDeps(app, req.log), req.params.id, req.body.courier, staffOf(req), req.body.note);
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
        description: 'One request to the courier for the orders that may be booked; each order answers its consignment or its error in the one error shape.',
        body: ZBulkBookConsignmentBody,
        response: { 200: ZBulkBookResult, ...errors },
      },
    },
    async (req) => {
      const outcomes = await bookConsignments(courierDeps(app, req.log), req.body.orderIds, req.body.courier, staffOf(req));
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
};
