import { encodeCartItems } from '@storefront/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { signUp, uniqueIp } from './helpers/accounts.ts';
import { expectApiError } from './helpers/assertions.ts';
import { checkout, checkoutBody, generousOrderLimits, plainSkus, setStock, type TestSku } from './helpers/checkout.ts';
import { addCoupon } from './helpers/pricing-fixtures.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// The per-client limits (sign-in, coupon guessing, password change) against the ways
// around them: a client that names its own address in X-Forwarded-For
// (docs/decisions/0023), coupon codes tried through checkout instead of the apply call,
// and many guesses sent at once so that they are all checked before any is counted.

const SIGNIN_PER_ADDRESS = 3;
const accounts = { ...loadConfig({}).accounts, signInPerAddress: SIGNIN_PER_ADDRESS, signInPerAccount: 5 };

let proxied: TestApp; // TRUST_PROXY=1: one load balancer in front
let direct: TestApp; // TRUST_PROXY unset
let listed: TestApp; // TRUST_PROXY=127.0.0.1: the proxy named by its address
let skus: TestSku[];
let nextSku = 0;

beforeAll(async () => {
  [proxied, direct, listed] = await Promise.all([
    startTestApp({ config: { trustProxy: loadConfig({ TRUST_PROXY: '1' }).trustProxy, accounts, orders: generousOrderLimits() } }),
    startTestApp({ seed: false, config: { trustProxy: loadConfig({}).trustProxy, accounts } }),
    startTestApp({ seed: false, config: { trustProxy: loadConfig({ TRUST_PROXY: '127.0.0.1' }).trustProxy, accounts } }),
  ]);
  skus = await plainSkus(proxied.db.kysely, 40, 200);
}, 90_000);
afterAll(async () => {
  await Promise.all([proxied?.close(), direct?.close(), listed?.close()]);
});

/** A wrong sign-in with a user name of its own, so only the per-address limit can trip. */
let n = 0;
const wrongSignIn = (t: TestApp, headers: Record<string, string>) =>
  t.api('/api/signin/customers', {
    method: 'POST',
    json: { source: 'DEFAULT', type: 'DEFAULT', userName: `nobody.${process.pid}.${n++}@example.com`, password: 'wrong-password' },
    headers,
  });

describe('the client address behind a proxy (docs/decisions/0023)', () => {
  it('TRUST_PROXY is a number of hops or a list of proxy addresses; "true" means one hop, never trust-all', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.0/8, 192.168.1.7 ,::1,fd00::/8 ' }).trustProxy).toEqual(['10.0.0.0/8', '192.168.1.7', '::1', 'fd00::/8']);
    expect(loadConfig({ TRUST_PROXY: 'loopback' }).trustProxy).toEqual(['loopback']);
    for (const bad of ['yes please', '-1', '1.5', '10.0.0.0/33', '10.0.0.300', 'all', '*']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
  });

  it('with TRUST_PROXY=1 a forged left-most X-Forwarded-For entry does not reset the sign-in limit of the address', async () => {
    const real = uniqueIp();
    // The load balancer appends the address it saw; whatever the client sent stays on the left.
    const via = () => ({ 'x-forwarded-for': `${uniqueIp()}, ${real}` });
    for (let i = 0; i < SIGNIN_PER_ADDRESS; i++) expectApiError(await wrongSignIn(proxied, via()), 401, 'invalid_credentials');
    const refused = await wrongSignIn(proxied, via());
    expectApiError(refused, 429, 'rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another client behind the same balancer is not affected.
    expectApiError(await wrongSignIn(proxied, { 'x-forwarded-for': `${real}, ${uniqueIp()}` }), 401, 'invalid_credentials');
  });

  it('with the proxy named by its address, the right-most address it did not add is the client', async () => {
    const real = uniqueIp();
    for (let i = 0; i < SIGNIN_PER_ADDRESS; i++) expectApiError(await wrongSignIn(listed, { 'x-forwarded-for': `${uniqueIp()}, ${real}` }), 401);
    expectApiError(await wrongSignIn(listed, { 'x-forwarded-for': `${uniqueIp()}, ${real}` }), 429, 'rate_limited');
    expectApiError(await wrongSignIn(listed, { 'x-forwarded-for': `${real}, ${uniqueIp()}` }), 401, 'invalid_credentials');
  });

  it('with no trusted proxy X-Forwarded-For is ignored: every request counts against the connection address', async () => {
    for (let i = 0; i < SIGNIN_PER_ADDRESS; i++) expectApiError(await wrongSignIn(direct, { 'x-forwarded-for': uniqueIp() }), 401);
    expectApiError(await wrongSignIn(direct, { 'x-forwarded-for': uniqueIp() }), 429, 'rate_limited');
    expectApiError(await wrongSignIn(direct, {}), 429, 'rate_limited');
  });
});

describe('coupon guessing is counted on every path (docs/decisions/0014)', () => {
  const MISSES = 20;
  let guess = 0;
  const nextGuess = () => `GUESS${process.pid}X${guess++}`;
  const freshSku = async () => {
    const s = skus[nextSku++];
    await setStock(proxied.db.kysely, s.id, [50]);
    return s;
  };
  const apply = (code: string, sku: TestSku, ip: string) =>
    proxied.api(
      `/api/discount/coupons/apply?code=${encodeURIComponent(code)}&items=${encodeURIComponent(encodeCartItems([{ skuCode: sku.code, quantity: 1 }]))}`,
      {
        headers: { 'x-forwarded-for': ip },
      },
    );
  const quote = (code: string, sku: TestSku, ip: string) =>
    proxied.api('/api/carts/quote', {
      method: 'POST',
      json: { lines: [{ skuCode: sku.code, quantity: 1 }], couponCode: code },
      headers: { 'x-forwarded-for': ip },
    });
  const order = (code: string, sku: TestSku, ip: string) =>
    checkout(proxied, checkoutBody([{ skuCode: sku.code, quantity: 1 }], { couponCode: code }), { 'x-forwarded-for': ip });
  const misses = async (ip: string) =>
    Number((await proxied.db.kysely.selectFrom('rate_limits').select('hits').where('key', '=', `coupon-miss:${ip}`).executeTakeFirst())?.hits ?? 0);

  it('unknown codes tried through checkout count under the same limit as the apply call and the quote', async () => {
    const sku = await freshSku();
    const ip = uniqueIp();
    for (let i = 0; i < MISSES; i++) {
      const res = await order(nextGuess(), sku, ip);
      expectApiError(res, 409, 'coupon_not_applicable');
    }
    expect(await misses(ip)).toBe(MISSES);
    for (const refused of [await apply(nextGuess(), sku, ip), await quote(nextGuess(), sku, ip), await order(nextGuess(), sku, ip)]) {
      expectApiError(refused, 429, 'rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // While limited, a good code is refused the same way: the answer must not tell codes apart.
    expectApiError(await apply('NIBASH500', sku, ip), 429, 'rate_limited');
    expectApiError(await order('NIBASH500', sku, ip), 429, 'rate_limited');
    // A checkout without a coupon still goes through, and other addresses are not affected.
    expect((await checkout(proxied, checkoutBody([{ skuCode: sku.code, quantity: 1 }]), { 'x-forwarded-for': ip })).status).toBe(201);
    expectApiError(await apply(nextGuess(), sku, uniqueIp()), 404, 'coupon_unknown');
  });

  it('mixing the three paths does not buy more guesses', async () => {
    const sku = await freshSku();
    const ip = uniqueIp();
    const paths = [apply, quote, order];
    for (let i = 0; i < MISSES; i++) {
      const res = await paths[i % 3](nextGuess(), sku, ip);
      expect(res.status, res.text).not.toBe(429);
    }
    for (const path of paths) expectApiError(await path(nextGuess(), sku, ip), 429, 'rate_limited');
  });

  it('many guesses sent at once are all counted before any is answered', async () => {
    const sku = await freshSku();
    const ip = uniqueIp();
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => [apply, quote, order][i % 3](nextGuess(), sku, ip)));
    const answered = answers.filter((r) => r.status !== 429);
    expect(answered.length).toBeLessThanOrEqual(MISSES);
    for (const r of answers) if (r.status === 429) expectApiError(r, 429, 'rate_limited');
  });

  it('good codes never use up the allowance', async () => {
    const sku = await freshSku();
    const ip = uniqueIp();
    // STAFF20 is private and usable (docs/decisions/0014: it works for whoever has the code).
    for (let i = 0; i < MISSES + 5; i++) expect((await apply('STAFF20', sku, ip)).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await quote('STAFF20', sku, ip)).body.coupon.applied).toBe(true);
    expect(await misses(ip)).toBe(0);
    expectApiError(await apply(nextGuess(), sku, ip), 404, 'coupon_unknown');
  });

  it('a private code that cannot be used answers exactly like an unknown code, and counts like one', async () => {
    const sku = await freshSku();
    const day = 86_400_000;
    const tag = `${process.pid}`.slice(-4);
    const hidden = {
      expired: `PRIVOLD${tag}`,
      notStarted: `PRIVSOON${tag}`,
      usedUp: `PRIVGONE${tag}`,
      inactive: `PRIVOFF${tag}`,
    };
    await addCoupon(proxied.db.kysely, {
      code: hidden.expired,
      value: 10_000,
      minimumOrder: 5_000,
      isPublic: false,
      endsAt: new Date(Date.now() - day).toISOString(),
    });
    await addCoupon(proxied.db.kysely, { code: hidden.notStarted, value: 10_000, isPublic: false, startsAt: new Date(Date.now() + day).toISOString() });
    await addCoupon(proxied.db.kysely, { code: hidden.usedUp, value: 10_000, isPublic: false, usageLimit: 0 });
    await addCoupon(proxied.db.kysely, { code: hidden.inactive, value: 10_000, isPublic: false, active: false });

    const unknownCode = nextGuess();
    const ipA = uniqueIp();
    const unknownApply = await apply(unknownCode, sku, ipA);
    const unknownQuote = await quote(unknownCode, sku, ipA);
    const unknownOrder = await order(unknownCode, sku, ipA);
    expectApiError(unknownApply, 404, 'coupon_unknown');
    expectApiError(unknownOrder, 409, 'coupon_not_applicable');
    expect(await misses(ipA)).toBe(3);

    const { code: _code, ...unknownCoupon } = unknownQuote.body.coupon;
    for (const code of Object.values(hidden)) {
      const ip = uniqueIp();
      const a = await apply(code, sku, ip);
      expect([a.status, a.body], code).toEqual([unknownApply.status, unknownApply.body]);
      const q = await quote(code, sku, ip);
      expect(q.status, code).toBe(200);
      const { code: shownCode, ...coupon } = q.body.coupon;
      expect(shownCode).toBe(code);
      expect(coupon, code).toEqual(unknownCoupon);
      const o = await order(code, sku, ip);
      expect([o.status, o.body], code).toEqual([unknownOrder.status, unknownOrder.body]);
      expect(await misses(ip), code).toBe(3);
    }
    // A public coupon is listed by the coupon search anyway: it may say that it has expired.
    expectApiError(await apply('EID2025', sku, uniqueIp()), 422, 'coupon_expired');
  });
});

describe('changing the password is limited however many guesses arrive at once', () => {
  it('100 concurrent wrong current passwords: at most the limit are checked, the rest are refused, and so is the right one after', async () => {
    const c = await signUp(proxied);
    const limit = proxied.app.config.accounts.signInPerAccount;
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        proxied.api('/api/auth/change', { method: 'POST', json: { currentPassword: `guess-${i}-wrong`, newPassword: 'new-secret-9' }, headers: c.auth }),
      ),
    );
    const checked = answers.filter((r) => r.status === 400);
    for (const r of checked) expectApiError(r, 400, 'wrong_password');
    for (const r of answers.filter((x) => x.status !== 400)) expectApiError(r, 429, 'rate_limited');
    expect(checked.length).toBeLessThanOrEqual(limit);
    const right = await proxied.api('/api/auth/change', {
      method: 'POST',
      json: { currentPassword: c.password, newPassword: 'new-secret-9' },
      headers: c.auth,
    });
    expectApiError(right, 429, 'rate_limited');
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('a right current password does not count against the account', async () => {
    const c = await signUp(proxied);
    const limit = proxied.app.config.accounts.signInPerAccount;
    let password = c.password;
    for (let i = 0; i < limit + 2; i++) {
      const next = `changed-${i}-secret`;
      const res = await proxied.api('/api/auth/change', { method: 'POST', json: { currentPassword: password, newPassword: next }, headers: c.auth });
      expect(res.status, res.text).toBe(200);
      password = next;
    }
  });
});
