import { randomBytes } from 'node:crypto';
import type { TStaffRole } from '@storefront/shared';
import { clientAddress } from '../../src/lib/client-address.ts';
import { totp } from '../../src/modules/staff/totp.ts';
import type { TestApp } from './test-app.ts';

export const STAFF_PASSWORD = 'correct horse battery';

export interface TestStaff {
  id: number;
  email: string;
  role: TStaffRole;
  /** Headers that make a request this staff member's (the admin_sid cookie). */
  headers: Record<string, string>;
  /** The TOTP secret, for a member with two-factor on. */
  secret: string | null;
}

/** The admin_sid cookie a sign-in answer set, as a Cookie header. */
export function adminCookie(setCookie: string | null): string {
  const m = /admin_sid=([^;]+)/.exec(setCookie ?? '');
  if (!m) throw new Error(`no admin_sid in ${setCookie}`);
  return `admin_sid=${m[1]}`;
}

/**
 * A staff member of the given role, signed in over HTTP. Owners are made as the command
 * line makes them (two-factor on); others without two-factor unless asked.
 */
export async function signedInStaff(t: TestApp, role: TStaffRole, opts: { twoFactor?: boolean; ip?: string } = {}): Promise<TestStaff> {
  const email = `${role}-${randomBytes(4).toString('hex')}@shop.test`;
  let secret: string | null = null;
  let id: number;
  if (role === 'owner') {
    const r = await t.app.staff.createOwner(email, `Test ${role}`, STAFF_PASSWORD);
    secret = r.secret;
    id = r.staff.id;
  } else {
    const row = await t.app.staff.create({ email, fullName: `Test ${role}`, role, password: STAFF_PASSWORD }, null);
    id = row.id;
    if (opts.twoFactor) {
      const setup = await t.app.staff.beginTwoFactor(row);
      secret = setup.secret;
      await t.app.staff.enableTwoFactor(row, totp(secret), { staffId: id, email, ip: 'test' }, clientAddress('127.0.0.1'));
    }
  }
  const headers: Record<string, string> = opts.ip ? { 'x-forwarded-for': opts.ip } : {};
  // A code is accepted once per 30-second step: sign in with the next step's code, which
  // is also accepted and has not been used by enrolment.
  const code = secret ? totp(secret, Date.now() + 30_000) : undefined;
  const res = await t.api('/api/admin/session', { method: 'POST', json: { email, password: STAFF_PASSWORD, code }, headers });
  if (res.status !== 200) throw new Error(`staff sign-in failed: ${res.status} ${res.text}`);
  return { id, email, role, secret, headers: { cookie: adminCookie(res.headers.get('set-cookie')) } };
}
