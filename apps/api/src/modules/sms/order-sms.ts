import { serverT } from '@storefront/shared/i18n/server';
import type { Locale } from '@storefront/shared';
import type { SmsSender } from './sms.ts';

// Which changes of an order a shopper is texted about (docs/decisions/0040): where the parcel
// is (on its way, delivered, back with the shop) and a cancellation, the moments a shopper
// waiting at home wants to know of. The mail says the rest. A message stays within one SMS
// part where the shop's name allows, and carries the order page's short link.

export type SmsWorthy = 'ship' | 'deliver' | 'return' | 'cancel';
export const SMS_WORTHY: readonly string[] = ['ship', 'deliver', 'return', 'cancel'] satisfies SmsWorthy[];

export function orderSmsText(kind: SmsWorthy, o: { shop: string; invoiceId: string; link: string; locale: Locale }): string {
  const t = serverT(o.locale);
  const v = { shop: o.shop, invoiceId: o.invoiceId, link: o.link };
  switch (kind) {
    case 'ship':
      return t('{shop}: your order {invoiceId} is on its way. Follow it at {link}', v);
    case 'deliver':
      return t('{shop}: your order {invoiceId} was delivered. Thank you for shopping with us.', v);
    case 'return':
      return t('{shop}: your order {invoiceId} came back to us. We will call you about it.', v);
    case 'cancel':
      return t('{shop}: your order {invoiceId} is cancelled. Details: {link}', v);
  }
}

/** Never decides anything: a gateway's failure is logged and the order goes on. */
export async function textShopper(sms: SmsSender, to: string, text: string, log: { warn: (o: object, m: string) => void }): Promise<void> {
  try {
    await sms.send({ to, text });
  } catch (err) {
    log.warn({ err }, 'could not send the SMS');
  }
}
