import { CONTACT_LIMITS, ZApiError } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendContactMessage } from '../../modules/contact/contact.service.ts';
import { requestLocale } from '../../modules/mail/locale.ts';

// Lengths are checked with the per-field messages in the service; this only keeps
// absurd bodies out (a little over each limit, so the shopper gets the friendly message).
const field = (max: number, description: string) =>
  z
    .string()
    .max(max * 2 + 100)
    .default('')
    .describe(description);

export const ZContactRequest = z.object({
  client_name: field(CONTACT_LIMITS.client_name, 'Your Name'),
  client_email: field(CONTACT_LIMITS.client_email, 'Enter e-mail: where the shop replies'),
  client_subject: field(CONTACT_LIMITS.client_subject, 'Subject'),
  client_message: field(CONTACT_LIMITS.client_message, 'Body'),
});

export const contactRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/contact',
    {
      schema: {
        tags: ['engagement'],
        summary: 'Send a message to the shop (the contact form)',
        description:
          'Stores the message, then mails it to the support mailbox (SMTP) or keeps it in the outbox until mail is available. ' +
          'Every field is required; 400 carries a message per field. At most 5 messages per sender address in 10 minutes (429).',
        body: ZContactRequest,
        response: {
          201: z.object({ id: z.number(), createdAt: z.string() }),
          400: ZApiError,
          401: ZApiError,
          429: ZApiError,
        },
      },
    },
    async (req, reply) => {
      const result = await sendContactMessage(
        { db: app.db.kysely, dialect: app.db.dialect, mailer: app.mailer, log: req.log },
        { form: req.body, address: req.clientAddress, customerId: req.customerId, locale: requestLocale(req) },
      );
      return reply.status(201).send(result);
    },
  );
};
