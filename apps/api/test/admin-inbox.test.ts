import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { installationSecret } from '../src/lib/installation-secrets.ts';
import { MAX_ATTEMPTS } from '../src/modules/mail/mailer.ts';
import { signUnsubscribeToken } from '../src/modules/admin-inbox/unsubscribe-link.ts';
import { signUp, uniqueIp } from './helpers/accounts.ts';
import { expectApiError } from './helpers/assertions.ts';
import { type SmtpSink, startSmtpSink } from './helpers/smtp-sink.ts';
import { signedInStaff, type TestStaff } from './helpers/staff.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// Subscribers, the contact inbox and the mail outbox in the back office (docs/decisions/0036),
// on both databases: search, CSV and unsubscribing (and subscribing again from the shop); a
// message opened, answered by mail (parsed as a real SMTP server received it) and shown
// answered; the outbox's states, a mail refused by the SMTP server for real until it fails,
// put back and delivered; test mails; credentials hidden from the outbox view.

let t: TestApp;
let smtp: SmtpSink;
let owner: TestStaff;
let manager: TestStaff;
let support: string;
/** The SMTP server refuses these recipients (550) while this is on. */
let refusing = true;

beforeAll(async () => {
  smtp = await startSmtpSink(0, { rejectRecipient: (a) => refusing && a.startsWith('bounce-') });
  t = await startTestApp({ config: { trustProxy: true, mail: { ...loadConfig({}).mail, smtpUrl: smtp.url, from: 'Nibash <no-reply@nibash.test>' } } });
  owner = await signedInStaff(t, 'owner');
  manager = await signedInStaff(t, 'manager');
  support = (await t.api<Record<string, string>>('/api/kvps?keys=contact.supportEmail')).body['contact.supportEmail']!;
  expect(support).toMatch(/@/);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const tag = Math.random().toString(36).slice(2, 8);
const subscribe = (email: string) =>
  t.api('/api/emails/subscriptions', { method: 'POST', json: { email, extras: { offer: 'First order 10%', type: 'first-time' } } });
const audits = (entity: string, entityId: string | number) =>
  t.db.kysely
    .selectFrom('audit_log')
    .select(['action', 'staff_email'])
    .where('entity', '=', entity)
    .where('entity_id', '=', String(entityId))
    .orderBy('id')
    .execute();

describe('subscribers', () => {
  it('finds addresses by a part in any letter case, pages them newest first, and filters by state', async () => {
    for (const e of [`Rahim.${tag}@Example.com`, `karim.${tag}@example.com`, `salma.${tag}@example.org`]) expect((await subscribe(e)).status).toBe(201);
    const all = await t.api(`/api/admin/subscribers?q=${tag.toUpperCase()}&size=2`, { headers: manager.headers });
    expect(all.status, all.text).toBe(200);
    expect(all.body.total).toBe(3);
    expect(all.body.items.map((s: any) => s.email)).toEqual([`salma.${tag}@example.org`, `karim.${tag}@example.com`]);
    const page2 = await t.api(`/api/admin/subscribers?q=${tag}&size=2&page=2`, { headers: manager.headers });
    expect(page2.body.items.map((s: any) => s.email)).toEqual([`Rahim.${tag}@Example.com`]);
    expect(page2.body.items[0]).toMatchObject({ offer: 'First order 10%', type: 'first-time', unsubscribedAt: null, customerId: null });
    const org = await t.api(`/api/admin/subscribers?q=${tag}@example.ORG`, { headers: manager.headers });
    expect(org.body.items.map((s: any) => s.email)).toEqual([`salma.${tag}@example.org`]);
    // A % typed by staff is a character, not a wildcard.
    expect((await t.api(`/api/admin/subscribers?q=${tag}%25`, { headers: manager.headers })).body.total).toBe(0);
    expectApiError(await t.api('/api/admin/subscribers?state=gone', { headers: manager.headers }), 400);
  });

  it('exports the filtered list as a CSV whose cells cannot run as spreadsheet formulas', async () => {
    const evil = `=HYPERLINK.${tag}@evil.example`;
    expect((await subscribe(evil)).status).toBe(201);
    const res = await t.api(`/api/admin/subscribers/export?q=${tag}`, { headers: manager.headers });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="subscribers-\d{4}-\d{2}-\d{2}\.csv"/);
    // fetch's text() drops the BOM toCsv writes.
    const lines = res.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('email,state,subscribed_at,unsubscribed_at,unsubscribed_by,offer,type,customer_id');
    expect(lines).toHaveLength(5);
    expect(lines[1]).toMatch(new RegExp(`^'=HYPERLINK\\.${tag}@evil\\.example,subscribed,`));
    expect(lines.slice(1).every((l) => !l.startsWith('='))).toBe(true);
    expect((await audits('subscribers', '*')).map((a) => a.action)).toContain('export');
  });

  it('unsubscribes an address on staff’s word, keeps the record, audits it, and lets the address subscribe again', async () => {
    const email = `leaving.${tag}@example.com`;
    const created = await subscribe(email);
    const id = created.body.id;
    const res = await t.api(`/api/admin/subscribers/${id}/unsubscribe`, { method: 'POST', headers: manager.headers });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id, email, unsubscribedBy: 'staff', unsubscribedAt: expect.any(String) });
    expect(await audits('subscriber', id)).toEqual([{ action: 'unsubscribe', staff_email: manager.email }]);
    expectApiError(await t.api(`/api/admin/subscribers/${id}/unsubscribe`, { method: 'POST', headers: manager.headers }), 409, 'already_unsubscribed');
    expectApiError(await t.api('/api/admin/subscribers/999999/unsubscribe', { method: 'POST', headers: manager.headers }), 404);

    // The row stays, as a record that the address left.
    const gone = await t.api(`/api/admin/subscribers?q=leaving.${tag}&state=unsubscribed`, { headers: manager.headers });
    expect(gone.body.items.map((s: any) => s.id)).toEqual([id]);
    expect((await t.api(`/api/admin/subscribers?q=leaving.${tag}&state=subscribed`, { headers: manager.headers })).body.total).toBe(0);

    // Subscribing again from the shop re-subscribes the same row; then it counts as subscribed again.
    const again = await subscribe(email.toUpperCase());
    expect(again.status, again.text).toBe(201);
    expect(again.body.id).toBe(id);
    expectApiError(await subscribe(email), 409);
    const back = await t.api(`/api/admin/subscribers?q=leaving.${tag}`, { headers: manager.headers });
    expect(back.body.items[0]).toMatchObject({ id, unsubscribedAt: null, unsubscribedBy: null });
  });

  it('a customer who unsubscribed is not shown as subscribed, and is again after subscribing', async () => {
    const c = await signUp(t);
    const first = await t.api('/api/emails/subscriptions', { method: 'POST', json: { email: c.email }, headers: c.auth });
    expect(first.status, first.text).toBe(201);
    await t.api(`/api/admin/subscribers/${first.body.id}/unsubscribe`, { method: 'POST', headers: manager.headers });
    expect((await t.api('/api/emails/subscriptions', { headers: c.auth })).body.subscribed).toBe(false);
    const { id: customerId } = await t.db.kysely.selectFrom('customers').select('id').where('email', '=', c.email).executeTakeFirstOrThrow();
    expect((await t.api(`/api/admin/customers/${customerId}`, { headers: manager.headers })).body.subscribed).toBe(false);
    expect((await t.api('/api/emails/subscriptions', { method: 'POST', json: { email: c.email }, headers: c.auth })).status).toBe(201);
    expect((await t.api('/api/emails/subscriptions', { headers: c.auth })).body.subscribed).toBe(true);
  });

  it('the subscriber’s own signed link unsubscribes without signing in; a forged one is refused', async () => {
    const email = `link.${tag}@example.com`;
    const { id } = (await subscribe(email)).body;
    const secret = await installationSecret(t.db.kysely, 'unsubscribe_links');
    const token = signUnsubscribeToken(secret, { id, email_key: email });
    const res = await t.api('/api/emails/unsubscribe', { method: 'POST', json: { token } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ email, unsubscribedAt: expect.any(String) });
    // Again: no error, the first time is kept.
    expect((await t.api('/api/emails/unsubscribe', { method: 'POST', json: { token } })).body.unsubscribedAt).toBe(res.body.unsubscribedAt);
    const row = await t.db.kysely.selectFrom('email_subscriptions').select(['unsubscribed_by']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.unsubscribed_by).toBe('link');

    const other = (await subscribe(`other.${tag}@example.com`)).body.id;
    const forged = signUnsubscribeToken('not the shop’s secret', { id: other, email_key: `other.${tag}@example.com` });
    expectApiError(await t.api('/api/emails/unsubscribe', { method: 'POST', json: { token: forged } }), 400, 'invalid_token');
    expectApiError(await t.api('/api/emails/unsubscribe', { method: 'POST', json: { token: 'x' } }), 400, 'invalid_token');
    // Another subscription's token does not open this one.
    const swapped = signUnsubscribeToken(secret, { id: other, email_key: email });
    expectApiError(await t.api('/api/emails/unsubscribe', { method: 'POST', json: { token: swapped } }), 400, 'invalid_token');
  });
});

describe('the contact inbox', () => {
  async function contact(subject: string, email = `asker.${tag}@example.com`) {
    const res = await t.api('/api/contact', {
      method: 'POST',
      json: { client_name: 'Farhana Akter', client_email: email, client_subject: subject, client_message: `About ${subject}.\nThank you.` },
      headers: { 'x-forwarded-for': uniqueIp() },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.id as number;
  }

  it('lists unread first, marks a message read when opened, and filters by state and text', async () => {
    const older = await contact(`Older ${tag}`);
    const newer = await contact(`Newer ${tag}`);
    const list = await t.api(`/api/admin/messages?q=${tag}`, { headers: manager.headers });
    expect(list.status, list.text).toBe(200);
    expect(list.body.items.map((m: any) => [m.id, m.state])).toEqual([
      [newer, 'new'],
      [older, 'new'],
    ]);
    expect(list.body.items[0].preview).toBe(`About Newer ${tag}. Thank you.`);

    const opened = await t.api(`/api/admin/messages/${newer}`, { headers: manager.headers });
    expect(opened.status, opened.text).toBe(200);
    expect(opened.body).toMatchObject({ id: newer, state: 'read', message: `About Newer ${tag}.\nThank you.`, replies: [] });
    const readAt = opened.body.readAt;
    expect(readAt).toEqual(expect.any(String));
    // A later opening keeps the first time.
    expect((await t.api(`/api/admin/messages/${newer}`, { headers: owner.headers })).body.readAt).toBe(readAt);

    // Unread first: the older, unopened one now leads; newest first puts the newer one back on top.
    expect((await t.api(`/api/admin/messages?q=${tag}`, { headers: manager.headers })).body.items.map((m: any) => m.id)).toEqual([older, newer]);
    expect((await t.api(`/api/admin/messages?q=${tag}&sort=newest`, { headers: manager.headers })).body.items.map((m: any) => m.id)).toEqual([newer, older]);
    expect((await t.api(`/api/admin/messages?q=${tag}&state=read`, { headers: manager.headers })).body.items.map((m: any) => m.id)).toEqual([newer]);
    expect((await t.api(`/api/admin/messages?q=${tag}&state=new`, { headers: manager.headers })).body.items.map((m: any) => m.id)).toEqual([older]);
    expect((await t.api(`/api/admin/messages?q=OLDER ${tag}`, { headers: manager.headers })).body.items.map((m: any) => m.id)).toEqual([older]);
    expectApiError(await t.api('/api/admin/messages/999999', { headers: manager.headers }), 404);
  });

  it('answers a message by mail to the sender, Reply-To the support address, and shows the answer under it', async () => {
    const sender = `reply.${tag}@example.com`;
    const id = await contact(`Sofa to Sylhet ${tag}`, sender);
    const before = smtp.mails.length;
    const res = await t.api(`/api/admin/messages/${id}/replies`, {
      method: 'POST',
      json: { body: '  Yes, we deliver to Sylhet.\n\nIt takes 3 to 7 days.  ' },
      headers: manager.headers,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ id, state: 'answered', answeredAt: expect.any(String), readAt: expect.any(String) });
    expect(res.body.replies).toEqual([
      {
        id: expect.any(Number),
        body: 'Yes, we deliver to Sylhet.\n\nIt takes 3 to 7 days.',
        staffName: 'Test manager',
        createdAt: expect.any(String),
        mailId: expect.any(Number),
        mailState: 'sent',
      },
    ]);

    const received = await smtp.waitForMail((m) => m.to.includes(sender), before);
    const mail = await simpleParser(received.raw);
    expect(mail.subject).toBe(`Re: Sofa to Sylhet ${tag}`);
    expect(mail.replyTo?.text).toBe(support);
    expect(mail.from?.text).toContain('no-reply@nibash.test');
    expect(mail.text).toContain('Dear Farhana Akter,');
    expect(mail.text).toContain('Yes, we deliver to Sylhet.');
    expect(mail.text).toContain('Test manager, ');
    // The sender's own words quoted below.
    expect(mail.text).toContain(`About Sofa to Sylhet ${tag}.`);
    expect(mail.html).toContain('It takes 3 to 7 days.');

    expect(await audits('contact_message', id)).toContainEqual({ action: 'contact_reply', staff_email: manager.email });
    expect((await t.api(`/api/admin/messages?q=${tag}&state=answered`, { headers: manager.headers })).body.items.map((m: any) => m.id)).toContain(id);
    // Opening it again shows the thread.
    expect((await t.api(`/api/admin/messages/${id}`, { headers: owner.headers })).body.replies).toHaveLength(1);
  });

  it('refuses an empty or too long answer with a message on the field, and sends nothing', async () => {
    const id = await contact(`Empty ${tag}`);
    const outbox = await t.db.kysely
      .selectFrom('mail_outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    for (const body of ['', '   \n  ']) {
      const res = await t.api(`/api/admin/messages/${id}/replies`, { method: 'POST', json: { body }, headers: manager.headers });
      expectApiError(res, 400, 'validation_error');
      expect(res.body.error.fields).toEqual({ body: 'Please write your answer' });
    }
    const long = await t.api(`/api/admin/messages/${id}/replies`, { method: 'POST', json: { body: 'x'.repeat(10_001) }, headers: manager.headers });
    expectApiError(long, 400, 'validation_error');
    expect(long.body.error.fields.body).toMatch(/under 10,000 characters/);
    expectApiError(await t.api(`/api/admin/messages/${id}/replies`, { method: 'POST', json: {}, headers: manager.headers }), 400);
    expectApiError(await t.api('/api/admin/messages/999999/replies', { method: 'POST', json: { body: 'Hello' }, headers: manager.headers }), 404);
    const after = await t.db.kysely
      .selectFrom('mail_outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(outbox.n));
    expect((await t.api(`/api/admin/messages/${id}`, { headers: manager.headers })).body).toMatchObject({ state: 'read', replies: [] });
  });
});

describe('the mail outbox', () => {
  it('says SMTP is configured and sends a test mail to the staff member’s own address by default', async () => {
    const status = await t.api('/api/admin/mail/status', { headers: owner.headers });
    expect(status.status, status.text).toBe(200);
    expect(status.body).toMatchObject({ smtpConfigured: true, from: 'Nibash <no-reply@nibash.test>', maxAttempts: MAX_ATTEMPTS });

    const before = smtp.mails.length;
    const res = await t.api('/api/admin/mail/test', { method: 'POST', json: {}, headers: owner.headers });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ to: owner.email, state: 'sent', attempts: 1, lastError: null });
    const mail = await simpleParser((await smtp.waitForMail((m) => m.to.includes(owner.email), before)).raw);
    expect(mail.subject).toMatch(/^Test mail from /);
    expect(mail.text).toContain('Test owner sent this mail from the back office');
    expect(await audits('mail', res.body.id)).toEqual([{ action: 'mail_test', staff_email: owner.email }]);

    const other = await t.api('/api/admin/mail/test', { method: 'POST', json: { to: ` someone.${tag}@example.com ` }, headers: owner.headers });
    expect(other.body).toMatchObject({ to: `someone.${tag}@example.com`, state: 'sent' });
  });

  it('refuses a test mail to something that is not an address', async () => {
    for (const to of ['not-an-address', 'a@b', `x@example.com\r\nBcc: all@example.com`]) {
      const res = await t.api('/api/admin/mail/test', { method: 'POST', json: { to }, headers: owner.headers });
      expectApiError(res, 400, 'validation_error');
      expect(res.body.error.fields).toEqual({ to: 'Please give a correct email address' });
    }
  });

  it('shows a mail the SMTP server refuses as waiting with its error, then failed; a retry puts it back and delivers it', async () => {
    const to = `bounce-${tag}@example.com`;
    refusing = true;
    const res = await t.api('/api/admin/mail/test', { method: 'POST', json: { to }, headers: owner.headers });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ state: 'waiting', attempts: 1, lastError: expect.stringMatching(/550/) });

    // The worker's next attempts (a timer in production, called here), refused each time.
    for (let i = 1; i < MAX_ATTEMPTS; i++) await t.app.mailer.flush();
    const failed = await t.api(`/api/admin/mail?state=failed&q=BOUNCE-${tag}`, { headers: owner.headers });
    expect(failed.status, failed.text).toBe(200);
    expect(failed.body.items).toEqual([
      expect.objectContaining({ id: res.body.id, to, state: 'failed', attempts: MAX_ATTEMPTS, lastError: expect.stringMatching(/550/) }),
    ]);
    expect((await t.api(`/api/admin/mail?state=waiting&q=bounce-${tag}`, { headers: owner.headers })).body.total).toBe(0);
    expect((await t.api('/api/admin/mail/status', { headers: owner.headers })).body.failed).toBeGreaterThanOrEqual(1);
    // Given up: the worker no longer tries it.
    await t.app.mailer.flush();
    expect((await t.api(`/api/admin/mail/${res.body.id}`, { headers: owner.headers })).body.attempts).toBe(MAX_ATTEMPTS);

    // The mailbox is fixed; staff put the mail back and it goes at once.
    refusing = false;
    const before = smtp.mails.length;
    const retried = await t.api(`/api/admin/mail/${res.body.id}/retry`, { method: 'POST', headers: owner.headers });
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body).toMatchObject({ id: res.body.id, state: 'sent', attempts: 1, sentAt: expect.any(String) });
    await smtp.waitForMail((m) => m.to.includes(to), before);
    expect(await audits('mail', res.body.id)).toEqual([
      { action: 'mail_test', staff_email: owner.email },
      { action: 'mail_retry', staff_email: owner.email },
    ]);
    expectApiError(await t.api(`/api/admin/mail/${res.body.id}/retry`, { method: 'POST', headers: owner.headers }), 409, 'already_sent');
    expectApiError(await t.api('/api/admin/mail/999999/retry', { method: 'POST', headers: owner.headers }), 404);
  });

  it('opens a mail with its text and HTML, hiding the credential of a password-reset link', async () => {
    const c = await signUp(t);
    expect((await t.api('/api/forgot', { method: 'POST', json: { email: c.email }, headers: { 'x-forwarded-for': uniqueIp() } })).status).toBe(200);
    let row: { id: number; text_body: string } | undefined;
    for (let i = 0; i < 50 && !row; i++) {
      row = await t.db.kysely.selectFrom('mail_outbox').select(['id', 'text_body']).where('to_address', '=', c.email).executeTakeFirst();
      if (!row) await new Promise((r) => setTimeout(r, 50));
    }
    const token = /token=([^\s&]+)/.exec(row!.text_body)![1];
    const res = await t.api(`/api/admin/mail/${row!.id}`, { headers: owner.headers });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ to: c.email, subject: 'Reset your password', redacted: true });
    expect(res.body.text).toContain('/reset-password?token=[hidden]');
    expect(res.text).not.toContain(token);

    const test = await t.api('/api/admin/mail/test', { method: 'POST', json: {}, headers: owner.headers });
    const opened = await t.api(`/api/admin/mail/${test.body.id}`, { headers: owner.headers });
    expect(opened.body.html).toMatch(/^<!doctype html>/);
    expect(opened.body.redacted).toBe(false);
  });

  it('is the owners’: a manager may neither read nor retry it', async () => {
    expectApiError(await t.api('/api/admin/mail', { headers: manager.headers }), 403, 'forbidden');
    expectApiError(await t.api('/api/admin/mail/1', { headers: manager.headers }), 403, 'forbidden');
  });
});
