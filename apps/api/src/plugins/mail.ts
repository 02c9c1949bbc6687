import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Mailer } from '../modules/mail/mailer.ts';
import { logSms, type SmsSender } from '../modules/sms/sms.ts';

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
    /** Text messages to shoppers (docs/decisions/0040): the log unless a gateway is set up. */
    sms: SmsSender;
  }
}

/** `app.mailer.send({ to, subject, text })` from any route or service (see mailer.ts). */
export const mailPlugin = fp(async (app: FastifyInstance) => {
  const mailer = new Mailer(app.db.kysely, {
    smtpUrl: app.config.mail.smtpUrl,
    from: app.config.mail.from,
    onError: (err) => app.log.warn({ err }, 'mail delivery failed; it stays in the outbox'),
  });
  app.decorate('mailer', mailer);
  app.decorate('sms', logSms(app.log));
  app.addHook('onReady', async () => mailer.start());
  app.addHook('onClose', async () => mailer.stop());
});
