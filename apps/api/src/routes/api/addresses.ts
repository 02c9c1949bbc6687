import { ZAddress, ZAddressInput, ZApiError, ZPage, ZSearchRequest } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createAddress, deleteAddress, getAddress, searchAddresses, updateAddress } from '../../modules/addresses/addresses.service.ts';
import { requireCustomer } from '../../plugins/auth.ts';

const ZId = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const addressRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onSend', async (_req, reply) => {
    reply.header('cache-control', 'no-store');
  });
  const db = app.db.kysely;

  app.post(
    '/api/addresses',
    {
      schema: {
        tags: ['customer'],
        summary: 'Save a delivery address (spec §7)',
        description:
          'Division and district are Bangladesh’s (packages/shared bd-locations); area and addressLine are free text; ' +
          'phone is a mobile number. The first address becomes the default. Saving an address that is already ' +
          'saved answers 200 with the saved one instead of a copy (201 for a new one). At most 20 addresses (409).',
        body: ZAddressInput,
        response: { 200: ZAddress, 201: ZAddress, 400: ZApiError, 401: ZApiError, 409: ZApiError },
      },
    },
    async (req, reply) => {
      const { address, created } = await createAddress(app.db, requireCustomer(req), req.body);
      return reply.status(created ? 201 : 200).send(address);
    },
  );

  app.post(
    '/api/addresses/search',
    {
      schema: {
        tags: ['customer'],
        summary: 'The customer’s saved addresses (spec §7, paged search of §3)',
        description:
          'Filter fields: division, district, label. Sort fields: dateCreated, dateUpdated, isDefault, fullName. Default: the default address first, then the most recently used.',
        body: ZSearchRequest,
        response: { 200: ZPage(ZAddress), 400: ZApiError, 401: ZApiError },
      },
    },
    async (req) => searchAddresses(db, requireCustomer(req), req.body),
  );

  app.get(
    '/api/addresses/:id',
    {
      schema: {
        tags: ['customer'],
        summary: 'One saved address (another customer’s answers 404)',
        params: ZId,
        response: { 200: ZAddress, 401: ZApiError, 404: ZApiError },
      },
    },
    async (req) => getAddress(db, requireCustomer(req), req.params.id),
  );

  app.put(
    '/api/addresses/:id',
    {
      schema: {
        tags: ['customer'],
        summary: 'Change a saved address; isDefault true makes it the default',
        description: 'Changing it into another address the customer has saved answers 409 `duplicate_address`: an address is saved once.',
        params: ZId,
        body: ZAddressInput,
        response: { 200: ZAddress, 400: ZApiError, 401: ZApiError, 404: ZApiError, 409: ZApiError },
      },
    },
    async (req) => updateAddress(app.db, requireCustomer(req), req.params.id, req.body),
  );

  app.delete(
    '/api/addresses/:id',
    { schema: { tags: ['customer'], summary: 'Delete a saved address', params: ZId, response: { 204: z.null(), 401: ZApiError, 404: ZApiError } } },
    async (req, reply) => {
      await deleteAddress(app.db, requireCustomer(req), req.params.id);
      return reply.status(204).send(null);
    },
  );
};
