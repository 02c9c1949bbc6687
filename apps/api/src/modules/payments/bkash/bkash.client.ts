import type { Minor } from '@storefront/shared';
import { parseGatewayAmount, toGatewayAmount } from '../gateway-fields.ts';
import { ProviderError } from '../provider.ts';
import { type CachedToken, createMemoryTokenCache } from './token-cache.ts';
import type {
  BkashClient,
  BkashCreateResult,
  BkashExecuteResult,
  BkashOptions,
  BkashPaymentState,
  BkashQueryResult,
  BkashRefundLine,
  BkashRefundResult,
  BkashRefundStatusResult,
  BkashSearchResult,
} from './types.ts';

// bKash tokenized checkout (URL based, mode "0011") by its public API, v1.2.0-beta:
//   POST {base}/tokenized/checkout/token/grant      headers username, password; body app_key, app_secret
//   POST {base}/tokenized/checkout/token/refresh    the same plus refresh_token
//   POST {base}/tokenized/checkout/create           → paymentID, bkashURL (the payer goes there)
//   POST {base}/tokenized/checkout/execute          → trxID, transactionStatus Completed: the money moves here
//   POST {base}/tokenized/checkout/payment/status   what bKash knows of a paymentID
//   POST {base}/tokenized/checkout/general/searchTransaction   what bKash knows of a trxID
//   POST {base}/tokenized/checkout/payment/refund   with amount: a refund; without: its status
//   POST {host}/v2/tokenized-checkout/refund/payment/transaction | /status   the v2 refund API
// Every call after the grant carries `Authorization: <id_token>` (bare, as the docs show it,
// no "Bearer") and `X-App-Key`. bKash answers refusals with HTTP 200 and a code in the body,
// so a 200 alone means nothing: only statusCode "0000" and transactionStatus "Completed" do.
//
// The shopper comes back to callbackURL?paymentID=…&status=success|failure|cancel. That
// redirect proves nothing (anyone can type it); money moves only when we call execute, and
// execute works once. So the caller executes on status=success, and whenever an execute
// answer is lost or says "already executed", asks queryPayment instead of executing again.

export const BKASH_SANDBOX_URL = 'https://tokenized.sandbox.bka.sh/v1.2.0-beta';
export const BKASH_LIVE_URL = 'https://tokenized.pay.bka.sh/v1.2.0-beta';

/** bKash's integration guide: "API timeout of 30 seconds should be set for all the APIs". */
const TIMEOUT_MS = 30_000;
const REFRESH_MARGIN_MS = 5 * 60_000;
/** bKash's token-management page: an id_token lives 3600 s, used when expires_in is unreadable. */
const DEFAULT_TOKEN_LIFE_MS = 3_600_000;
const OK = '0000';

/**
 * Execute refused because this payment was executed before (error-code page):
 * 2117 "The payment execution has already been completed", 2062 "The payment has already been
 * completed", 2068 "Transaction has already been completed".
 */
const ALREADY_EXECUTED = new Set(['2117', '2062', '2068']);

/**
 * A token refusal in the body rather than as HTTP 401. 2079 "Invalid app Token" is not on the
 * general error-code page; it is in bKash's refund error table as client libraries reproduce
 * it (assumption: bKash may use it on other endpoints too, and retrying once costs little).
 */
const TOKEN_REFUSED = new Set(['2079']);

type Json = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : null);

/**
 * bKash's refusal envelopes: statusCode/statusMessage (tokenized v1.2), errorCode/errorMessage
 * (older endpoints and refund v1.2), externalCode/internalCode/errorMessageEn (refund v2).
 */
function refusalOf(json: Json): { code: string; message: string } | null {
  const status = str(json.statusCode);
  const code = str(json.errorCode) ?? str(json.externalCode) ?? str(json.internalCode) ?? (status !== null && status !== OK ? status : null);
  if (!code || code === OK) return null;
  const message = str(json.errorMessage) ?? str(json.errorMessageEn) ?? str(json.statusMessage) ?? str(json.message) ?? 'no message given';
  return { code, message };
}

/** bKash's transactionStatus words (Initiated, Completed, Failed, Cancelled, Expired, …) folded. */
export function paymentState(transactionStatus: string): BkashPaymentState {
  switch (transactionStatus.trim().toLowerCase()) {
    case 'initiated':
      return 'initiated';
    case 'completed':
      return 'completed';
    case 'failed':
    case 'declined':
      return 'failed';
    case 'cancelled':
    case 'canceled':
      return 'cancelled';
    case 'expired':
      return 'expired';
    default:
      return 'unknown';
  }
}

/**
 * Reads BKASH_APP_KEY, BKASH_APP_SECRET, BKASH_USERNAME, BKASH_PASSWORD, BKASH_BASE_URL and
 * BKASH_SANDBOX. Null unless all four credentials are set. Sandbox unless BKASH_SANDBOX says
 * false/0/no/off: real money only when someone asked for it.
 */
export function fromEnv(env: Record<string, string | undefined>): BkashOptions | null {
  const get = (k: string) => env[k]?.trim() || null;
  const appKey = get('BKASH_APP_KEY');
  const appSecret = get('BKASH_APP_SECRET');
  const username = get('BKASH_USERNAME');
  const password = get('BKASH_PASSWORD');
  if (!appKey || !appSecret || !username || !password) return null;
  const sandbox = !/^(false|0|no|off)$/i.test(get('BKASH_SANDBOX') ?? '');
  return { appKey, appSecret, username, password, baseUrl: get('BKASH_BASE_URL') ?? (sandbox ? BKASH_SANDBOX_URL : BKASH_LIVE_URL) };
}

function assertAmount(amount: Minor): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new RangeError(`not a payable amount of poisha: ${amount}`);
}

export function createBkashClient(opts: BkashOptions): BkashClient {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const baseOrigin = new URL(base).origin;
  const timeoutMs = opts.timeoutMs ?? TIMEOUT_MS;
  const margin = opts.refreshMarginMs ?? REFRESH_MARGIN_MS;
  const now = opts.now ?? Date.now;
  const cache = opts.tokenCache ?? createMemoryTokenCache();
  // One token per merchant account and environment.
  const cacheKey = `bkash:${base}:${opts.appKey}`;
  const url = (path: string) => `${base}/tokenized/checkout${path}`;
  // The v2 refund API has no version segment: it hangs off the host.
  const v2 = (path: string) => `${baseOrigin}/v2/tokenized-checkout${path}`;

  async function send(target: string, body: Json, headers: Record<string, string>): Promise<{ httpStatus: number; json: Json | null }> {
    let res: Response;
    let text: string;
    try {
      res = await fetch(target, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await res.text();
    } catch (err) {
      const e = err as Error;
      const timedOut = e?.name === 'TimeoutError' || e?.name === 'AbortError';
      throw new ProviderError(timedOut ? `bKash did not answer within ${timeoutMs} ms` : 'bKash could not be reached', String(e?.message ?? err));
    }
    if (res.status >= 500) throw new ProviderError(`bKash answered ${res.status}`);
    let json: Json | null = null;
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) json = parsed as Json;
    } catch {
      // Not JSON: the caller decides what that means for this status.
    }
    return { httpStatus: res.status, json };
  }

  /** Grant or refresh: a token, or bKash's reason for refusing one. Unreachable throws. */
  async function tokenCall(kind: 'grant' | 'refresh', extra: Json): Promise<{ token: CachedToken } | { refused: string }> {
    const { httpStatus, json } = await send(
      url(`/token/${kind}`),
      { app_key: opts.appKey, app_secret: opts.appSecret, ...extra },
      { username: opts.username, password: opts.password },
    );
    const idToken = json ? str(json.id_token) : null;
    if (httpStatus === 200 && json && idToken) {
      const seconds = Number(json.expires_in);
      const life = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : DEFAULT_TOKEN_LIFE_MS;
      const t = now();
      // A short-lived token (a stand-in's, say) is not renewed on every call: at most half its life early.
      return { token: { idToken, refreshToken: str(json.refresh_token), expiresAt: t + life, refreshAt: t + Math.max(life - margin, life / 2) } };
    }
    const why = json ? refusalOf(json) : null;
    return { refused: why ? `${why.code} ${why.message}` : `HTTP ${httpStatus}` };
  }

  async function acquire(): Promise<string> {
    const cached = await cache.get(cacheKey);
    if (cached && now() < cached.refreshAt) return cached.idToken;
    // A cache shared by processes lets one of them renew at a time (docs/decisions/0041).
    return cache.renewing ? cache.renewing(cacheKey, renew) : renew();
  }

  /** Reads the token again (another process may just have renewed it), then refreshes or grants. */
  async function renew(): Promise<string> {
    const cached = await cache.get(cacheKey);
    if (cached && now() < cached.refreshAt) return cached.idToken;
    try {
      let fresh: CachedToken | null = null;
      // Refresh rather than grant: grants are what bKash counts against the merchant.
      if (cached?.refreshToken) {
        const r = await tokenCall('refresh', { refresh_token: cached.refreshToken });
        if ('token' in r) fresh = r.token;
      }
      if (!fresh) {
        const g = await tokenCall('grant', {});
        if ('refused' in g) throw new ProviderError(`bKash refused the merchant credentials (${g.refused})`);
        fresh = g.token;
      }
      await cache.set(cacheKey, fresh);
      return fresh.idToken;
    } catch (err) {
      // A token inside the safety margin still works: better to use it than to fail a checkout
      // because bKash's token endpoint hiccupped.
      if (err instanceof ProviderError && cached && now() < cached.expiresAt) return cached.idToken;
      throw err;
    }
  }

  // Concurrent callers share one acquisition, so a cold cache makes one grant, not one per
  // checkout (bKash blocks merchants who ask for tokens too often).
  let inflight: Promise<string> | null = null;
  function idToken(): Promise<string> {
    inflight ??= acquire().finally(() => {
      inflight = null;
    });
    return inflight;
  }

  /** A call with the token; a refused token is forgotten, re-granted and the call retried once. */
  async function api(target: string, body: Json): Promise<Json> {
    for (let attempt = 0; ; attempt++) {
      const token = await idToken();
      const { httpStatus, json } = await send(target, body, { authorization: token, 'x-app-key': opts.appKey });
      // bKash's gateway answers an expired or unknown id_token with HTTP 401 (its own plugin
      // re-grants on 401).
      const refusedToken = httpStatus === 401 || (json !== null && TOKEN_REFUSED.has(refusalOf(json)?.code ?? ''));
      if (refusedToken) {
        if (attempt > 0) throw new ProviderError('bKash refused a freshly granted token');
        // Forget it only if nobody has replaced it meanwhile.
        if (cache.forget) await cache.forget(cacheKey, token);
        else {
          const cached = await cache.get(cacheKey);
          if (cached?.idToken === token) await cache.set(cacheKey, null);
        }
        continue;
      }
      if (!json) throw new ProviderError(`bKash answered ${httpStatus} without JSON`);
      if (httpStatus !== 200 && !refusalOf(json)) throw new ProviderError(`bKash answered ${httpStatus}`);
      return json;
    }
  }

  /** bKash's page must be bKash's (or, for a stand-in, on the host we talk to). */
  function paymentPage(value: string): string | null {
    let page: URL;
    try {
      page = new URL(value);
    } catch {
      return null;
    }
    if (page.origin === baseOrigin) return page.href;
    return page.protocol === 'https:' && /(^|\.)(bkash\.com|bka\.sh)$/.test(page.hostname) ? page.href : null;
  }

  function refundLine(r: Json): BkashRefundLine | null {
    const refundTrxId = str(r.refundTrxID) ?? str(r.refundTrxId);
    if (!refundTrxId) return null;
    return {
      refundTrxId,
      amount: parseGatewayAmount(r.refundAmount ?? r.amount),
      transactionStatus: str(r.transactionStatus) ?? str(r.refundTransactionStatus) ?? 'unknown',
      completedTime: str(r.completedTime) ?? str(r.refundTime),
    };
  }

  return {
    idToken,

    async createPayment(req): Promise<BkashCreateResult> {
      assertAmount(req.amount);
      const json = await api(url('/create'), {
        mode: '0011',
        payerReference: req.payerReference,
        callbackURL: req.callbackUrl,
        amount: toGatewayAmount(req.amount),
        currency: 'BDT',
        intent: 'sale',
        merchantInvoiceNumber: req.invoice,
      });
      const refusal = refusalOf(json);
      if (refusal) return { status: 'refused', ...refusal, raw: json };
      const paymentId = str(json.paymentID);
      const page = paymentPage(str(json.bkashURL) ?? '');
      if (!paymentId || !page) throw new ProviderError('bKash created a payment without a usable paymentID or bkashURL');
      // bKash echoes the amount; another one means this answer is not about our request.
      const echoed = parseGatewayAmount(json.amount);
      if (json.amount !== undefined && echoed !== req.amount)
        throw new ProviderError(`bKash created a payment of ${String(json.amount)}, not ${toGatewayAmount(req.amount)}`);
      return { status: 'created', paymentId, bkashUrl: page, raw: json };
    },

    async executePayment(paymentId): Promise<BkashExecuteResult> {
      const json = await api(url('/execute'), { paymentID: paymentId });
      const refusal = refusalOf(json);
      if (refusal) return { status: ALREADY_EXECUTED.has(refusal.code) ? 'already-executed' : 'failed', ...refusal, raw: json };
      if (str(json.paymentID) && json.paymentID !== paymentId) throw new ProviderError('bKash answered an execute about another payment');
      const transactionStatus = str(json.transactionStatus) ?? '';
      const trxId = str(json.trxID);
      const state = paymentState(transactionStatus);
      if (state === 'completed' && trxId) {
        return {
          status: 'completed',
          paymentId,
          trxId,
          amount: parseGatewayAmount(json.amount),
          invoice: str(json.merchantInvoiceNumber),
          payerAccount: str(json.customerMsisdn) ?? str(json.payerAccount),
          raw: json,
        };
      }
      if (state === 'failed' || state === 'cancelled' || state === 'expired') {
        return { status: 'failed', code: transactionStatus, message: str(json.statusMessage) ?? `transactionStatus ${transactionStatus}`, raw: json };
      }
      return { status: 'pending', transactionStatus, raw: json };
    },

    async queryPayment(paymentId): Promise<BkashQueryResult> {
      const json = await api(url('/payment/status'), { paymentID: paymentId });
      const refusal = refusalOf(json);
      if (refusal) return { status: 'error', ...refusal, raw: json };
      const transactionStatus = str(json.transactionStatus) ?? '';
      return {
        status: 'found',
        paymentId: str(json.paymentID) ?? paymentId,
        state: paymentState(transactionStatus),
        transactionStatus,
        trxId: str(json.trxID),
        amount: parseGatewayAmount(json.amount),
        invoice: str(json.merchantInvoiceNumber),
        raw: json,
      };
    },

    async searchTransaction(trxId): Promise<BkashSearchResult> {
      const json = await api(url('/general/searchTransaction'), { trxID: trxId });
      const refusal = refusalOf(json);
      if (refusal) return { status: 'error', ...refusal, raw: json };
      const transactionStatus = str(json.transactionStatus) ?? '';
      return {
        status: 'found',
        trxId: str(json.trxID) ?? trxId,
        state: paymentState(transactionStatus),
        transactionStatus,
        amount: parseGatewayAmount(json.amount),
        maxRefundable: json.maxRefundableAmount === undefined ? null : parseGatewayAmount(json.maxRefundableAmount),
        customerMsisdn: str(json.customerMsisdn),
        raw: json,
      };
    },

    async refund(req): Promise<BkashRefundResult> {
      assertAmount(req.amount);
      // Both are mandatory, at most 255 characters (bKash's refund API, 2075/2076 otherwise).
      const sku = req.sku.trim().slice(0, 255);
      const reason = req.reason.trim().slice(0, 255);
      if (!sku || !reason) throw new RangeError('a bKash refund needs a sku and a reason');
      const amount = toGatewayAmount(req.amount);
      const json =
        opts.refundApi === 'v2'
          ? await api(v2('/refund/payment/transaction'), { paymentId: req.paymentId, trxId: req.trxId, refundAmount: amount, sku, reason })
          : await api(url('/payment/refund'), { paymentID: req.paymentId, amount, trxID: req.trxId, sku, reason });
      const refusal = refusalOf(json);
      if (refusal) return { status: 'refused', ...refusal, raw: json };
      const line = refundLine(json);
      const originalTrxId = str(json.originalTrxID) ?? str(json.originalTrxId);
      if (line && paymentState(line.transactionStatus) === 'completed') {
        return { status: 'refunded', refundTrxId: line.refundTrxId, amount: line.amount, originalTrxId, raw: json };
      }
      return { status: 'pending', refundTrxId: line?.refundTrxId ?? null, transactionStatus: line?.transactionStatus ?? 'unknown', raw: json };
    },

    async refundStatus(req): Promise<BkashRefundStatusResult> {
      // v1.2: the refund endpoint without an amount answers the refund's state (bKash's own
      // plugin calls it so); v2 has its own status endpoint listing every partial refund.
      const json =
        opts.refundApi === 'v2'
          ? await api(v2('/refund/payment/status'), { paymentId: req.paymentId, trxId: req.trxId })
          : await api(url('/payment/refund'), { paymentID: req.paymentId, trxID: req.trxId });
      const refusal = refusalOf(json);
      if (refusal) return { status: 'error', ...refusal, raw: json };
      const lines = Array.isArray(json.refundTransactions) ? (json.refundTransactions as unknown[]) : [json];
      const refunds = lines.flatMap((r) => (r && typeof r === 'object' ? [refundLine(r as Json)] : [])).filter((r): r is BkashRefundLine => r !== null);
      return { status: 'found', refunds, raw: json };
    },
  };
}
