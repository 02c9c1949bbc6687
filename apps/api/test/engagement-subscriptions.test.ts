import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectApiError } from './helpers/assertions.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// Newsletter subscriptions (spec §7, §8), on a real database over real HTTP.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ seed: false });
});
afterAll(() => t?.close());

const body = (email: string) => ({ userId: '', email, extras: { offer: 'First order 10% off', type: 'first-time' } });
const subscribe = (email: string) => t.api('/api/emails/subscriptions', { method: 'POST', json: body(email) });
const rows = (key: string) => t.db.kysely.selectFrom('email_subscriptions').selectAll().where('email_key', '=', key).execute();

describe('POST /api/emails/subscriptions', () => {
  it('answers 201 and stores the subscription with the offer it answered', async () => {
    const res = await subscribe('  Nadia.Rahman@Example.com ');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      email: 'Nadia.Rahman@Example.com',
      offer: 'First order 10% off',
      type: 'first-time',
      createdAt: expect.any(String),
    });
    const stored = await rows('nadia.rahman@example.com');
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ email: 'Nadia.Rahman@Example.com', customer_id: null, offer: 'First order 10% off', type: 'first-time' });
  });

  it('answers 409 with the spec message for the same address in any letter case', async () => {
    expect((await subscribe('karim@example.com')).status).toBe(201);
    for (const again of ['karim@example.com', 'KARIM@EXAMPLE.COM', ' Karim@Example.Com ']) {
      const res = await subscribe(again);
      expectApiError(res, 409, 'already_subscribed');
      expect(res.body.error.message).toBe('Already Subscribed with this email');
    }
    expect(await rows('karim@example.com')).toHaveLength(1);
  });

  it('creates one subscription from ten identical requests at once', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => subscribe('rush@example.com')));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(409)]);
    expect(await rows('rush@example.com')).toHaveLength(1);
  });

  it('creates one subscription from ten requests at once that differ only in letter case', async () => {
    const variants = ['case@example.com', 'CASE@example.com', 'Case@Example.com', 'case@EXAMPLE.COM', 'cAsE@example.com'];
    const results = await Promise.all(Array.from({ length: 10 }, (_x, i) => subscribe(variants[i % variants.length]!)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(9);
    expect(await rows('case@example.com')).toHaveLength(1);
  });

  it.each([
    ['an empty address', ''],
    ['a blank address', '   '],
  ])('refuses %s with "Please Provide Your Email"', async (_name, email) => {
    const res = await subscribe(email);
    expectApiError(res, 400, 'validation_error');
    expect(res.body.error.fields).toEqual({ email: 'Please Provide Your Email' });
  });

  it('refuses a body without an email with "Please Provide Your Email"', async () => {
    const res = await t.api('/api/emails/subscriptions', { method: 'POST', json: { userId: '' } });
    expectApiError(res, 400, 'validation_error');
    expect(res.body.error.fields).toEqual({ email: 'Please Provide Your Email' });
  });

  it.each(['nadia', 'nadia@', 'nadia@example', 'na dia@example.com', 'a@b@example.com', `${'x'.repeat(300)}@example.com`])(
    'refuses the badly shaped %s with "Please Provide a Correct Email"',
    async (email) => {
      const res = await subscribe(email);
      expectApiError(res, 400);
      expect(res.body.error.fields.email).toBe('Please Provide a Correct Email');
    },
  );

  it('refuses a non-string email with a 400, not a 500', async () => {
    const res = await t.api('/api/emails/subscriptions', { method: 'POST', json: { email: { $gt: '' } } });
    expectApiError(res, 400);
  });

  it('does not take the subscriber from the body: a guest cannot subscribe as customer 1', async () => {
    const res = await t.api('/api/emails/subscriptions', { method: 'POST', json: { ...body('spoof@example.com'), userId: 1 } });
    expect(res.status).toBe(201);
    expect((await rows('spoof@example.com'))[0]!.customer_id).toBeNull();
  });

  it('needs the storefront API key', async () => {
    const res = await t.api('/api/emails/subscriptions', { method: 'POST', json: body('nokey@example.com'), apiKey: null });
    expectApiError(res, 401);
    expect(await rows('nokey@example.com')).toHaveLength(0);
  });
});

let mobileSeq = 0;
/** A new customer account, signed in: its token for the x-auth-token header. */
async function signUp(email: string): Promise<string> {
  const mobile = `0171${String(10_000_000 + ++mobileSeq).slice(1)}`;
  const res = await t.api('/api/signup', {
    method: 'POST',
    json: { source: 'DEFAULT', type: 'DEFAULT', fullName: 'Test Customer', email, mobile, password: 'secret-123' },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.authToken;
}

describe('GET /api/emails/subscriptions', () => {
  it('asks a guest to sign in', async () => {
    expectApiError(await t.api('/api/emails/subscriptions'), 401, 'unauthorized');
  });

  it('tells a signed-in customer they are not subscribed, then that they are after subscribing', async () => {
    const token = await signUp('member@example.com');
    const before = await t.api('/api/emails/subscriptions', { headers: { 'x-auth-token': token } });
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ subscribed: false, subscription: null });

    const created = await t.api('/api/emails/subscriptions', { method: 'POST', json: body('member.news@example.com'), headers: { 'x-auth-token': token } });
    expect(created.status).toBe(201);
    // The subscriber is the session's customer, whatever address they subscribe.
    expect((await rows('member.news@example.com'))[0]!.customer_id).toEqual(expect.any(Number));

    const after = await t.api('/api/emails/subscriptions', { headers: { 'x-auth-token': token } });
    expect(after.body).toMatchObject({ subscribed: true, subscription: { email: 'member.news@example.com', type: 'first-time' } });
  });

  it('counts a subscription made as a guest with the address of the account signed up later', async () => {
    expect((await subscribe('Early.Bird@example.com')).status).toBe(201);
    const token = await signUp('early.bird@EXAMPLE.com');
    const res = await t.api('/api/emails/subscriptions', { headers: { 'x-auth-token': token } });
    expect(res.body).toMatchObject({ subscribed: true, subscription: { email: 'Early.Bird@example.com' } });
  });

  it('does not show one customer the subscription of another', async () => {
    const a = await signUp('alpha@example.com');
    expect((await t.api('/api/emails/subscriptions', { method: 'POST', json: body('alpha.list@example.com'), headers: { 'x-auth-token': a } })).status).toBe(
      201,
    );
    const b = await signUp('beta@example.com');
    const res = await t.api('/api/emails/subscriptions', { headers: { 'x-auth-token': b } });
    expect(res.body).toEqual({ subscribed: false, subscription: null });
  });

  it('is in the OpenAPI document with both methods', async () => {
    const doc = (await t.api('/api/openapi.json', { apiKey: null })).body;
    expect(doc.paths['/api/emails/subscriptions']).toHaveProperty('post');
    expect(doc.paths['/api/emails/subscriptions']).toHaveProperty('get');
    expect(Object.keys(doc.paths['/api/emails/subscriptions'].post.responses)).toEqual(expect.arrayContaining(['201', '400', '409']));
  });
});
