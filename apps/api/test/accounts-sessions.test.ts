import type { AddressInfo } from 'node:net';
import { MESSAGES } from '@storefront/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { openDb } from '../src/db/database.ts';
import { tokenHash } from '../src/modules/accounts/tokens.ts';
import { expectApiError } from './helpers/assertions.ts';
import { signIn, signUp, uniqueEmail, uniqueIp, uniqueMobile } from './helpers/accounts.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// Sign-up, sign-in, sessions and sign-in limits, over real HTTP on a real
// database. The app trusts X-Forwarded-For here so each test has a client address of its own.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ config: { trustProxy: true } });
});
afterAll(() => t?.close());

const signup = (body: Record<string, unknown>, ip = uniqueIp()) =>
  t.api('/api/signup', { method: 'POST', json: { source: 'DEFAULT', type: 'DEFAULT', ...body }, headers: { 'x-forwarded-for': ip } });

describe('POST /api/signup', () => {
  it('creates the account, signs it in and answers a user with authToken and profile', async () => {
    const email = uniqueEmail();
    const res = await signup({ fullName: '  Karim  Ahmed ', email, mobile: '01811-223344', password: 'secret-pass' });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({
      fullName: 'Karim  Ahmed',
      email,
      mobile: '+8801811223344',
      imageUrl: null,
      subscriptionStatus: 'NOT_SUBSCRIBED',
      profile: { name: 'Karim  Ahmed', userId: res.body.userId, imageUrl: null, subscriptionStatus: 'NOT_SUBSCRIBED' },
    });
    expect(res.body.userId).toMatch(/^[0-9a-f-]{36}$/);
    // 256 random bits, base64url; only its hash is stored.
    expect(res.body.authToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.headers.get('set-cookie')).toBeNull();
    const me = await t.api('/api/customers', { headers: { 'x-auth-token': res.body.authToken } });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(email);
    const stored = await t.db.kysely.selectFrom('customer_sessions').select('token_hash').execute();
    expect(stored.map((s) => s.token_hash)).toContain(tokenHash(res.body.authToken));
    expect(JSON.stringify(stored)).not.toContain(res.body.authToken);
  });

  it('stores the password as argon2id with at least 19 MiB, 2 passes, 1 lane', async () => {
    const c = await signUp(t);
    const row = await t.db.kysely.selectFrom('customers').select('password_hash').where('user_id', '=', c.userId).executeTakeFirstOrThrow();
    const m = row.password_hash.match(/^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/);
    expect(m).not.toBeNull();
    expect(Number(m![1])).toBeGreaterThanOrEqual(19 * 1024);
    expect(Number(m![2])).toBeGreaterThanOrEqual(2);
    expect(Number(m![3])).toBe(1);
    expect(row.password_hash).not.toContain(c.password);
  });

  it('refuses a bad form with the spec §5 messages, in order, field by field', async () => {
    const res = await signup({ fullName: '', email: 'not-an-email', mobile: '', password: 'abc' });
    expectApiError(res, 400, 'validation_error');
    expect(res.body.error.message).toBe(MESSAGES.signUp.fullNameRequired);
    expect(res.body.error.fields).toEqual({
      fullName: 'Please Give Your First Name',
      email: 'Please Give a Correct Email',
      mobile: 'Please Give Your Mobile No',
      password: 'Password Must Be More Than Six Character',
    });
    const blank = await signup({ fullName: 'A', email: ' ', mobile: '01711000000', password: '' });
    expect(blank.body.error.fields).toEqual({ email: 'Please Give Your Email', password: 'Please Give A Password' });
  });

  it('refuses missing fields and other sources with a 400, never a 500', async () => {
    expectApiError(await signup({}), 400, 'validation_error');
    expectApiError(await signup({ fullName: 'A', email: uniqueEmail(), mobile: uniqueMobile(), password: 'secret-pass', source: 'GOOGLE' }), 400);
    expectApiError(await signup({ fullName: 'A', email: uniqueEmail(), mobile: uniqueMobile(), password: 'x'.repeat(10_000) }), 400);
  });

  it('answers 409 duplicate_email for an email taken in another letter case or Unicode form', async () => {
    const c = await signUp(t, { email: uniqueEmail('Taken') });
    for (const variant of [c.email.toUpperCase(), ` ${c.email} `, c.email.replace('@', '＠').replace('e', 'ｅ')]) {
      const res = await signup({ fullName: 'B', email: variant, mobile: uniqueMobile(), password: 'secret-pass' });
      expectApiError(res, 409, 'duplicate_email');
      expect(res.body.error.message).toBe('Email already Used, Please Give an Another Email');
      expect(res.body.error.fields).toEqual({ email: MESSAGES.signUp.duplicateEmail });
    }
  });

  it('answers 409 duplicate_email for a mobile taken in another written form', async () => {
    const c = await signUp(t);
    const res = await signup({ fullName: 'B', email: uniqueEmail(), mobile: `+88${c.mobile}`, password: 'secret-pass' });
    expectApiError(res, 409, 'duplicate_email');
    expect(Object.keys(res.body.error.fields)).toEqual(['mobile']);
  });

  it('creates one account when the same email signs up ten times at once', async () => {
    const email = uniqueEmail();
    const results = await Promise.all(Array.from({ length: 10 }, () => signup({ fullName: 'Racer', email, mobile: uniqueMobile(), password: 'secret-pass' })));
    expect(results.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.error.code).toBe('duplicate_email');
    const rows = await t.db.kysely.selectFrom('customers').select('id').where('email_key', '=', email).execute();
    expect(rows).toHaveLength(1);
  });

  it('limits sign-ups per client address (429 with Retry-After)', async () => {
    const ip = uniqueIp();
    const limit = t.app.config.accounts.signUpPerAddress;
    for (let i = 0; i < limit; i++) {
      // Invalid forms are refused before counting; these are valid and count.
      expect((await signup({ fullName: 'N', email: uniqueEmail(), mobile: uniqueMobile(), password: 'secret-pass' }, ip)).status).toBe(201);
    }
    const res = await signup({ fullName: 'N', email: uniqueEmail(), mobile: uniqueMobile(), password: 'secret-pass' }, ip);
    expectApiError(res, 429, 'rate_limited');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('POST /api/signin/customers', () => {
  it('signs in with the email in any case or with the mobile in any usual form', async () => {
    const c = await signUp(t);
    for (const userName of [c.email, c.email.toUpperCase(), c.mobile, `+88${c.mobile}`, `${c.mobile.slice(0, 5)} ${c.mobile.slice(5)}`]) {
      const res = await signIn(t, userName, c.password);
      expect(res.status, userName).toBe(200);
      expect(res.body).toMatchObject({
        userId: c.userId,
        email: c.email,
        profile: { name: c.fullName, userId: c.userId, imageUrl: null, subscriptionStatus: 'NOT_SUBSCRIBED' },
      });
      expect(res.body.authToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(res.body.authToken).not.toBe(c.token);
    }
  });

  it('gives one answer for a wrong password and an unknown account', async () => {
    const c = await signUp(t);
    const wrong = await signIn(t, c.email, 'wrong-password');
    const unknown = await signIn(t, uniqueEmail(), 'wrong-password');
    expectApiError(wrong, 401, 'invalid_credentials');
    expectApiError(unknown, 401, 'invalid_credentials');
    expect(unknown.body).toEqual(wrong.body);
  });

  it('checks the spec §5 sign-in rules first', async () => {
    const res = await signIn(t, ' ', '123');
    expectApiError(res, 400, 'validation_error');
    expect(res.body.error.fields).toEqual({ userName: 'Please Give Your User Name', password: 'Password Must Be More Than Six Character' });
  });

  it('sets an httpOnly SameSite cookie and hides the token when the web app asks for a cookie session', async () => {
    const c = await signUp(t);
    const res = await t.api('/api/signin/customers', {
      method: 'POST',
      json: { source: 'DEFAULT', type: 'DEFAULT', userName: c.email, password: c.password },
      headers: { 'x-session-cookie': '1', 'x-forwarded-for': uniqueIp() },
    });
    expect(res.status).toBe(200);
    expect(res.body.authToken).toBe('');
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^sid=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).toMatch(/Expires=/);
    // Served over http here: no Secure flag (it is set when PUBLIC_URL is https).
    expect(cookie).not.toMatch(/Secure/i);
    const sid = cookie.split(';')[0];
    const me = await t.api('/api/customers', { headers: { cookie: sid } });
    expect(me.status).toBe(200);
    expect(me.body.userId).toBe(c.userId);
  });
});

describe('sessions', () => {
  it('answers 401 to a guest, a malformed token and an unknown token', async () => {
    expectApiError(await t.api('/api/customers'), 401, 'unauthorized');
    expectApiError(await t.api('/api/customers', { headers: { 'x-auth-token': 'nope' } }), 401);
    expectApiError(await t.api('/api/customers', { headers: { 'x-auth-token': 'A'.repeat(43) } }), 401);
    expectApiError(await t.api('/api/customers', { headers: { cookie: `sid=${'B'.repeat(43)}` } }), 401);
  });

  it('sign-out revokes the session on the server: the old token gets 401', async () => {
    const c = await signUp(t);
    const other = (await signIn(t, c.email, c.password)).body.authToken;
    const out = await t.api('/api/auth/signout', { method: 'POST', headers: c.auth });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ signedOut: true });
    expect(out.headers.get('set-cookie')).toMatch(/^sid=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/i);
    expectApiError(await t.api('/api/customers', { headers: c.auth }), 401);
    // Only that session: the customer's other session goes on.
    expect((await t.api('/api/customers', { headers: { 'x-auth-token': other } })).status).toBe(200);
    const row = await t.db.kysely.selectFrom('customer_sessions').select('revoked_at').where('token_hash', '=', tokenHash(c.token)).executeTakeFirstOrThrow();
    expect(row.revoked_at).not.toBeNull();
  });

  it('sign-out answers 200 whatever else happens: no session, a revoked one, twice', async () => {
    const c = await signUp(t);
    expect((await t.api('/api/auth/signout', { method: 'POST' })).status).toBe(200);
    expect((await t.api('/api/auth/signout', { method: 'POST', headers: c.auth })).status).toBe(200);
    expect((await t.api('/api/auth/signout', { method: 'POST', headers: c.auth })).status).toBe(200);
  });

  it('a cookie session signs out too, and its cookie is cleared', async () => {
    const c = await signUp(t);
    const res = await t.api('/api/signin/customers', {
      method: 'POST',
      json: { userName: c.email, password: c.password },
      headers: { 'x-session-cookie': '1', 'x-forwarded-for': uniqueIp() },
    });
    const sid = res.headers.get('set-cookie')!.split(';')[0];
    const out = await t.api('/api/auth/signout', { method: 'POST', headers: { cookie: sid } });
    expect(out.headers.get('set-cookie')).toMatch(/^sid=;/);
    expectApiError(await t.api('/api/customers', { headers: { cookie: sid } }), 401);
  });

  it('a session unused for longer than the idle lifetime has ended', async () => {
    const c = await signUp(t);
    const idle = t.app.config.accounts.sessionIdleMs;
    await t.db.kysely
      .updateTable('customer_sessions')
      .set({ last_seen_at: new Date(Date.now() - idle - 60_000).toISOString() })
      .where('token_hash', '=', tokenHash(c.token))
      .execute();
    expectApiError(await t.api('/api/customers', { headers: c.auth }), 401);
  });

  it('a session past its absolute expiry has ended, however recently it was used', async () => {
    const c = await signUp(t);
    await t.db.kysely
      .updateTable('customer_sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString(), last_seen_at: new Date().toISOString() })
      .where('token_hash', '=', tokenHash(c.token))
      .execute();
    expectApiError(await t.api('/api/customers', { headers: c.auth }), 401);
  });

  it('use keeps a session alive: last_seen_at moves forward', async () => {
    const c = await signUp(t);
    const old = new Date(Date.now() - 3 * 86_400_000).toISOString();
    await t.db.kysely.updateTable('customer_sessions').set({ last_seen_at: old }).where('token_hash', '=', tokenHash(c.token)).execute();
    expect((await t.api('/api/customers', { headers: c.auth })).status).toBe(200);
    const row = await t.db.kysely.selectFrom('customer_sessions').select('last_seen_at').where('token_hash', '=', tokenHash(c.token)).executeTakeFirstOrThrow();
    expect(row.last_seen_at > old).toBe(true);
  });
});

describe('sign-in limits', () => {
  it('blocks an account after 5 failed sign-ins with 429 and Retry-After, even for the right password', async () => {
    const c = await signUp(t);
    const limit = t.app.config.accounts.signInPerAccount;
    for (let i = 0; i < limit; i++) expect((await signIn(t, c.email, 'wrong-password')).status).toBe(401);
    // Another address, another way of naming the account: still the same account.
    const blocked = await signIn(t, c.mobile, c.password);
    expectApiError(blocked, 429, 'rate_limited');
    const retry = Number(blocked.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(t.app.config.accounts.limitWindowMs / 1000);
  });

  it('a good sign-in before the limit starts the account afresh', async () => {
    const c = await signUp(t);
    const limit = t.app.config.accounts.signInPerAccount;
    for (let i = 0; i < limit - 1; i++) expect((await signIn(t, c.email, 'wrong-password')).status).toBe(401);
    expect((await signIn(t, c.email, c.password)).status).toBe(200);
    for (let i = 0; i < limit - 1; i++) expect((await signIn(t, c.email, 'wrong-password')).status).toBe(401);
    expect((await signIn(t, c.email, c.password)).status).toBe(200);
  });

  it('blocks a client address after 50 failed sign-ins across many accounts', async () => {
    const ip = uniqueIp();
    const limit = t.app.config.accounts.signInPerAddress;
    const names = Array.from({ length: limit }, () => uniqueEmail('nobody'));
    // Ten at a time: the counter is one atomic upsert, so none is lost when they race.
    for (let i = 0; i < names.length; i += 10) {
      const batch = await Promise.all(names.slice(i, i + 10).map((n) => signIn(t, n, 'wrong-password', ip)));
      for (const r of batch) expect(r.status).toBe(401);
    }
    const c = await signUp(t);
    expectApiError(await signIn(t, c.email, c.password, ip), 429, 'rate_limited');
    // Another address is not affected.
    expect((await signIn(t, c.email, c.password)).status).toBe(200);
  });

  it('the limit survives a restart of the server process', async () => {
    const c = await signUp(t);
    const limit = t.app.config.accounts.signInPerAccount;
    for (let i = 0; i < limit; i++) expect((await signIn(t, c.email, 'wrong-password')).status).toBe(401);
    // A second, freshly started server process on the same database: a new pool, a new
    // app, nothing kept in memory from the first.
    const db = openDb(t.app.config.db);
    const app = await buildApp({ config: t.app.config, db, logger: false });
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = app.server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/api/signin/customers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': t.app.config.apiKey, 'x-forwarded-for': uniqueIp() },
        body: JSON.stringify({ userName: c.email, password: c.password }),
      });
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await app.close();
      await db.destroy();
    }
  });
});
