import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { checkout, checkoutBody, guestContact, paySandbox, plainSkus, setStock } from './helpers/checkout.ts';
import { type SmtpSink, startSmtpSink } from './helpers/smtp-sink.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// The order confirmation goes out through real SMTP (an in-process server here) when
// SMTP_URL is set; without it, it waits in the outbox (checkout-orders.test.ts).

/** An RFC 2047 encoded subject (=?UTF-8?Q?…?=), as nodemailer writes a non-ASCII one. */
function decodeSubject(s: string): string {
  return s.replace(/=\?UTF-8\?Q\?(.*?)\?=\s*/gi, (_m, q: string) =>
    Buffer.from(
      q.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
      'latin1',
    ).toString('utf8'),
  );
}

let t: TestApp;
let smtp: SmtpSink;

beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await startTestApp({ config: { mail: { ...loadConfig({}).mail, smtpUrl: smtp.url, from: 'Shop <orders@shop.example>' } } });
  t.app.config.publicUrl = t.baseUrl;
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe('order confirmation mail', () => {
  it('is sent through SMTP when a cash-on-delivery order is placed and when a card payment is verified', async () => {
    const [a, b] = await plainSkus(t.db.kysely, 2, 300);
    await setStock(t.db.kysely, a.id, [2]);
    await setStock(t.db.kysely, b.id, [2]);
    const cod = guestContact();
    const order = await checkout(t, checkoutBody([{ skuCode: a.code, quantity: 1 }], { contact: cod }));
    expect(order.status).toBe(201);
    // The shopper's mails; the shop's order address hears of each order too (shopMail below).
    const shopper = () => smtp.mails.filter((m) => !m.to.includes('orders@nibash.com.bd'));
    const [first] = await smtp.waitFor(1);
    expect(first.to).toEqual([cod.email]);
    expect(decodeSubject(first.headers.subject)).toBe(`Order ${order.body.invoiceId} — confirmed`);
    // A text and an HTML part, quoted-printable: undo the soft line breaks to read them.
    const raw = first.raw.replace(/=\r\n/g, '');
    expect(raw).toContain('you pay in cash when it arrives');
    expect(raw).toContain(`/orders?invoiceId=3D${order.body.invoiceId}`);

    const card = guestContact();
    const paid = await checkout(t, checkoutBody([{ skuCode: b.code, quantity: 1 }], { contact: card, paymentMethod: 'card' }));
    // Nothing is sent before the money is confirmed.
    expect(shopper()).toHaveLength(1);
    await paySandbox(t, paid.body.paymentUrl, 'pay');
    await smtp.waitForMail((m) => m.to.includes(card.email));
    const mails = shopper();
    expect(mails[1].to).toEqual([card.email]);
    expect(decodeSubject(mails[1].headers.subject)).toBe(`Order ${paid.body.invoiceId} — payment received`);
  });
});
