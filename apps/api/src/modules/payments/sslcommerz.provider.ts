import { toGatewayAmount, toTransaction, verifyFields } from './gateway-fields.ts';
import {
  type GatewayTransaction,
  type PaymentInit,
  type PaymentProvider,
  type PaymentSession,
  ProviderError,
  type RefundAnswer,
  type RefundState,
} from './provider.ts';

// SSLCommerz, the card and mobile-banking gateway of Bangladesh, by its public API (v4):
//   POST {base}/gwprocess/v4/api.php                         open a session → GatewayPageURL
//   GET  {base}/validator/api/validationserverAPI.php         what a val_id stands for
//   GET  {base}/validator/api/merchantTransIDvalidationAPI.php every attempt for a tran_id;
//        with bank_tran_id + refund_amount it starts a refund, with refund_ref_id it tells
//        that refund's state
// The shopper comes back by a form POST to success_url / fail_url / cancel_url, and the
// gateway posts the same fields to ipn_url, signed with verify_sign / verify_key.

const TIMEOUT_MS = 20_000;

export interface SslcommerzOptions {
  storeId: string;
  storePassword: string;
  /** https://sandbox.sslcommerz.com, https://securepay.sslcommerz.com or a stand-in. */
  baseUrl: string;
  /** How long one call to the gateway may take (SSLCOMMERZ_TIMEOUT_MS); default 20 s. */
  timeoutMs?: number;
}

export function createSslcommerzProvider(opts: SslcommerzOptions): PaymentProvider {
  const base = opts.baseUrl.replace(/\/$/, '');
  const baseOrigin = new URL(base).origin;

  async function getJson(path: string, params: Record<string, string>): Promise<Record<string, unknown>> {
    const url = `${base}${path}?${new URLSearchParams({ ...params, store_id: opts.storeId, store_passwd: opts.storePassword, v: '1', format: 'json' })}`;
    let res: Response;
    try {
      res = await fetch(url, { signal: AbortSignal.timeout(opts.timeoutMs ?? TIMEOUT_MS), headers: { accept: 'application/json' } });
    } catch (err) {
      throw new ProviderError('The payment gateway could not be reached', String((err as Error)?.message ?? err));
    }
    const text = await res.text();
    if (!res.ok) throw new ProviderError(`The payment gateway answered ${res.status}`);
    try {
      const json = JSON.parse(text);
      if (!json || typeof json !== 'object') throw new Error('not an object');
      return json as Record<string, unknown>;
    } catch {
      throw new ProviderError('The payment gateway answered something that is not JSON');
    }
  }

  return {
    name: 'sslcommerz',
    // The documented range of one transaction: 10.00 to 500000.00 BDT.
    minAmount: 1_000,
    maxAmount: 50_000_000,

    async initiate(init: PaymentInit): Promise<PaymentSession> {
      const form = new URLSearchParams({
        store_id: opts.storeId,
        store_passwd: opts.storePassword,
        total_amount: toGatewayAmount(init.amount),
        currency: init.currency,
        tran_id: init.tranId,
        success_url: init.successUrl,
        fail_url: init.failUrl,
        cancel_url: init.cancelUrl,
        ipn_url: init.ipnUrl,
        cus_name: init.customer.name,
        cus_email: init.customer.email,
        cus_add1: init.customer.address,
        cus_city: init.customer.city,
        cus_postcode: init.customer.postcode,
        cus_country: init.customer.country,
        cus_phone: init.customer.phone,
        shipping_method: init.shipping.method,
        num_of_item: String(init.numOfItems),
        ship_name: init.shipping.name,
        ship_add1: init.shipping.address,
        ship_city: init.shipping.city,
        ship_postcode: init.shipping.postcode,
        ship_country: init.shipping.country,
        product_name: init.productName.slice(0, 255),
        product_category: init.productCategory,
        product_profile: 'physical-goods',
        value_a: init.invoiceId,
      });
      let res: Response;
      try {
        res = await fetch(`${base}/gwprocess/v4/api.php`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: form,
          signal: AbortSignal.timeout(opts.timeoutMs ?? TIMEOUT_MS),
        });
      } catch (err) {
        throw new ProviderError('The payment gateway could not be reached', String((err as Error)?.message ?? err));
      }
      let json: Record<string, unknown>;
      try {
        json = (await res.json()) as Record<string, unknown>;
      } catch {
        throw new ProviderError(`The payment gateway answered ${res.status} without JSON`);
      }
      if (String(json.status).toUpperCase() !== 'SUCCESS' || typeof json.GatewayPageURL !== 'string' || !json.GatewayPageURL) {
        throw new ProviderError(`The payment gateway refused the session: ${String(json.failedreason ?? json.status ?? 'no reason given').slice(0, 200)}`);
      }
      // The page URL comes from the gateway's answer only, and must be on the gateway itself:
      // a tampered or confused answer cannot send shoppers elsewhere.
      let page: URL;
      try {
        page = new URL(json.GatewayPageURL);
      } catch {
        throw new ProviderError('The payment gateway answered an invalid page URL');
      }
      if (page.origin !== baseOrigin || !/^https?:$/.test(page.protocol)) {
        throw new ProviderError(`The payment gateway answered a page URL outside ${baseOrigin}`);
      }
      return { gatewayUrl: page.href, sessionKey: typeof json.sessionkey === 'string' ? json.sessionkey : null };
    },

    async validate(valId: string): Promise<GatewayTransaction | null> {
      const json = await getJson('/validator/api/validationserverAPI.php', { val_id: valId });
      const tx = toTransaction(json);
      if (tx.status === 'INVALID_TRANSACTION' || !tx.tranId) return null;
      return tx;
    },

    async queryByTranId(tranId: string): Promise<GatewayTransaction[]> {
      const json = await getJson('/validator/api/merchantTransIDvalidationAPI.php', { tran_id: tranId });
      if (String(json.APIConnect ?? '') !== 'DONE' || !Array.isArray(json.element)) return [];
      return (json.element as Record<string, unknown>[]).filter((e) => e && typeof e === 'object').map(toTransaction);
    },

    verifySignature(fields: Record<string, string>): boolean {
      return verifyFields(fields, opts.storePassword);
    },

    async refund(req): Promise<RefundAnswer> {
      const json = await getJson('/validator/api/merchantTransIDvalidationAPI.php', {
        bank_tran_id: req.bankTranId,
        refund_amount: toGatewayAmount(req.amount),
        refund_remarks: req.remarks.slice(0, 255) || 'Refund',
        refe_id: req.refeId,
      });
      const status = String(json.status ?? '').toLowerCase();
      if (String(json.APIConnect ?? '') !== 'DONE') {
        return { status: 'failed', refundRefId: null, reason: `The gateway refused the request (${String(json.APIConnect ?? 'no answer')})`, raw: json };
      }
      const refundRefId = typeof json.refund_ref_id === 'string' && json.refund_ref_id ? json.refund_ref_id : null;
      if ((status === 'success' || status === 'processing') && refundRefId) return { status, refundRefId, reason: null, raw: json };
      return { status: 'failed', refundRefId, reason: String(json.errorReason ?? 'The gateway did not start the refund').slice(0, 300), raw: json };
    },

    async refundStatus(refundRefId): Promise<RefundState> {
      const json = await getJson('/validator/api/merchantTransIDvalidationAPI.php', { refund_ref_id: refundRefId });
      const status = String(json.status ?? '').toLowerCase();
      if (String(json.APIConnect ?? '') !== 'DONE') return { status: 'unknown', raw: json };
      return { status: status === 'refunded' || status === 'processing' || status === 'cancelled' ? status : 'unknown', raw: json };
    },
  };
}
