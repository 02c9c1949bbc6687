import { constants, createPrivateKey, createPublicKey, type KeyObject, randomBytes, sign, verify, publicEncrypt, privateDecrypt } from 'node:crypto';
import type { Minor } from '@storefront/shared';
import { parseGatewayAmount, toGatewayAmount } from '../gateway-fields.ts';
import { ProviderError } from '../provider.ts';
import type {
  NagadClient,
  NagadCompleteResult,
  NagadCreateResult,
  NagadInitializeResult,
  NagadOptions,
  NagadPaymentState,
  NagadVerifyResult,
} from './types.ts';

// Nagad's online payment gateway by its merchant API (guide v3.3, API version v-0.2.0):
//   POST {base}/api/dfs/check-out/initialize/{merchantId}/{orderId}
//        { accountNumber?, dateTime, sensitiveData, signature } → { sensitiveData, signature }
//        sensitiveData = base64(RSA-PKCS#1 v1.5 with Nagad's public key of {merchantId, datetime, orderId, challenge})
//        signature     = base64(SHA256withRSA with our private key over that same JSON text)
//        the answer's sensitiveData is encrypted to our public key and signed by Nagad:
//        {paymentReferenceId, challenge, acceptDateTime}
//   POST {base}/api/dfs/check-out/complete/{paymentReferenceId}
//        { sensitiveData({merchantId, orderId, currencyCode "050", amount, challenge}), signature,
//          merchantCallbackURL, additionalMerchantInfo? } → { status: "Success", callBackUrl }
//   GET  {base}/api/dfs/verify/payment/{paymentReferenceId} → the payment as Nagad knows it
// Every call carries X-KM-Api-Version v-0.2.0, X-KM-IP-V4 and X-KM-Client-Type PC_WEB.
// Refusals are {reason: "16_0006_…", message} (guide §5.2.9).
//
// The guide (§5.1.1) names SHA1withRSA; Nagad's own PHP sample signs with SHA-256 and that
// is what Nagad's gateway accepts today, so SHA256withRSA is used both ways (docs/decisions/0042).
//
// The shopper comes back to merchantCallbackURL?…&payment_ref_id=…&status=…: a claim anyone
// can type. Only verify/payment's answer is believed (guide §6: "Merchant … verify the
// transaction with Nagad Platform").

export const NAGAD_SANDBOX_URL = 'http://sandbox.mynagad.com:10080/remote-payment-gateway-1.0';
export const NAGAD_LIVE_URL = 'https://api.mynagad.com';

const API_VERSION = 'v-0.2.0';
const CLIENT_TYPE = 'PC_WEB';
/** The guide gives no timeout; bKash's 30 s is used for every call. */
const TIMEOUT_MS = 30_000;
/** ISO 4217 numeric code of the taka, as the guide's examples send it. */
const BDT = '050';

type Json = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : null);

/** A key as PEM, or the bare base64 DER body Nagad's portal hands out. */
function derOrPem(value: string): { pem: string } | { der: Buffer } {
  const v = value.trim().replace(/\\n/g, '\n');
  if (v.includes('-----BEGIN')) return { pem: v };
  return { der: Buffer.from(v.replace(/\s+/g, ''), 'base64') };
}

/** Our private key; the error names the setting, never the key. */
export function readPrivateKey(value: string, name = 'NAGAD_MERCHANT_PRIVATE_KEY'): KeyObject {
  const k = derOrPem(value);
  try {
    if ('pem' in k) return createPrivateKey(k.pem);
    try {
      return createPrivateKey({ key: k.der, format: 'der', type: 'pkcs8' });
    } catch {
      return createPrivateKey({ key: k.der, format: 'der', type: 'pkcs1' });
    }
  } catch {
    throw new Error(`${name} is not an RSA private key (PEM, or the base64 body of a PKCS#8/PKCS#1 key)`);
  }
}

export function readPublicKey(value: string, name = 'NAGAD_PUBLIC_KEY'): KeyObject {
  const k = derOrPem(value);
  try {
    if ('pem' in k) return createPublicKey(k.pem);
    try {
      return createPublicKey({ key: k.der, format: 'der', type: 'spki' });
    } catch {
      return createPublicKey({ key: k.der, format: 'der', type: 'pkcs1' });
    }
  } catch {
    throw new Error(`${name} is not an RSA public key (PEM, or the base64 body of an SPKI/PKCS#1 key)`);
  }
}

/** Nagad's dateTime: yyyyMMddHHmmss in Dhaka time (UTC+6, no daylight saving). */
export function nagadDateTime(ms: number): string {
  return new Date(ms + 6 * 3_600_000).toISOString().replace(/\D/g, '').slice(0, 14);
}

/** Nagad's purchase statuses (guide §5.2.7), folded. */
export function paymentState(purchaseStatus: string): NagadPaymentState {
  switch (purchaseStatus.trim().toLowerCase()) {
    case 'success':
      return 'success';
    case 'orderinitiated':
    case 'ready':
    case 'inprogress':
    case 'otpsent':
    case 'otpverified':
    case 'pingiven':
      return 'open';
    case 'cancelled':
    case 'canceled':
      return 'cancelled';
    case 'aborted':
    case 'failed':
    case 'unknownfailed':
    case 'invalidrequest':
    case 'fraud':
      return 'failed';
    // PartialCancelled and anything new: a person must look; never paid, never released on it.
    default:
      return 'unknown';
  }
}

/**
 * Reads NAGAD_MERCHANT_ID, NAGAD_MERCHANT_PRIVATE_KEY, NAGAD_PUBLIC_KEY, NAGAD_SANDBOX,
 * NAGAD_BASE_URL, NAGAD_SERVER_IP and NAGAD_MERCHANT_NUMBER. Null unless the id and both keys
 * are set. Sandbox unless NAGAD_SANDBOX says false/0/no/off: real money only when asked for.
 */
export function fromEnv(env: Record<string, string | undefined>): NagadOptions | null {
  const get = (k: string) => env[k]?.trim() || null;
  const merchantId = get('NAGAD_MERCHANT_ID');
  const merchantPrivateKey = get('NAGAD_MERCHANT_PRIVATE_KEY');
  const nagadPublicKey = get('NAGAD_PUBLIC_KEY');
  if (!merchantId || !merchantPrivateKey || !nagadPublicKey) return null;
  const sandbox = !/^(false|0|no|off)$/i.test(get('NAGAD_SANDBOX') ?? '');
  return {
    merchantId,
    merchantPrivateKey,
    nagadPublicKey,
    baseUrl: get('NAGAD_BASE_URL') ?? (sandbox ? NAGAD_SANDBOX_URL : NAGAD_LIVE_URL),
    ipV4: get('NAGAD_SERVER_IP') ?? undefined,
    accountNumber: get('NAGAD_MERCHANT_NUMBER'),
  };
}

function assertAmount(amount: Minor): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new RangeError(`not a payable amount of poisha: ${amount}`);
}

function refusalOf(json: Json | null): { code: string; message: string } | null {
  if (!json) return null;
  const code = str(json.reason);
  if (!code) return null;
  return { code, message: str(json.message) ?? 'no message given' };
}

export function createNagadClient(opts: NagadOptions): NagadClient {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const baseOrigin = new URL(base).origin;
  const timeoutMs = opts.timeoutMs ?? TIMEOUT_MS;
  const now = opts.now ?? Date.now;
  const ours = readPrivateKey(opts.merchantPrivateKey);
  const theirs = readPublicKey(opts.nagadPublicKey);
  const headers = {
    accept: 'application/json',
    'x-km-api-version': API_VERSION,
    'x-km-ip-v4': opts.ipV4 ?? '127.0.0.1',
    'x-km-client-type': CLIENT_TYPE,
  };

  /** Encrypted to Nagad and signed by us: the two fields every request body carries. */
  function seal(plain: Json): { sensitiveData: string; signature: string } {
    const text = JSON.stringify(plain);
    return {
      sensitiveData: publicEncrypt({ key: theirs, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(text, 'utf8')).toString('base64'),
      signature: sign('sha256', Buffer.from(text, 'utf8'), ours).toString('base64'),
    };
  }

  /** Nagad's sealed answer: decrypted with our key, believed only if Nagad's key signed it. */
  function unseal(json: Json): Json {
    const data = str(json.sensitiveData);
    const signature = str(json.signature);
    if (!data || !signature) throw new ProviderError('Nagad answered without sensitiveData and signature');
    let text: string;
    try {
      // OpenSSL's implicit rejection: a wrong key or a forged block decrypts to noise, which the
      // JSON parse and the signature check below refuse.
      text = privateDecrypt({ key: ours, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(data, 'base64')).toString('utf8');
    } catch {
      throw new ProviderError('Nagad answered data we cannot decrypt');
    }
    if (!verify('sha256', Buffer.from(text, 'utf8'), theirs, Buffer.from(signature, 'base64'))) {
      throw new ProviderError('Nagad’s answer is not signed with Nagad’s key');
    }
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Json;
    } catch {
      // falls through
    }
    throw new ProviderError('Nagad’s decrypted answer is not a JSON object');
  }

  async function call(method: 'GET' | 'POST', path: string, body?: Json): Promise<{ httpStatus: number; json: Json | null }> {
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers: body ? { ...headers, 'content-type': 'application/json' } : headers,
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await res.text();
    } catch (err) {
      const e = err as Error;
      const timedOut = e?.name === 'TimeoutError' || e?.name === 'AbortError';
      throw new ProviderError(timedOut ? `Nagad did not answer within ${timeoutMs} ms` : 'Nagad could not be reached', String(e?.message ?? err));
    }
    if (res.status >= 500) throw new ProviderError(`Nagad answered ${res.status}`);
    let json: Json | null = null;
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) json = parsed as Json;
    } catch {
      // Not JSON: decided below.
    }
    if (!json) throw new ProviderError(`Nagad answered ${res.status} without JSON`);
    if (res.status !== 200 && !refusalOf(json)) throw new ProviderError(`Nagad answered ${res.status}`);
    return { httpStatus: res.status, json };
  }

  /** Nagad's payment page must be Nagad's (or, for a stand-in, on the host we talk to). */
  function paymentPage(value: string): string | null {
    let page: URL;
    try {
      page = new URL(value);
    } catch {
      return null;
    }
    if (page.origin === baseOrigin) return page.href;
    return page.protocol === 'https:' && /(^|\.)(mynagad\.com|nagad\.com\.bd)$/.test(page.hostname) ? page.href : null;
  }

  const client: NagadClient = {
    merchantId: opts.merchantId,

    async initialize(orderId): Promise<NagadInitializeResult> {
      // Nagad's orderId: alphanumeric, 5 to 20 characters (guide §5.2.8.1.3).
      if (!/^[A-Za-z0-9]{5,20}$/.test(orderId)) throw new RangeError(`not a Nagad order id: ${orderId}`);
      const dateTime = nagadDateTime(now());
      // 40 hex characters, as the guide's example (§5.2.8.1.5).
      const challenge = randomBytes(20).toString('hex').toUpperCase();
      const sealed = seal({ merchantId: opts.merchantId, datetime: dateTime, orderId, challenge });
      const { json } = await call('POST', `/api/dfs/check-out/initialize/${encodeURIComponent(opts.merchantId)}/${encodeURIComponent(orderId)}`, {
        ...(opts.accountNumber ? { accountNumber: opts.accountNumber } : {}),
        dateTime,
        ...sealed,
      });
      const refusal = refusalOf(json);
      if (refusal) return { status: 'refused', ...refusal, raw: json! };
      const plain = unseal(json!);
      const paymentRefId = str(plain.paymentReferenceId);
      // The guide's older examples call it random; Nagad's sample and today's gateway say challenge.
      const serverChallenge = str(plain.challenge) ?? str(plain.random);
      if (!paymentRefId || !serverChallenge) throw new ProviderError('Nagad initialized a payment without a paymentReferenceId or challenge');
      return { status: 'initialized', paymentRefId, challenge: serverChallenge, acceptDateTime: str(plain.acceptDateTime) };
    },

    async complete(req): Promise<NagadCompleteResult> {
      assertAmount(req.amount);
      const sealed = seal({
        merchantId: opts.merchantId,
        orderId: req.orderId,
        currencyCode: BDT,
        amount: toGatewayAmount(req.amount),
        challenge: req.challenge,
      });
      const { json } = await call('POST', `/api/dfs/check-out/complete/${encodeURIComponent(req.paymentRefId)}`, {
        ...sealed,
        merchantCallbackURL: req.callbackUrl,
        ...(req.additionalMerchantInfo ? { additionalMerchantInfo: req.additionalMerchantInfo } : {}),
      });
      const refusal = refusalOf(json);
      if (refusal) return { status: 'refused', ...refusal, raw: json! };
      const status = str(json!.status);
      const page = paymentPage(str(json!.callBackUrl) ?? '');
      if ((status && status.toLowerCase() !== 'success') || !page) throw new ProviderError('Nagad completed an order without a usable callBackUrl');
      return { status: 'created', redirectUrl: page, raw: json! };
    },

    async createPayment(req): Promise<NagadCreateResult> {
      assertAmount(req.amount);
      const init = await client.initialize(req.orderId);
      if (init.status === 'refused') return { ...init, stage: 'initialize' };
      const done = await client.complete({
        paymentRefId: init.paymentRefId,
        orderId: req.orderId,
        amount: req.amount,
        challenge: init.challenge,
        callbackUrl: req.callbackUrl,
        additionalMerchantInfo: req.additionalMerchantInfo,
      });
      if (done.status === 'refused') return { ...done, stage: 'complete' };
      return { status: 'created', paymentRefId: init.paymentRefId, redirectUrl: done.redirectUrl };
    },

    async verifyPayment(paymentRefId): Promise<NagadVerifyResult> {
      const { json } = await call('GET', `/api/dfs/verify/payment/${encodeURIComponent(paymentRefId)}`);
      const refusal = refusalOf(json);
      if (refusal) return { status: 'error', ...refusal, raw: json! };
      const j = json!;
      const echoed = str(j.paymentRefId);
      if (echoed && echoed !== paymentRefId) throw new ProviderError('Nagad answered a verify about another payment');
      const purchaseStatus = str(j.status) ?? '';
      return {
        status: 'found',
        state: paymentState(purchaseStatus),
        purchaseStatus,
        statusCode: str(j.statusCode),
        paymentRefId,
        orderId: str(j.orderId),
        merchantId: str(j.merchantId),
        amount: parseGatewayAmount(j.amount),
        // The guide's table says issuerPaymentReferenceNo, its example and the gateway issuerPaymentRefNo.
        issuerPaymentRefNo: str(j.issuerPaymentRefNo) ?? str(j.issuerPaymentReferenceNo),
        raw: j,
      };
    },
  };
  return client;
}
