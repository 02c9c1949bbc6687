import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDb } from '../src/db/database.ts';
import { createPathaoCourier } from '../src/modules/couriers/pathao.client.ts';
import { createBkashClient } from '../src/modules/payments/bkash/bkash.client.ts';
import { sharedBkashTokenCache, sharedPathaoTokenCache } from '../src/modules/provider-tokens/shared-token-caches.ts';
import { type BkashStandIn, startBkashStandIn } from './helpers/bkash-stand-in.ts';
import { type PathaoStandIn, startPathaoStandIn } from './helpers/pathao-stand-in.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// Provider tokens shared by every API process on one database (docs/decisions/0041), on both
// databases: each "process" here is a client with its own in-process copy and its own
// connection to the database, as two servers have. Between them they make one grant; a token
// past its renewal time is refreshed once; a token the provider revoked is renewed once and
// both recover; the tokens are sealed at rest.

let t: TestApp;
let second: Db;
let clock = Date.now();
const now = () => clock;
let bkash: BkashStandIn;
let pathao: PathaoStandIn;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  // A second pool on the same database: another server process's connection.
  second = openDb(t.app.config.db);
  bkash = await startBkashStandIn({ now });
  pathao = await startPathaoStandIn({ now, tokenTtlSeconds: 3600 });
});
afterAll(async () => {
  await second?.destroy();
  await t?.close();
  await bkash?.close();
  await pathao?.close();
});

function bkashProcess(db: Db) {
  const c = bkash.credentials;
  return createBkashClient({
    ...c,
    baseUrl: bkash.url,
    now,
    timeoutMs: 5_000,
    tokenCache: sharedBkashTokenCache({ db: db.kysely, secret: c.appSecret, now, pollMs: 20 }),
  });
}

function pathaoProcess(db: Db, account = 'sandbox|client|merchant') {
  return createPathaoCourier({
    clientId: pathao.clientId,
    clientSecret: pathao.clientSecret,
    username: pathao.username,
    password: pathao.password,
    storeId: pathao.storeId,
    baseUrl: pathao.url,
    webhookSecret: pathao.webhookSecret,
    timeoutMs: 5_000,
    now,
    tokenCache: sharedPathaoTokenCache({ db: db.kysely, accountKey: account, secret: pathao.clientSecret, now, pollMs: 20 }),
  });
}

const tokenRow = (provider: 'bkash' | 'pathao') =>
  t.db.kysely.selectFrom('provider_tokens').selectAll().where('provider', '=', provider).executeTakeFirstOrThrow();

describe('bKash', () => {
  it('two processes starting at once make one grant between them, and use the same token', async () => {
    const a = bkashProcess(t.db);
    const b = bkashProcess({ ...second });
    bkash.delayMs = 150;
    let tokens: string[];
    try {
      tokens = await Promise.all([a.idToken(), b.idToken(), a.idToken(), b.idToken()]);
    } finally {
      bkash.delayMs = 0;
    }
    expect(bkash.calls('/token/grant')).toBe(1);
    expect(new Set(tokens).size).toBe(1);
    // A third process started later reads it too.
    expect(await bkashProcess(second).idToken()).toBe(tokens[0]);
    expect(bkash.calls('/token/grant')).toBe(1);
    // Sealed at rest: the row does not hold the token itself.
    const row = await tokenRow('bkash');
    expect(row.access_token).not.toContain(tokens[0]);
    expect(row.refresh_token).toBeTruthy();
    expect(row.lease_owner).toBeNull();
  });

  it('a token past its renewal time is refreshed once, by one process, and the other reads it', async () => {
    const a = bkashProcess(t.db);
    const b = bkashProcess(second);
    const before = await a.idToken();
    expect(await b.idToken()).toBe(before);
    const refreshes = bkash.calls('/token/refresh');
    clock += 3_500_000; // past the renewal time (5 minutes before the hour), before expiry
    bkash.delayMs = 100;
    let after: string[];
    try {
      after = await Promise.all([a.idToken(), b.idToken()]);
    } finally {
      bkash.delayMs = 0;
    }
    expect(bkash.calls('/token/refresh') - refreshes).toBe(1);
    expect(bkash.calls('/token/grant')).toBe(1);
    expect(after[0]).not.toBe(before);
    expect(after[1]).toBe(after[0]);
  });

  it('a token bKash revoked is renewed once, and both processes recover', async () => {
    const a = bkashProcess(t.db);
    const b = bkashProcess(second);
    expect(await b.idToken()).toBe(await a.idToken());
    const renewals = () => bkash.calls('/token/refresh') + bkash.calls('/token/grant');
    const before = renewals();
    bkash.revokeTokens();
    // Each asks bKash about a payment: the first gets 401, forgets the stored token and renews;
    // the second's 401 finds a newer token stored and uses it.
    const ra = await a.queryPayment('TR0011unknown');
    const rb = await b.queryPayment('TR0011unknown');
    expect(ra).toBeTruthy();
    expect(rb).toBeTruthy();
    expect(renewals() - before).toBe(1);
  });
});

describe('Pathao', () => {
  it('two processes asking at once make one password grant between them', async () => {
    const a = pathaoProcess(t.db);
    const b = pathaoProcess(second);
    pathao.delayMs = 150;
    try {
      const [ca, cb] = await Promise.all([a.cities(), b.cities(), a.zones(1), b.zones(1)]);
      expect(ca).toEqual(cb);
    } finally {
      pathao.delayMs = 0;
    }
    expect(pathao.issued).toEqual({ password: 1, refresh_token: 0 });
    expect(await a.accessToken()).toBe(await b.accessToken());
    const row = await tokenRow('pathao');
    expect(row.access_token).not.toContain(await a.accessToken());
  });

  it('expiry triggers one refresh with the refresh token, shared by both', async () => {
    const a = pathaoProcess(t.db);
    const b = pathaoProcess(second);
    const before = await a.accessToken();
    clock += 3_000_000; // a 1-hour token is renewed after half its life
    const [ta, tb] = await Promise.all([a.accessToken(), b.accessToken()]);
    expect(ta).not.toBe(before);
    expect(tb).toBe(ta);
    expect(pathao.issued).toEqual({ password: 1, refresh_token: 1 });
  });

  it('a revoked token is forgotten once: one refresh, and both processes carry on', async () => {
    const a = pathaoProcess(t.db);
    const b = pathaoProcess(second);
    expect(await b.accessToken()).toBe(await a.accessToken());
    pathao.revokeAccessTokens();
    expect(await a.cities()).toHaveLength(3);
    expect(await b.cities()).toHaveLength(3);
    expect(pathao.issued).toEqual({ password: 1, refresh_token: 2 });
  });

  it('another account on the same database keeps a token of its own', async () => {
    const other = pathaoProcess(t.db, 'live|client|another-merchant');
    await other.cities();
    expect(pathao.issued.password).toBe(2);
    const rows = await t.db.kysely.selectFrom('provider_tokens').select('account_key').where('provider', '=', 'pathao').execute();
    expect(rows).toHaveLength(2);
  });
});
