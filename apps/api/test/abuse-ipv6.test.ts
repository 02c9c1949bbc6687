import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { encodeCartItems } from '@storefront/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { CONTACT_RATE_LIMIT } from '../src/modules/contact/contact.service.ts';
import { uniqueEmail, uniqueMobile } from './helpers/accounts.ts';
import { expectApiError } from './helpers/assertions.ts';
import { ADDRESS, checkout, generousOrderLimits, plainSkus, setStock, type TestSku } from './helpers/checkout.ts';
import { pngBytes, uploadForm } from './helpers/files.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// One IPv6 subscriber is one client (docs/decisions/0049). A subscriber is handed a whole
// /64 and may send every request from another of its 2^64 host addresses: each per-address
// limit must count the /64, and an IPv4 client whose address comes IPv6-mapped
// (`::ffff:a.b.c.d`) as the IPv4 address. The app trusts one proxy hop, so the client
// address is the right-most X-Forwarded-For entry.

const PER_ADDRESS = 3;
let t: TestApp;
let skus: TestSku[];
let nextSku = 0;

beforeAll(async () => {
  t = await startTestApp({
    config: {
      trustProxy: loadConfig({ TRUST_PROXY: '1' }).trustProxy,
      accounts: { ...loadConfig({}).accounts, signInPerAddress: PER_ADDRESS, signUpPerAddress: PER_ADDRESS, signInPerAccount: 100 },
      orders: generousOrderLimits({ perAddress: PER_ADDRESS, holdMaxUnitsPerAddress: 1000 }),
    },
  });
  skus = await plainSkus(t.db.kysely, 20, 300);
  for (const s of skus) await setStock(t.db.kysely, s.id, [500]);
}, 60_000);
afterAll(() => t?.close());

/** A /64 of its own: every call of the answer is another host address in it. */
function subscriber(): () => string {
  const net = `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;
  return () => `${net}:${[0, 0, 0, 0].map(() => randomBytes(2).toString('hex')).join(':')}`;
}
const from = (ip: string) => ({ 'x-forwarded-for': ip });

const wrongSignIn = (ip: string) =>
  t.api('/api/signin/customers', {
    method: 'POST',
    json: { source: 'DEFAULT', type: 'DEFAULT', userName: uniqueEmail('nobody'), password: 'wrong-password' },
    headers: from(ip),
  });

describe('every per-address limit counts an IPv6 /64 as one client', () => {
  it('sign-in: wrong passwords from changing hosts of one /64 are stopped at the limit; another /64 is not', async () => {
    const host = subscriber();
    for (let i = 0; i < PER_ADDRESS; i++) expectApiError(await wrongSignIn(host()), 401, 'invalid_credentials');
    expectApiError(await wrongSignIn(host()), 429, 'rate_limited');
    expectApiError(await wrongSignIn(subscriber()()), 401, 'invalid_credentials');
  });

  it('back-office sign-in: wrong passwords from changing hosts of one /64 are stopped at the limit', async () => {
    const host = subscriber();
    const wrong = () =>
      t.api('/api/admin/session', { method: 'POST', json: { email: uniqueEmail('staff'), password: 'wrong-password' }, headers: from(host()) });
    for (let i = 0; i < PER_ADDRESS; i++) expectApiError(await wrong(), 401, 'invalid_credentials');
    expectApiError(await wrong(), 429, 'rate_limited');
  });

  it('sign-up: accounts made from changing hosts of one /64 are stopped at the limit', async () => {
    const host = subscriber();
    const signUp = () =>
      t.api('/api/signup', {
        method: 'POST',
        json: { source: 'DEFAULT', type: 'DEFAULT', fullName: 'Rahim Uddin', email: uniqueEmail(), mobile: uniqueMobile(), password: 'secret-pass' },
        headers: from(host()),
      });
    for (let i = 0; i < PER_ADDRESS; i++) expect((await signUp()).status).toBe(201);
    expectApiError(await signUp(), 429, 'rate_limited');
  });

  it('coupon guesses: the 21st unknown code from one /64 is refused, whatever host sends it', async () => {
    const host = subscriber();
    const items = encodeURIComponent(encodeCartItems([{ skuCode: skus[0]!.code, quantity: 1 }]));
    const guess = () => t.api(`/api/discount/coupons/apply?code=GUESS${randomBytes(4).toString('hex')}&items=${items}`, { headers: from(host()) });
    for (let i = 0; i < 20; i++) expectApiError(await guess(), 404, 'coupon_unknown');
    expectApiError(await guess(), 429, 'rate_limited');
  });

  it('contact messages: changing hosts of one /64 send no more than one sender may', async () => {
    const host = subscriber();
    const send = (i: number) =>
      t.api('/api/contact', {
        method: 'POST',
        json: { client_name: 'Farhana Akter', client_email: uniqueEmail(), client_subject: `Question ${i}`, client_message: 'Do you deliver to Sylhet?' },
        headers: from(host()),
      });
    for (let i = 0; i < CONTACT_RATE_LIMIT.max; i++) expect((await send(i)).status).toBe(201);
    expectApiError(await send(99), 429, 'rate_limited');
  });

  it('password-reset mails: twenty per hour from one /64, across accounts', async () => {
    const host = subscriber();
    const forgot = () => t.api('/api/forgot', { method: 'POST', json: { email: uniqueEmail() }, headers: from(host()) });
    for (let i = 0; i < 20; i++) expect((await forgot()).status).toBe(200);
    expectApiError(await forgot(), 429, 'rate_limited');
  });

  it('pay-later bookings: checkouts from changing hosts of one /64 are counted together', async () => {
    const host = subscriber();
    const book = () =>
      checkout(
        t,
        {
          items: [{ skuCode: skus[nextSku++ % skus.length]!.code, quantity: 1 }],
          paymentMethod: 'later',
          deliveryMethod: 'home_delivery',
          address: ADDRESS,
          contact: { name: 'Karim Ahmed', mobile: uniqueMobile(), email: uniqueEmail() },
        },
        from(host()),
      );
    for (let i = 0; i < PER_ADDRESS; i++) expect((await book()).status).toBe(201);
    expectApiError(await book(), 429, 'rate_limited');
  });

  it('an IPv4 client is one client whether its address comes plain or IPv6-mapped', async () => {
    const v4 = `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
    for (let i = 0; i < PER_ADDRESS; i++) expectApiError(await wrongSignIn(i % 2 ? `::ffff:${v4}` : v4), 401, 'invalid_credentials');
    expectApiError(await wrongSignIn(`::FFFF:${v4}`), 429, 'rate_limited');
    expectApiError(await wrongSignIn(v4), 429, 'rate_limited');
  });
});

describe('no limit can bypass the /64 rule', () => {
  /** Any IPv6 address written out, that is not a /64 key. */
  const FULL_IPV6 = /(?:^|[^0-9a-f:])((?:[0-9a-f]{1,4}:){2,7}[0-9a-f]{0,4}|::ffff:[0-9.]+)(?![0-9a-f:]*\/64)/i;

  it('after requests on every limited path from IPv6 hosts, no stored key names a whole IPv6 address', async () => {
    const host = subscriber();
    // The paths above ran already; add an upload and a cart quote with a coupon.
    const up = await t.api('/api/files', { method: 'POST', body: uploadForm({ bytes: pngBytes(), name: 'slip.png' }), headers: from(host()) });
    expect(up.status, up.text).toBe(200);
    await t.api('/api/carts/quote', {
      method: 'POST',
      json: { lines: [{ skuCode: skus[0]!.code, quantity: 1 }], couponCode: 'NOPE1234' },
      headers: from(host()),
    });
    const k = t.db.kysely;
    const keys = (await k.selectFrom('rate_limits').select('key').execute()).map((r) => r.key);
    expect(keys.some((key) => key.includes('::/64'))).toBe(true);
    expect(keys.filter((key) => FULL_IPV6.test(key))).toEqual([]);
    // What the limits count in their own tables: contact senders, the unpaid holds of sales, guest files.
    const contact = (await k.selectFrom('contact_messages').select('ip').execute()).map((r) => r.ip);
    const sales = (await k.selectFrom('sales').select('client_address').execute()).map((r) => r.client_address ?? '');
    const files = (await k.selectFrom('files').select('owner_address').execute()).map((r) => r.owner_address ?? '');
    for (const [what, values] of Object.entries({ contact, sales, files })) {
      expect(
        values.filter((v) => FULL_IPV6.test(v)),
        what,
      ).toEqual([]);
      expect(
        values.some((v) => v.endsWith('::/64')),
        what,
      ).toBe(true);
    }
  });

  it('only the request decorator and what records a session or an audit line read request.ip', () => {
    // A new limit keyed on request.ip would count each IPv6 host apart: the code reads the
    // client address from request.clientAddress. These places keep the whole address on
    // purpose, as a record of where a session or a change came from.
    const allowed = new Map([
      ['app.ts', 'the clientAddress decorator itself'],
      ['modules/accounts/sessions.ts', 'a session records the full address'],
      ['plugins/admin-auth.ts', 'an audit line records the full address'],
      ['web/pages.ts', 'a page forwards the address to the API call it makes in-process'],
    ]);
    const src = path.resolve(import.meta.dirname, '../src');
    const readers: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) {
          // Code only: comments may name what they warn against.
          const text = fs
            .readFileSync(p, 'utf8')
            .replace(/\/\*[\s\S]*?\*\//g, '')
            .replace(/^\s*\/\/.*$/gm, '');
          if (/\b(?:req|request|this)\.ip\b|\.socket\.remoteAddress|\bx-forwarded-for\b|\bips\b/.test(text)) readers.push(path.relative(src, p));
        }
      }
    };
    walk(src);
    expect(readers.sort()).toEqual([...allowed.keys()].sort());
  });
});
