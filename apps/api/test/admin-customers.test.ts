import { ACCOUNT_BLOCKED_MESSAGE } from '@storefront/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { signIn, signUp, type TestCustomer, uniqueEmail, uniqueIp, uniqueMobile } from './helpers/accounts.ts';
import { expectApiError } from './helpers/assertions.ts';
import { ADDRESS, checkout, checkoutBody, plainSkus, setStock, type TestSku } from './helpers/checkout.ts';
import { type ReceivedMail, startSmtpSink, type SmtpSink } from './helpers/smtp-sink.ts';
import { signedInStaff, type TestStaff } from './helpers/staff.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// The back office's customers (docs/decisions/0032) over real HTTP on a real database:
// finding a customer, reading one (never their secrets, always audited), blocking their
// sign-in and every session, mailing them the shop's reset link, and the guest orders a new
// account takes over only when both its email and its mobile match.

let t: TestApp;
let smtp: SmtpSink;
let owner: TestStaff;
let manager: TestStaff;
let skus: TestSku[];
const FROM = 'Nibash Furniture <no-reply@nibash.test>';

beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await startTestApp({ config: { trustProxy: true, publicUrl: 'https://shop.example', mail: { ...loadConfig({}).mail, smtpUrl: smtp.url, from: FROM } } });
  owner = await signedInStaff(t, 'owner');
  manager = await signedInStaff(t, 'manager');
  skus = await plainSkus(t.db.kysely, 3, 60);
  for (const s of skus) await setStock(t.db.kysely, s.id, [50]);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const admin = (path: string, staff: TestStaff = manager, init: { method?: string; json?: unknown } = {}) =>
  t.api(path, { ...init, headers: { ...staff.headers, 'x-forwarded-for': uniqueIp() } });

/** The customer's id as the back office knows it. */
async function idOf(c: TestCustomer): Promise<number> {
  const res = await admin(`/api/admin/customers?q=${encodeURIComponent(c.email)}`);
  expect(res.status, res.text).toBe(200);
  const row = res.body.items.find((r: any) => r.userId === c.userId);
  expect(row, `${c.email} in the list`).toBeTruthy();
  return row.id;
}

const block = (id: number, json: unknown, staff = manager) => admin(`/api/admin/customers/${id}`, staff, { method: 'PATCH', json });

/** A reset mail to this address with its link's token. */
async function resetTokenMailedTo(email: string, after: number): Promise<string> {
  const mail = await smtp.waitForMail((m: ReceivedMail) => m.to.includes(email) && /reset-password\?token=/.test(m.body), after);
  const m = mail.body.match(/https:\/\/shop\.example\/reset-password\?token=([A-Za-z0-9_-]+)/);
  if (!m) throw new Error(`no reset link in:\n${mail.body}`);
  return m[1];
}

describe('GET /api/admin/customers', () => {
  it('finds a customer by a part of the name or email in any case, and by the mobile as 017… or +88017…', async () => {
    const tag = Math.random().toString(36).slice(2, 8);
    const a = await signUp(t, { fullName: `Shirin Akhter ${tag}` });
    const b = await signUp(t, { fullName: `Tanvir Hasan ${tag}` });
    const ids = async (q: string, more = '') => (await admin(`/api/admin/customers?q=${encodeURIComponent(q)}${more}`)).body.items.map((r: any) => r.userId);

    expect(await ids(`shirin akhter ${tag}`)).toEqual([a.userId]);
    expect((await ids(tag.toUpperCase())).sort()).toEqual([a.userId, b.userId].sort());
    expect(await ids(a.email.toUpperCase())).toEqual([a.userId]);
    expect(await ids(a.email.split('@')[0])).toEqual([a.userId]);
    expect(await ids(b.mobile)).toEqual([b.userId]);
    expect(await ids(`+88${b.mobile}`)).toEqual([b.userId]);
    expect(await ids(`+88 ${b.mobile.slice(0, 5)}-${b.mobile.slice(5)}`)).toEqual([b.userId]);
    expect(await ids(b.mobile.slice(3))).toEqual([b.userId]);
    // LIKE's own wildcards are taken literally.
    expect(await ids('%')).toEqual([]);

    const res = await admin(`/api/admin/customers?q=${tag}&sort=name&size=1`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ total: 2, page: 1, size: 1 });
    expect(res.body.items).toEqual([
      {
        id: expect.any(Number),
        userId: a.userId,
        fullName: a.fullName,
        email: a.email,
        mobile: `+88${a.mobile}`,
        createdAt: expect.any(String),
        blocked: false,
        orderCount: 0,
      },
    ]);
    const second = await admin(`/api/admin/customers?q=${tag}&sort=name&size=1&page=2`);
    expect(second.body.items.map((r: any) => r.userId)).toEqual([b.userId]);
    const newest = await admin(`/api/admin/customers?q=${tag}`);
    expect(newest.body.items.map((r: any) => r.userId)).toEqual([b.userId, a.userId]);

    await block(await idOf(a), { blocked: true });
    expect(await ids(tag, '&blocked=true')).toEqual([a.userId]);
    expect(await ids(tag, '&blocked=false')).toEqual([b.userId]);
  });

  it('refuses a size beyond the limit and an unknown sort with 400', async () => {
    expectApiError(await admin('/api/admin/customers?size=1000'), 400);
    expectApiError(await admin('/api/admin/customers?sort=password'), 400);
  });
});

describe('GET /api/admin/customers/:id', () => {
  it('shows the profile, orders, addresses, newsletter and sessions, and never a password or token', async () => {
    const c = await signUp(t);
    const id = await idOf(c);
    const placed = await checkout(t, { ...checkoutBody([{ skuCode: skus[0].code, quantity: 1 }]), contact: undefined }, c.auth);
    expect(placed.status, placed.text).toBe(201);
    const saved = await t.api('/api/addresses', { method: 'POST', json: { ...ADDRESS, label: 'Home', isDefault: true }, headers: c.auth });
    expect(saved.status, saved.text).toBe(201);
    const sub = await t.api('/api/emails/subscriptions', {
      method: 'POST',
      json: { userId: c.userId, email: c.email, extras: { offer: 'First order', type: 'first-time' } },
    });
    expect(sub.status, sub.text).toBeLessThan(300);

    const res = await admin(`/api/admin/customers/${id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({
      id,
      userId: c.userId,
      fullName: c.fullName,
      email: c.email,
      mobile: `+88${c.mobile}`,
      blocked: false,
      blockedAt: null,
      blockedReason: null,
      activeSessions: 1,
      subscribed: true,
      orderCount: 1,
    });
    expect(res.body.orders).toEqual([
      {
        id: expect.any(Number),
        invoiceId: placed.body.invoiceId,
        kind: 'order',
        status: placed.body.sale.status,
        paymentStatus: placed.body.sale.paymentStatus,
        total: placed.body.sale.total,
        createdAt: expect.any(String),
      },
    ]);
    expect(res.body.addresses).toHaveLength(1);
    expect(res.body.addresses[0]).toMatchObject({ fullName: ADDRESS.fullName, area: ADDRESS.area, label: 'Home', isDefault: true });

    // Nothing secret, by name or by value.
    const row = await t.db.kysely.selectFrom('customers').select('password_hash').where('id', '=', id).executeTakeFirstOrThrow();
    const sessions = await t.db.kysely.selectFrom('customer_sessions').select('token_hash').where('customer_id', '=', id).execute();
    for (const secret of [row.password_hash, c.token, c.password, ...sessions.map((s) => s.token_hash)]) expect(res.text).not.toContain(secret);
    expect(res.text).not.toMatch(/password|token|hash|argon2/i);

    // The read is in the audit log, by whom.
    const audit = await admin(`/api/admin/audit?entity=customer&entityId=${id}`, owner);
    expect(audit.status, audit.text).toBe(200);
    expect(audit.body.items).toContainEqual(expect.objectContaining({ action: 'read', entity: 'customer', entityId: String(id), staffEmail: manager.email }));
  });

  it('answers 404 for an unknown customer and writes no audit entry', async () => {
    const before = await admin('/api/admin/audit?entity=customer&entityId=999999', owner);
    expectApiError(await admin('/api/admin/customers/999999'), 404, 'not_found');
    const after = await admin('/api/admin/audit?entity=customer&entityId=999999', owner);
    expect(after.body.total).toBe(before.body.total);
  });
});

describe('blocking a customer', () => {
  it('ends every session and refuses sign-in with the right password only; unblocking lets them in again', async () => {
    const c = await signUp(t);
    const id = await idOf(c);
    const second = await signIn(t, c.email, c.password);
    expect(second.status).toBe(200);
    expect((await t.api('/api/customers', { headers: c.auth })).status).toBe(200);

    const res = await block(id, { blocked: true, reason: '  Abusive calls to the showroom  ' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id, blocked: true, blockedAt: expect.any(String), blockedReason: 'Abusive calls to the showroom', revokedSessions: 2 });

    expectApiError(await t.api('/api/customers', { headers: c.auth }), 401);
    expectApiError(await t.api('/api/customers', { headers: { 'x-auth-token': second.body.authToken } }), 401);
    const refused = await signIn(t, c.email, c.password);
    expectApiError(refused, 403, 'account_blocked');
    expect(refused.body.error.message).toBe(ACCOUNT_BLOCKED_MESSAGE);
    expect(refused.headers.get('set-cookie')).toBeNull();
    // A wrong password gets the ordinary answer: a block does not show itself to a guesser.
    expectApiError(await signIn(t, c.email, 'not-the-password'), 401, 'invalid_credentials');
    expectApiError(await signIn(t, `+88${c.mobile}`, 'not-the-password'), 401, 'invalid_credentials');
    expect(await t.db.kysely.selectFrom('customer_sessions').select('id').where('customer_id', '=', id).where('revoked_at', 'is', null).execute()).toEqual([]);

    const detail = await admin(`/api/admin/customers/${id}`);
    expect(detail.body).toMatchObject({ blocked: true, blockedReason: 'Abusive calls to the showroom', activeSessions: 0 });

    const audit = await admin(`/api/admin/audit?entity=customer&entityId=${id}`, owner);
    expect(audit.body.items).toContainEqual(
      expect.objectContaining({
        action: 'block',
        staffEmail: manager.email,
        diff: { blocked: [false, true], blockedReason: [null, 'Abusive calls to the showroom'] },
      }),
    );

    const lifted = await block(id, { blocked: false });
    expect(lifted.status, lifted.text).toBe(200);
    expect(lifted.body).toMatchObject({ blocked: false, blockedAt: null, blockedReason: null, revokedSessions: 0 });
    const back = await signIn(t, c.email, c.password);
    expect(back.status, back.text).toBe(200);
    expect((await t.api('/api/customers', { headers: { 'x-auth-token': back.body.authToken } })).status).toBe(200);
    const audit2 = await admin(`/api/admin/audit?entity=customer&entityId=${id}`, owner);
    expect(audit2.body.items[0]).toMatchObject({ action: 'unblock', diff: { blocked: [true, false], blockedReason: ['Abusive calls to the showroom', null] } });
  });

  it('refuses a reason over 200 characters and an unknown customer', async () => {
    const c = await signUp(t);
    const id = await idOf(c);
    expectApiError(await block(id, { blocked: true, reason: 'x'.repeat(201) }), 400);
    expectApiError(await block(id, { reason: 'no flag' }), 400);
    expectApiError(await block(999999, { blocked: true }), 404, 'not_found');
    expect((await t.api('/api/customers', { headers: c.auth })).status).toBe(200);
  });

  it('is for those who manage customers: staff may read a customer but not block one', async () => {
    const c = await signUp(t);
    const id = await idOf(c);
    const staff = await signedInStaff(t, 'staff');
    expect((await admin(`/api/admin/customers/${id}`, staff)).status).toBe(200);
    expectApiError(await block(id, { blocked: true }, staff), 403, 'forbidden');
    expectApiError(await admin(`/api/admin/customers/${id}/password-reset`, staff, { method: 'POST' }), 403, 'forbidden');
    expect((await t.api('/api/customers', { headers: c.auth })).status).toBe(200);
  });
});

describe('POST /api/admin/customers/:id/password-reset', () => {
  it('mails the shop’s reset link, which sets a new password but does not lift a block', async () => {
    const c = await signUp(t);
    const id = await idOf(c);
    expect((await block(id, { blocked: true, reason: 'Checking the account' })).status).toBe(200);

    const before = smtp.mails.length;
    const res = await admin(`/api/admin/customers/${id}/password-reset`, manager, { method: 'POST' });
    expect(res.status, res.text).toBe(202);
    expect(res.text).not.toMatch(/token/i);
    const token = await resetTokenMailedTo(c.email, before);
    expect(res.text).not.toContain(token);

    const done = await t.api('/api/forgot/reset', { method: 'POST', json: { token, password: 'brand-new-pass' } });
    expect(done.status, done.text).toBe(200);
    expectApiError(await signIn(t, c.email, 'brand-new-pass'), 403, 'account_blocked');
    expect((await admin(`/api/admin/customers/${id}`)).body.blocked).toBe(true);

    expect((await block(id, { blocked: false })).status).toBe(200);
    expect((await signIn(t, c.email, 'brand-new-pass')).status).toBe(200);

    const audit = await admin(`/api/admin/audit?entity=customer&entityId=${id}`, owner);
    expect(audit.body.items.map((e: any) => e.action)).toContain('password_reset_mail');
  });

  it('answers 404 for an unknown customer and mails nothing', async () => {
    const before = smtp.mails.length;
    expectApiError(await admin('/api/admin/customers/999999/password-reset', manager, { method: 'POST' }), 404, 'not_found');
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.mails.length).toBe(before);
  });
});

describe('signing up takes over earlier guest orders', () => {
  it('only those whose email and mobile both match the new account', async () => {
    const email = uniqueEmail('guest');
    const mobile = uniqueMobile();
    const place = async (contact: { email: string; mobile: string }) => {
      const res = await checkout(t, checkoutBody([{ skuCode: skus[1].code, quantity: 1 }], { contact: { name: 'Nusrat Jahan', ...contact } }), {
        'x-forwarded-for': uniqueIp(),
      });
      expect(res.status, res.text).toBe(201);
      return res.body.invoiceId as string;
    };
    // The guest typed the email in capitals and the mobile with the country code.
    const both = await place({ email: email.toUpperCase(), mobile: `+88${mobile}` });
    const emailOnly = await place({ email, mobile: uniqueMobile() });
    const mobileOnly = await place({ email: uniqueEmail('other'), mobile });

    const c = await signUp(t, { email, mobile });
    const id = await idOf(c);
    const detail = await admin(`/api/admin/customers/${id}`);
    expect(detail.body.orders.map((o: any) => o.invoiceId)).toEqual([both]);
    expect(detail.body.orderCount).toBe(1);

    const owners = await t.db.kysely
      .selectFrom('sales')
      .select(['invoice_id', 'customer_id'])
      .where('invoice_id', 'in', [both, emailOnly, mobileOnly])
      .execute();
    expect(Object.fromEntries(owners.map((o) => [o.invoice_id, o.customer_id]))).toEqual({ [both]: id, [emailOnly]: null, [mobileOnly]: null });

    // The account now opens that order, and still not the others.
    expect((await t.api(`/api/sales?invoiceId=${both}`, { headers: c.auth })).status).toBe(200);
    expectApiError(await t.api(`/api/sales?invoiceId=${emailOnly}`, { headers: c.auth }), 404);
    expectApiError(await t.api(`/api/sales?invoiceId=${mobileOnly}`, { headers: c.auth }), 404);
  });
});
