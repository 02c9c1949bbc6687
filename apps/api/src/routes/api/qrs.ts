import { ZApiError } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { orderDeps } from '../../modules/orders/deps.ts';
import { orderLinkFor, viewerOf } from '../../modules/orders/access.ts';
import { invoiceQr } from '../../modules/orders/invoice-qr.ts';
import { accessibleSale } from '../../modules/orders/view-orders.ts';

export const qrRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/qrs',
    {
      schema: {
        tags: ['sales'],
        summary: 'A QR code for an invoice (spec §7)',
        description:
          "Encodes the address of the order page for the invoice, to show at a showroom for payment or pickup. SVG by default, PNG with format=png. Only the order's owner gets it; anyone else 404.",
        querystring: z.object({
          invoiceId: z
            .string()
            .min(6)
            .max(40)
            .regex(/^[A-Za-z0-9-]+$/, 'Not an invoice id'),
          format: z.enum(['svg', 'png']).default('svg'),
          size: z.coerce.number().int().min(64).max(1024).default(256),
        }),
        response: { 400: ZApiError, 401: ZApiError, 404: ZApiError },
      },
    },
    async (req, reply) => {
      const sale = await accessibleSale(orderDeps(app, req.log), viewerOf(req), { invoiceId: req.query.invoiceId });
      reply.header('cache-control', 'private, max-age=3600');
      const qr = await invoiceQr(app.config.publicUrl, sale.invoice_id, req.query.size, req.query.format, orderLinkFor(app.orderLinkSecret, sale));
      return reply.type(req.query.format === 'png' ? 'image/png' : 'image/svg+xml').send(qr as never);
    },
  );
};
