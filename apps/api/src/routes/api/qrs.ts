import { ZApiError } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import QRCode from 'qrcode';
import { z } from 'zod';
import { orderDeps } from '../../modules/orders/deps.ts';
import { viewerOf } from '../../modules/orders/access.ts';
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
      const text = `${app.config.publicUrl}/orders?invoiceId=${encodeURIComponent(sale.invoice_id)}`;
      const opts = { errorCorrectionLevel: 'M' as const, margin: 2, width: req.query.size, color: { dark: '#1d2327', light: '#ffffff' } };
      reply.header('cache-control', 'private, max-age=3600');
      if (req.query.format === 'png') return reply.type('image/png').send((await QRCode.toBuffer(text, { ...opts, type: 'png' })) as never);
      return reply.type('image/svg+xml').send((await QRCode.toString(text, { ...opts, type: 'svg' })) as never);
    },
  );
};
