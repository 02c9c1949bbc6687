import { clientAddress } from '../src/lib/client-address.ts';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROLE_PERMISSIONS, STAFF_PASSWORD_MIN, type TStaffRole } from '@storefront/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config.ts';
import { openDb } from '../src/db/database.ts';
import { StaffService } from '../src/modules/staff/staff.service.ts';
import { totp } from '../src/modules/staff/totp.ts';
import { signUp, uniqueIp } from './helpers/accounts.ts';
import { expectApiError } from './helpers/assertions.ts';
import { adminCookie, STAFF_PASSWORD, signedInStaff, type TestStaff } from './helpers/staff.ts';
import { type ApiResponse, startTestApp, type TestApp, testDbKind } from './helpers/test-app.ts';

// Staff accounts over real HTTP on a real database: signing in (cookie, two-factor, limits),
// what an owner's changes do to a member's sessions, the rules that keep the shop with an
// owner, enrolling in two-factor again after a reset, the audit log, signing out, and the
// command line that makes the first owner. The app trusts X-Forwarded-For so each test has
// a client address of its own.

let t: TestApp;
let owner: TestStaff;
beforeAll(async () => {
  t = await startTestApp({ config: { trustProxy: true } });
  owner = await signedInStaff(t, 'owner');
});
afterAll(() => t?.close());

let counter = 0;
const newEmail = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${counter++}@shop.test`;

function signIn(body: { email: string; password: string; code?: string; recoveryCode?: string }, ip = uniqueIp()) {
  return t.api('/api/admin/session', { method: 'POST', json: body, headers: { 'x-forwarded-for': ip } });
}

/** A member the owner adds over HTTP, as the back office does. */
async function addMember(role: TStaffRole, opts: { ip?: string } = {}) {
  const email = newEmail(role);
  const res = await t.api('/api/admin/staff', {
    method: 'POST',
    json: { email, fullName: `Member ${role}`, role, password: STAFF_PASSWORD },
    headers: { ...owner.headers, 'x-forwarded-for': opts.ip ?? uniqueIp() },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; email: string; role: TStaffRole; version: number };
}

async function signedIn(email: string, extra: { code?: string; recoveryCode?: string } = {}) {
  const res = await signIn({ email, password: STAFF_PASSWORD, ...extra });
  expect(res.status, res.text).toBe(200);
  return { cookie: adminCookie(res.headers.get('set-cookie')) };
}

async function versionOf(id: number): Promise<number> {
  const res = await t.api('/api/admin/staff', { headers: owner.headers });
  return res.body.items.find((s: any) => s.id === id).version;
}

function patchStaff(id: number, json: Record<string, unknown>, headers = owner.headers) {
  return t.api(`/api/admin/staff/${id}`, { method: 'PATCH', json, headers });
}

const whoAmI = (headers: Record<string, string>) => t.api('/api/admin/session', { headers });

/** The admin_sid cookies an answer sets, one per path. */
function adminCookies(res: ApiResponse): string[] {
  return res.headers.getSetCookie().filter((c) => c.startsWith('admin_sid='));
}
const cookiePath = (c: string) => /;\s*Path=([^;]+)/i.exec(c)?.[1];

/** A six-digit code the server cannot accept now (none of the steps around this moment). */
function wrongCode(secret: string): string {
  const near = new Set([-60_000, -30_000, 0, 30_000, 60_000].map((d) => totp(secret, Date.now() + d)));
  let n = 0;
  while (near.has(String(n).padStart(6, '0'))) n++;
  return String(n).padStart(6, '0');
}

describe('signing in to the back office', () => {
  it('sets admin_sid httpOnly and SameSite=Strict for the back office’s paths only, and answers who signed in', async () => {
    const m = await addMember('manager');
    const res = await signIn({ email: m.email, password: STAFF_PASSWORD });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({ staff: { id: m.id, email: m.email, role: 'manager', twoFactor: false }, mustEnrolTwoFactor: false });
    expect(res.body.permissions).toEqual([...ROLE_PERMISSIONS.manager]);
    expect(res.text).not.toContain('$argon2');

    const cookies = adminCookies(res);
    // /admin.data: the back office's first screen fetches its data there on a client-side visit.
    expect(cookies.map(cookiePath).sort()).toEqual(['/admin', '/admin.data', '/api/admin']);
    for (const c of cookies) {
      expect(c).toMatch(/;\s*HttpOnly/i);
      expect(c).toMatch(/;\s*SameSite=Strict/i);
    }
    // One session, sent to both paths.
    expect(new Set(cookies.map((c) => c.split(';')[0])).size).toBe(1);
    // No other cookie: nothing of the staff session reaches the storefront's pages.
    expect(res.headers.getSetCookie().length).toBe(3);

    const me = await whoAmI({ cookie: adminCookie(res.headers.get('set-cookie')) });
    expect(me.status).toBe(200);
    expect(me.body.staff.email).toBe(m.email);
  });

  it('does not let a customer’s session into /api/admin, in any header or cookie', async () => {
    const c = await signUp(t);
    // The token is good where it belongs.
    expect((await t.api('/api/customers', { headers: c.auth })).status).toBe(200);
    const ways: Record<string, string>[] = [{ cookie: `sid=${c.token}` }, { 'x-auth-token': c.token }, { cookie: `admin_sid=${c.token}` }];
    for (const headers of ways) {
      expectApiError(await whoAmI(headers), 401, 'unauthorized');
      expectApiError(await t.api('/api/admin/products', { headers }), 401, 'unauthorized');
    }
  });

  it('answers a wrong password exactly as an unknown email (401 invalid_credentials), and sets no cookie', async () => {
    const m = await addMember('staff');
    const wrong = await signIn({ email: m.email, password: 'not the right password' });
    const unknown = await signIn({ email: newEmail('nobody'), password: STAFF_PASSWORD });
    expectApiError(wrong, 401, 'invalid_credentials');
    expectApiError(unknown, 401, 'invalid_credentials');
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.headers.getSetCookie()).toEqual([]);
    // The email is matched whatever its letter case.
    expect((await signIn({ email: m.email.toUpperCase(), password: STAFF_PASSWORD })).status).toBe(200);
  });

  it('with two-factor on: asks for the code, refuses a wrong one, takes the right one once, and a recovery code once', async () => {
    const m = await addMember('staff');
    // The member sets two-factor up themselves, with their first session.
    const first = await signedIn(m.email);
    const setup = await t.api('/api/admin/two-factor/setup', { method: 'POST', headers: first });
    expect(setup.status, setup.text).toBe(200);
    const secret: string = setup.body.secret;
    const enabled = await t.api('/api/admin/two-factor/enable', { method: 'POST', json: { code: totp(secret) }, headers: first });
    expect(enabled.status, enabled.text).toBe(200);
    const recoveryCodes: string[] = enabled.body.recoveryCodes;
    expect(recoveryCodes).toHaveLength(10);

    const noCode = await signIn({ email: m.email, password: STAFF_PASSWORD });
    expectApiError(noCode, 401, 'two_factor_required');
    expect(noCode.body.error.fields).toHaveProperty('code');
    expect(noCode.headers.getSetCookie()).toEqual([]);

    expectApiError(await signIn({ email: m.email, password: STAFF_PASSWORD, code: wrongCode(secret) }), 401, 'invalid_two_factor_code');
    // The right code with a wrong password still gets nowhere, and says nothing about the code.
    expectApiError(await signIn({ email: m.email, password: 'not the right password', code: totp(secret, Date.now() + 30_000) }), 401, 'invalid_credentials');

    // Enrolment used this step's code: the next step's is the one an app shows next.
    const code = totp(secret, Date.now() + 30_000);
    const ok = await signIn({ email: m.email, password: STAFF_PASSWORD, code });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.staff.twoFactor).toBe(true);
    // Seen by someone over the shoulder, the same code opens nothing.
    expectApiError(await signIn({ email: m.email, password: STAFF_PASSWORD, code }), 401, 'invalid_two_factor_code');

    // A recovery code as printed, or typed in capitals without the dash.
    const viaRecovery = await signIn({ email: m.email, password: STAFF_PASSWORD, recoveryCode: recoveryCodes[0].toUpperCase().replace('-', ' ') });
    expect(viaRecovery.status, viaRecovery.text).toBe(200);
    const again = await signIn({ email: m.email, password: STAFF_PASSWORD, recoveryCode: recoveryCodes[0] });
    expectApiError(again, 401, 'invalid_two_factor_code');
    expect(again.body.error.fields).toHaveProperty('recoveryCode');
    expect((await signIn({ email: m.email, password: STAFF_PASSWORD, recoveryCode: recoveryCodes[1] })).status).toBe(200);
  });

  it('after the account’s limit of failures answers 429 with Retry-After, even to the right password, from any address', async () => {
    const m = await addMember('manager');
    const other = await addMember('manager');
    const limit = t.app.config.accounts.signInPerAccount;
    for (let i = 0; i < limit; i++) {
      expectApiError(await signIn({ email: m.email, password: `wrong password ${i}` }), 401, 'invalid_credentials');
    }
    const ip = uniqueIp();
    const limited = await signIn({ email: m.email, password: STAFF_PASSWORD }, ip);
    expectApiError(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.getSetCookie()).toEqual([]);
    // The limit is the account's: another account signs in from the same address.
    expect((await signIn({ email: other.email, password: STAFF_PASSWORD }, ip)).status).toBe(200);
  });

  it('an owner whose email is guessed at from many addresses still signs in with the password and a code; nothing less gets in, and every refusal looks the same', async () => {
    const email = newEmail('owner');
    const { secret, recoveryCodes } = await t.app.staff.createOwner(email, 'Guessed Owner', STAFF_PASSWORD);
    const limit = t.app.config.accounts.signInPerAccount;
    // An outsider who knows only the email: a wrong password from each of many addresses.
    for (let i = 0; i <= limit; i++) await signIn({ email, password: `a guess ${i}` });
    const code = totp(secret);
    const refusals = [
      await signIn({ email, password: STAFF_PASSWORD }),
      await signIn({ email, password: STAFF_PASSWORD, code: wrongCode(secret) }),
      await signIn({ email, password: 'one more guess', code }),
      await signIn({ email, password: 'one more guess', recoveryCode: recoveryCodes[0] }),
    ];
    for (const r of refusals) {
      expectApiError(r, 429, 'rate_limited');
      expect(r.body.error.message).toBe(refusals[0]!.body.error.message);
      expect(r.body.error.fields).toEqual({ code: expect.any(String) });
      expect(r.headers.getSetCookie()).toEqual([]);
    }
    expect(refusals[0]!.body.error.message).toMatch(/code from your authenticator app/);
    // The code and the recovery code sent with a wrong password were not used up.
    const owner = await signIn({ email, password: STAFF_PASSWORD, code });
    expect(owner.status, owner.text).toBe(200);
    // Signed in, the account starts afresh: a wrong password is a plain 401 again.
    expectApiError(await signIn({ email, password: 'a guess' }), 401, 'invalid_credentials');
    for (let i = 0; i < limit; i++) await signIn({ email, password: `a guess ${i}` });
    const viaRecovery = await signIn({ email, password: STAFF_PASSWORD, recoveryCode: recoveryCodes[0] });
    expect(viaRecovery.status, viaRecovery.text).toBe(200);
  });

  it('an address over its limit is refused whatever account it names, also with the right password and code', async () => {
    const email = newEmail('owner');
    const { secret } = await t.app.staff.createOwner(email, 'Owner', STAFF_PASSWORD);
    const ip = uniqueIp();
    for (let i = 0; i < t.app.config.accounts.signInPerAddress; i++) await signIn({ email: newEmail('nobody'), password: 'guess' }, ip);
    const refused = await signIn({ email, password: STAFF_PASSWORD, code: totp(secret) }, ip);
    expectApiError(refused, 429, 'rate_limited');
    expect((await signIn({ email, password: STAFF_PASSWORD, code: totp(secret) })).status).toBe(200);
  });
});

describe('the second factor outside sign-in', () => {
  /** A member with two-factor on whose code of this step is still unused, and a session that used no code. */
  async function memberWithTwoFactor() {
    const m = await addMember('staff');
    const row = (await t.app.staff.list()).find((s) => s.id === m.id)!;
    const { secret } = await t.app.staff.beginTwoFactor(row);
    await t.app.staff.enableTwoFactor(row, totp(secret, Date.now() - 30_000), { staffId: m.id, email: m.email, ip: 'test' }, clientAddress('127.0.0.1'));
    const session = await t.app.staff.createSession(m.id, { ip: '127.0.0.1', userAgent: 'test' });
    return { ...m, secret, headers: { cookie: `admin_sid=${session.token}`, 'x-forwarded-for': uniqueIp() } };
  }
  const disable = (headers: Record<string, string>, code: string) => t.api('/api/admin/two-factor/disable', { method: 'POST', json: { code }, headers });

  it('turning two-factor off takes a code once: the same code sent five times at once turns it off once', async () => {
    const m = await memberWithTwoFactor();
    const code = totp(m.secret);
    const answers = await Promise.all(Array.from({ length: 5 }, () => disable(m.headers, code)));
    // One turns it off; the others find the code used (400) or two-factor already off (204, nothing done).
    for (const a of answers) expect([204, 400]).toContain(a.status);
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'disable_two_factor')
      .where('entity_id', '=', String(m.id))
      .execute();
    expect(audit).toHaveLength(1);
  });

  it('wrong codes to turn two-factor off or on are limited as sign-in is: then even the right one waits', async () => {
    const m = await memberWithTwoFactor();
    const limit = t.app.config.accounts.signInPerAccount;
    for (let i = 0; i < limit; i++) expectApiError(await disable(m.headers, wrongCode(m.secret)), 400, 'validation_error');
    const limited = await disable(m.headers, totp(m.secret));
    expectApiError(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

    // Confirming a new set-up is counted the same way.
    const n = await addMember('staff');
    const first = { ...(await signedIn(n.email)), 'x-forwarded-for': uniqueIp() };
    const setup = await t.api('/api/admin/two-factor/setup', { method: 'POST', headers: first });
    const enable = (code: string) => t.api('/api/admin/two-factor/enable', { method: 'POST', json: { code }, headers: first });
    for (let i = 0; i < limit; i++) expectApiError(await enable(wrongCode(setup.body.secret)), 400, 'validation_error');
    expectApiError(await enable(totp(setup.body.secret)), 429, 'rate_limited');
  });
});

describe('what an owner’s changes do to a member', () => {
  it('a disabled member is signed out at once and cannot sign in; enabled again, they can', async () => {
    const m = await addMember('staff');
    const session = await signedIn(m.email);
    expect((await whoAmI(session)).status).toBe(200);

    const disabled = await patchStaff(m.id, { disabled: true, version: m.version });
    expect(disabled.status, disabled.text).toBe(200);
    expect(disabled.body.disabled).toBe(true);
    expectApiError(await whoAmI(session), 401, 'unauthorized');
    expectApiError(await t.api('/api/admin/products', { headers: session }), 401, 'unauthorized');
    // The same answer as any wrong password: nothing tells that the account exists.
    expectApiError(await signIn({ email: m.email, password: STAFF_PASSWORD }), 401, 'invalid_credentials');

    expect((await patchStaff(m.id, { disabled: false, version: disabled.body.version })).status).toBe(200);
    expect((await signIn({ email: m.email, password: STAFF_PASSWORD })).status).toBe(200);
  });

  it('a role change ends the member’s sessions; the next sign-in has the new role’s permissions', async () => {
    const m = await addMember('read_only');
    const session = await signedIn(m.email);
    const adjust = { method: 'POST', json: { skuId: 1, branchId: 1, reason: 'received', delta: 1 } };
    expectApiError(await t.api('/api/admin/stock/adjustments', { ...adjust, headers: session }), 403, 'forbidden');

    const changed = await patchStaff(m.id, { role: 'staff', version: m.version });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.role).toBe('staff');
    expectApiError(await whoAmI(session), 401, 'unauthorized');

    const res = await signIn({ email: m.email, password: STAFF_PASSWORD });
    expect(res.body.permissions).toEqual([...ROLE_PERMISSIONS.staff]);
    const next = { cookie: adminCookie(res.headers.get('set-cookie')) };
    expect([201, 404]).toContain((await t.api('/api/admin/stock/adjustments', { ...adjust, headers: next })).status);
  });

  it('keeps at least one active owner: the last one can be neither demoted nor disabled', async () => {
    // Whatever other tests left, this owner is made the only active one.
    const list = (await t.api('/api/admin/staff', { headers: owner.headers })).body.items as any[];
    for (const s of list.filter((s) => s.role === 'owner' && !s.disabled && s.id !== owner.id)) {
      expect((await patchStaff(s.id, { disabled: true, version: s.version })).status).toBe(200);
    }
    const version = await versionOf(owner.id);
    expectApiError(await patchStaff(owner.id, { role: 'manager', version }), 409, 'last_owner');
    expectApiError(await patchStaff(owner.id, { disabled: true, version }), 409, 'last_owner');
    const me = await whoAmI(owner.headers);
    expect(me.body.staff).toMatchObject({ role: 'owner', disabled: false, version });

    // With a second active owner, either may be demoted.
    const second = await t.app.staff.createOwner(newEmail('second-owner'), 'Second Owner', STAFF_PASSWORD);
    const demoted = await patchStaff(second.staff.id, { role: 'manager', version: await versionOf(second.staff.id) });
    expect(demoted.status, demoted.text).toBe(200);
    expect(demoted.body.role).toBe('manager');
  });

  it('refuses an edit made from a stale version (409 stale_version) and keeps the newer one', async () => {
    const m = await addMember('staff');
    const first = await patchStaff(m.id, { role: 'manager', version: m.version });
    expect(first.status).toBe(200);
    expect(first.body.version).toBeGreaterThan(m.version);
    expectApiError(await patchStaff(m.id, { role: 'read_only', version: m.version }), 409, 'stale_version');
    const now = (await t.api('/api/admin/staff', { headers: owner.headers })).body.items.find((s: any) => s.id === m.id);
    expect(now).toMatchObject({ role: 'manager', version: first.body.version });
    expectApiError(await patchStaff(2_000_000_000, { role: 'staff', version: 1 }), 404, 'not_found');
  });

  it('refuses a staff password shorter than the minimum (400 on the password field) and a taken email (409)', async () => {
    const email = newEmail('new');
    const body = { email, fullName: 'New Member', role: 'staff' };
    const short = await t.api('/api/admin/staff', { method: 'POST', json: { ...body, password: 'x'.repeat(STAFF_PASSWORD_MIN - 1) }, headers: owner.headers });
    expectApiError(short, 400, 'validation_error');
    expect(Object.keys(short.body.error.fields)).toEqual(['password']);
    const list = (await t.api('/api/admin/staff', { headers: owner.headers })).body.items as any[];
    expect(list.map((s) => s.email)).not.toContain(email);

    const made = await t.api('/api/admin/staff', { method: 'POST', json: { ...body, password: 'y'.repeat(STAFF_PASSWORD_MIN) }, headers: owner.headers });
    expect(made.status, made.text).toBe(201);
    const taken = await t.api('/api/admin/staff', {
      method: 'POST',
      json: { ...body, email: email.toUpperCase(), password: STAFF_PASSWORD },
      headers: owner.headers,
    });
    expectApiError(taken, 409, 'duplicate_email');
    expect(Object.keys(taken.body.error.fields)).toEqual(['email']);
  });

  /** Another owner, signed in with a recovery code (so no code's time step is used up yet). */
  async function otherOwner() {
    const made = await t.app.staff.createOwner(newEmail('owner'), 'Other Owner', STAFF_PASSWORD);
    const session = await signedIn(made.staff.email, { recoveryCode: made.recoveryCodes[0] });
    return { id: made.staff.id, email: made.staff.email, secret: made.secret, recoveryCodes: made.recoveryCodes, session };
  }

  async function resetTwoFactor(o: { id: number; email: string; session: Record<string, string> }) {
    const reset = await patchStaff(o.id, { resetTwoFactor: true, version: await versionOf(o.id) });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body.twoFactor).toBe(false);
    expectApiError(await whoAmI(o.session), 401, 'unauthorized');
    const res = await signIn({ email: o.email, password: STAFF_PASSWORD });
    expect(res.status, res.text).toBe(200);
    expect(res.body.mustEnrolTwoFactor).toBe(true);
    return { cookie: adminCookie(res.headers.get('set-cookie')) };
  }

  it('an owner whose two-factor was reset must set it up again before anything but their own account', async () => {
    const other = await otherOwner();
    const session = await resetTwoFactor(other);
    expectApiError(await t.api('/api/admin/products', { headers: session }), 403, 'two_factor_enrolment_required');
    expectApiError(await t.api('/api/admin/staff', { headers: session }), 403, 'two_factor_enrolment_required');
    const setup = await t.api('/api/admin/two-factor/setup', { method: 'POST', headers: session });
    expect(setup.status, setup.text).toBe(200);
    expect(setup.headers.get('cache-control')).toBe('no-store');
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    // A new secret: the one from before the reset is worth nothing.
    expect(setup.body.secret).not.toBe(other.secret);
    expect(setup.body.otpauthUri).toMatch(/^otpauth:\/\/totp\/.+secret=[A-Z2-7]{32}/);
    expect(setup.body.qrSvg).toContain('<svg');
    expectApiError(
      await t.api('/api/admin/two-factor/enable', { method: 'POST', json: { code: wrongCode(setup.body.secret) }, headers: session }),
      400,
      'validation_error',
    );
    expectApiError(await t.api('/api/admin/products', { headers: session }), 403, 'two_factor_enrolment_required');

    const enabled = await t.api('/api/admin/two-factor/enable', { method: 'POST', json: { code: totp(setup.body.secret) }, headers: session });
    expect(enabled.status, enabled.text).toBe(200);
    const codes: string[] = enabled.body.recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);

    expect((await t.api('/api/admin/products?size=1', { headers: session })).status).toBe(200);
    expect((await whoAmI(session)).body.mustEnrolTwoFactor).toBe(false);
    // From now on signing in takes a code again, and only the new recovery codes: the old
    // ones went with the reset.
    expectApiError(await signIn({ email: other.email, password: STAFF_PASSWORD }), 401, 'two_factor_required');
    expectApiError(await signIn({ email: other.email, password: STAFF_PASSWORD, recoveryCode: other.recoveryCodes[1] }), 401, 'invalid_two_factor_code');
    expect((await signIn({ email: other.email, password: STAFF_PASSWORD, recoveryCode: codes[0] })).status).toBe(200);
  });

  it('an owner who signed in with a code just before the reset can enrol again at once', async () => {
    // The time step of the last code used belongs to the old secret: enrolment starts it afresh.
    const other = await signedInStaff(t, 'owner');
    const session = await resetTwoFactor({ ...other, session: other.headers });
    const setup = await t.api('/api/admin/two-factor/setup', { method: 'POST', headers: session });
    expect(setup.status, setup.text).toBe(200);
    const enabled = await t.api('/api/admin/two-factor/enable', { method: 'POST', json: { code: totp(setup.body.secret) }, headers: session });
    expect(enabled.status, enabled.text).toBe(200);
  });
});

describe('inviting a member by mail', () => {
  /** The invitation mails to `to`, newest last, and the token each link carries. */
  async function invitesTo(to: string) {
    const rows = await t.db.kysely.selectFrom('mail_outbox').select(['subject', 'text_body', 'html_body']).where('to_address', '=', to).orderBy('id').execute();
    return rows.map((r) => ({ ...r, token: decodeURIComponent(/\/admin\/invite\?token=([^\s"&<]+)/.exec(r.text_body)?.[1] ?? '') }));
  }
  const invite = (email: string, role: TStaffRole = 'manager') =>
    t.api('/api/admin/staff/invites', {
      method: 'POST',
      json: { email, fullName: 'Invited Member', role },
      headers: { ...owner.headers, 'x-forwarded-for': uniqueIp() },
    });
  const accept = (token: string, password: string) =>
    t.api('/api/admin/invite', { method: 'POST', json: { token, password }, headers: { 'x-forwarded-for': uniqueIp() } });

  it('mails a one-use link; the member cannot sign in until they choose a password with it, then can', async () => {
    const email = newEmail('invited');
    const res = await invite(email);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ email, role: 'manager', invitePending: true });
    const [mail] = await invitesTo(email);
    expect(mail.subject).toMatch(/invitation/i);
    expect(mail.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mail.html_body).toContain('Choose your password');

    // No password opens the account yet, not even an empty one.
    expect([400, 401]).toContain((await signIn({ email, password: '' })).status);
    expectApiError(await signIn({ email, password: STAFF_PASSWORD }), 401, 'invalid_credentials');

    const short = await accept(mail.token, 'short');
    expectApiError(short, 400, 'validation_error');
    expect(Object.keys(short.body.error.fields)).toEqual(['password']);
    const ok = await accept(mail.token, STAFF_PASSWORD);
    expect(ok.status, ok.text).toBe(204);
    const session = await signIn({ email, password: STAFF_PASSWORD });
    expect(session.status, session.text).toBe(200);
    expect(session.body.staff).toMatchObject({ email, invitePending: false });

    // The link worked once.
    expectApiError(await accept(mail.token, 'another long password'), 400, 'invalid_token');
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .select('action')
      .where('entity', '=', 'staff')
      .where('entity_id', '=', String(res.body.id))
      .execute();
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['invite', 'invite_accepted']));
  });

  it('sending again makes the earlier link useless; an expired link, a made-up one and a taken email are refused', async () => {
    const email = newEmail('resent');
    const created = await invite(email, 'staff');
    expect(created.status).toBe(201);
    const again = await t.api(`/api/admin/staff/${created.body.id}/invite`, { method: 'POST', headers: owner.headers });
    expect(again.status, again.text).toBe(200);
    const [first, second] = await invitesTo(email);
    expect(second.token).not.toBe(first.token);
    expectApiError(await accept(first.token, STAFF_PASSWORD), 400, 'invalid_token');

    await t.db.kysely
      .updateTable('staff_invites')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('staff_id', '=', created.body.id)
      .execute();
    expectApiError(await accept(second.token, STAFF_PASSWORD), 400, 'invalid_token');
    expectApiError(await accept('x'.repeat(43), STAFF_PASSWORD), 400, 'invalid_token');
    expectApiError(await invite(email), 409, 'duplicate_email');

    // Once the member has a password, there is nothing to send again.
    const member = await addMember('staff');
    expectApiError(await t.api(`/api/admin/staff/${member.id}/invite`, { method: 'POST', headers: owner.headers }), 409, 'invite_not_pending');
  });

  it('a member disabled before using the link cannot use it', async () => {
    const email = newEmail('disabled-invite');
    const created = await invite(email, 'staff');
    const off = await t.api(`/api/admin/staff/${created.body.id}`, {
      method: 'PATCH',
      json: { disabled: true, version: created.body.version },
      headers: owner.headers,
    });
    expect(off.status, off.text).toBe(200);
    const [mail] = await invitesTo(email);
    expectApiError(await accept(mail.token, STAFF_PASSWORD), 400, 'invalid_token');
  });
});

describe('the audit log', () => {
  it('records who added and changed a member, from which address, and what changed; only owners read it', async () => {
    const ip = uniqueIp();
    const m = await addMember('staff', { ip });
    const patched = await t.api(`/api/admin/staff/${m.id}`, {
      method: 'PATCH',
      json: { role: 'manager', version: m.version },
      headers: { ...owner.headers, 'x-forwarded-for': ip },
    });
    expect(patched.status).toBe(200);

    const res = await t.api(`/api/admin/audit?entity=staff&entityId=${m.id}`, { headers: owner.headers });
    expect(res.status, res.text).toBe(200);
    expect(res.body.total).toBe(2);
    const [update, create] = res.body.items;
    expect(create).toMatchObject({ action: 'create', entity: 'staff', entityId: String(m.id), staffEmail: owner.email, ip });
    expect(create.diff).toMatchObject({ email: [null, m.email], role: [null, 'staff'], disabled: [null, false] });
    expect(update).toMatchObject({ action: 'update', entity: 'staff', entityId: String(m.id), staffEmail: owner.email, ip });
    expect(update.diff).toEqual({ role: ['staff', 'manager'] });
    expect(new Date(update.createdAt).getTime()).toBeGreaterThanOrEqual(new Date(create.createdAt).getTime());
    // No password, not even hashed, is kept in the log.
    expect(res.text).not.toContain(STAFF_PASSWORD);
    expect(res.text).not.toContain('$argon2');

    const manager = await signedInStaff(t, 'manager');
    expectApiError(await t.api('/api/admin/audit', { headers: manager.headers }), 403, 'forbidden');
  });
});

describe('signing out', () => {
  it('ends this session only and clears the cookie on both paths', async () => {
    const m = await addMember('read_only');
    const session = await signedIn(m.email);
    const elsewhere = await signedIn(m.email);
    const res = await t.api('/api/admin/session', { method: 'DELETE', headers: session });
    expect(res.status).toBe(204);
    const cleared = adminCookies(res);
    expect(cleared.map(cookiePath).sort()).toEqual(['/admin', '/admin.data', '/api/admin']);
    for (const c of cleared) expect(c).toMatch(/^admin_sid=;|Max-Age=0|Expires=Thu, 01 Jan 1970/i);
    expectApiError(await whoAmI(session), 401, 'unauthorized');
    expect((await whoAmI(elsewhere)).status).toBe(200);
    // Signed out, the next sign-out is a 401 like any request without a session.
    expectApiError(await t.api('/api/admin/session', { method: 'DELETE', headers: session }), 401, 'unauthorized');
  });
});

// The command line uses the same StaffService on whatever database it is pointed at: it is
// run on SQLite only (once), with the settings of a fresh shop in a temp folder.
describe.runIf(testDbKind() === 'sqlite')('npm run admin -- create-owner', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  function runCli(args: string[], stdin: string): Promise<{ code: number | null; stdout: string; stderr: string; file: string }> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storefront-admin-cli-'));
    dirs.push(dir);
    const file = path.join(dir, 'shop.db');
    const env: NodeJS.ProcessEnv = { ...process.env, SQLITE_FILE: file, DATA_DIR: dir, LOG_LEVEL: 'silent' };
    delete env.DATABASE_URL;
    delete env.DATABASE_SCHEMA;
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/ops/admin-cli.ts', ...args], {
      cwd: REPO_ROOT,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.stdin.end(stdin);
    return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr, file })));
  }

  it('creates an owner with two-factor on and prints the secret and ten recovery codes that then sign in', async () => {
    const password = 'a long owner password';
    const r = await runCli(['create-owner', 'someone@shop.test', '--name', 'Some One'], `${password}\n`);
    expect(r.code, r.stderr).toBe(0);
    const secret = /secret:\s+([A-Z2-7]+)\s/.exec(r.stdout)?.[1];
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(r.stdout).toContain(`otpauth://totp/`);
    expect(r.stdout).toContain(`secret=${secret}`);
    const codes = [...r.stdout.matchAll(/^\s+([a-z2-9]{5}-[a-z2-9]{5})$/gm)].map((m) => m[1]);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect(r.stdout).not.toContain(password);

    // What was printed is what was stored: the secret's code and a recovery code sign in.
    const db = openDb({ kind: 'sqlite', file: r.file });
    try {
      const service = new StaffService(db, { accounts: t.app.config.accounts });
      const client = { ip: '127.0.0.1', address: clientAddress('127.0.0.1'), userAgent: 'test' };
      const signed = await service.signIn({ email: 'someone@shop.test', password, code: totp(secret ?? '') }, client);
      expect(signed.staff).toMatchObject({ role: 'owner', full_name: 'Some One' });
      expect(signed.staff.totp_enabled_at).not.toBeNull();
      await expect(service.signIn({ email: 'someone@shop.test', password, recoveryCode: codes[9] }, client)).resolves.toBeTruthy();
      await expect(service.signIn({ email: 'someone@shop.test', password }, client)).rejects.toMatchObject({ code: 'two_factor_required' });
    } finally {
      await db.destroy();
    }
  });

  it('refuses a password shorter than the minimum with a clear message, a failing exit code, and no account', async () => {
    const r = await runCli(['create-owner', 'someone@shop.test'], 'short\n');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`at least ${STAFF_PASSWORD_MIN} characters`);
    expect(r.stdout).not.toMatch(/secret:/);
    const db = openDb({ kind: 'sqlite', file: r.file });
    try {
      expect(await db.kysely.selectFrom('staff').select('id').execute()).toEqual([]);
    } finally {
      await db.destroy();
    }
  });
});
