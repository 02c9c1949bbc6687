import {
  ORDER_ACCESS_COOKIE,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  SALE_STATUSES,
  ZApiError,
  ZCheckoutRequest,
  ZCheckoutResponse,
  ZPaymentSessionResponse,
} from '@storefront/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../lib/errors.ts';
import { orderDeps } from '../../modules/orders/deps.ts';
import { deviceIdFrom } from '../../modules/orders/limits.ts';
import { newPaymentSession } from '../../modules/orders/pay-again.ts';
import { placeOrder } from '../../modules/orders/place-order.ts';
import { limitProviderChecks, type ProviderCheckCaller } from '../../modules/orders/provider-checks.ts';
import { confirmPayment } from '../../modules/orders/confirm-payment.ts';
import { settleUnpaid } from '../../modules/orders/settle-unpaid.ts';
import { mayAccess, ORDER_ACCESS_MAX_AGE_S, requestTokens, serializeAccessCookie, viewerOf } from '../../modules/orders/access.ts';
import { paymentsOf, saleById, saleByInvoice, type SaleRow } from '../../modules/orders/repository.ts';
import { accessibleSale, fileUrl, getSale } from '../../modules/orders/view-orders.ts';
import { saleDetail } from '../../modules/orders/sale-view.ts';
import { requestLocale } from '../../modules/mail/locale.ts';

/** A client's name for one checkout request, so that sending it again cannot place a second order. */
const ZCheckoutHeaders = z.object({
  'idempotency-key': z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,100}$/, 'An Idempotency-Key is 16 to 100 letters, digits, - or _ (a random UUID will do)')
    .optional(),
});

const ZInvoiceQuery = z.object({
  invoiceId: z
    .string()
    .min(6)
    .max(40)
    .regex(/^[A-Za-z0-9-]+$/, 'Not an invoice id'),
});

// The gateway's own field names are accepted too, so a return can be forwarded as it came.
const ZPaymentRef = z
  .object({
    valId: z.string().max(100).optional(),
    val_id: z.string().max(100).optional(),
    tranId: z.string().max(60).optional(),
    tran_id: z.string().max(60).optional(),
    reason: z.string().max(300).optional(),
  })
  .optional();

/** What confirm, cancel and failure answer: the order's state, nothing a stranger should read. */
const ZPaymentState = z.object({
  invoiceId: z.string(),
  status: z.enum(SALE_STATUSES),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  /** False when the call changed nothing (it was repeated, or already settled). */
  changed: z.boolean(),
});

const errors = { 400: ZApiError, 401: ZApiError, 404: ZApiError, 409: ZApiError, 429: ZApiError, 503: ZApiError };

export { PROVIDER_CHECKS_PER_ORDER } from '../../modules/orders/provider-checks.ts';

/**
 * Who asks the provider about this sale, decided before anything is counted
 * (docs/decisions/0022): its owner, the payer showing one of its tran_ids, or a stranger
 * known only by client address.
 */
async function providerCheckCaller(
  db: Parameters<typeof paymentsOf>[0],
  sale: SaleRow,
  req: FastifyRequest,
  tranId: string | null,
): Promise<ProviderCheckCaller> {
  if (mayAccess(sale, viewerOf(req))) return { kind: 'owner' };
  if (tranId && (await paymentsOf(db, sale.id)).some((p) => p.tran_id === tranId)) return { kind: 'payer', tranId };
  return { kind: 'other', address: req.clientAddress };
}

export const checkoutRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/checkouts',
    {
      schema: {
        tags: ['checkout'],
        summary: 'Place an order or a booking (spec §7)',
        description:
          "Only skus and quantities are read: prices, discounts, the coupon amount and the total are computed by the server (unknown keys such as a price or total are ignored). With an `Idempotency-Key` header, sending the same request again (a retry after a lost answer, a second click) answers 200 with the order the first one placed, and the header `Idempotent-Replayed: true`, instead of placing another; the same key with another request, or from someone else, is 409 `idempotency_key_reused`. One transaction creates the sale, reserves its stock and records the coupon use; when stock is short the answer is 409 `out_of_stock` naming the lines, and nothing is written. Card: `paymentUrl` is the gateway page. Guests get an `accessToken` (also set as the httpOnly cookie `order_access`) that opens the order for them and nobody else. A guest's key belongs to the device that sent it (`x-device-id`, else the client address). Limits (docs/decisions/0022): at most ORDER_MAX_LINE_QUANTITY of one item and ORDER_MAX_UNITS items per order (400 `quantity_limit` naming the line); checkouts are counted per client address, customer and guest email and mobile (429 `rate_limited` with Retry-After); the units that unpaid orders and bookings of one client may hold at once are capped (409 `unpaid_limit`). A booking with no payment proof is released after BOOKING_HOLD_HOURS.",
        headers: ZCheckoutHeaders,
        body: ZCheckoutRequest,
        response: { 200: ZCheckoutResponse, 201: ZCheckoutResponse, ...errors },
      },
    },
    async (req, reply) => {
      const deps = orderDeps(app, req.log);
      const placed = await placeOrder(deps, req.body, req.customerId, req.headers['idempotency-key'] ?? null, {
        address: req.clientAddress,
        deviceId: deviceIdFrom(req.headers['x-device-id']),
        locale: requestLocale(req),
      });
      if (placed.accessToken) {
        const { cookie } = requestTokens(req);
        cookie.set(placed.sale.invoice_id, placed.accessToken);
        reply.setCookie(ORDER_ACCESS_COOKIE, serializeAccessCookie(cookie), {
          path: '/',
          httpOnly: true,
          sameSite: 'lax',
          secure: app.config.publicUrl.startsWith('https:'),
          maxAge: ORDER_ACCESS_MAX_AGE_S,
        });
      }
      // The caller placed this order a moment ago: it is theirs to read.
      const sale = placed.view ?? (await saleDetail(deps.db.kysely, (await saleById(deps.db.kysely, placed.sale.id))!, fileUrl(app.config.imageHost)));
      // A repeat of a checkout already placed answers that order (200), never a second one.
      if (placed.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(placed.replayed ? 200 : 201).send({
        invoiceId: placed.sale.invoice_id,
        saleId: placed.sale.id,
        paymentUrl: placed.paymentUrl,
        redirectTo: placed.redirectTo,
        accessToken: placed.accessToken,
        sale,
      });
    },
  );

  app.patch(
    '/api/checkouts/confirm',
    {
      schema: {
        tags: ['checkout'],
        summary: 'Confirm a card payment (spec §7)',
        description:
          "Marks the order paid only after the payment provider has confirmed it: with `valId` through the validation API, without it through the transaction query for the order's own transaction ids; tran_id, amount and currency must match the order. Otherwise 409 and the order stays unpaid. Repeating it changes nothing.",
        querystring: ZInvoiceQuery,
        body: ZPaymentRef,
        response: { 200: ZPaymentState, ...errors },
      },
    },
    async (req) => {
      const deps = orderDeps(app, req.log);
      const tranId = req.body?.tranId ?? req.body?.tran_id ?? null;
      const sale = await saleByInvoice(deps.db.kysely, req.query.invoiceId);
      if (!sale) throw notFound('The order');
      // Anyone may ask for a confirmation (docs/decisions/0018), but each caller spends
      // their own allowance of provider checks, never the owner's.
      await limitProviderChecks(deps.db.kysely, sale.invoice_id, await providerCheckCaller(deps.db.kysely, sale, req, tranId));
      const r = await confirmPayment(deps, {
        invoiceId: req.query.invoiceId,
        valId: req.body?.valId ?? req.body?.val_id ?? null,
        tranId,
        actor: req.customerId !== null ? 'customer' : 'guest',
      });
      return { invoiceId: r.sale.invoice_id, status: r.sale.status as never, paymentStatus: r.sale.payment_status as never, changed: r.changed };
    },
  );

  for (const [path, outcome] of [
    ['/api/checkouts/cancel', 'cancelled'],
    ['/api/checkouts/failure', 'failed'],
  ] as const) {
    app.patch(
      path,
      {
        schema: {
          tags: ['checkout'],
          summary: outcome === 'cancelled' ? 'The payer cancelled the card payment (spec §7)' : 'The card payment failed (spec §7)',
          description:
            "Releases the order's stock; the order can be paid again later. Only the order's owner, or a caller showing the tran_id of its open payment session, may do this; a paid order is refused with 409. Before releasing, the provider is asked whether the payment went through after all. Repeating it changes nothing.",
          querystring: ZInvoiceQuery,
          body: ZPaymentRef,
          response: { 200: ZPaymentState, ...errors },
        },
      },
      async (req) => {
        const deps = orderDeps(app, req.log);
        const sale = await saleByInvoice(deps.db.kysely, req.query.invoiceId);
        if (!sale) throw notFound('The order');
        const tranId = req.body?.tranId ?? req.body?.tran_id ?? null;
        const caller = await providerCheckCaller(deps.db.kysely, sale, req, tranId);
        // Someone who may not do this is refused as before, without asking the provider
        // and without spending anybody's checks.
        if (caller.kind === 'other') throw notFound('The order');
        await limitProviderChecks(deps.db.kysely, sale.invoice_id, caller);
        const r = await settleUnpaid(deps, {
          invoiceId: req.query.invoiceId,
          tranId,
          outcome,
          actor: req.customerId !== null ? 'customer' : 'guest',
          authorised: caller.kind === 'owner',
          reason: req.body?.reason ? `${outcome === 'failed' ? 'The payment failed' : 'The payment was cancelled'}: ${req.body.reason}` : undefined,
        });
        return { invoiceId: r.sale.invoice_id, status: r.sale.status as never, paymentStatus: r.sale.payment_status as never, changed: r.changed };
      },
    );
  }

  app.get(
    '/api/checkouts/payment-methods',
    {
      schema: {
        tags: ['checkout'],
        summary: 'The payment methods checkout accepts now',
        description:
          '`bkash` is listed only when the shop has bKash credentials, `nagad` only when it has Nagad’s; a checkout with a method not listed is refused (400).',
        response: { 200: z.object({ list: z.array(z.enum(PAYMENT_METHODS)) }) },
      },
    },
    async () => ({ list: PAYMENT_METHODS.filter((m) => (m !== 'bkash' || app.bkash !== null) && (m !== 'nagad' || app.nagad !== null)) }),
  );

  app.post(
    '/api/checkouts/payments',
    {
      schema: {
        tags: ['checkout'],
        summary: 'Pay an unpaid card or wallet order again: a new payment session',
        description:
          "For the order's owner, with the order's own method (card, bKash or Nagad). Reserves the stock again if it was released (409 `out_of_stock` when it is gone) and answers the new payment page URL.",
        querystring: ZInvoiceQuery,
        response: { 201: ZPaymentSessionResponse, ...errors },
      },
    },
    async (req, reply) => {
      const deps = orderDeps(app, req.log);
      const sale = await accessibleSale(deps, viewerOf(req), { invoiceId: req.query.invoiceId });
      const r = await newPaymentSession(deps, sale.id, req.customerId !== null ? 'customer' : 'guest');
      return reply.status(201).send({ invoiceId: r.sale.invoice_id, paymentUrl: r.url, sale: await getSale(deps, viewerOf(req), { id: sale.id }) });
    },
  );
};
