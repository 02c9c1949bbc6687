import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A local stand-in for bKash's tokenized checkout (v1.2.0-beta, URL based, mode "0011") that
// speaks its documented protocol, so the adapter is tested over real HTTP without the internet:
//   POST /v1.2.0-beta/tokenized/checkout/token/grant     headers username, password; body app_key, app_secret
//   POST /v1.2.0-beta/tokenized/checkout/token/refresh   the same plus refresh_token
//   POST /v1.2.0-beta/tokenized/checkout/create          → paymentID, bkashURL, transactionStatus Initiated
//   POST /v1.2.0-beta/tokenized/checkout/execute         → trxID, transactionStatus Completed (once)
//   POST /v1.2.0-beta/tokenized/checkout/payment/status  → the payment as bKash knows it
//   POST /v1.2.0-beta/tokenized/checkout/general/searchTransaction → the trxID, maxRefundableAmount
//   POST /v1.2.0-beta/tokenized/checkout/payment/refund  with amount: a refund; without: its status
//   POST /v2/tokenized-checkout/refund/payment/transaction | /status   the v2 refund API
// Calls after the grant must carry `authorization: <id_token>` and `x-app-key`; an unknown or
// expired id_token is answered HTTP 401 {"message":"Unauthorized"}, as bKash's API gateway does.
// Refusals come back as HTTP 200 with bKash's codes from its error-code page
// (https://developer.bka.sh/docs/error-codes), in the envelope each endpoint uses.
//
// The test plays the payer with complete(paymentID, outcome) and then builds the redirect
// bKash would send the shopper to with callbackUrl(paymentID).
//
// Where bKash's documentation is silent, the choice made here is marked "assumption".

export type PayerOutcome = 'success' | 'insufficient-balance' | 'wrong-pin' | 'cancel' | 'timeout';

export interface StandInRefund {
  refundTrxID: string;
  poisha: number;
  sku: string;
  reason: string;
  completedTime: string;
}

export interface StandInPayment {
  paymentID: string;
  /** The create request as received. */
  request: Record<string, string>;
  poisha: number;
  /** What the payer did on bKash's page; pending until the test says. */
  payer: 'pending' | PayerOutcome;
  transactionStatus: 'Initiated' | 'Completed' | 'Failed' | 'Cancelled' | 'Expired';
  trxID: string | null;
  createTime: string;
  executeTime: string | null;
  /** Every execute call, and how many of them moved money (never more than one). */
  executeCalls: number;
  debits: number;
  refunds: StandInRefund[];
}

export interface BkashStandIn {
  /** The base URL with the version segment, as BKASH_BASE_URL would hold it. */
  url: string;
  origin: string;
  credentials: { appKey: string; appSecret: string; username: string; password: string };
  payments: Map<string, StandInPayment>;
  /** Every request received, for assertions (path, lower-cased headers, parsed body). */
  requests: { path: string; headers: Record<string, string>; body: Record<string, unknown> }[];
  /** How many requests went to paths ending with this suffix. */
  calls(suffix: string): number;
  /** When set, every call answers 500 (bKash is down). */
  down: boolean;
  /** Answers wait this long after the work is done (an answer lost to a timeout). */
  delayMs: number;
  /** expires_in of new id_tokens, in seconds (bKash: 3600). */
  tokenTtlSeconds: number;
  /** bKash forgets every id_token (and with refresh: true, every refresh_token). */
  revokeTokens(o?: { refresh?: boolean }): void;
  /** The payer's answer on bKash's page. */
  complete(paymentID: string, outcome: PayerOutcome): StandInPayment;
  /** bKash gives up on an unexecuted payment (a paymentID is good for a limited time). */
  expire(paymentID: string): StandInPayment;
  /** Where bKash sends the shopper back: callbackURL?paymentID=…&status=success|failure|cancel. */
  callbackUrl(paymentID: string, status?: 'success' | 'failure' | 'cancel'): string;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

/** Exact decimal text to poisha: "1234.5" → 123450; anything else null (no floats). */
function poishaOf(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(value.trim());
  return m ? Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0')) : null;
}
const decimal = (poisha: number) => `${Math.floor(poisha / 100)}.${String(poisha % 100).padStart(2, '0')}`;

/** bKash's timestamp format, e.g. "2019-08-07T11:15:56:336 GMT+0600" (Dhaka time). */
function bkashTime(ms: number): string {
  const d = new Date(ms + 6 * 3_600_000).toISOString(); // 2019-08-07T11:15:56.336Z
  return `${d.slice(0, 19)}:${d.slice(20, 23)} GMT+0600`;
}

const id = (n: number) => randomBytes(n).toString('hex').toUpperCase();
/** bKash trxIDs are ten upper-case letters and digits ("6H7801QFYM"). */
const trxId = () =>
  randomBytes(10)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '')
    .toUpperCase()
    .padEnd(10, 'X')
    .slice(0, 10);

export async function startBkashStandIn(
  opts: { tokenTtlSeconds?: number; now?: () => number; credentials?: Partial<BkashStandIn['credentials']>; port?: number } = {},
): Promise<BkashStandIn> {
  const credentials = {
    appKey: 'sandbox-app-key-0011',
    appSecret: 'sandbox-app-secret-0011',
    username: 'sandboxTokenizedUser01',
    password: 'sandboxTokenizedUser01@12345',
    ...opts.credentials,
  };
  const now = opts.now ?? Date.now;
  const payments = new Map<string, StandInPayment>();
  const requests: BkashStandIn['requests'] = [];
  const idTokens = new Map<string, number>();
  const refreshTokens = new Set<string>();
  let origin = '';

  const issueToken = () => {
    const idToken = `eyJ${id(24)}`;
    const refreshToken = `eyJ${id(24)}`;
    idTokens.set(idToken, now() + stand.tokenTtlSeconds * 1000);
    refreshTokens.add(refreshToken);
    return {
      statusCode: '0000',
      statusMessage: 'Successful',
      id_token: idToken,
      token_type: 'Bearer',
      expires_in: stand.tokenTtlSeconds,
      refresh_token: refreshToken,
    };
  };

  // The tokenized endpoints' refusal envelope.
  const refuse = (code: string, message: string) => ({ statusCode: code, statusMessage: message });

  const paymentRecord = (p: StandInPayment) => ({
    statusCode: '0000',
    statusMessage: 'Successful',
    paymentID: p.paymentID,
    mode: '0011',
    payerReference: p.request.payerReference,
    callbackURL: p.request.callbackURL,
    agreementID: '',
    amount: p.request.amount,
    currency: 'BDT',
    intent: 'sale',
    merchantInvoiceNumber: p.request.merchantInvoiceNumber,
    paymentCreateTime: p.createTime,
    transactionStatus: p.transactionStatus,
    ...(p.trxID ? { trxID: p.trxID, paymentExecuteTime: p.executeTime, customerMsisdn: '01770618575', payerAccount: '01770618575' } : {}),
    verificationStatus: p.trxID ? 'Complete' : 'Incomplete',
  });

  const refunded = (p: StandInPayment) => p.refunds.reduce((n, r) => n + r.poisha, 0);

  /** The refund rules both refund APIs share: a code and message, or the new refund. */
  function makeRefund(f: {
    paymentID: unknown;
    trxID: unknown;
    amount: unknown;
    sku: unknown;
    reason: unknown;
  }): { code: string; message: string } | { p: StandInPayment; r: StandInRefund } {
    if (!f.paymentID || !f.trxID || !f.amount || !f.sku || !f.reason) return { code: '2065', message: 'Mendatory field missing' };
    if (String(f.sku).length > 255) return { code: '2075', message: 'SKU Character Limit Exceeded' };
    if (String(f.reason).length > 255) return { code: '2076', message: 'Reason Character Limit Exceeded' };
    const p = payments.get(String(f.paymentID));
    // assumption: a trxID that is not this payment's is 2028 "transaction serial number does not exist".
    if (!p || p.trxID !== f.trxID || p.transactionStatus !== 'Completed') {
      return { code: '2028', message: 'Reverse failed because the transaction serial number does not exist' };
    }
    const poisha = poishaOf(f.amount);
    if (!poisha) return { code: '2006', message: 'Invalid amount' };
    const before = refunded(p);
    if (before >= p.poisha) return { code: '2034', message: 'The transaction cannot be reversed because the original transaction has been reversed' };
    // 2026 is the documented code for more than the original amount; assumption: bKash uses the
    // same one when the sum of partial refunds would pass it.
    if (before + poisha > p.poisha) return { code: '2026', message: 'The reversal amount cannot be greater than the original transaction amount' };
    const r = { refundTrxID: trxId(), poisha, sku: String(f.sku), reason: String(f.reason), completedTime: bkashTime(now()) };
    p.refunds.push(r);
    return { p, r };
  }

  function handle(path: string, headers: Record<string, string>, body: Json): { status: number; json: Json } {
    const field = (k: string) => (typeof body[k] === 'string' ? (body[k] as string) : '');
    if (path === '/v1.2.0-beta/tokenized/checkout/token/grant' || path === '/v1.2.0-beta/tokenized/checkout/token/refresh') {
      // assumption: a wrong username/password/app_secret is refused by the gateway (401); a wrong
      // app_key is 2001 "Invalid App Key" from the error-code page.
      if (headers.username !== credentials.username || headers.password !== credentials.password || field('app_secret') !== credentials.appSecret) {
        return { status: 401, json: { message: 'Unauthorized' } };
      }
      if (field('app_key') !== credentials.appKey) return { status: 200, json: refuse('2001', 'Invalid App Key') };
      if (path.endsWith('/refresh')) {
        // assumption: an unknown refresh_token is refused with 2079 "Invalid app Token".
        if (!refreshTokens.has(field('refresh_token'))) return { status: 200, json: refuse('2079', 'Invalid app Token') };
        refreshTokens.delete(field('refresh_token'));
      }
      return { status: 200, json: issueToken() };
    }

    const expires = idTokens.get(headers.authorization ?? '');
    if (expires === undefined || now() >= expires) return { status: 401, json: { message: 'Unauthorized' } };
    if (headers['x-app-key'] !== credentials.appKey) return { status: 200, json: refuse('2001', 'Invalid App Key') };

    switch (path) {
      case '/v1.2.0-beta/tokenized/checkout/create': {
        for (const k of ['mode', 'payerReference', 'callbackURL', 'amount', 'currency', 'intent', 'merchantInvoiceNumber']) {
          if (!field(k)) return { status: 200, json: refuse('2065', 'Mendatory field missing') };
        }
        if (field('mode') !== '0011') return { status: 200, json: refuse('2063', 'Mode is not valid as per request data') };
        const poisha = poishaOf(field('amount'));
        if (!poisha) return { status: 200, json: refuse('2006', 'Invalid amount') };
        if (field('currency') !== 'BDT') return { status: 200, json: refuse('2007', 'Invalid currency') };
        if (field('intent') !== 'sale') return { status: 200, json: refuse('2008', 'Invalid intent') };
        try {
          new URL(field('callbackURL'));
        } catch {
          return { status: 200, json: refuse('2049', 'Invalid Merchant Callback URL') };
        }
        const paymentID = `TR0011${id(8)}`;
        const p: StandInPayment = {
          paymentID,
          request: Object.fromEntries(Object.entries(body).map(([k, v]) => [k, String(v)])),
          poisha,
          payer: 'pending',
          transactionStatus: 'Initiated',
          trxID: null,
          createTime: bkashTime(now()),
          executeTime: null,
          executeCalls: 0,
          debits: 0,
          refunds: [],
        };
        payments.set(paymentID, p);
        const back = (status: string) => stand.callbackUrl(paymentID, status as 'success');
        return {
          status: 200,
          json: {
            statusCode: '0000',
            statusMessage: 'Successful',
            paymentID,
            bkashURL: `${origin}/redirect/tokenized/?paymentID=${paymentID}&hash=${id(16)}&mode=0011&apiVersion=v1.2.0-beta`,
            callbackURL: p.request.callbackURL,
            successCallbackURL: back('success'),
            failureCallbackURL: back('failure'),
            cancelledCallbackURL: back('cancel'),
            amount: p.request.amount,
            intent: 'sale',
            currency: 'BDT',
            paymentCreateTime: p.createTime,
            transactionStatus: 'Initiated',
            merchantInvoiceNumber: p.request.merchantInvoiceNumber,
          },
        };
      }

      case '/v1.2.0-beta/tokenized/checkout/execute': {
        const p = payments.get(field('paymentID'));
        if (!p) return { status: 200, json: refuse('2002', 'Invalid Payment ID') };
        p.executeCalls++;
        // Execute works once: 2117 "The payment execution has already been completed".
        if (p.transactionStatus === 'Completed') return { status: 200, json: refuse('2117', 'The payment execution has already been completed') };
        if (p.transactionStatus === 'Expired' || p.transactionStatus === 'Cancelled') return { status: 200, json: refuse('2056', 'Invalid Payment State') };
        switch (p.payer) {
          case 'success':
            p.transactionStatus = 'Completed';
            p.trxID = trxId();
            p.executeTime = bkashTime(now());
            p.debits++;
            return {
              status: 200,
              json: {
                statusCode: '0000',
                statusMessage: 'Successful',
                paymentID: p.paymentID,
                payerReference: p.request.payerReference,
                customerMsisdn: '01770618575',
                trxID: p.trxID,
                amount: p.request.amount,
                transactionStatus: 'Completed',
                paymentExecuteTime: p.executeTime,
                currency: 'BDT',
                intent: 'sale',
                merchantInvoiceNumber: p.request.merchantInvoiceNumber,
              },
            };
          // assumption (as bKash's sandbox wallet 01823074817 behaves): the balance is checked
          // when the merchant executes, and the payment is then Failed.
          case 'insufficient-balance':
            p.transactionStatus = 'Failed';
            return { status: 200, json: refuse('2023', 'Insufficient Balance') };
          // assumption: after wrong PINs on bKash's page the payment is Failed and execute
          // reports the wallet's reason, 2014 "Wrong PIN".
          case 'wrong-pin':
            return { status: 200, json: refuse('2014', 'Wrong PIN') };
          // The payer never authorised it: 2056 "Invalid Payment State".
          default:
            return { status: 200, json: refuse('2056', 'Invalid Payment State') };
        }
      }

      case '/v1.2.0-beta/tokenized/checkout/payment/status': {
        const p = payments.get(field('paymentID'));
        if (!p) return { status: 200, json: refuse('2002', 'Invalid Payment ID') };
        return { status: 200, json: paymentRecord(p) };
      }

      case '/v1.2.0-beta/tokenized/checkout/general/searchTransaction': {
        const p = [...payments.values()].find((x) => x.trxID !== null && x.trxID === field('trxID'));
        // assumption: an unknown trxID is 2033 "Transaction not found".
        if (!p) return { status: 200, json: refuse('2033', 'Transaction not found') };
        return {
          status: 200,
          json: {
            statusCode: '0000',
            statusMessage: 'Successful',
            trxID: p.trxID,
            transactionStatus: p.transactionStatus,
            transactionType: 'bKash Tokenized Checkout via API',
            amount: p.request.amount,
            currency: 'BDT',
            customerMsisdn: '01770618575',
            organizationShortCode: '50022',
            initiationTime: p.createTime,
            completedTime: p.executeTime,
            maxRefundableAmount: decimal(p.poisha - refunded(p)),
          },
        };
      }

      case '/v1.2.0-beta/tokenized/checkout/payment/refund': {
        // bKash's own plugin: the same endpoint without an amount is the refund status, and a
        // payment with no refund answers "invalid payment ID".
        if (body.amount === undefined) {
          const p = payments.get(field('paymentID'));
          const last = p && p.trxID === field('trxID') ? p.refunds.at(-1) : undefined;
          if (!p || !last) return { status: 200, json: { errorCode: '2002', errorMessage: 'Invalid Payment ID' } };
          // assumption: v1.2 reports the latest refund only (v2 lists them all).
          return {
            status: 200,
            json: {
              statusCode: '0000',
              statusMessage: 'Successful',
              completedTime: last.completedTime,
              transactionStatus: 'Completed',
              originalTrxID: p.trxID,
              refundTrxID: last.refundTrxID,
              amount: decimal(last.poisha),
              currency: 'BDT',
              charge: '0.00',
            },
          };
        }
        const made = makeRefund({ paymentID: body.paymentID, trxID: body.trxID, amount: body.amount, sku: body.sku, reason: body.reason });
        if ('code' in made) return { status: 200, json: { errorCode: made.code, errorMessage: made.message } };
        return {
          status: 200,
          json: {
            statusCode: '0000',
            statusMessage: 'Successful',
            completedTime: made.r.completedTime,
            transactionStatus: 'Completed',
            originalTrxID: made.p.trxID,
            refundTrxID: made.r.refundTrxID,
            amount: decimal(made.r.poisha),
            currency: 'BDT',
            charge: '0.00',
          },
        };
      }

      // The v2 refund API: camel-case Id fields and its own error envelope (errorMessageEn/Bn).
      case '/v2/tokenized-checkout/refund/payment/transaction': {
        const made = makeRefund({ paymentID: body.paymentId, trxID: body.trxId, amount: body.refundAmount, sku: body.sku, reason: body.reason });
        if ('code' in made) {
          return { status: 200, json: { internalCode: made.code, externalCode: made.code, errorMessageEn: made.message, errorMessageBn: made.message } };
        }
        return {
          status: 200,
          json: {
            originalTrxId: made.p.trxID,
            refundTrxId: made.r.refundTrxID,
            refundTransactionStatus: 'Completed',
            originalTrxAmount: decimal(made.p.poisha),
            refundAmount: decimal(made.r.poisha),
            currency: 'BDT',
            completedTime: made.r.completedTime,
            sku: made.r.sku,
            reason: made.r.reason,
          },
        };
      }

      case '/v2/tokenized-checkout/refund/payment/status': {
        const p = payments.get(field('paymentId'));
        if (!p || p.trxID !== field('trxId')) {
          return {
            status: 200,
            json: { internalCode: '2002', externalCode: '2002', errorMessageEn: 'Invalid Payment ID', errorMessageBn: 'Invalid Payment ID' },
          };
        }
        return {
          status: 200,
          json: {
            originalTrxId: p.trxID,
            originalTrxAmount: decimal(p.poisha),
            originalTrxCompletedTime: p.executeTime,
            refundTransactions: p.refunds.map((r) => ({
              refundTrxId: r.refundTrxID,
              refundTransactionStatus: 'Completed',
              refundAmount: decimal(r.poisha),
              completedTime: r.completedTime,
            })),
          },
        };
      }
    }
    return { status: 404, json: { message: 'Not Found' } };
  }

  const server = http.createServer(async (req, res) => {
    const u = new URL(req.url ?? '/', 'http://stand-in');
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    if (u.pathname === '/redirect/tokenized/') {
      payerPage(req.method ?? 'GET', u, text, res);
      return;
    }
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : (v ?? '')]));
    let body: Json = {};
    let bad = false;
    try {
      const parsed: unknown = text ? JSON.parse(text) : {};
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Json;
      else bad = true;
    } catch {
      bad = true;
    }
    requests.push({ path: u.pathname, headers, body });

    let answer: { status: number; json: Json };
    if (stand.down) answer = { status: 500, json: { message: 'Internal Server Error' } };
    else if (req.method !== 'POST') answer = { status: 405, json: { message: 'Method Not Allowed' } };
    // 2025 "Invalid request body" (error-code page).
    else if (bad) answer = { status: 200, json: refuse('2025', 'Invalid request body') };
    else answer = handle(u.pathname, headers, body);

    if (stand.delayMs > 0) await new Promise((r) => setTimeout(r, stand.delayMs));
    if (res.destroyed) return;
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer.json));
  });

  /**
   * bKash's own page at bkashURL, for a browser test: the payer types a wallet number and PIN
   * (the sandbox's PIN is 12121) and confirms, or cancels; bKash then sends them to the
   * merchant's callbackURL. assumption: one page stands for bKash's number, OTP and PIN steps.
   */
  function payerPage(method: string, u: URL, text: string, res: http.ServerResponse) {
    const paymentID = u.searchParams.get('paymentID') ?? new URLSearchParams(text).get('paymentID') ?? '';
    const p = payments.get(paymentID);
    if (!p) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('No such payment');
      return;
    }
    if (method === 'POST') {
      const form = new URLSearchParams(text);
      const outcome: PayerOutcome = form.get('action') === 'cancel' ? 'cancel' : form.get('pin') === '12121' ? 'success' : 'wrong-pin';
      if (p.payer === 'pending') stand.complete(paymentID, outcome);
      res.writeHead(302, { location: stand.callbackUrl(paymentID) });
      res.end();
      return;
    }
    const esc = (v: string) => v.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bKash payment (stand-in)</title></head><body>
<main><h1>bKash</h1><p>Merchant invoice ${esc(p.request.merchantInvoiceNumber ?? '')}: ৳${esc(decimal(p.poisha))}</p>
<form method="post" action="/redirect/tokenized/"><input type="hidden" name="paymentID" value="${esc(paymentID)}">
<label>Your bKash account number <input name="wallet" inputmode="numeric" required></label>
<label>PIN <input name="pin" type="password" inputmode="numeric"></label>
<button name="action" value="confirm">Confirm</button> <button name="action" value="cancel" formnovalidate>Close</button></form></main></body></html>`);
  }

  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const stand: BkashStandIn = {
    url: `${origin}/v1.2.0-beta`,
    origin,
    credentials,
    payments,
    requests,
    calls: (suffix) => requests.filter((r) => r.path.endsWith(suffix)).length,
    down: false,
    delayMs: 0,
    tokenTtlSeconds: opts.tokenTtlSeconds ?? 3600,
    revokeTokens(o = {}) {
      idTokens.clear();
      if (o.refresh) refreshTokens.clear();
    },
    complete(paymentID, outcome) {
      const p = payments.get(paymentID);
      if (!p) throw new Error(`no payment ${paymentID}`);
      if (p.payer !== 'pending') throw new Error(`payment ${paymentID} was already answered (${p.payer})`);
      p.payer = outcome;
      // assumption: a cancel is recorded at once; a timeout leaves the payment Initiated until
      // bKash expires it (expire()); wrong PINs fail it on bKash's page.
      if (outcome === 'cancel') p.transactionStatus = 'Cancelled';
      if (outcome === 'wrong-pin') p.transactionStatus = 'Failed';
      return p;
    },
    expire(paymentID) {
      const p = payments.get(paymentID);
      if (!p) throw new Error(`no payment ${paymentID}`);
      if (p.transactionStatus === 'Initiated') p.transactionStatus = 'Expired';
      return p;
    },
    callbackUrl(paymentID, status) {
      const p = payments.get(paymentID);
      if (!p) throw new Error(`no payment ${paymentID}`);
      const s = status ?? (p.payer === 'success' || p.payer === 'insufficient-balance' ? 'success' : p.payer === 'cancel' ? 'cancel' : 'failure');
      const u = new URL(p.request.callbackURL);
      u.searchParams.set('paymentID', paymentID);
      u.searchParams.set('status', s);
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
