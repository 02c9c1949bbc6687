import { randomBytes } from 'node:crypto';
import { outcomePath } from '@storefront/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../lib/errors.ts';
import { orderDeps } from '../modules/orders/deps.ts';
import { confirmPayment } from '../modules/orders/confirm-payment.ts';
import { handleNotification } from '../modules/orders/payment-notification.ts';
import { handleBkashCallback } from '../modules/orders/bkash-payment.ts';
import { handleNagadCallback } from '../modules/orders/nagad-payment.ts';
import { settleUnpaid } from '../modules/orders/settle-unpaid.ts';
import { sandboxMessagePage, sandboxPayPage, sandboxReturnPage } from '../modules/payments/sandbox-page.ts';
import { completeSandboxSession, type SandboxAction, sandboxReturnFields, sandboxSession } from '../modules/payments/sandbox.provider.ts';
import { siteSettings } from '../modules/site/site.service.ts';

// What the card gateway talks to, outside /api (a gateway sends no API key):
//   /payments/return/success|fail|cancel   the shopper's browser, back from the gateway
//   /payments/ipn                          the gateway's server-to-server notification
//   /payments/sandbox/pay                  the built-in test gateway's hosted page
// Everything that arrives here is a claim; the order's payment use cases ask the gateway before
// believing it (docs/decisions/0017).

const INVOICE = /^[A-Za-z0-9-]{6,40}$/;

function fieldsOf(req: FastifyRequest): Record<string, string> {
  const src = { ...((req.query as Record<string, unknown>) ?? {}), ...((req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>) };
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(src)) if (typeof v === 'string' && k.length <= 64) out[k] = v.slice(0, 2000);
  return out;
}

function gatewayPageCsp(nonce: string, returnOrigin?: string): string {
  return [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    `script-src 'nonce-${nonce}'`,
    `form-action 'self'${returnOrigin ? ` ${returnOrigin}` : ''}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

function sendPage(reply: FastifyReply, html: string, nonce: string, returnOrigin?: string, status = 200) {
  return reply
    .status(status)
    .header('content-security-policy', gatewayPageCsp(nonce, returnOrigin))
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(html);
}

export async function paymentPageRoutes(app: FastifyInstance) {
  // Gateways post forms; only these routes read them (encapsulated in this plugin).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  // ---- the shopper's return ---------------------------------------------------------------

  const handleReturn = async (req: FastifyRequest<{ Params: { outcome: string } }>, reply: FastifyReply) => {
    const fields = fieldsOf(req);
    const invoiceId = INVOICE.test(fields.invoiceId ?? '') ? fields.invoiceId : INVOICE.test(fields.value_a ?? '') ? fields.value_a : null;
    if (!invoiceId) return reply.redirect('/orders', 303);
    const deps = orderDeps(app, req.log);
    const outcome = req.params.outcome;
    try {
      if (outcome === 'success') {
        await confirmPayment(deps, { invoiceId, valId: fields.val_id || null, tranId: fields.tran_id || null, actor: 'provider' });
        return reply.redirect(outcomePath('success', invoiceId), 303);
      }
      await settleUnpaid(deps, {
        invoiceId,
        tranId: fields.tran_id || null,
        outcome: outcome === 'fail' ? 'failed' : 'cancelled',
        actor: 'guest',
        authorised: false,
        reason: fields.error ? `${outcome === 'fail' ? 'The payment failed' : 'The payment was cancelled'}: ${fields.error.slice(0, 200)}` : undefined,
      });
      return reply.redirect(outcomePath(outcome === 'fail' ? 'failed' : 'cancel', invoiceId), 303);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      req.log.warn({ code: err.code, invoiceId, outcome }, 'a payment return was not accepted');
      // Paid after all, or the gateway could not be asked yet: the success page shows the
      // order as it is (paid, or waiting for the gateway's word).
      if (err.code === 'order_paid' || err.status === 503) return reply.redirect(outcomePath('success', invoiceId), 303);
      return reply.redirect(`${outcomePath(outcome === 'cancel' ? 'cancel' : 'failed', invoiceId)}${outcome === 'success' ? '&reason=unverified' : ''}`, 303);
    }
  };
  app.route<{ Params: { outcome: string } }>({
    method: ['GET', 'POST'],
    url: '/payments/return/:outcome',
    schema: { hide: true },
    handler: async (req, reply) => {
      if (!['success', 'fail', 'cancel'].includes(req.params.outcome))
        return reply.status(404).send({ error: { code: 'not_found', message: 'No such return' } });
      return handleReturn(req, reply);
    },
  });

  // ---- bKash's redirect of the shopper ---------------------------------------------------------

  // bKash appends ?paymentID=…&status=success|failure|cancel to the callbackURL we gave it
  // (tokenized checkout, create payment); the path names our payment attempt.
  app.get<{ Params: { ref: string } }>('/payments/bkash/callback/:ref', { schema: { hide: true } }, async (req, reply) => {
    const q = fieldsOf(req);
    const ref = /^[A-Za-z0-9]{8,40}$/.test(req.params.ref) ? req.params.ref : '';
    const status = ['success', 'failure', 'cancel'].includes(q.status ?? '') ? q.status! : 'failure';
    try {
      const r = await handleBkashCallback(orderDeps(app, req.log), { ref, paymentId: (q.paymentID ?? '').slice(0, 100), status });
      return reply.redirect(`${outcomePath(r.page, r.invoiceId)}${r.unverified ? '&reason=unverified' : ''}`, 303);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status === 429) throw err;
      req.log.warn({ code: err.code, ref, status }, 'a bKash callback was not accepted');
      return reply.redirect('/orders', 303);
    }
  });

  // ---- Nagad's redirect of the shopper ---------------------------------------------------------

  // Nagad appends ?merchant=…&order_id=…&payment_ref_id=…&status=…&status_code=…&payment_dt=…
  // &issuer_payment_ref=… to the merchantCallbackURL we gave it (guide §5.2.8.2.6); the path
  // names our payment attempt. Only verify/payment decides (docs/decisions/0042).
  app.get<{ Params: { ref: string } }>('/payments/nagad/callback/:ref', { schema: { hide: true } }, async (req, reply) => {
    const q = fieldsOf(req);
    const ref = /^[A-Za-z0-9]{8,40}$/.test(req.params.ref) ? req.params.ref : '';
    const status = (q.status ?? '').slice(0, 30);
    try {
      const r = await handleNagadCallback(orderDeps(app, req.log), { ref, paymentRefId: (q.payment_ref_id ?? '').slice(0, 200), status });
      return reply.redirect(`${outcomePath(r.page, r.invoiceId)}${r.unverified ? '&reason=unverified' : ''}`, 303);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status === 429) throw err;
      req.log.warn({ code: err.code, ref, status }, 'a Nagad callback was not accepted');
      return reply.redirect('/orders', 303);
    }
  });

  // ---- the gateway's notification (IPN) -----------------------------------------------------

  app.post('/payments/ipn', { schema: { hide: true } }, async (req) => {
    return handleNotification(orderDeps(app, req.log), fieldsOf(req));
  });

  // ---- the sandbox gateway's hosted page ------------------------------------------------------

  const sandboxOnly = (reply: FastifyReply) => {
    if (app.payments.name === 'sandbox') return false;
    void reply.status(404).send({ error: { code: 'not_found', message: 'The sandbox gateway is switched off (PAYMENT_PROVIDER)' } });
    return true;
  };

  app.get('/payments/sandbox/pay', { schema: { hide: true } }, async (req, reply) => {
    if (sandboxOnly(reply)) return reply;
    const nonce = randomBytes(16).toString('base64');
    const session = await sandboxSession(app.db.kysely, String((req.query as Record<string, unknown>).session ?? ''));
    if (!session) return sendPage(reply, sandboxMessagePage('Payment not found', 'This payment session does not exist or has expired.'), nonce, undefined, 404);
    if (session.status !== 'PENDING') {
      // Completed already (back button, second tab): hand back the same result again.
      return handBack(reply, session, nonce);
    }
    const site = await siteSettings(app.db.kysely, ['brand.name']);
    return sendPage(reply, sandboxPayPage(session, site['brand.name'] ?? 'The shop'), nonce);
  });

  app.post('/payments/sandbox/pay', { schema: { hide: true } }, async (req, reply) => {
    if (sandboxOnly(reply)) return reply;
    const nonce = randomBytes(16).toString('base64');
    const fields = fieldsOf(req);
    const action = fields.action as SandboxAction;
    if (!['pay', 'risky', 'fail', 'cancel'].includes(action))
      return sendPage(reply, sandboxMessagePage('Choose an answer', 'Go back and choose pay, decline or cancel.'), nonce, undefined, 400);
    const before = await sandboxSession(app.db.kysely, fields.session ?? '');
    if (!before) return sendPage(reply, sandboxMessagePage('Payment not found', 'This payment session does not exist or has expired.'), nonce, undefined, 404);
    const session = (await completeSandboxSession(app.db.kysely, before.session_key, action))!;
    // Like a real gateway: notify the shop's server, then send the payer back.
    if (before.status === 'PENDING') await notifyShop(session);
    return handBack(reply, session, nonce);
  });

  async function notifyShop(session: NonNullable<Awaited<ReturnType<typeof sandboxSession>>>) {
    if (!session.ipn_url) return;
    const payload = new URLSearchParams(sandboxReturnFields(session, app.sandboxSecret)).toString();
    try {
      const target = new URL(session.ipn_url);
      // The sandbox lives in the shop: its notification goes through the shop's own
      // pipeline in-process (no network hop to our own public address).
      const res = await app.inject({
        method: 'POST',
        url: `${target.pathname}${target.search}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload,
      });
      if (res.statusCode >= 400) app.log.warn({ status: res.statusCode, body: res.body.slice(0, 300) }, 'the sandbox notification was refused');
    } catch (err) {
      app.log.warn({ err }, 'the sandbox could not notify the shop');
    }
  }

  function handBack(reply: FastifyReply, session: NonNullable<Awaited<ReturnType<typeof sandboxSession>>>, nonce: string) {
    const status = session.status === 'VALIDATED' ? 'VALID' : session.status;
    const target = status === 'VALID' ? session.success_url : status === 'FAILED' ? session.fail_url : session.cancel_url;
    const label = status === 'VALID' ? 'Payment accepted (test)' : status === 'FAILED' ? 'Payment declined (test)' : 'Payment cancelled (test)';
    const fields = sandboxReturnFields(session, app.sandboxSecret);
    return sendPage(reply, sandboxReturnPage(target, fields, nonce, label), nonce, new URL(target).origin);
  }
}
