import { BDT, formatDate, formatMoney } from '@storefront/shared';
import { type ParsedMail, simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { uniqueEmail, uniqueIp, uniqueMobile } from './helpers/accounts.ts';
import { checkout, checkoutBody, generousOrderLimits, plainSkus, saleRow, setStock, type TestSku } from './helpers/checkout.ts';
import { type ReceivedMail, type SmtpSink, startSmtpSink } from './helpers/smtp-sink.ts';
import { signedInStaff, type TestStaff } from './helpers/staff.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// Every mail a shopper receives is in the language they use the shop in (docs/decisions/0038):
// the `lang` cookie their browser sends is stored with the account, the order, the subscription
// and the contact message, and each mail (also those staff set off later) is written in it,
// through real SMTP (an in-process server). English mails stay word for word as they were.

let t: TestApp;
let smtp: SmtpSink;
let staff: TestStaff;
let skus: TestSku[];
let next = 0;

const BN = { cookie: 'lang=bn' };
const EN = { cookie: 'lang=en' };
/** Bengali letters and digits (not ৳, which English prices carry too), and ৳ followed by an amount in Bangla digits. */
const BANGLA = /[\u0980-\u09F2\u09F4-\u09FF]/;
const BANGLA_MONEY = /৳[০-৯][০-৯,]*\.[০-৯]{2}/;

beforeAll(async () => {
  smtp = await startSmtpSink();
  const base = loadConfig({});
  t = await startTestApp({
    config: { trustProxy: true, orders: generousOrderLimits(), mail: { ...base.mail, smtpUrl: smtp.url, from: 'Shop <orders@shop.example>' } },
  });
  t.app.config.publicUrl = 'https://shop.example';
  staff = await signedInStaff(t, 'manager');
  skus = await plainSkus(t.db.kysely, 12, 200);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

/** The next mail to `email` from index `after` on, parsed (subject decoded, text and HTML parts). */
async function mailTo(email: string, after: number, match: (m: ReceivedMail) => boolean = () => true): Promise<ParsedMail> {
  return simpleParser((await smtp.waitForMail((m) => m.to.includes(email) && match(m), after)).raw);
}

async function signUpWith(headers: Record<string, string>) {
  const body = { source: 'DEFAULT', type: 'DEFAULT', fullName: 'Rahima Khatun', email: uniqueEmail(), mobile: uniqueMobile(), password: 'secret-pass' };
  const ip = uniqueIp();
  const res = await t.api('/api/signup', { method: 'POST', json: body, headers: { 'x-forwarded-for': ip, ...headers } });
  expect(res.status, res.text).toBe(201);
  return { ...body, ip, auth: { 'x-auth-token': res.body.authToken as string, 'x-forwarded-for': ip } };
}

const customerLocale = async (email: string) =>
  (await t.db.kysely.selectFrom('customers').select('locale').where('email', '=', email).executeTakeFirstOrThrow()).locale;

async function placeOrder(headers: Record<string, string>, extra: Record<string, unknown> = {}) {
  const sku = skus[next++];
  await setStock(t.db.kysely, sku.id, [5]);
  const res = await checkout(t, checkoutBody([{ skuCode: sku.code, quantity: 2 }], extra), { 'x-forwarded-for': uniqueIp(), ...headers });
  expect(res.status, res.text).toBe(201);
  return saleRow(t.db.kysely, res.body.invoiceId);
}

const forgot = (email: string, headers: Record<string, string> = {}) =>
  t.api('/api/forgot', { method: 'POST', json: { email }, headers: { 'x-forwarded-for': uniqueIp(), ...headers } });
const isReset = (m: ReceivedMail) => /reset-password\?token=/.test(m.body);

describe('a shopper using the shop in Bangla', () => {
  it('signs up, places an order and is mailed in Bangla, with the amounts in Bangla digits', async () => {
    const c = await signUpWith(BN);
    expect(await customerLocale(c.email)).toBe('bn');

    const before = smtp.mails.length;
    const sale = await placeOrder({ ...c.auth, ...BN }, { contact: undefined });
    expect(sale.locale).toBe('bn');
    const mail = await mailTo(c.email, before);
    expect(mail.subject).toBe(`অর্ডার ${sale.invoice_id} — নিশ্চিত হয়েছে`);
    const text = mail.text ?? '';
    expect(text).toContain('প্রিয় Rahima Khatun,');
    expect(text).toContain('আপনার অর্ডারের জন্য ধন্যবাদ।');
    expect(text).toContain(`মোট (টাকা): ${formatMoney(Number(sale.total), BDT, 'bn')}`);
    expect(text).toMatch(BANGLA_MONEY);
    expect(text).toContain('পেমেন্ট: ক্যাশ অন ডেলিভারি (পরিশোধ হয়নি)');
    // No English sentence is left: only the product's name, the invoice and the addresses are data.
    expect(text).not.toContain('Thank you');
    expect(text).not.toContain('Total (BDT)');
    expect(mail.html).toContain('<html lang="bn">');
    expect(mail.html).toContain(formatMoney(Number(sale.total), BDT, 'bn'));
    // The button opens the Bangla order page.
    expect(text).toMatch(new RegExp(`/orders\\?invoiceId=${sale.invoice_id}[^\\s]*&lang=bn`));
  });

  it('asks for a password reset in Bangla and receives it in Bangla, linking to the Bangla page', async () => {
    const c = await signUpWith(BN);
    const before = smtp.mails.length;
    expect((await forgot(c.email, BN)).status).toBe(200);
    const mail = await mailTo(c.email, before, isReset);
    expect(mail.subject).toBe('আপনার পাসওয়ার্ড রিসেট করুন');
    expect(mail.text).toContain(`হ্যালো ${c.fullName},`);
    expect(mail.text).toContain('এক ঘণ্টার মধ্যে এই লিংকটি খুলুন');
    expect(mail.text).toMatch(/https:\/\/shop\.example\/reset-password\?token=[\w-]+&lang=bn/);

    // Asked with no language said (an API client), the account's language is used.
    const again = smtp.mails.length;
    expect((await forgot(c.email)).status).toBe(200);
    expect((await mailTo(c.email, again, isReset)).subject).toBe('আপনার পাসওয়ার্ড রিসেট করুন');
    // Anyone may ask for any address's reset: asking in English does not change the account's language.
    const third = smtp.mails.length;
    expect((await forgot(c.email, EN)).status).toBe(200);
    expect((await mailTo(c.email, third, isReset)).subject).toBe('Reset your password');
    expect(await customerLocale(c.email)).toBe('bn');
  });

  it('gets a booking mail whose hold date is in Bangla', async () => {
    const email = uniqueEmail('booker');
    const before = smtp.mails.length;
    const sale = await placeOrder(BN, { paymentMethod: 'later', contact: { name: 'Nusrat Jahan', mobile: uniqueMobile(), email } });
    const mail = await mailTo(email, before);
    expect(mail.subject).toBe(`বুকিং ${sale.invoice_id} — বুক করা হয়েছে`);
    expect(mail.text).toContain(`${formatDate(sale.hold_until!, 'bn', 'dateTime')} পর্যন্ত আপনার জন্য রাখা থাকবে`);
    expect(formatDate(sale.hold_until!, 'bn', 'dateTime')).toMatch(/[০-৯]/);
    expect(mail.text).toMatch(BANGLA_MONEY);
  });

  it('is told of a status change staff make in the language the order was placed in', async () => {
    const email = uniqueEmail('guest');
    const sale = await placeOrder(BN, { contact: { name: 'Nusrat Jahan', mobile: uniqueMobile(), email } });
    await mailTo(email, 0);
    const act = (body: Record<string, unknown>) =>
      // The staff member's own browser is in English: the order's language decides.
      t.api(`/api/admin/orders/${sale.id}/actions`, { method: 'POST', json: body, headers: { cookie: `${staff.headers.cookie}; lang=en` } });

    let before = smtp.mails.length;
    expect((await act({ action: 'confirm' })).status).toBe(200);
    let mail = await mailTo(email, before);
    expect(mail.subject).toBe(`অর্ডার ${sale.invoice_id} — শপ থেকে নিশ্চিত করা হয়েছে`);
    expect(mail.text).toContain('আমরা আপনার অর্ডার নিশ্চিত করেছি এবং এটি প্রস্তুত করছি।');
    expect(mail.html).toContain('<html lang="bn">');

    before = smtp.mails.length;
    expect((await act({ action: 'cancel', note: 'Out of this colour' })).status).toBe(200);
    mail = await mailTo(email, before);
    expect(mail.subject).toBe(`অর্ডার ${sale.invoice_id} — বাতিল করা হয়েছে`);
    // The status names come from the shared constants, translated where the mail shows them.
    expect(mail.text).toContain('অবস্থা: বাতিল');
    expect(mail.text).toContain('কারণ: Out of this colour');
  });

  it('keeps the language of a sign-in, a profile change, a subscription and a contact message', async () => {
    const c = await signUpWith({});
    expect(await customerLocale(c.email)).toBe('en');
    const signIn = await t.api('/api/signin/customers', {
      method: 'POST',
      json: { userName: c.email, password: c.password },
      headers: { 'x-forwarded-for': c.ip, ...BN },
    });
    expect(signIn.status, signIn.text).toBe(200);
    expect(await customerLocale(c.email)).toBe('bn');
    const profile = await t.api('/api/customers', { method: 'PUT', json: { fullName: c.fullName, mobile: c.mobile }, headers: { ...c.auth, ...EN } });
    expect(profile.status, profile.text).toBe(200);
    expect(await customerLocale(c.email)).toBe('en');

    const subscriber = uniqueEmail('reader');
    const sub = await t.api('/api/emails/subscriptions', {
      method: 'POST',
      json: { userId: '', email: subscriber, extras: { offer: 'First order', type: 'first-time' } },
      headers: { 'x-forwarded-for': uniqueIp(), ...BN },
    });
    expect(sub.status, sub.text).toBe(201);
    const subRow = await t.db.kysely.selectFrom('email_subscriptions').select('locale').where('email', '=', subscriber).executeTakeFirstOrThrow();
    expect(subRow.locale).toBe('bn');

    // The shop's answer to a message written in Bangla is framed in Bangla; the staff's words go as written.
    const sender = uniqueEmail('asker');
    const sent = await t.api('/api/contact', {
      method: 'POST',
      json: { client_name: 'Farhana Akter', client_email: sender, client_subject: 'Sofa to Sylhet', client_message: 'Do you deliver to Sylhet?' },
      headers: { 'x-forwarded-for': uniqueIp(), ...BN },
    });
    expect(sent.status, sent.text).toBe(201);
    const before = smtp.mails.length;
    const reply = await t.api(`/api/admin/messages/${sent.body.id}/replies`, {
      method: 'POST',
      json: { body: 'হ্যাঁ, আমরা সিলেটে ডেলিভারি দিই।' },
      headers: staff.headers,
    });
    expect(reply.status, reply.text).toBe(201);
    const mail = await mailTo(sender, before);
    expect(mail.subject).toBe('Re: Sofa to Sylhet');
    expect(mail.text).toContain('আপনার বার্তা সম্পর্কে: Sofa to Sylhet');
    expect(mail.text).toContain('প্রিয় Farhana Akter,');
    expect(mail.text).toContain('হ্যাঁ, আমরা সিলেটে ডেলিভারি দিই।');
    expect(mail.text).toMatch(/আপনি লিখেছিলেন: .*[০-৯]/);
    expect(mail.html).toContain('<html lang="bn">');
  });
});

describe('a shopper using the shop in English', () => {
  it('receives the order mail exactly as before, with or without the cookie', async () => {
    for (const headers of [{}, EN]) {
      const email = uniqueEmail('english');
      const before = smtp.mails.length;
      const sale = await placeOrder(headers, { contact: { name: 'Karim Ahmed', mobile: uniqueMobile(), email } });
      expect(sale.locale).toBe('en');
      const mail = await mailTo(email, before);
      expect(mail.subject).toBe(`Order ${sale.invoice_id} — confirmed`);
      expect(mail.text).toContain('Dear Karim Ahmed,');
      expect(mail.text).toContain('Thank you for your order. We will call you to arrange delivery; you pay in cash when it arrives.');
      expect(mail.text).toContain(`Total (BDT): ${formatMoney(Number(sale.total))}`);
      expect(mail.text).toContain('Payment: Cash on delivery (Not paid)');
      expect(mail.text).toContain(`See your order: https://shop.example/orders?invoiceId=${sale.invoice_id}&key=`);
      expect(mail.text).not.toMatch(BANGLA);
      expect(mail.html).toContain('<html lang="en">');
    }
  });

  it('asks for a password reset and receives the English mail', async () => {
    const c = await signUpWith(EN);
    expect(await customerLocale(c.email)).toBe('en');
    const before = smtp.mails.length;
    expect((await forgot(c.email, EN)).status).toBe(200);
    const mail = await mailTo(c.email, before, isReset);
    expect(mail.subject).toBe('Reset your password');
    expect(mail.text).toContain(`Hello ${c.fullName},`);
    expect(mail.text).toContain('Open this link within one hour to choose a new password:');
    expect(mail.text).toMatch(/https:\/\/shop\.example\/reset-password\?token=[\w-]+\n/);
    expect(mail.text).not.toMatch(BANGLA);
  });

  it('is told of a status change in English, and the shop’s own order mail stays English', async () => {
    const email = uniqueEmail('guest');
    const sale = await placeOrder({}, { contact: { name: 'Karim Ahmed', mobile: uniqueMobile(), email } });
    const shop = await simpleParser((await smtp.waitForMail((m) => m.to.includes('orders@nibash.com.bd') && m.raw.includes(sale.invoice_id), 0)).raw);
    expect(shop.subject).toMatch(/^New order /);
    const before = smtp.mails.length;
    const res = await t.api(`/api/admin/orders/${sale.id}/actions`, {
      method: 'POST',
      json: { action: 'confirm' },
      headers: { cookie: `${staff.headers.cookie}; lang=bn` },
    });
    expect(res.status, res.text).toBe(200);
    const mail = await mailTo(email, before);
    expect(mail.subject).toBe(`Order ${sale.invoice_id} — confirmed by the shop`);
    expect(mail.text).toContain('We have confirmed your order and are preparing it.');
    expect(mail.text).not.toMatch(BANGLA);
  });
});
