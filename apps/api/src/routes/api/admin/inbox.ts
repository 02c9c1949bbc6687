import { Readable } from 'node:stream';
import {
  ZAdminMail,
  ZAdminMailQuery,
  ZAdminMailRow,
  ZAdminMailStatus,
  ZAdminMessage,
  ZAdminMessageQuery,
  ZAdminMessageRow,
  ZAdminPage,
  ZAdminSubscriber,
  ZAdminSubscriberQuery,
  ZApiError,
  ZContactReplyBody,
  ZTestMailBody,
  ZUnsubscribeBody,
} from '@storefront/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { csvLine, toCsv } from '../../../lib/csv.ts';
import { installationSecret } from '../../../lib/installation-secrets.ts';
import { listMessages, openMessage, replyToMessage } from '../../../modules/admin-inbox/messages.service.ts';
import { listMails, mailStatus, readMail, retryMail, sendTestMail } from '../../../modules/admin-inbox/outbox.service.ts';
import {
  exportSubscribers,
  listSubscribers,
  SUBSCRIBER_CSV_HEADER,
  subscriberCsvRow,
  unsubscribeByLink,
  unsubscribeByStaff,
} from '../../../modules/admin-inbox/subscribers.service.ts';
import { actorOf, signedInStaff } from '../../../plugins/admin-auth.ts';
import { ADMIN, ZIdParam } from './tags.ts';

// Subscribers, the contact inbox and the mail outbox (docs/decisions/0036). Reads of
// subscribers and messages follow the customers screens (whoever reads orders); changes to
// them are for those who manage customers; the outbox, which holds reset and order links,
// is the owners' (staff.manage).

const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError, 409: ZApiError };
const staffOf = (req: FastifyRequest) => ({ ...actorOf(req), name: signedInStaff(req).full_name });

export const adminInboxRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = () => ({ db: app.db.kysely, mailer: app.mailer, publicUrl: app.config.publicUrl });
  let unsubscribeSecret: Promise<string> | null = null;
  const linkSecret = () => {
    unsubscribeSecret ??= installationSecret(app.db.kysely, 'unsubscribe_links').catch((err) => {
      unsubscribeSecret = null;
      throw err;
    });
    return unsubscribeSecret;
  };

  // ---- subscribers ----------------------------------------------------------------------
  app.get(
    '/api/admin/subscribers',
    {
      config: { permission: 'orders.read' },
      schema: {
        ...ADMIN,
        summary: 'Newsletter subscribers, searched and paged, newest first',
        description: '`q` finds a part of the address in any letter case; `state` is subscribed or unsubscribed.',
        querystring: ZAdminSubscriberQuery,
        response: { 200: ZAdminPage(ZAdminSubscriber), 400: ZApiError, 401: ZApiError, 403: ZApiError },
      },
    },
    async (req) => listSubscribers(app.db.kysely, req.query),
  );

  app.get(
    '/api/admin/subscribers/export',
    {
      config: { permission: 'orders.read' },
      // No response schema: the answer is a CSV file (errors keep the one shape).
      schema: {
        ...ADMIN,
        summary: 'The filtered subscribers as CSV',
        description: 'Streamed; a cell that a spreadsheet would run as a formula starts with a quote. The export is audited.',
        querystring: ZAdminSubscriberQuery.omit({ page: true, size: true }),
      },
    },
    async (req, reply) => {
      const db = app.db.kysely;
      const actor = actorOf(req);
      async function* csv() {
        yield toCsv([SUBSCRIBER_CSV_HEADER]);
        // Cells a spreadsheet would run as formulas (a visitor typed the address) are written as text.
        for await (const rows of exportSubscribers(db, req.query, actor)) yield rows.map((r) => csvLine(subscriberCsvRow(r))).join('');
      }
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="subscribers-${new Date().toISOString().slice(0, 10)}.csv"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(csv()));
    },
  );

  app.post(
    '/api/admin/subscribers/:id/unsubscribe',
    {
      config: { permission: 'customers.manage' },
      schema: {
        ...ADMIN,
        summary: 'Unsubscribe an address from the newsletter',
        description:
          'The row stays, with the time and `unsubscribedBy: staff`, as a record that the address asked to stop; audited. 409 `already_unsubscribed` when it had already left. Subscribing again from the shop re-subscribes it.',
        params: ZIdParam,
        response: { 200: ZAdminSubscriber, ...errors },
      },
    },
    async (req) => unsubscribeByStaff(app.db.kysely, req.params.id, actorOf(req)),
  );

  // The subscriber's own link from a mail: no session, the signed token is the credential.
  app.post(
    '/api/emails/unsubscribe',
    {
      schema: {
        tags: ['engagement'],
        summary: 'Unsubscribe with the signed link of a newsletter mail',
        description: 'The token names one subscription and is signed by this shop; it does not expire. Leaving again answers the first time it left.',
        body: ZUnsubscribeBody,
        response: { 200: z.object({ email: z.string(), unsubscribedAt: z.string() }), 400: ZApiError },
      },
    },
    async (req) => unsubscribeByLink(app.db.kysely, await linkSecret(), req.body.token),
  );

  // ---- contact messages ---------------------------------------------------------------
  app.get(
    '/api/admin/messages',
    {
      config: { permission: 'orders.read' },
      schema: {
        ...ADMIN,
        summary: 'Contact messages: unread first (or newest first), filtered by state and searched',
        description: '`state` is new (nobody opened it), read or answered; `q` finds a part of the name, address, subject or message.',
        querystring: ZAdminMessageQuery,
        response: { 200: ZAdminPage(ZAdminMessageRow), 400: ZApiError, 401: ZApiError, 403: ZApiError },
      },
    },
    async (req) => listMessages(app.db.kysely, req.query),
  );

  app.get(
    '/api/admin/messages/:id',
    {
      config: { permission: 'orders.read' },
      schema: {
        ...ADMIN,
        summary: 'One contact message and the answers sent to it; opening it marks it read',
        description: 'The first opening’s time is kept. Each read is written to the audit log (personal data).',
        params: ZIdParam,
        response: { 200: ZAdminMessage, 401: ZApiError, 403: ZApiError, 404: ZApiError, 400: ZApiError },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return openMessage(app.db.kysely, req.params.id, actorOf(req));
    },
  );

  app.post(
    '/api/admin/messages/:id/replies',
    {
      config: { permission: 'customers.manage' },
      schema: {
        ...ADMIN,
        summary: 'Answer a contact message by mail',
        description:
          'The answer goes to the sender as the shop’s branded mail, Reply-To the support address (`contact.supportEmail`; 409 `support_email_missing` without one), through the outbox. It is kept with the staff member’s name and time; the message becomes answered. Audited.',
        params: ZIdParam,
        body: ZContactReplyBody,
        response: { 201: ZAdminMessage, ...errors },
      },
    },
    async (req, reply) => reply.status(201).send(await replyToMessage(deps(), req.params.id, req.body, staffOf(req))),
  );

  // ---- mail outbox ----------------------------------------------------------------------
  app.get(
    '/api/admin/mail/status',
    {
      config: { permission: 'staff.manage' },
      schema: {
        ...ADMIN,
        summary: 'Whether SMTP is configured, and how much mail waits or failed',
        response: { 200: ZAdminMailStatus, 401: ZApiError, 403: ZApiError },
      },
    },
    async () => mailStatus(app.db.kysely, app.mailer, app.config.mail.from),
  );

  app.get(
    '/api/admin/mail',
    {
      config: { permission: 'staff.manage' },
      schema: {
        ...ADMIN,
        summary: 'The mail outbox, newest first, filtered by state and searched by recipient',
        description: '`state`: waiting (still tried), sent, failed (tried as often as the mailer tries, with the last SMTP error).',
        querystring: ZAdminMailQuery,
        response: { 200: ZAdminPage(ZAdminMailRow), 400: ZApiError, 401: ZApiError, 403: ZApiError },
      },
    },
    async (req) => listMails(app.db.kysely, req.query),
  );

  app.get(
    '/api/admin/mail/:id',
    {
      config: { permission: 'staff.manage' },
      schema: {
        ...ADMIN,
        summary: 'One mail of the outbox: subject, text and HTML',
        description: 'Links that carry a credential (reset token, order key) are shown with it hidden; `redacted` says so.',
        params: ZIdParam,
        response: { 200: ZAdminMail, 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return readMail(app.db.kysely, req.params.id);
    },
  );

  app.post(
    '/api/admin/mail/:id/retry',
    {
      config: { permission: 'staff.manage' },
      schema: {
        ...ADMIN,
        summary: 'Put a mail that was not sent back to waiting, and try it now',
        description: 'Its attempts start again from zero; audited. 409 `already_sent` for a sent mail.',
        params: ZIdParam,
        response: { 200: ZAdminMail, ...errors },
      },
    },
    async (req) => retryMail(app.db.kysely, app.mailer, req.params.id, actorOf(req)),
  );

  app.post(
    '/api/admin/mail/test',
    {
      config: { permission: 'staff.manage' },
      schema: {
        ...ADMIN,
        summary: 'Send a test mail through the outbox',
        description: 'To `to`, or the staff member’s own address when it is left out. Audited.',
        body: ZTestMailBody,
        response: { 201: ZAdminMail, ...errors },
      },
    },
    async (req, reply) => reply.status(201).send(await sendTestMail(deps(), req.body, staffOf(req))),
  );
};
