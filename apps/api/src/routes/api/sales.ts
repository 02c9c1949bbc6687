import { ZApiError, ZPage, ZSale, ZSearchRequest } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest } from '../../lib/errors.ts';
import { orderDeps } from '../../modules/orders/deps.ts';
import { orderLinkFor, viewerOf } from '../../modules/orders/access.ts';
import { invoicePdf, shopIdentity } from '../../modules/orders/invoice-document.ts';
import { logoForPdf } from '../../modules/admin-settings/logo.ts';
import { attachPaymentProof } from '../../modules/orders/attach-payment-proof.ts';
import { cancelOwnSale } from '../../modules/orders/cancel-order.ts';
import { accessibleSale, getSale, searchSales } from '../../modules/orders/view-orders.ts';
import * as repo from '../../modules/orders/repository.ts';
import { toSale } from '../../modules/orders/sale-view.ts';

export const ZSaleRef = z
  .object({
    // Ids are 32-bit in the database: a larger one is a 400, not a PostgreSQL range error.
    id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
    invoiceId: z
      .string()
      .min(6)
      .max(40)
      .regex(/^[A-Za-z0-9-]+$/, 'Not an invoice id')
      .optional(),
  })
  .refine((q) => q.id !== undefined || q.invoiceId !== undefined, { message: 'Give the id or the invoiceId of the order', path: ['id'] });

const errors = { 400: ZApiError, 401: ZApiError, 404: ZApiError, 409: ZApiError };

export const salesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/sales',
    {
      schema: {
        tags: ['sales'],
        summary: 'Orders and bookings of the caller (spec §7)',
        description:
          "The signed-in customer's sales, or for a guest the orders this browser placed (its order-access cookie). Filter fields: kind (`order` or `booking`: bookings only), status, paymentStatus, paymentMethod, invoiceId. Sort fields: createdAt (default, newest first), total, updatedAt.",
        body: ZSearchRequest,
        response: { 200: ZPage(ZSale), ...errors },
      },
    },
    async (req) => searchSales(orderDeps(app, req.log), viewerOf(req), req.body),
  );

  app.get(
    '/api/sales',
    {
      schema: {
        tags: ['sales'],
        summary: 'One order or booking with its lines, history, payments and attachments (spec §7)',
        description: 'By `id` or `invoiceId`. Only its owner (the customer, or the guest holding its order-access token) sees it; anyone else gets 404.',
        querystring: ZSaleRef,
        response: { 200: ZSale, ...errors },
      },
    },
    async (req) => getSale(orderDeps(app, req.log), viewerOf(req), req.query),
  );

  app.get(
    '/api/sales/invoice',
    {
      schema: {
        tags: ['sales'],
        summary: 'The invoice of one order or booking as a PDF (A4)',
        description: 'As GET /api/sales: only its owner gets it; anyone else gets 404.',
        querystring: ZSaleRef,
      },
    },
    async (req, reply) => {
      const deps = orderDeps(app, req.log);
      const row = await accessibleSale(deps, viewerOf(req), req.query);
      const sale = toSale(row, await repo.linesOf(app.db.kysely, [row.id]));
      const shop = await shopIdentity(app.db.kysely);
      const logo = await logoForPdf(app.db.kysely, app.files.deps.storage, shop.logo);
      const pdf = await invoicePdf(sale, shop, app.config.publicUrl, orderLinkFor(app.orderLinkSecret, row), logo);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="invoice-${row.invoice_id}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );

  app.patch(
    '/api/sales',
    {
      schema: {
        tags: ['sales'],
        summary: 'Cancel a booking (spec §7)',
        description:
          'The owner cancels a booking, a cash-on-delivery order or an unpaid card order before it is fulfilled: its stock and coupon are released. A paid order is refused with 409 (the shop refunds it). Repeating it changes nothing.',
        querystring: z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }),
        body: z.object({ status: z.literal('CANCELLED').or(z.literal('cancelled')).optional(), reason: z.string().max(300).optional() }).optional(),
        response: { 200: ZSale, ...errors },
      },
    },
    async (req) => cancelOwnSale(orderDeps(app, req.log), viewerOf(req), req.query.id, req.body?.reason),
  );

  app.patch(
    '/api/sales/payments/attachments',
    {
      schema: {
        tags: ['sales'],
        summary: 'Attach a payment proof to a booking (spec §7)',
        description:
          'The file is uploaded first through POST /api/files by the same customer; this links it to the booking as its payment proof (a bank deposit slip).',
        body: z.object({
          id: z.number().int().positive().max(2_147_483_647).optional(),
          invoiceId: z.string().min(6).max(40).optional(),
          fileUuid: z.string().max(64).optional(),
          uuid: z.string().max(64).optional(),
          note: z.string().max(300).optional(),
        }),
        response: { 200: ZSale, ...errors },
      },
    },
    async (req) => {
      const uuid = req.body.fileUuid ?? req.body.uuid;
      if (!uuid) throw badRequest('Give the uuid of the uploaded file', { fileUuid: 'Give the uuid of the uploaded file' });
      if (req.body.id === undefined && !req.body.invoiceId)
        throw badRequest('Give the id or the invoiceId of the booking', { id: 'Give the id or the invoiceId of the booking' });
      return attachPaymentProof(orderDeps(app, req.log), viewerOf(req), { id: req.body.id, invoiceId: req.body.invoiceId }, uuid, req.body.note);
    },
  );
};
