import { constants, generateKeyPairSync, type KeyObject, privateDecrypt, publicEncrypt, randomBytes, sign, verify } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A local stand-in for Nagad's online payment gateway (guide v3.3, API version v-0.2.0) that
// speaks its protocol over real HTTP, so the adapter is tested without the internet:
//   POST /remote-payment-gateway-1.0/api/dfs/check-out/initialize/{merchantId}/{orderId}
//   POST /remote-payment-gateway-1.0/api/dfs/check-out/complete/{paymentRefId}
//   GET  /remote-payment-gateway-1.0/api/dfs/verify/payment/{paymentRefId}
// It holds its own RSA key pair and one for the merchant, both generated at start (no key is
// committed). Requests must carry the X-KM headers; their sensitiveData must decrypt with
// Nagad's private key (PKCS#1 v1.5) and their signature verify with the merchant's public key
// (SHA256withRSA). The initialize answer is encrypted to the merchant and signed by Nagad.
// Refusals are HTTP 400 {reason, message} with the guide's codes (§5.2.9.3).
//
// The test plays the payer with complete(paymentRefId, outcome) and then builds the redirect
// Nagad sends the shopper to with callbackUrl(paymentRefId).
//
// Where Nagad's documentation is silent, the choice made here is marked "assumption".

export type NagadPayerOutcome = 'success' | 'insufficient-balance' | 'wrong-pin' | 'cancel' | 'timeout';

export interface NagadStandInPayment {
  paymentRefId: string;
  orderId: string;
  /** Nagad's challenge from initialize, expected back in complete. */
  challenge: string;
  /** The complete request's decrypted sensitive data and callback; null until completed. */
  order: { amount: string; currencyCode: string; callbackUrl: string; additionalMerchantInfo: unknown } | null;
  /** Nagad's purchase status (guide §5.2.7). */
  status: string;
  statusCode: string;
  payer: 'pending' | NagadPayerOutcome;
  issuerPaymentRefNo: string | null;
  orderDateTime: string;
  issuerPaymentDateTime: string | null;
  completeCalls: number;
  /** How many times the payer's wallet was debited (never more than one). */
  debits: number;
}

export interface NagadStandIn {
  /** The base URL with the context path, as NAGAD_BASE_URL would hold it. */
  url: string;
  origin: string;
  credentials: { merchantId: string; merchantPrivateKey: string; nagadPublicKey: string };
  payments: Map<string, NagadStandInPayment>;
  /** Every request received (path, lower-cased headers, parsed body, decrypted sensitive data when readable). */
  requests: { method: string; path: string; headers: Record<string, string>; body: Record<string, unknown>; plain: Record<string, unknown> | null }[];
  calls(part: string): number;
  /** When set, every call answers 500 (Nagad is down). */
  down: boolean;
  /** Answers wait this long after the work is done (an answer lost to a timeout). */
  delayMs: number;
  /** Sealed answers are signed with a key that is not Nagad's (a man in the middle). */
  forgeSignatures: boolean;
  /** The payer's answer on Nagad's page. */
  complete(paymentRefId: string, outcome: NagadPayerOutcome): NagadStandInPayment;
  /** Nagad gives up on a payment the payer left unfinished. */
  expire(paymentRefId: string): NagadStandInPayment;
  /** Where Nagad sends the shopper back: merchantCallbackURL?merchant=…&order_id=…&payment_ref_id=…&status=…. */
  callbackUrl(paymentRefId: string, override?: Record<string, string>): string;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

const CONTEXT = '/remote-payment-gateway-1.0';
const hex = (n: number) => randomBytes(n).toString('hex').toUpperCase();
/** Nagad's yyyyMMddHHmmss in Dhaka time. */
const dhaka = (ms: number) => new Date(ms + 6 * 3_600_000).toISOString().replace(/\D/g, '').slice(0, 14);
const fromDhaka = (s: string) =>
  Date.UTC(Number(s.slice(0, 4)), Number(s.slice(4, 6)) - 1, Number(s.slice(6, 8)), Number(s.slice(8, 10)), Number(s.slice(10, 12)), Number(s.slice(12, 14))) -
  6 * 3_600_000;

export async function startNagadStandIn(opts: { now?: () => number; merchantId?: string } = {}): Promise<NagadStandIn> {
  const now = opts.now ?? Date.now;
  const merchantId = opts.merchantId ?? '683002007104225';
  const nagad = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const merchant = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const impostor = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const payments = new Map<string, NagadStandInPayment>();
  const ordersToday = new Set<string>();
  const requests: NagadStandIn['requests'] = [];
  let origin = '';

  const refuse = (reason: string, message: string) => ({ status: 400, json: { reason, message } });

  /** The merchant's sealed request: its plain JSON, or the guide's refusal. */
  function open(body: Json): { plain: Json } | { status: number; json: Json } {
    const data = typeof body.sensitiveData === 'string' ? body.sensitiveData : '';
    const signature = typeof body.signature === 'string' ? body.signature : '';
    if (!data || !signature) return refuse('16_0006_059', 'Invalid Sensitive Data');
    let text: string;
    try {
      text = privateDecrypt({ key: nagad.privateKey, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(data, 'base64')).toString('utf8');
    } catch {
      return refuse('16_0006_057', 'Decryption failed');
    }
    let plain: Json;
    try {
      plain = JSON.parse(text) as Json;
    } catch {
      // OpenSSL's implicit rejection turns a block encrypted to another key into noise.
      return refuse('16_0006_057', 'Decryption failed');
    }
    if (!verify('sha256', Buffer.from(text, 'utf8'), merchant.publicKey, Buffer.from(signature, 'base64'))) {
      return refuse('16_0006_058', 'Failed to verify signature');
    }
    return { plain };
  }

  /** Nagad's sealed answer: encrypted to the merchant's public key, signed with Nagad's key. */
  function seal(plain: Json, to: KeyObject = merchant.publicKey): Json {
    const text = JSON.stringify(plain);
    return {
      sensitiveData: publicEncrypt({ key: to, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(text, 'utf8')).toString('base64'),
      signature: sign('sha256', Buffer.from(text, 'utf8'), stand.forgeSignatures ? impostor.privateKey : nagad.privateKey).toString('base64'),
    };
  }

  const record = (p: NagadStandInPayment) => ({
    merchantId,
    orderId: p.orderId,
    paymentRefId: p.paymentRefId,
    amount: p.order?.amount ?? null,
    clientMobileNo: p.debits ? '016****5428' : null,
    merchantMobileNo: '01711428036',
    orderDateTime: p.orderDateTime,
    issuerPaymentDateTime: p.issuerPaymentDateTime,
    issuerPaymentRefNo: p.issuerPaymentRefNo,
    additionalMerchantInfo: p.order?.additionalMerchantInfo ?? null,
    status: p.status,
    statusCode: p.statusCode,
    cancelIssuerDateTime: null,
    cancelIssuerRefNo: null,
  });

  function handle(method: string, path: string, headers: Record<string, string>, body: Json, plainOut: { plain: Json | null }): { status: number; json: Json } {
    if (!path.startsWith(`${CONTEXT}/api/dfs/`)) return { status: 404, json: { reason: '404', message: 'Not Found' } };
    // The guide's §5.2.2 headers; 16_0006_064 "Mandatory Header Missing".
    if (headers['x-km-api-version'] !== 'v-0.2.0' || !headers['x-km-ip-v4'] || !headers['x-km-client-type']) {
      return refuse('16_0006_064', 'Mandatory Header Missing');
    }
    if (!['PC_WEB', 'MOBILE_WEB', 'MOBILE_APP', 'WALLET_WEB_VIEW', 'BILL_KEY'].includes(headers['x-km-client-type'])) {
      return refuse('16_0006_999', 'Invalid Request');
    }
    const rest = path.slice(`${CONTEXT}/api/dfs/`.length).split('/').map(decodeURIComponent);

    if (method === 'POST' && rest[0] === 'check-out' && rest[1] === 'initialize' && rest.length === 4) {
      const [, , mid, orderId] = rest;
      if (mid !== merchantId) return refuse('16_0006_004', 'Provided merchant ID is invalid');
      if (!/^[A-Za-z0-9]{5,20}$/.test(orderId)) return refuse('16_0006_068', 'Invalid Order Id');
      const dateTime = typeof body.dateTime === 'string' ? body.dateTime : '';
      if (!/^\d{14}$/.test(dateTime)) return refuse('16_0006_081', 'Invalid Date Time Format');
      const opened = open(body);
      if (!('plain' in opened)) return opened;
      const p = opened.plain;
      plainOut.plain = p;
      if (p.merchantId !== merchantId || p.orderId !== orderId) return refuse('16_0006_059', 'Invalid Sensitive Data');
      // assumption: the sensitive datetime must be the body's dateTime, within 5 minutes of Nagad's clock.
      if (p.datetime !== dateTime) return refuse('16_0006_059', 'Invalid Sensitive Data');
      if (Math.abs(fromDhaka(dateTime) - now()) > 5 * 60_000) return refuse('16_0006_076', 'Transaction Date Time Not in allowed window');
      if (typeof p.challenge !== 'string' || !p.challenge) return refuse('16_0006_059', 'Invalid Sensitive Data');
      if (ordersToday.has(orderId)) return refuse('16_0006_083', 'Duplicate Order ID in same day');
      ordersToday.add(orderId);
      // assumption: a base64 reference like the guide's example (MTEwNzE2NTMx…=).
      const paymentRefId = Buffer.from(`${dhaka(now())}.${merchantId}.${orderId}.${hex(10)}`).toString('base64');
      const challenge = hex(20);
      payments.set(paymentRefId, {
        paymentRefId,
        orderId,
        challenge,
        order: null,
        status: 'OrderInitiated',
        statusCode: '000',
        payer: 'pending',
        issuerPaymentRefNo: null,
        orderDateTime: dhaka(now()),
        issuerPaymentDateTime: null,
        completeCalls: 0,
        debits: 0,
      });
      return { status: 200, json: seal({ paymentReferenceId: paymentRefId, challenge, acceptDateTime: dhaka(now()) }) };
    }

    if (method === 'POST' && rest[0] === 'check-out' && rest[1] === 'complete' && rest.length === 3) {
      const pay = payments.get(rest[2]);
      if (!pay) return refuse('16_0006_055', 'Invalid Payment Reference Id');
      pay.completeCalls++;
      const opened = open(body);
      if (!('plain' in opened)) return opened;
      const p = opened.plain;
      plainOut.plain = p;
      if (p.merchantId !== merchantId || p.orderId !== pay.orderId || p.challenge !== pay.challenge) return refuse('16_0006_059', 'Invalid Sensitive Data');
      if (p.currencyCode !== '050') return refuse('16_0006_080', 'Invalid Currency Code');
      // "Amount of Payment up to two decimal point e.g. 1722.83" (guide §5.2.8.2.3).
      if (typeof p.amount !== 'string' || !/^\d{1,12}(\.\d{1,2})?$/.test(p.amount) || Number(p.amount) <= 0) {
        return refuse('16_0006_059', 'Invalid Sensitive Data');
      }
      const callbackUrl = typeof body.merchantCallbackURL === 'string' ? body.merchantCallbackURL : '';
      try {
        new URL(callbackUrl);
      } catch {
        return refuse('16_0006_999', 'Invalid Request');
      }
      // assumption: a second complete of the same reference is refused as "Purchase information
      // state is invalid" and changes nothing.
      if (pay.order || pay.status !== 'OrderInitiated') return refuse('16_0006_017', 'Purchase information state is invalid');
      pay.order = { amount: p.amount, currencyCode: p.currencyCode, callbackUrl, additionalMerchantInfo: body.additionalMerchantInfo ?? null };
      pay.status = 'Ready';
      return { status: 200, json: { status: 'Success', callBackUrl: `${origin}/check-out/${encodeURIComponent(pay.paymentRefId)}` } };
    }

    if (method === 'GET' && rest[0] === 'verify' && rest[1] === 'payment' && rest.length === 3) {
      const pay = payments.get(rest[2]);
      if (!pay) return refuse('16_0006_055', 'Invalid Payment Reference Id');
      return { status: 200, json: record(pay) };
    }
    return { status: 404, json: { reason: '404', message: 'Not Found' } };
  }

  const server = http.createServer(async (req, res) => {
    const u = new URL(req.url ?? '/', 'http://stand-in');
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : (v ?? '')]));
    let body: Json = {};
    let bad = false;
    if (text) {
      try {
        const parsed: unknown = JSON.parse(text);
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Json;
        else bad = true;
      } catch {
        bad = true;
      }
    }
    const plainOut: { plain: Json | null } = { plain: null };
    let answer: { status: number; json: Json };
    if (stand.down) answer = { status: 500, json: { reason: '500', message: 'Internal Server Error' } };
    else if (bad) answer = refuse('16_0006_999', 'Invalid Request');
    else answer = handle(req.method ?? 'GET', u.pathname, headers, body, plainOut);
    requests.push({ method: req.method ?? 'GET', path: u.pathname, headers, body, plain: plainOut.plain });

    if (stand.delayMs > 0) await new Promise((r) => setTimeout(r, stand.delayMs));
    if (res.destroyed) return;
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer.json));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const get = (paymentRefId: string) => {
    const p = payments.get(paymentRefId);
    if (!p) throw new Error(`no payment ${paymentRefId}`);
    return p;
  };

  const stand: NagadStandIn = {
    url: `${origin}${CONTEXT}`,
    origin,
    credentials: {
      merchantId,
      merchantPrivateKey: merchant.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      nagadPublicKey: nagad.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    },
    payments,
    requests,
    calls: (part) => requests.filter((r) => r.path.includes(part)).length,
    down: false,
    delayMs: 0,
    forgeSignatures: false,
    complete(paymentRefId, outcome) {
      const p = get(paymentRefId);
      if (!p.order) throw new Error(`payment ${paymentRefId} was never completed by the merchant`);
      if (p.payer !== 'pending') throw new Error(`payment ${paymentRefId} was already answered (${p.payer})`);
      p.payer = outcome;
      switch (outcome) {
        case 'success':
          // The wallet is debited on Nagad's page once the PIN is given (guide §6); nothing for
          // the merchant to execute.
          p.status = 'Success';
          p.statusCode = '000';
          p.issuerPaymentRefNo = hex(4);
          p.issuerPaymentDateTime = dhaka(now());
          p.debits++;
          break;
        // assumption: a short balance ends the purchase as Failed (the guide lists the status,
        // not the wallet's reasons); the status code is the stand-in's own.
        case 'insufficient-balance':
          p.status = 'Failed';
          p.statusCode = '16_0006_IB';
          break;
        // assumption: after too many wrong PINs Nagad aborts the purchase.
        case 'wrong-pin':
          p.status = 'Aborted';
          p.statusCode = '16_0006_001';
          break;
        case 'cancel':
          p.status = 'Cancelled';
          p.statusCode = '000';
          break;
        // The payer walked away mid-way (OTP sent, PIN not given): the purchase stays open.
        case 'timeout':
          p.status = 'OtpSent';
          break;
      }
      return p;
    },
    expire(paymentRefId) {
      const p = get(paymentRefId);
      // assumption: Nagad aborts a purchase left unfinished.
      if (p.status !== 'Success' && p.status !== 'Cancelled' && p.status !== 'Failed') p.status = 'Aborted';
      return p;
    },
    callbackUrl(paymentRefId, override = {}) {
      const p = get(paymentRefId);
      if (!p.order) throw new Error(`payment ${paymentRefId} has no callback URL`);
      const u = new URL(p.order.callbackUrl);
      // The guide's §5.2.8.2.6 parameters (its example writes the status in lower case).
      const fields: Record<string, string> = {
        merchant: merchantId,
        order_id: p.orderId,
        payment_ref_id: p.paymentRefId,
        status: p.status,
        status_code: p.statusCode,
        message: p.status === 'Success' ? 'Successful Transaction' : p.status,
        payment_dt: p.issuerPaymentDateTime ?? dhaka(now()),
        issuer_payment_ref: p.issuerPaymentRefNo ?? '',
        ...override,
      };
      for (const [k, v] of Object.entries(fields)) u.searchParams.set(k, v);
      return u.href;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return stand;
}
