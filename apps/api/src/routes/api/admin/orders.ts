import {
  ZAdminOrder,
  ZAdminOrderQuery,
  ZAdminOrderRow,
  ZAdminPage,
  ZAdminRefund,
  ZApiError,
  ZCollectCashBody,
  ZOrderActionBody,
  ZOrderNoteBody,
  ZProofReviewBody,
  ZRefundBody,
} from '@storefront/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, signedInStaff } from '../../../plugins/admin-auth.ts';
import { addOrderNote, applyOrderAction, collectCash, reviewProof } from '../../../modules/admin-orders/fulfilment.service.ts';
import { Readable } from 'node:stream';
import { adminOrder, exportOrders, listOrders } from '../../../modules/admin-orders/orders.query.ts';
import { csvLine, toCsv } from '../../../lib/csv.ts';
import { createRefund, refreshRefund } from '../../../modules/admin-orders/refunds.service.ts';
import type { StaffActor } from '../../../modules/admin-orders/staff-history.ts';
import { orderDeps } from '../../../modules/orders/deps.ts';
import { orderLinkFor } from '../../../modules/orders/access.ts';
import { shopIdentity } from '../../../modules/orders/invoice-document.ts';
import { invoiceQr } from '../../../modules/orders/invoice-qr.ts';
import * as repo from '../../../modules/orders/repository.ts';
import { fileUrl } from '../../../modules/orders/view-orders.ts';
import { ADMIN, ZIdParam } from './tags.ts';

// The back office's orders and bookings (docs/decisions/0032): the list, one order, and what
// staff do to it. Each write answers the order as it now is.

const staffOf = (req: FastifyRequest): StaffActor => ({ ...actorOf(req), name: signedInStaff(req).full_name });

const CSV_HEADER = [
  'invoice_id',
  'kind',
  'placed_at',
  'status',
  'payment_status',
  'payment_method',
  'delivery',
  'customer',
  'mobile',
  'email',
  'branch',
  'total',
  'paid',
  'refunded',
];

const taka = (poisha: number) => (poisha / 100).toFixed(2);

function csvRow(r: import('@storefront/shared').TAdminOrderRow): string[] {
  return [
    r.invoiceId,
    r.kind,
    r.createdAt,
    r.status,
    r.paymentStatus,
    r.paymentMethod,
    r.deliveryMethod,
    r.contactName,
    r.contactMobile,
    r.contactEmail,
    r.branchName ?? '',
    taka(r.total),
    taka(r.amountPaid),
    taka(r.refundedTotal),
  ];
}

const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError, 409: ZApiError };

export const adminOrdersRoutes: FastifyPluginAsyncZod = async (app) => {
  const view = (id: number) => adminOrder(app.db.kysely, id, fileUrl(app.config.imageHost), true);

  app.get(
    '/api/admin/orders',
    {
      config: { permission: 'orders.read' },
      schema: {
        ...ADMIN,
        summary: 'Orders and bookings, filtered and paged',
        description: '`q` finds an invoice id, or a part of the customer’s name or email, or their mobile. Dates are Dhaka days; amounts are poisha.',
        querystring: ZAdminOrderQuery,
        response: { 200: ZAdminPage(ZAdminOrderRow), 400: ZApiError, 401: ZApiError, 403: ZApiError },
      },
    },
    async (req) => listOrders(app.db.kysely, req.query),
  );

  app.get(
    '/api/admin/orders/export',
    {
      config: { permission: 'orders.read' },
      // No response schema: the answer is a CSV file (errors keep the one shape).
      schema: { ...ADMIN, summary: 'The filtered list as CSV', querystring: ZAdminOrderQuery.omit({ page: true, size: true, sort: true }) },
    },
    async (req, reply) => {
      const db = app.db.kysely;
      async function* csv() {
        yield toCsv([CSV_HEADER]);
        for await (const rows of exportOrders(db, req.query)) {
          // Cells a spreadsheet would run as formulas (a shopper typed the name) are written as text.
          yield rows.map((r) => csvLine(csvRow(r))).join('');
        }
      }
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="orders-${new Date().toISOString().slice(0, 10)}.csv"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(csv()));
    },
  );

  app.get(
    '/api/admin/orders/:id',
    {
      config: { permission: 'orders.read' },
      schema: {
        ...ADMIN,
        summary: 'One order with its lines, payments, proofs, history, notes and refunds',
        params: ZIdParam,
        response: { 200: ZAdminOrder, ...errors },
      },
    },
    async (req) => view(req.params.id),
  );

  app.get(
    '/api/admin/orders/:id/document',
    {
      config: { permission: 'orders.read' },
      schema: {
        ...ADMIN,
        summary: 'What the printed invoice and delivery slip show: the order, the shop’s identity and the QR code (SVG)',
        params: ZIdParam,
        response: {
          200: z.object({
            order: ZAdminOrder,
            shop: z.object({
              name: z.string(),
              address: z.string(),
              hotline: z.string(),
              email: z.string(),
              bin: z.string(),
              tradeLicence: z.string(),
              tin: z.string(),
              logo: z.string(),
              colour: z.string(),
            }),
            qrSvg: z.string(),
          }),
          ...errors,
        },
      },
    },
    async (req) => {
      const order = await view(req.params.id);
      const row = (await repo.saleById(app.db.kysely, req.params.id))!;
      const qrSvg = (await invoiceQr(app.config.publicUrl, row.invoice_id, 160, 'svg', orderLinkFor(app.orderLinkSecret, row))) as string;
      return { order, shop: await shopIdentity(app.db.kysely), qrSvg };
    },
  );

  app.post(
    '/api/admin/orders/:id/actions',
    {
      config: { permission: 'orders.write' },
      schema: {
        ...ADMIN,
        summary: 'Take a fulfilment step: confirm, pack, ship, deliver, return, cancel, or convert a booking',
        description:
          'A step not allowed from the order’s status is a 409 `transition_not_allowed` saying why. `lines` names the units that came back (return) or were refused at the door (deliver). The shopper is mailed.',
        params: ZIdParam,
        body: ZOrderActionBody,
        response: { 200: ZAdminOrder, ...errors },
      },
    },
    async (req) => {
      await applyOrderAction(orderDeps(app, req.log), req.params.id, req.body, staffOf(req));
      return view(req.params.id);
    },
  );

  app.post(
    '/api/admin/orders/:id/cash',
    {
      config: { permission: 'orders.write' },
      schema: {
        ...ADMIN,
        summary: 'Record the cash collected on delivery',
        params: ZIdParam,
        body: ZCollectCashBody,
        response: { 200: ZAdminOrder, ...errors },
      },
    },
    async (req) => {
      await collectCash(orderDeps(app, req.log), req.params.id, req.body, staffOf(req));
      return view(req.params.id);
    },
  );

  app.post(
    '/api/admin/orders/:id/proofs/:proofId',
    {
      config: { permission: 'orders.write' },
      schema: {
        ...ADMIN,
        summary: 'Accept or reject a booking’s payment proof',
        description: 'Accepting records the amount the proof shows (default: what is still owed). Rejecting needs a reason, which the shopper reads.',
        params: ZIdParam.extend({ proofId: z.coerce.number().int().positive().max(2_147_483_647) }),
        body: ZProofReviewBody,
        response: { 200: ZAdminOrder, ...errors },
      },
    },
    async (req) => {
      await reviewProof(orderDeps(app, req.log), req.params.id, req.params.proofId, req.body, staffOf(req));
      return view(req.params.id);
    },
  );

  app.post(
    '/api/admin/orders/:id/notes',
    {
      config: { permission: 'orders.write' },
      schema: { ...ADMIN, summary: 'Add a note for staff', params: ZIdParam, body: ZOrderNoteBody, response: { 200: ZAdminOrder, ...errors } },
    },
    async (req) => {
      await addOrderNote(orderDeps(app, req.log), req.params.id, req.body.body, staffOf(req));
      return view(req.params.id);
    },
  );

  app.post(
    '/api/admin/orders/:id/refunds',
    {
      config: { permission: 'refunds.write' },
      schema: {
        ...ADMIN,
        summary: 'Refund part or all of what was paid',
        description:
          'By `amount` or by `lines`. Never more than was paid and not yet refunded (409 `refund_too_large`). The same `idempotencyKey` with the same request again answers the first refund (200) and refunds nothing more; the key with another request is 409 `idempotency_key_reused`. `gateway` refunds a card payment through the payment gateway; `bank`, `cash` and `wallet` record a refund made by hand with its `reference`.',
        params: ZIdParam,
        body: ZRefundBody,
        response: {
          201: z.object({ refund: ZAdminRefund, order: ZAdminOrder }),
          200: z.object({ refund: ZAdminRefund, order: ZAdminOrder }),
          ...errors,
          503: ZApiError,
        },
      },
    },
    async (req, reply) => {
      const { refund, replayed } = await createRefund(orderDeps(app, req.log), req.params.id, req.body, staffOf(req));
      return reply.status(replayed ? 200 : 201).send({ refund, order: await view(req.params.id) });
    },
  );

  app.post(
    '/api/admin/orders/:id/refunds/:refundId/refresh',
    {
      config: { permission: 'refunds.write' },
      schema: {
        ...ADMIN,
        summary: 'Ask the payment gateway about a refund it is processing',
        params: ZIdParam.extend({ refundId: z.coerce.number().int().positive().max(2_147_483_647) }),
        response: { 200: z.object({ refund: ZAdminRefund, order: ZAdminOrder }), ...errors, 503: ZApiError },
      },
    },
    async (req) => {
      const refund = await refreshRefund(orderDeps(app, req.log), req.params.id, req.params.refundId, staffOf(req));
      return { refund, order: await view(req.params.id) };
    },
  );
};
