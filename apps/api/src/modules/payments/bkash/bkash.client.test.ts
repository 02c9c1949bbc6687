import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type BkashStandIn, startBkashStandIn } from '../../../../test/helpers/bkash-stand-in.ts';
import { ProviderError } from '../provider.ts';
import { BKASH_LIVE_URL, BKASH_SANDBOX_URL, createBkashClient, fromEnv } from './bkash.client.ts';
import { createMemoryTokenCache } from './token-cache.ts';
import type { BkashClient, BkashOptions } from './types.ts';

// The bKash tokenized checkout adapter against a local stand-in that speaks bKash's
// documented protocol (grant/refresh, create, execute, payment/status, searchTransaction,
// refund v1.2.0-beta and v2), over real HTTP on 127.0.0.1. The test plays the payer.

let gw: BkashStandIn;
// One clock for the adapter and the stand-in, moved by the tests instead of sleeping.
let clock = 0;
const now = () => clock;

beforeAll(async () => {
  gw = await startBkashStandIn({ now });
});
afterAll(async () => {
  await gw?.close();
});
beforeEach(() => {
  clock = Date.UTC(2026, 10, 27, 6, 0, 0);
  gw.down = false;
  gw.delayMs = 0;
  gw.tokenTtlSeconds = 3600;
});

function client(o: Partial<BkashOptions> = {}): BkashClient {
  return createBkashClient({ ...gw.credentials, baseUrl: gw.url, now, timeoutMs: 2_000, ...o });
}

let invoices = 0;
async function created(c: BkashClient, amount = 250_000) {
  const invoice = `INV-${++invoices}`;
  // bKash appends its own query string to callbackURL, so the order goes in the path.
  const r = await c.createPayment({ amount, invoice, payerReference: '01770618575', callbackUrl: `https://shop.example/payments/bkash/return/${invoice}` });
  if (r.status !== 'created') throw new Error(`create refused: ${r.code} ${r.message}`);
  return { paymentId: r.paymentId, bkashUrl: r.bkashUrl, invoice, amount };
}

/** A payment the payer has paid and we have executed: its trxID. */
async function paid(c: BkashClient, amount = 250_000) {
  const p = await created(c, amount);
  gw.complete(p.paymentId, 'success');
  const e = await c.executePayment(p.paymentId);
  if (e.status !== 'completed') throw new Error(`execute: ${e.status}`);
  return { ...p, trxId: e.trxId };
}

const lastBody = (suffix: string) => [...gw.requests].reverse().find((r) => r.path.endsWith(suffix))?.body;

describe('money on the wire', () => {
  it('sends ৳1,06,700.50 as "106700.50" and reads the executed amount back as 10670050 poisha', async () => {
    const c = client();
    const p = await created(c, 10_670_050);
    expect(lastBody('/checkout/create')).toMatchObject({
      amount: '106700.50',
      currency: 'BDT',
      intent: 'sale',
      mode: '0011',
      merchantInvoiceNumber: p.invoice,
    });
    gw.complete(p.paymentId, 'success');
    const e = await c.executePayment(p.paymentId);
    expect(e).toMatchObject({ status: 'completed', amount: 10_670_050 });
    const q = await c.queryPayment(p.paymentId);
    expect(q).toMatchObject({ status: 'found', amount: 10_670_050 });
  });

  it('writes single poisha and whole taka exactly, and refuses amounts that are not whole poisha', async () => {
    const c = client();
    await created(c, 1);
    expect(lastBody('/checkout/create')?.amount).toBe('0.01');
    await created(c, 5);
    expect(lastBody('/checkout/create')?.amount).toBe('0.05');
    await created(c, 100);
    expect(lastBody('/checkout/create')?.amount).toBe('1.00');
    await expect(c.createPayment({ amount: 10.5, invoice: 'X', payerReference: '0', callbackUrl: 'https://shop.example/cb' })).rejects.toThrow(RangeError);
    await expect(c.createPayment({ amount: 0, invoice: 'X', payerReference: '0', callbackUrl: 'https://shop.example/cb' })).rejects.toThrow(RangeError);
  });
});

describe('a payment', () => {
  it('succeeds: grant → create → the payer pays → execute → completed with trxID and the exact amount', async () => {
    const c = client();
    const before = gw.requests.length;
    const p = await created(c, 250_000);
    expect(gw.requests.slice(before).map((r) => r.path)).toEqual(['/v1.2.0-beta/tokenized/checkout/token/grant', '/v1.2.0-beta/tokenized/checkout/create']);
    const [grant, create] = gw.requests.slice(before);
    expect(grant.headers).toMatchObject({ username: gw.credentials.username, password: gw.credentials.password });
    expect(grant.body).toEqual({ app_key: gw.credentials.appKey, app_secret: gw.credentials.appSecret });
    // The id_token goes bare in Authorization, with the app key beside it.
    expect(create.headers.authorization).toMatch(/^eyJ/);
    expect(create.headers['x-app-key']).toBe(gw.credentials.appKey);
    expect(p.bkashUrl.startsWith(`${gw.origin}/redirect/tokenized/?paymentID=${p.paymentId}`)).toBe(true);

    gw.complete(p.paymentId, 'success');
    const back = new URL(gw.callbackUrl(p.paymentId));
    expect(back.pathname).toBe(`/payments/bkash/return/${p.invoice}`);
    expect(Object.fromEntries(back.searchParams)).toEqual({ paymentID: p.paymentId, status: 'success' });

    const e = await c.executePayment(p.paymentId);
    expect(e).toMatchObject({ status: 'completed', paymentId: p.paymentId, amount: 250_000, invoice: p.invoice, payerAccount: '01770618575' });
    if (e.status !== 'completed') return;
    expect(e.trxId).toMatch(/^[A-Z0-9]{10}$/);
    expect(gw.payments.get(p.paymentId)?.debits).toBe(1);

    const q = await c.queryPayment(p.paymentId);
    expect(q).toMatchObject({ status: 'found', state: 'completed', transactionStatus: 'Completed', trxId: e.trxId });
    const s = await c.searchTransaction(e.trxId);
    expect(s).toMatchObject({ status: 'found', trxId: e.trxId, state: 'completed', amount: 250_000, maxRefundable: 250_000 });
  });

  it('fails with 2023 when the payer’s balance is short, and nothing is debited', async () => {
    const c = client();
    const p = await created(c);
    gw.complete(p.paymentId, 'insufficient-balance');
    // The payer authorised on bKash's page; the balance is found short when we execute.
    expect(new URL(gw.callbackUrl(p.paymentId)).searchParams.get('status')).toBe('success');
    const e = await c.executePayment(p.paymentId);
    expect(e).toMatchObject({ status: 'failed', code: '2023', message: 'Insufficient Balance' });
    expect(await c.queryPayment(p.paymentId)).toMatchObject({ status: 'found', state: 'failed', trxId: null });
    expect(gw.payments.get(p.paymentId)?.debits).toBe(0);
  });

  it('fails with 2014 after wrong PINs, and bKash sends the shopper back with status=failure', async () => {
    const c = client();
    const p = await created(c);
    gw.complete(p.paymentId, 'wrong-pin');
    expect(new URL(gw.callbackUrl(p.paymentId)).searchParams.get('status')).toBe('failure');
    expect(await c.executePayment(p.paymentId)).toMatchObject({ status: 'failed', code: '2014', message: 'Wrong PIN' });
    expect(await c.queryPayment(p.paymentId)).toMatchObject({ status: 'found', state: 'failed' });
    expect(gw.payments.get(p.paymentId)?.debits).toBe(0);
  });

  it('is cancelled by the payer: status=cancel, execute refused with 2056, nothing debited', async () => {
    const c = client();
    const p = await created(c);
    gw.complete(p.paymentId, 'cancel');
    expect(new URL(gw.callbackUrl(p.paymentId)).searchParams.get('status')).toBe('cancel');
    expect(await c.executePayment(p.paymentId)).toMatchObject({ status: 'failed', code: '2056', message: 'Invalid Payment State' });
    expect(await c.queryPayment(p.paymentId)).toMatchObject({ status: 'found', state: 'cancelled' });
    expect(gw.payments.get(p.paymentId)?.debits).toBe(0);
  });

  it('is abandoned by the payer: it stays Initiated until bKash expires it, and cannot be executed', async () => {
    const c = client();
    const p = await created(c);
    gw.complete(p.paymentId, 'timeout');
    expect(await c.queryPayment(p.paymentId)).toMatchObject({ status: 'found', state: 'initiated', transactionStatus: 'Initiated' });
    expect(await c.executePayment(p.paymentId)).toMatchObject({ status: 'failed', code: '2056' });
    gw.expire(p.paymentId);
    expect(await c.queryPayment(p.paymentId)).toMatchObject({ status: 'found', state: 'expired' });
  });

  it('survives a lost callback: the query says Initiated (no money moved) and a late execute settles it', async () => {
    const c = client();
    const p = await created(c, 99_999);
    gw.complete(p.paymentId, 'success');
    // The shopper closed the tab: no callback, no execute.
    expect(await c.queryPayment(p.paymentId)).toMatchObject({ status: 'found', state: 'initiated', trxId: null, amount: 99_999, invoice: p.invoice });
    const e = await c.executePayment(p.paymentId);
    expect(e.status).toBe('completed');
    const q = await c.queryPayment(p.paymentId);
    expect(q).toMatchObject({ status: 'found', state: 'completed', trxId: e.status === 'completed' ? e.trxId : 'none' });
  });

  it('recognises a replayed callback: the second execute is "already executed" (2117) and nothing is debited twice', async () => {
    const c = client();
    const p = await created(c);
    gw.complete(p.paymentId, 'success');
    const first = await c.executePayment(p.paymentId);
    const second = await c.executePayment(p.paymentId);
    expect(first.status).toBe('completed');
    expect(second).toMatchObject({ status: 'already-executed', code: '2117' });
    // The caller's fallback: ask what the first execute did.
    const q = await c.queryPayment(p.paymentId);
    expect(q).toMatchObject({ state: 'completed', trxId: first.status === 'completed' ? first.trxId : 'none' });
    expect(gw.payments.get(p.paymentId)).toMatchObject({ executeCalls: 2, debits: 1 });
  });

  it('recognises two callbacks racing: one execute completes, the other is "already executed"', async () => {
    const c = client();
    const p = await created(c);
    gw.complete(p.paymentId, 'success');
    const both = await Promise.all([c.executePayment(p.paymentId), c.executePayment(p.paymentId)]);
    expect(both.map((r) => r.status).sort()).toEqual(['already-executed', 'completed']);
    expect(gw.payments.get(p.paymentId)?.debits).toBe(1);
  });

  it('loses an execute answer to the timeout: ProviderError, then the query shows it completed', async () => {
    const c = client({ timeoutMs: 150 });
    const p = await created(c);
    gw.complete(p.paymentId, 'success');
    gw.delayMs = 600;
    await expect(c.executePayment(p.paymentId)).rejects.toThrow(ProviderError);
    gw.delayMs = 0;
    expect(await c.queryPayment(p.paymentId)).toMatchObject({ status: 'found', state: 'completed' });
    expect(await c.executePayment(p.paymentId)).toMatchObject({ status: 'already-executed' });
    expect(gw.payments.get(p.paymentId)?.debits).toBe(1);
  });

  it('reports an unknown paymentID or trxID as bKash’s refusal, not a crash', async () => {
    const c = client();
    expect(await c.queryPayment('TR0011NOSUCH')).toMatchObject({ status: 'error', code: '2002', message: 'Invalid Payment ID' });
    expect(await c.executePayment('TR0011NOSUCH')).toMatchObject({ status: 'failed', code: '2002' });
    expect(await c.searchTransaction('NOSUCHTRX1')).toMatchObject({ status: 'error', code: '2033' });
  });
});

describe('refunds (v1.2.0-beta)', () => {
  it('refunds the whole payment, shows it in the refund status, and refuses a second refund with 2034', async () => {
    const c = client();
    const p = await paid(c, 10_670_050);
    const r = await c.refund({ paymentId: p.paymentId, trxId: p.trxId, amount: 10_670_050, reason: 'Customer returned the sofa', sku: 'SOFA-3S-GREY' });
    expect(r).toMatchObject({ status: 'refunded', amount: 10_670_050, originalTrxId: p.trxId });
    expect(lastBody('/checkout/payment/refund')).toEqual({
      paymentID: p.paymentId,
      amount: '106700.50',
      trxID: p.trxId,
      sku: 'SOFA-3S-GREY',
      reason: 'Customer returned the sofa',
    });
    const st = await c.refundStatus({ paymentId: p.paymentId, trxId: p.trxId });
    expect(st).toMatchObject({
      status: 'found',
      refunds: [{ refundTrxId: r.status === 'refunded' ? r.refundTrxId : 'none', amount: 10_670_050, transactionStatus: 'Completed' }],
    });
    expect(await c.refund({ paymentId: p.paymentId, trxId: p.trxId, amount: 1, reason: 'again', sku: 'SOFA-3S-GREY' })).toMatchObject({
      status: 'refused',
      code: '2034',
    });
    expect(await c.searchTransaction(p.trxId)).toMatchObject({ maxRefundable: 0 });
  });

  it('refunds in parts, and refuses a part beyond what remains with 2026', async () => {
    const c = client();
    const p = await paid(c, 10_670_050);
    const refund = (amount: number) => c.refund({ paymentId: p.paymentId, trxId: p.trxId, amount, reason: 'One chair damaged', sku: 'CHAIR-OAK' });
    expect(await refund(1_000_000)).toMatchObject({ status: 'refunded', amount: 1_000_000 });
    expect(await refund(50)).toMatchObject({ status: 'refunded', amount: 50 });
    expect(await c.searchTransaction(p.trxId)).toMatchObject({ maxRefundable: 9_670_000 });
    expect(await refund(9_670_001)).toMatchObject({ status: 'refused', code: '2026' });
    expect(await refund(9_670_000)).toMatchObject({ status: 'refunded', amount: 9_670_000 });
    expect(gw.payments.get(p.paymentId)?.refunds.map((x) => x.poisha)).toEqual([1_000_000, 50, 9_670_000]);
  });

  it('refuses a refund over the paid amount with 2026 and refunds nothing', async () => {
    const c = client();
    const p = await paid(c, 250_000);
    const r = await c.refund({ paymentId: p.paymentId, trxId: p.trxId, amount: 250_001, reason: 'Too much', sku: 'TABLE' });
    expect(r).toMatchObject({ status: 'refused', code: '2026', message: 'The reversal amount cannot be greater than the original transaction amount' });
    expect(gw.payments.get(p.paymentId)?.refunds).toEqual([]);
    expect(await c.refundStatus({ paymentId: p.paymentId, trxId: p.trxId })).toMatchObject({ status: 'error', code: '2002' });
  });

  it('refuses a refund of a trxID that is not the payment’s', async () => {
    const c = client();
    const p = await paid(c);
    expect(await c.refund({ paymentId: p.paymentId, trxId: 'AAAAAAAAAA', amount: 100, reason: 'r', sku: 's' })).toMatchObject({
      status: 'refused',
      code: '2028',
    });
  });
});

describe('refunds (v2)', () => {
  it('refunds in parts through the v2 API and lists every part in its status', async () => {
    const c = client({ refundApi: 'v2' });
    const p = await paid(c, 500_000);
    const r = await c.refund({ paymentId: p.paymentId, trxId: p.trxId, amount: 120_050, reason: 'Late delivery', sku: 'BED-Q' });
    expect(r).toMatchObject({ status: 'refunded', amount: 120_050, originalTrxId: p.trxId });
    const req = gw.requests.at(-1);
    expect(req?.path).toBe('/v2/tokenized-checkout/refund/payment/transaction');
    expect(req?.body).toEqual({ paymentId: p.paymentId, trxId: p.trxId, refundAmount: '1200.50', sku: 'BED-Q', reason: 'Late delivery' });
    expect(await c.refund({ paymentId: p.paymentId, trxId: p.trxId, amount: 379_951, reason: 'Over', sku: 'BED-Q' })).toMatchObject({
      status: 'refused',
      code: '2026',
    });
    expect(await c.refund({ paymentId: p.paymentId, trxId: p.trxId, amount: 379_950, reason: 'Rest', sku: 'BED-Q' })).toMatchObject({ status: 'refunded' });
    const st = await c.refundStatus({ paymentId: p.paymentId, trxId: p.trxId });
    expect(st.status === 'found' ? st.refunds.map((x) => x.amount) : st).toEqual([120_050, 379_950]);
  });
});

describe('tokens', () => {
  it('makes one grant for many concurrent calls on a cold cache, and reuses the token after', async () => {
    const c = client();
    const grants = gw.calls('/token/grant');
    await Promise.all(Array.from({ length: 6 }, () => c.queryPayment('TR0011NOSUCH')));
    expect(gw.calls('/token/grant') - grants).toBe(1);
    await created(c);
    await c.queryPayment('TR0011NOSUCH');
    expect(gw.calls('/token/grant') - grants).toBe(1);
  });

  it('refreshes the token with its refresh_token before it expires, without a new grant', async () => {
    const c = client();
    const first = await c.idToken();
    const grants = gw.calls('/token/grant');
    const refreshes = gw.calls('/token/refresh');
    clock += 50 * 60_000; // 50 minutes into its hour: still outside the 5-minute margin
    expect(await c.idToken()).toBe(first);
    clock += 6 * 60_000; // 56 minutes: renew now
    const p = await created(c);
    expect(gw.calls('/token/refresh') - refreshes).toBe(1);
    expect(gw.calls('/token/grant') - grants).toBe(0);
    const refresh = [...gw.requests].reverse().find((r) => r.path.endsWith('/token/refresh'));
    expect(refresh?.body).toMatchObject({ app_key: gw.credentials.appKey, app_secret: gw.credentials.appSecret, refresh_token: expect.stringMatching(/^eyJ/) });
    const create = gw.requests.find((r) => r.path.endsWith('/checkout/create') && r.body.merchantInvoiceNumber === p.invoice);
    expect(create?.headers.authorization).not.toBe(first);
  });

  it('refreshes a short-lived token once it has expired, and the stand-in takes the new one', async () => {
    gw.tokenTtlSeconds = 2;
    const c = client();
    await c.queryPayment('TR0011NOSUCH');
    const refreshes = gw.calls('/token/refresh');
    const statusCalls = gw.calls('/payment/status');
    clock += 2_500;
    expect(await c.queryPayment('TR0011NOSUCH')).toMatchObject({ status: 'error', code: '2002' });
    expect(gw.calls('/token/refresh') - refreshes).toBe(1);
    // No 401 and retry: the token was renewed before the call.
    expect(gw.calls('/payment/status') - statusCalls).toBe(1);
  });

  it('falls back to a grant when bKash refuses the refresh_token', async () => {
    const c = client();
    await c.idToken();
    gw.revokeTokens({ refresh: true });
    const grants = gw.calls('/token/grant');
    clock += 3_601_000;
    expect(await c.queryPayment('TR0011NOSUCH')).toMatchObject({ status: 'error', code: '2002' });
    expect(gw.calls('/token/grant') - grants).toBe(1);
  });

  it('answers a 401 for a token bKash no longer knows with one re-grant and one retry', async () => {
    const c = client();
    const p = await created(c);
    gw.revokeTokens();
    const grants = gw.calls('/token/grant');
    const statusCalls = gw.calls('/payment/status');
    expect(await c.queryPayment(p.paymentId)).toMatchObject({ status: 'found', state: 'initiated' });
    expect(gw.calls('/token/grant') - grants).toBe(1);
    expect(gw.calls('/payment/status') - statusCalls).toBe(2);
  });

  it('gives up with ProviderError when bKash refuses even a fresh token, after one re-grant', async () => {
    gw.tokenTtlSeconds = 0; // every token is dead on arrival at the stand-in
    const c = client();
    const grants = gw.calls('/token/grant');
    await expect(c.queryPayment('TR0011NOSUCH')).rejects.toThrow(/freshly granted token/);
    expect(gw.calls('/token/grant') - grants).toBe(2);
  });

  it('refuses wrong credentials with ProviderError after a single grant request', async () => {
    const grants = gw.calls('/token/grant');
    await expect(
      client({ password: 'wrong' }).createPayment({ amount: 100, invoice: 'I', payerReference: 'P', callbackUrl: 'https://shop.example/cb' }),
    ).rejects.toThrow(/refused the merchant credentials \(HTTP 401\)/);
    await expect(client({ appKey: 'wrong' }).queryPayment('TR0011NOSUCH')).rejects.toThrow(/2001 Invalid App Key/);
    expect(gw.calls('/token/grant') - grants).toBe(2);
  });

  it('shares one token between clients that share a cache (as processes sharing a table would)', async () => {
    const tokenCache = createMemoryTokenCache();
    const grants = gw.calls('/token/grant');
    const a = client({ tokenCache });
    const b = client({ tokenCache });
    await a.queryPayment('TR0011NOSUCH');
    await b.queryPayment('TR0011NOSUCH');
    expect(gw.calls('/token/grant') - grants).toBe(1);
    expect(await a.idToken()).toBe(await b.idToken());
  });
});

describe('when bKash is unavailable', () => {
  it('throws ProviderError when bKash answers 500', async () => {
    const c = client();
    const p = await created(c);
    gw.complete(p.paymentId, 'success');
    gw.down = true;
    await expect(c.executePayment(p.paymentId)).rejects.toThrow(ProviderError);
    await expect(c.queryPayment(p.paymentId)).rejects.toThrow(/bKash answered 500/);
    await expect(client().createPayment({ amount: 100, invoice: 'I', payerReference: 'P', callbackUrl: 'https://shop.example/cb' })).rejects.toThrow(
      ProviderError,
    );
    gw.down = false;
    expect(gw.payments.get(p.paymentId)?.debits).toBe(0);
  });

  it('throws ProviderError when bKash cannot be reached or does not answer in time', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(client({ baseUrl: `http://127.0.0.1:${port}/v1.2.0-beta` }).queryPayment('TR0011X')).rejects.toThrow(/could not be reached/);

    const c = client({ timeoutMs: 100 });
    await c.idToken();
    gw.delayMs = 400;
    await expect(c.queryPayment('TR0011X')).rejects.toThrow(/did not answer within 100 ms/);
  });
});

describe('configuration from the environment', () => {
  const creds = { BKASH_APP_KEY: 'k', BKASH_APP_SECRET: 's', BKASH_USERNAME: 'u', BKASH_PASSWORD: 'p' };

  it('is null unless all four credentials are set', () => {
    expect(fromEnv({})).toBeNull();
    expect(fromEnv({ ...creds, BKASH_PASSWORD: ' ' })).toBeNull();
  });

  it('uses the sandbox unless BKASH_SANDBOX says otherwise, and BKASH_BASE_URL over both', () => {
    expect(fromEnv(creds)).toEqual({ appKey: 'k', appSecret: 's', username: 'u', password: 'p', baseUrl: BKASH_SANDBOX_URL });
    expect(fromEnv({ ...creds, BKASH_SANDBOX: 'true' })?.baseUrl).toBe('https://tokenized.sandbox.bka.sh/v1.2.0-beta');
    expect(fromEnv({ ...creds, BKASH_SANDBOX: 'false' })?.baseUrl).toBe(BKASH_LIVE_URL);
    expect(BKASH_LIVE_URL).toBe('https://tokenized.pay.bka.sh/v1.2.0-beta');
    expect(fromEnv({ ...creds, BKASH_SANDBOX: 'false', BKASH_BASE_URL: 'http://127.0.0.1:9/v1.2.0-beta' })?.baseUrl).toBe('http://127.0.0.1:9/v1.2.0-beta');
  });
});
