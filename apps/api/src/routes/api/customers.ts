import { ZApiError, ZCustomer, ZProfileImageRequest, ZUpdateCustomerRequest } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { findFileForOwner, toUploadedFile } from '../../modules/files/files.service.ts';
import { requireCustomer } from '../../plugins/auth.ts';
import { requestLocale } from '../../modules/mail/locale.ts';

export const customerRoutes: FastifyPluginAsyncZod = async (app) => {
  // A customer's own data is never cached by the browser or a proxy.
  app.addHook('onSend', async (_req, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.get(
    '/api/customers',
    {
      schema: {
        tags: ['customer'],
        summary: 'The signed-in customer, with subscriptionStatus (spec §7)',
        response: { 200: ZCustomer, 401: ZApiError, 404: ZApiError },
      },
    },
    async (req) => app.accounts.getCustomer(requireCustomer(req)),
  );

  app.put(
    '/api/customers',
    {
      schema: {
        tags: ['customer'],
        summary: 'Change the name and mobile number (spec §7)',
        description: '400 with the messages of spec §5 by field; 409 `duplicate_mobile` when another account has the number.',
        body: ZUpdateCustomerRequest,
        response: { 200: ZCustomer, 400: ZApiError, 401: ZApiError, 404: ZApiError, 409: ZApiError },
      },
    },
    async (req) => app.accounts.updateCustomer(requireCustomer(req), req.body, requestLocale(req)),
  );

  app.patch(
    '/api/customers/images',
    {
      schema: {
        tags: ['customer'],
        summary: 'Set the profile image to an image this customer uploaded (spec §7)',
        description: 'Upload with POST /api/files first. A file that is not this customer’s answers 404; one that is not an image 400.',
        body: ZProfileImageRequest,
        response: { 200: ZCustomer, 400: ZApiError, 401: ZApiError, 404: ZApiError },
      },
    },
    async (req) => {
      const id = requireCustomer(req);
      const row = await findFileForOwner(app.db.kysely, req.body.uuid, id);
      return app.accounts.setProfileImage(id, row && toUploadedFile(row, app.config.imageHost));
    },
  );
};
