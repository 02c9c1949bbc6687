import type { FastifyBaseLogger } from 'fastify';

// Text messages to shoppers (docs/decisions/0040): one interface, so a Bangladeshi SMS gateway
// can be added as an adapter without touching the code that decides what to say. The default
// only writes the message to the log: a shop without an SMS account loses nothing but the SMS.

export interface SmsMessage {
  /** The shopper's mobile number as the order has it (01XXXXXXXXX or +8801XXXXXXXXX). */
  to: string;
  text: string;
}

export interface SmsSender {
  /** "log" for the default; a gateway's name otherwise. */
  readonly name: string;
  send(message: SmsMessage): Promise<void>;
}

/** The default: the message goes to the log (the number shortened), nowhere else. */
export function logSms(log: FastifyBaseLogger): SmsSender {
  return {
    name: 'log',
    async send({ to, text }) {
      log.info({ sms: { to: `${to.slice(0, 5)}…${to.slice(-2)}`, text } }, 'SMS (log only: no SMS gateway is set up)');
    },
  };
}
