import { ACCOUNT_MESSAGES } from '@storefront/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectApiError } from './helpers/assertions.ts';
import { signIn, signUp, uniqueIp } from './helpers/accounts.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// The customer's own data: GET/PUT /api/customers, the profile image, password change.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ config: { trustProxy: true } });
});
afterAll(() => t?.close());

// A real 1×1 PNG: the files endpoint decides the type from the bytes.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

async function upload(headers: Record<string, string>, bytes: Buffer, name: string, type: 'image' | 'document') {
  const form = new FormData();
  form.append('type', type);
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const res = await fetch(`${t.baseUrl}/api/files`, { method: 'POST', body: form, headers: { 'x-api-key': t.app.config.apiKey, ...headers } });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${JSON.stringify(body)}`);
  return body as { uuid: string; cdnUrl: string; isImage: boolean };
}

describe('GET /api/customers', () => {
  it('answers the signed-in customer with subscriptionStatus, and 401 to a guest', async () => {
    const c = await signUp(t);
    const res = await t.api('/api/customers', { headers: c.auth });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({
      userId: c.userId,
      fullName: c.fullName,
      email: c.email,
      mobile: `+88${c.mobile}`,
      imageUrl: null,
      subscriptionStatus: 'NOT_SUBSCRIBED',
      dateCreated: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(JSON.stringify(res.body)).not.toMatch(/password|hash/i);
    expectApiError(await t.api('/api/customers'), 401, 'unauthorized');
  });

  it('shows SUBSCRIBED once the customer’s email is on the newsletter', async () => {
    const c = await signUp(t);
    const sub = await t.api('/api/emails/subscriptions', {
      method: 'POST',
      json: { userId: '', email: c.email.toUpperCase(), extras: { offer: 'Limited Time', type: 'first-time' } },
      headers: { 'x-forwarded-for': uniqueIp() },
    });
    expect(sub.status).toBe(201);
    expect((await t.api('/api/customers', { headers: c.auth })).body.subscriptionStatus).toBe('SUBSCRIBED');
    expect((await signIn(t, c.email, c.password)).body.profile.subscriptionStatus).toBe('SUBSCRIBED');
  });
});

describe('PUT /api/customers', () => {
  it('changes the name and the mobile number (stored in one form)', async () => {
    const c = await signUp(t);
    const res = await t.api('/api/customers', { method: 'PUT', json: { fullName: ' Rahima Khatun ', mobile: '+880 1999-887766' }, headers: c.auth });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ fullName: 'Rahima Khatun', mobile: '+8801999887766', email: c.email });
    // The new number signs in.
    expect((await signIn(t, '01999887766', c.password)).status).toBe(200);
  });

  it('refuses a bad form with the shared messages', async () => {
    const c = await signUp(t);
    const res = await t.api('/api/customers', { method: 'PUT', json: { fullName: '', mobile: '123' }, headers: c.auth });
    expectApiError(res, 400, 'validation_error');
    expect(res.body.error.fields).toEqual({ fullName: 'Please Give Your First Name', mobile: ACCOUNT_MESSAGES.mobileInvalid });
  });

  it('answers 409 when another account has the mobile number', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const res = await t.api('/api/customers', { method: 'PUT', json: { fullName: 'B', mobile: a.mobile }, headers: b.auth });
    expectApiError(res, 409, 'duplicate_mobile');
    // Keeping one's own number is fine.
    expect((await t.api('/api/customers', { method: 'PUT', json: { fullName: 'B', mobile: b.mobile }, headers: b.auth })).status).toBe(200);
  });

  it('cannot be used by a guest, and ignores fields it does not know (no email change here)', async () => {
    expectApiError(await t.api('/api/customers', { method: 'PUT', json: { fullName: 'X', mobile: '01711000111' } }), 401);
    const c = await signUp(t);
    const res = await t.api('/api/customers', {
      method: 'PUT',
      json: { fullName: 'X', mobile: c.mobile, email: 'evil@example.com', userId: 'x' },
      headers: c.auth,
    });
    expect(res.status).toBe(200);
    expect(res.body.email).toBe(c.email);
    expect(res.body.userId).toBe(c.userId);
  });
});

describe('PATCH /api/customers/images', () => {
  it('sets the profile image to an image the customer uploaded', async () => {
    const c = await signUp(t);
    const file = await upload(c.auth, PNG, 'me.png', 'image');
    const res = await t.api('/api/customers/images', { method: 'PATCH', json: { uuid: file.uuid }, headers: c.auth });
    expect(res.status).toBe(200);
    expect(res.body.imageUrl).toBe(file.cdnUrl);
    const signedIn = await signIn(t, c.email, c.password);
    expect(signedIn.body.profile.imageUrl).toBe(file.cdnUrl);
    // The image is really served there.
    const img = await fetch(`${t.baseUrl}${file.cdnUrl}`);
    expect(img.status).toBe(200);
    // Encoded again without its metadata (modules/images): still a PNG.
    expect(
      Buffer.from(await img.arrayBuffer())
        .subarray(0, 8)
        .equals(PNG.subarray(0, 8)),
    ).toBe(true);
  });

  it('answers 404 for another customer’s file and for an unknown uuid', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const file = await upload(a.auth, PNG, 'a.png', 'image');
    expectApiError(await t.api('/api/customers/images', { method: 'PATCH', json: { uuid: file.uuid }, headers: b.auth }), 404, 'not_found');
    expectApiError(await t.api('/api/customers/images', { method: 'PATCH', json: { uuid: '00000000-0000-4000-8000-000000000000' }, headers: b.auth }), 404);
    expectApiError(await t.api('/api/customers/images', { method: 'PATCH', json: { uuid: '../../etc/passwd' }, headers: b.auth }), 404);
    expect((await t.api('/api/customers', { headers: b.auth })).body.imageUrl).toBeNull();
  });

  it('refuses a file that is not an image, and a guest', async () => {
    const c = await signUp(t);
    const doc = await upload(c.auth, PDF, 'doc.pdf', 'document');
    expectApiError(await t.api('/api/customers/images', { method: 'PATCH', json: { uuid: doc.uuid }, headers: c.auth }), 400);
    expectApiError(await t.api('/api/customers/images', { method: 'PATCH', json: { uuid: doc.uuid } }), 401);
  });
});

describe('POST /api/auth/change', () => {
  it('changes the password and revokes every other session, keeping this one', async () => {
    const c = await signUp(t);
    const phone = (await signIn(t, c.email, c.password)).body.authToken;
    const laptop = (await signIn(t, c.email, c.password)).body.authToken;
    const res = await t.api('/api/auth/change', { method: 'POST', json: { currentPassword: c.password, newPassword: 'new-secret-9' }, headers: c.auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ revokedSessions: 2 });
    expect((await t.api('/api/customers', { headers: c.auth })).status).toBe(200);
    expectApiError(await t.api('/api/customers', { headers: { 'x-auth-token': phone } }), 401);
    expectApiError(await t.api('/api/customers', { headers: { 'x-auth-token': laptop } }), 401);
    expectApiError(await signIn(t, c.email, c.password), 401);
    expect((await signIn(t, c.email, 'new-secret-9')).status).toBe(200);
  });

  it('refuses a wrong current password (and changes nothing)', async () => {
    const c = await signUp(t);
    const res = await t.api('/api/auth/change', { method: 'POST', json: { currentPassword: 'not-my-password', newPassword: 'new-secret-9' }, headers: c.auth });
    expectApiError(res, 400, 'wrong_password');
    expect(res.body.error.fields).toEqual({ currentPassword: 'Wrong Password' });
    expect((await signIn(t, c.email, c.password)).status).toBe(200);
  });

  it('stops guessing of the current password with a stolen session', async () => {
    const c = await signUp(t);
    const limit = t.app.config.accounts.signInPerAccount;
    for (let i = 0; i < limit; i++) {
      expect(
        (await t.api('/api/auth/change', { method: 'POST', json: { currentPassword: `guess-${i}-x`, newPassword: 'new-secret-9' }, headers: c.auth })).status,
      ).toBe(400);
    }
    const blocked = await t.api('/api/auth/change', { method: 'POST', json: { currentPassword: c.password, newPassword: 'new-secret-9' }, headers: c.auth });
    expectApiError(blocked, 429, 'rate_limited');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('checks the new password with the shared rules, and needs a session', async () => {
    const c = await signUp(t);
    const short = await t.api('/api/auth/change', { method: 'POST', json: { currentPassword: c.password, newPassword: ' abc ' }, headers: c.auth });
    expectApiError(short, 400, 'validation_error');
    expect(short.body.error.fields).toEqual({ newPassword: 'Password Must Be More Than Six Character' });
    expectApiError(await t.api('/api/auth/change', { method: 'POST', json: { currentPassword: 'x', newPassword: 'new-secret-9' } }), 401);
  });
});
