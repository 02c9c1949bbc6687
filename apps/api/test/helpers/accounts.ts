import { randomBytes, randomInt } from 'node:crypto';
import type { TestApp } from './test-app.ts';

// Customers for account tests: each call makes a new one with its own email, mobile and
// client address, so tests never trip over each other's data or rate limits.

const usedMobiles = new Set<string>();
export function uniqueMobile(): string {
  // 017 + 8 random digits: a valid Bangladeshi mobile, never the same twice in a process.
  for (;;) {
    const m = `017${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
    if (!usedMobiles.has(m)) {
      usedMobiles.add(m);
      return m;
    }
  }
}

export function uniqueEmail(prefix = 'shopper'): string {
  return `${prefix}.${randomBytes(5).toString('hex')}@example.com`;
}

/** A client address of its own (the tests' app trusts X-Forwarded-For). */
export function uniqueIp(): string {
  const b = randomBytes(3);
  return `10.${b[0]}.${b[1]}.${b[2]}`;
}

export interface TestCustomer {
  email: string;
  mobile: string;
  password: string;
  fullName: string;
  token: string;
  userId: string;
  ip: string;
  /** Headers that make a request as this customer. */
  auth: Record<string, string>;
}

export async function signUp(
  t: TestApp,
  overrides: Partial<{ email: string; mobile: string; password: string; fullName: string }> = {},
): Promise<TestCustomer> {
  const ip = uniqueIp();
  const body = {
    source: 'DEFAULT',
    type: 'DEFAULT',
    fullName: 'Rahim Uddin',
    email: uniqueEmail(),
    mobile: uniqueMobile(),
    password: 'secret-pass',
    ...overrides,
  };
  const res = await t.api('/api/signup', { method: 'POST', json: body, headers: { 'x-forwarded-for': ip } });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${res.text}`);
  return { ...body, token: res.body.authToken, userId: res.body.userId, ip, auth: { 'x-auth-token': res.body.authToken, 'x-forwarded-for': ip } };
}

export async function signIn(t: TestApp, userName: string, password: string, ip = uniqueIp()) {
  return t.api('/api/signin/customers', {
    method: 'POST',
    json: { source: 'DEFAULT', type: 'DEFAULT', userName, password },
    headers: { 'x-forwarded-for': ip },
  });
}
