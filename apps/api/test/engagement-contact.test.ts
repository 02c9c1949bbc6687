import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { Mailer } from '../src/modules/mail/mailer.ts';
import { CONTACT_RATE_LIMIT } from '../src/modules/contact/contact.service.ts';
import { expectApiError } from './helpers/assertions.ts';
import { startSmtpSink, type SmtpSink } from './helpers/smtp-sink.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// The contact form's API: stored first, then mailed through a real SMTP
// server (smtp-server in this process), per-field validation, header injection refused,
// rate-limited per sender.

const FROM = 'Nibash Furniture <no-reply@nibash.test>';
let smtp: SmtpSink;
let t: TestApp;
let support: string;

beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await startTestApp({ config: { mail: { ...loadConfig({}).mail, smtpUrl: smtp.url, from: FROM } } });
  support = (await t.api<Record<string, string>>('/api/kvps?keys=contact.supportEmail')).body['contact.supportEmail']!;
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

let ipCounter = 0;
/** A sender of its own (the rate limit counts per address), through the app in-process. */
async function sendFrom(ip: string, payload: unknown) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/contact',
    headers: { 'x-api-key': 'test-storefront-key', 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
    remoteAddress: ip,
  });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}
const freshIp = () => `10.7.0.${++ipCounter}`;

const form = {
  client_name: 'Farhana Akter',
  client_email: 'farhana@example.com',
  client_subject: 'Delivery to Sylhet',
  client_message: 'Do you deliver the Aria sofa to Sylhet?\nAnd how long does it take?',
};

describe('POST /api/contact', () => {
  it('stores the message and mails it to the support mailbox through SMTP, replying to the sender', async () => {
    const before = smtp.mails.length;
    const res = await t.api('/api/contact', { method: 'POST', json: form });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(Number), createdAt: expect.any(String) });

    const stored = await t.db.kysely.selectFrom('contact_messages').selectAll().where('id', '=', res.body.id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({
      name: 'Farhana Akter',
      email: 'farhana@example.com',
      subject: 'Delivery to Sylhet',
      message: form.client_message,
      customer_id: null,
    });
    expect(stored.mail_outbox_id).toEqual(expect.any(Number));
    const outbox = await t.db.kysely.selectFrom('mail_outbox').selectAll().where('id', '=', stored.mail_outbox_id!).executeTakeFirstOrThrow();
    expect(outbox).toMatchObject({ status: 'sent', to_address: support, reply_to: 'farhana@example.com' });

    // This test's message, whatever else other tests' deliveries bring meanwhile.
    const mail = await smtp.waitForMail((m) => m.headers['reply-to'] === 'farhana@example.com', before);
    expect(mail!.to).toEqual([support]);
    expect(mail!.headers['reply-to']).toBe('farhana@example.com');
    expect(mail!.headers.subject).toBe('Contact form: Delivery to Sylhet');
    expect(mail!.headers.from).toContain('no-reply@nibash.test');
    expect(mail!.body).toContain('From: Farhana Akter <farhana@example.com>');
    expect(mail!.body).toContain('Do you deliver the Aria sofa to Sylhet?\nAnd how long does it take?');
  });

  it('trims what it stores', async () => {
    const res = await sendFrom(freshIp(), { ...form, client_name: '  Rafiq  ', client_subject: ' Hello ' });
    expect(res.status).toBe(201);
    const stored = await t.db.kysely.selectFrom('contact_messages').selectAll().where('id', '=', res.body.id).executeTakeFirstOrThrow();
    expect(stored.name).toBe('Rafiq');
    expect(stored.subject).toBe('Hello');
  });

  it('validates every field with its own message and stores nothing', async () => {
    const count = await countMessages();
    const res = await t.api('/api/contact', { method: 'POST', json: {} });
    expectApiError(res, 400, 'validation_error');
    expect(res.body.error.fields).toEqual({
      client_name: 'Please Give Your Name',
      client_email: 'Please Give Your Email',
      client_subject: 'Please Give a Subject',
      client_message: 'Please Write Your Message',
    });
    const bad = await t.api('/api/contact', { method: 'POST', json: { ...form, client_email: 'farhana@', client_message: 'x'.repeat(5001) } });
    expectApiError(bad, 400, 'validation_error');
    expect(bad.body.error.fields).toEqual({ client_email: 'Please Give a Correct Email', client_message: 'Please keep this under 5000 characters' });
    expect(await countMessages()).toBe(count);
  });

  it.each([
    ['the subject', { client_subject: 'Hello\r\nBcc: everyone@example.com' }, 'client_subject'],
    ['the subject (LF only)', { client_subject: 'Hello\nBcc: everyone@example.com' }, 'client_subject'],
    ['the email (reply-to)', { client_email: 'farhana@example.com\r\nBcc: everyone@example.com' }, 'client_email'],
    ['the name', { client_name: 'Farhana\r\nX-Spam: no' }, 'client_name'],
  ])('refuses a line break in %s (header injection), stores and mails nothing', async (_where, change, field) => {
    const count = await countMessages();
    const outbox = await countOutbox();
    const mails = smtp.mails.length;
    const res = await sendFrom(freshIp(), { ...form, ...change });
    expect(res.status).toBe(400);
    expect(res.body.error.fields[field]).toBeTruthy();
    expect(await countMessages()).toBe(count);
    expect(await countOutbox()).toBe(outbox);
    expect(smtp.mails.length).toBe(mails);
  });

  it(`allows ${CONTACT_RATE_LIMIT.max} messages per sender in 10 minutes, then answers 429`, async () => {
    const ip = freshIp();
    for (let i = 0; i < CONTACT_RATE_LIMIT.max; i++) expect((await sendFrom(ip, { ...form, client_subject: `Try ${i}` })).status).toBe(201);
    const limited = await sendFrom(ip, form);
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limited');
    expect(limited.headers['retry-after']).toBeTruthy();
    // Another sender is not affected.
    expect((await sendFrom(freshIp(), form)).status).toBe(201);
  });

  it('holds the limit when one sender fires ten messages at once', async () => {
    const ip = freshIp();
    const results = await Promise.all(Array.from({ length: 10 }, (_x, i) => sendFrom(ip, { ...form, client_subject: `Burst ${i}` })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(CONTACT_RATE_LIMIT.max);
    expect(results.filter((r) => r.status === 429)).toHaveLength(10 - CONTACT_RATE_LIMIT.max);
    const stored = await t.db.kysely.selectFrom('contact_messages').select('id').where('ip', '=', ip).execute();
    expect(stored).toHaveLength(CONTACT_RATE_LIMIT.max);
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await t.api('/api/openapi.json', { apiKey: null })).body;
    const op = doc.paths['/api/contact'].post;
    expect(JSON.stringify(op.requestBody)).toContain('client_message');
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['201', '400', '429']));
  });

  async function countMessages() {
    return Number(
      (
        await t.db.kysely
          .selectFrom('contact_messages')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  }
  async function countOutbox() {
    return Number(
      (
        await t.db.kysely
          .selectFrom('mail_outbox')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  }
});

describe('POST /api/contact when mail is down or not configured', () => {
  it('keeps the message and its mail when the SMTP server is unreachable, and sends it later', async () => {
    // A mail server that hangs up on every connection. (Not a closed port: another test
    // running alongside could be given that port for its own SMTP server.)
    const broken = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
    const deadUrl = `smtp://127.0.0.1:${(broken.address() as net.AddressInfo).port}`;
    const app = await startTestApp({ config: { mail: { smtpUrl: deadUrl, from: FROM } } });
    try {
      const res = await app.api('/api/contact', { method: 'POST', json: form });
      expect(res.status).toBe(201);
      const stored = await app.db.kysely.selectFrom('contact_messages').selectAll().where('id', '=', res.body.id).executeTakeFirstOrThrow();
      const outbox = await app.db.kysely.selectFrom('mail_outbox').selectAll().where('id', '=', stored.mail_outbox_id!).executeTakeFirstOrThrow();
      expect(outbox.status).toBe('pending');
      expect(outbox.last_error).toBeTruthy();

      // Mail comes back: the outbox delivers what waited.
      const before = smtp.mails.length;
      const later = new Mailer(app.db.kysely, { smtpUrl: smtp.url, from: FROM });
      expect(await later.flush()).toBe(1);
      await later.stop();
      const mail = await smtp.waitForMail((m) => m.headers.subject === 'Contact form: Delivery to Sylhet', before);
      expect(mail!.headers.subject).toBe('Contact form: Delivery to Sylhet');
    } finally {
      await app.close();
      await new Promise((resolve) => broken.close(resolve));
    }
  });

  it('keeps the message in the outbox when no SMTP server is configured', async () => {
    const app = await startTestApp();
    try {
      const res = await app.api('/api/contact', { method: 'POST', json: form });
      expect(res.status).toBe(201);
      const stored = await app.db.kysely.selectFrom('contact_messages').selectAll().where('id', '=', res.body.id).executeTakeFirstOrThrow();
      const outbox = await app.db.kysely.selectFrom('mail_outbox').selectAll().where('id', '=', stored.mail_outbox_id!).executeTakeFirstOrThrow();
      expect(outbox).toMatchObject({ status: 'pending', attempts: 0, subject: 'Contact form: Delivery to Sylhet' });
    } finally {
      await app.close();
    }
  });
});
