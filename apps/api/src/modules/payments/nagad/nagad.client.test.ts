import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type NagadStandIn, startNagadStandIn } from '../../../../test/helpers/nagad-stand-in.ts';
import { ProviderError } from '../provider.ts';
import { createNagadClient, fromEnv, NAGAD_LIVE_URL, NAGAD_SANDBOX_URL, nagadDateTime, paymentState, readPrivateKey } from './nagad.client.ts';
import type { NagadClient, NagadOptions } from './types.ts';

// The Nagad adapter against a local stand-in that speaks Nagad's merchant API (initialize,
// complete, verify/payment) over real HTTP on 127.0.0.1, with its own keys. The test plays
// the payer.

let gw: NagadStandIn;
let clock = 0;
const now = () => clock;

beforeAll(async () => {
  gw = await startNagadStandIn({ now });
});
afterAll(async () => {
  await gw?.close();
});
beforeEach(() => {
  clock = Date.UTC(2026, 10, 27, 6, 0, 0);
  gw.down = false;
  gw.delayMs = 0;
});

function client(o: Partial<NagadOptions> = {}): NagadClient {
  return createNagadClient({ ...gw.credentials, baseUrl: gw.url, now, timeoutMs: 2_000, ipV4: '203.0.113.7', ...o });
}

let orders = 0;
async function created(c: NagadClient, amount = 250_000) {
  const orderId = `ORD${Date.now().toString(36)}${++orders}`.slice(0, 20);
  const r = await c.createPayment({ orderId, amount, callbackUrl: `https://shop.example/payments/nagad/callback/${orderId}` });
  if (r.status !== 'created') throw new Error(`refused: ${r.code} ${r.message}`);
  return { ...r, orderId, amount };
}

const last = (part: string) => [...gw.requests].reverse().find((r) => r.path.includes(part));

describe('the wire', () => {
  it('initializes with encrypted, signed sensitive data and the X-KM headers, then completes with the amount in taka', async () => {
    const c = client();
    const p = await created(c, 10_670_050);
    const init = last('/check-out/initialize/')!;
    expect(init.method).toBe('POST');
    expect(init.path).toBe(`/remote-payment-gateway-1.0/api/dfs/check-out/initialize/${gw.credentials.merchantId}/${p.orderId}`);
    expect(init.headers).toMatchObject({ 'x-km-api-version': 'v-0.2.0', 'x-km-ip-v4': '203.0.113.7', 'x-km-client-type': 'PC_WEB' });
    expect(init.body.dateTime).toBe(nagadDateTime(clock));
    expect(init.body.dateTime).toBe('20261127120000'); // 06:00 UTC is noon in Dhaka
    expect(init.plain).toEqual({
      merchantId: gw.credentials.merchantId,
      datetime: '20261127120000',
      orderId: p.orderId,
      challenge: expect.stringMatching(/^[0-9A-F]{40}$/),
    });
    // The sensitive data travels encrypted, never as text.
    expect(String(init.body.sensitiveData)).not.toContain(p.orderId);

    const complete = last('/check-out/complete/')!;
    expect(complete.path).toBe(`/remote-payment-gateway-1.0/api/dfs/check-out/complete/${encodeURIComponent(p.paymentRefId)}`);
    const stored = gw.payments.get(p.paymentRefId)!;
    expect(complete.plain).toEqual({
      merchantId: gw.credentials.merchantId,
      orderId: p.orderId,
      currencyCode: '050',
      amount: '106700.50',
      challenge: stored.challenge,
    });
    expect(complete.body.merchantCallbackURL).toBe(`https://shop.example/payments/nagad/callback/${p.orderId}`);
    expect(p.redirectUrl).toBe(`${gw.origin}/check-out/${encodeURIComponent(p.paymentRefId)}`);
  });

  it('writes single poisha exactly and refuses amounts that are not whole poisha', async () => {
    const c = client();
    await created(c, 5);
    expect(last('/check-out/complete/')!.plain?.amount).toBe('0.05');
    await expect(c.createPayment({ orderId: 'ORDX1', amount: 10.5, callbackUrl: 'https://shop.example/cb' })).rejects.toThrow(RangeError);
    await expect(c.createPayment({ orderId: 'ORDX2', amount: 0, callbackUrl: 'https://shop.example/cb' })).rejects.toThrow(RangeError);
    await expect(c.initialize('bad-order-id!')).rejects.toThrow(RangeError);
  });

  it('reads keys as PEM or as the bare base64 body the merchant portal shows, and names the setting when one is not a key', () => {
    const pem = gw.credentials.merchantPrivateKey;
    const bare = pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
    expect(readPrivateKey(bare).asymmetricKeyType).toBe('rsa');
    const bareClient = client({ merchantPrivateKey: bare, nagadPublicKey: gw.credentials.nagadPublicKey.replace(/-----[^-]+-----/g, '') });
    expect(bareClient.merchantId).toBe(gw.credentials.merchantId);
    expect(() => client({ merchantPrivateKey: 'not a key' })).toThrow(/^NAGAD_MERCHANT_PRIVATE_KEY is not an RSA private key/);
    expect(() => client({ nagadPublicKey: 'bm9wZQ==' })).toThrow(/^NAGAD_PUBLIC_KEY is not an RSA public key/);
  });
});

describe('a payment', () => {
  it('succeeds: the payer pays on Nagad’s page, and verify says Success with the amount, order and issuer reference', async () => {
    const c = client();
    const p = await created(c, 250_000);
    expect(await c.verifyPayment(p.paymentRefId)).toMatchObject({ status: 'found', state: 'open', purchaseStatus: 'Ready' });
    gw.complete(p.paymentRefId, 'success');
    const back = new URL(gw.callbackUrl(p.paymentRefId));
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ payment_ref_id: p.paymentRefId, order_id: p.orderId, status: 'Success' });
    const v = await c.verifyPayment(p.paymentRefId);
    expect(v).toMatchObject({
      status: 'found',
      state: 'success',
      purchaseStatus: 'Success',
      paymentRefId: p.paymentRefId,
      orderId: p.orderId,
      merchantId: gw.credentials.merchantId,
      amount: 250_000,
    });
    expect(v.status === 'found' && v.issuerPaymentRefNo).toMatch(/^[0-9A-F]{8}$/);
    expect(last('/verify/payment/')!.method).toBe('GET');
  });

  it('fails when the payer’s balance is short, aborts after wrong PINs, and is cancelled by the payer', async () => {
    const c = client();
    const short = await created(c);
    gw.complete(short.paymentRefId, 'insufficient-balance');
    expect(await c.verifyPayment(short.paymentRefId)).toMatchObject({ state: 'failed', purchaseStatus: 'Failed' });
    const pin = await created(c);
    gw.complete(pin.paymentRefId, 'wrong-pin');
    expect(await c.verifyPayment(pin.paymentRefId)).toMatchObject({ state: 'failed', purchaseStatus: 'Aborted' });
    const cancel = await created(c);
    gw.complete(cancel.paymentRefId, 'cancel');
    expect(await c.verifyPayment(cancel.paymentRefId)).toMatchObject({ state: 'cancelled', purchaseStatus: 'Cancelled' });
    for (const p of [short, pin, cancel]) expect(gw.payments.get(p.paymentRefId)!.debits).toBe(0);
  });

  it('stays open while the payer is away, until Nagad aborts it', async () => {
    const c = client();
    const p = await created(c);
    gw.complete(p.paymentRefId, 'timeout');
    expect(await c.verifyPayment(p.paymentRefId)).toMatchObject({ state: 'open', purchaseStatus: 'OtpSent' });
    gw.expire(p.paymentRefId);
    expect(await c.verifyPayment(p.paymentRefId)).toMatchObject({ state: 'failed', purchaseStatus: 'Aborted' });
  });

  it('is refused a second complete of the same reference, which changes nothing', async () => {
    const c = client();
    const p = await created(c, 99_900);
    const again = await c.complete({
      paymentRefId: p.paymentRefId,
      orderId: p.orderId,
      amount: 1,
      challenge: gw.payments.get(p.paymentRefId)!.challenge,
      callbackUrl: 'https://evil.example/cb',
    });
    expect(again).toMatchObject({ status: 'refused', code: '16_0006_017', message: 'Purchase information state is invalid' });
    expect(gw.payments.get(p.paymentRefId)!.order).toMatchObject({
      amount: '999.00',
      callbackUrl: `https://shop.example/payments/nagad/callback/${p.orderId}`,
    });
  });

  it('is refused the same order id twice in a day', async () => {
    const c = client();
    const p = await created(c);
    expect(await c.createPayment({ orderId: p.orderId, amount: 100, callbackUrl: 'https://shop.example/cb' })).toMatchObject({
      status: 'refused',
      stage: 'initialize',
      code: '16_0006_083',
    });
  });

  it('reports an unknown payment reference as Nagad’s refusal, not a crash', async () => {
    expect(await client().verifyPayment('NOSUCHREF0')).toMatchObject({ status: 'error', code: '16_0006_055', message: 'Invalid Payment Reference Id' });
  });
});

describe('trust', () => {
  it('is refused by Nagad when our signature is not the registered merchant key’s', async () => {
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(
      await client({ merchantPrivateKey: stranger }).createPayment({ orderId: 'ORDSTRANGER1', amount: 100, callbackUrl: 'https://shop.example/cb' }),
    ).toMatchObject({
      status: 'refused',
      code: '16_0006_058',
    });
  });

  it('refuses an initialize answer that Nagad’s key did not sign (a man in the middle)', async () => {
    gw.forgeSignatures = true;
    try {
      await expect(client().initialize('ORDFORGED01')).rejects.toThrow('Nagad’s answer is not signed with Nagad’s key');
    } finally {
      gw.forgeSignatures = false;
    }
  });

  it('cannot be read by anyone else: requests are encrypted to the key it is given', async () => {
    const impostor = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(await client({ nagadPublicKey: impostor }).initialize('ORDIMPOSTOR1')).toMatchObject({ status: 'refused', code: '16_0006_057' });
  });
});

describe('when Nagad is slow or down', () => {
  it('turns a timeout into ProviderError, and a later verify still answers', async () => {
    const c = client({ timeoutMs: 150 });
    const p = await created(c);
    gw.complete(p.paymentRefId, 'success');
    gw.delayMs = 600;
    await expect(c.verifyPayment(p.paymentRefId)).rejects.toThrow(ProviderError);
    gw.delayMs = 0;
    expect(await c.verifyPayment(p.paymentRefId)).toMatchObject({ state: 'success' });
    expect(gw.payments.get(p.paymentRefId)!.debits).toBe(1);
  });

  it('turns a 5xx into ProviderError', async () => {
    gw.down = true;
    await expect(client().initialize('ORDDOWN01')).rejects.toThrow(ProviderError);
    await expect(client().verifyPayment('ANY')).rejects.toThrow(ProviderError);
  });
});

describe('settings', () => {
  it('is configured only with the merchant id and both keys, in the sandbox unless told otherwise', () => {
    const keys = { NAGAD_MERCHANT_ID: '683002007104225', NAGAD_MERCHANT_PRIVATE_KEY: 'k', NAGAD_PUBLIC_KEY: 'p' };
    expect(fromEnv({ NAGAD_MERCHANT_ID: '1', NAGAD_PUBLIC_KEY: 'p' })).toBeNull();
    expect(fromEnv(keys)).toMatchObject({ merchantId: '683002007104225', baseUrl: NAGAD_SANDBOX_URL, accountNumber: null });
    expect(fromEnv({ ...keys, NAGAD_SANDBOX: '0' })?.baseUrl).toBe(NAGAD_LIVE_URL);
    expect(fromEnv({ ...keys, NAGAD_SANDBOX: 'false', NAGAD_BASE_URL: 'http://127.0.0.1:9/x' })?.baseUrl).toBe('http://127.0.0.1:9/x');
    expect(fromEnv({ ...keys, NAGAD_SERVER_IP: '203.0.113.7', NAGAD_MERCHANT_NUMBER: '01711428036' })).toMatchObject({
      ipV4: '203.0.113.7',
      accountNumber: '01711428036',
    });
  });

  it('folds Nagad’s purchase statuses: only Success is paid', () => {
    expect(paymentState('Success')).toBe('success');
    for (const s of ['OrderInitiated', 'Ready', 'InProgress', 'OtpSent', 'OtpVerified', 'PinGiven']) expect(paymentState(s)).toBe('open');
    expect(paymentState('Cancelled')).toBe('cancelled');
    for (const s of ['Aborted', 'Failed', 'UnKnownFailed', 'InvalidRequest', 'Fraud']) expect(paymentState(s)).toBe('failed');
    expect(paymentState('PartialCancelled')).toBe('unknown');
    expect(paymentState('')).toBe('unknown');
  });
});
