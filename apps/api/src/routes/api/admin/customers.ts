import { ZAdminCustomer, ZAdminCustomerQuery, ZAdminCustomerRow, ZAdminPage, ZApiError, ZBlockCustomer } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listCustomers, mailPasswordReset, readCustomer, setCustomerBlocked } from '../../../modules/admin-customers/customers.service.ts';
import { actorOf } from '../../../plugins/admin-auth.ts';
import { ADMIN, ZIdParam } from './tags.ts';

// The back office's customers (docs/decisions/0032): whoever may read orders may find and
// read a customer; blocking and reset mails are for those who manage customers.

const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };

export const adminCustomersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/customers',
    {
      config: { permission: 'orders.read' },
      schema: {
        ...ADMIN,
        summary: 'Customer accounts, searched and paged',
        description: '`q` finds a part of the name or email, or the mobile in any usual form (017…, +88017…). `blocked=true` lists only blocked accounts.',
        querystring: ZAdminCustomerQuery,
        response: { 200: ZAdminPage(ZAdminCustomerRow), 400: ZApiError, 401: ZApiError, 403: ZApiError },
      },
    },
    async (req) => listCustomers(app.db.kysely, req.query),
  );

  app.get(
    '/api/admin/customers/:id',
    {
      config: { permission: 'orders.read' },
      schema: {
        ...ADMIN,
        summary: 'One customer: profile, orders and bookings, addresses, newsletter, sessions and block',
        description: 'Every read is written to the audit log (personal data). The newest 50 orders are listed; `orderCount` counts them all.',
        params: ZIdParam,
        response: { 200: ZAdminCustomer, ...errors },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return readCustomer(app.db.kysely, req.params.id, actorOf(req), { sessionIdleMs: app.config.accounts.sessionIdleMs });
    },
  );

  app.patch(
    '/api/admin/customers/:id',
    {
      config: { permission: 'customers.manage' },
      schema: {
        ...ADMIN,
        summary: 'Block or unblock a customer’s sign-in',
        description:
          'Blocking ends every session of the customer at once; signing in with the right password then answers 403 `account_blocked`. Their orders stay. Unblocking clears the block and its reason.',
        params: ZIdParam,
        body: ZBlockCustomer,
        response: {
          200: z.object({
            id: z.number(),
            blocked: z.boolean(),
            blockedAt: z.string().nullable(),
            blockedReason: z.string().nullable(),
            revokedSessions: z.number(),
          }),
          ...errors,
        },
      },
    },
    async (req) => setCustomerBlocked(app.db.kysely, req.params.id, req.body, actorOf(req)),
  );

  app.post(
    '/api/admin/customers/:id/password-reset',
    {
      config: { permission: 'customers.manage' },
      schema: {
        ...ADMIN,
        summary: 'Mail the customer a password-reset link',
        description:
          'The shop’s own reset mail: the link works once, for one hour, and does not lift a block. At most 3 a customer an hour, counted with their own requests (429).',
        params: ZIdParam,
        response: { 202: z.object({ message: z.string() }), ...errors, 429: ZApiError },
      },
    },
    async (req, reply) => {
      await mailPasswordReset(app.db.kysely, app.accounts, req.params.id, actorOf(req));
      return reply.status(202).send({ message: 'A password-reset link is on its way to the customer.' });
    },
  );
};
