import { ACCOUNT_MESSAGES } from '@storefront/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { expectApiError } from './helpers/assertions.ts';
import { signIn, signUp, uniqueEmail, uniqueIp } from './helpers/accounts.ts';
import { type ReceivedMail, startSmtpSink, type SmtpSink } from './helpers/smtp-sink.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// Forgot password: the reset mail really goes out over SMTP (to an SMTP server running in
// this process), its link sets a new password once, and every session ends.

let t: TestApp;
let smtp: SmtpSink;
const FROM = 'Nibash Furniture <no-reply@nibash.test>';

beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await startTestApp({ config: { trustProxy: true, publicUrl: 'https://shop.example', mail: { ...loadConfig({}).mail, smtpUrl: smtp.url, from: FROM } } });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const forgot = (email: string, ip = uniqueIp()) => t.api('/api/forgot', { method: 'POST', json: { email }, headers: { 'x-forwarded-for': ip } });
const reset = (token: string, password: string) => t.api('/api/forgot/reset', { method: 'POST', json: { token, password } });

/** A reset mail to this address (not a mail another test's delivery brought meanwhile). */
const resetMailTo = (email: string) => (m: ReceivedMail) => m.to.includes(email) && /reset-password\?token=/.test(m.body);

/** The reset token in a received mail's link. */
function tokenIn(body: string): string {
  const m = body.match(/https:\/\/shop\.example\/reset-password\?token=([A-Za-z0-9_-]+)/);
  if (!m) throw new Error(`no reset link in:\n${body}`);
  return m[1];
}

describe('POST /api/forgot and /api/forgot/reset', () => {
  it('mails a reset link through SMTP; the link sets a new password once and ends every session', async () => {
    const c = await signUp(t);
    const other = (await signIn(t, c.email, c.password)).body.authToken;
    const before = smtp.mails.length;
    const res = await forgot(c.email.toUpperCase());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: ACCOUNT_MESSAGES.resetSent });

    const mail = await smtp.waitForMail(resetMailTo(c.email), before);
    expect(mail.to).toEqual([c.email]);
    expect(mail.headers.subject).toBe('Reset your password');
    expect(mail.headers.from).toContain('no-reply@nibash.test');
    expect(mail.body).toContain(`Hello ${c.fullName}`);
    const token = tokenIn(mail.body);
    // Only the token's hash is kept.
    const rows = await t.db.kysely.selectFrom('password_resets').select('token_hash').execute();
    expect(JSON.stringify(rows)).not.toContain(token);

    const done = await reset(token, 'brand-new-pass');
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ message: ACCOUNT_MESSAGES.passwordReset });
    expectApiError(await t.api('/api/customers', { headers: c.auth }), 401);
    expectApiError(await t.api('/api/customers', { headers: { 'x-auth-token': other } }), 401);
    expectApiError(await signIn(t, c.email, c.password), 401);
    expect((await signIn(t, c.email, 'brand-new-pass')).status).toBe(200);

    // The link works once.
    const again = await reset(token, 'another-pass-1');
    expectApiError(again, 400, 'invalid_token');
    expect(again.body.error.message).toBe(ACCOUNT_MESSAGES.resetInvalid);
  });

  it('answers the same for an unknown email and sends nothing', async () => {
    const c = await signUp(t);
    const before = smtp.mails.length;
    const known = await forgot(c.email);
    await smtp.waitFor(before + 1);
    const count = smtp.mails.length;
    const unknown = await forgot(uniqueEmail('nobody'));
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.mails.length).toBe(count);
  });

  it('only the newest link works, and an expired one does not', async () => {
    const c = await signUp(t);
    const before = smtp.mails.length;
    await forgot(c.email);
    await forgot(c.email);
    const first = await smtp.waitForMail(resetMailTo(c.email), before);
    const second = await smtp.waitForMail((m) => m !== first && resetMailTo(c.email)(m), before);
    const mails = [first, second];
    const tokens = mails.map((m) => tokenIn(m.body));
    // The mails may arrive in either order: exactly one of the two links still works.
    const rows = await t.db.kysely
      .selectFrom('password_resets')
      .innerJoin('customers', 'customers.id', 'password_resets.customer_id')
      .select(['password_resets.used_at'])
      .where('customers.email', '=', c.email)
      .execute();
    expect(rows.filter((r) => r.used_at === null)).toHaveLength(1);
    const results = [];
    for (const tk of tokens) results.push((await reset(tk, 'newest-pass-1')).status);
    expect(results.sort()).toEqual([200, 400]);

    // An expired link.
    const b = smtp.mails.length;
    await forgot(c.email);
    const mail = await smtp.waitForMail(resetMailTo(c.email), b);
    await t.db.kysely
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('used_at', 'is', null)
      .execute();
    expectApiError(await reset(tokenIn(mail.body), 'expired-pass-1'), 400, 'invalid_token');
  });

  it('checks the email and the new password with the shared rules', async () => {
    const bad = await forgot('not-an-email');
    expectApiError(bad, 400, 'validation_error');
    expect(bad.body.error.fields).toEqual({ email: 'Please Give a Correct Email' });
    const short = await reset('x'.repeat(43), 'abc');
    expectApiError(short, 400, 'validation_error');
    expect(short.body.error.fields).toEqual({ password: 'Password Must Be More Than Six Character' });
    expectApiError(await reset('not-a-token', 'long-enough-1'), 400, 'invalid_token');
  });

  it('limits reset mails per email (429 with Retry-After), whether or not the account exists', async () => {
    for (const email of [(await signUp(t)).email, uniqueEmail('ghost')]) {
      for (let i = 0; i < 3; i++) expect((await forgot(email)).status).toBe(200);
      const res = await forgot(email);
      expectApiError(res, 429, 'rate_limited');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('a reset unlocks an account locked by wrong guesses', async () => {
    const c = await signUp(t);
    for (let i = 0; i < t.app.config.accounts.signInPerAccount; i++) await signIn(t, c.email, 'wrong-guess');
    expectApiError(await signIn(t, c.email, c.password), 429);
    const before = smtp.mails.length;
    await forgot(c.email);
    const mail = await smtp.waitForMail(resetMailTo(c.email), before);
    expect((await reset(tokenIn(mail.body), 'unlocked-pass-1')).status).toBe(200);
    expect((await signIn(t, c.email, 'unlocked-pass-1')).status).toBe(200);
  });
});
