import type { Minor } from '@storefront/shared';

// One interface for every card gateway (decisions.md, docs/decisions/0017). The shapes
// follow SSLCommerz's public API, which the built-in sandbox imitates: a session is opened
// server-to-server, the shopper pays on the gateway's page, comes back by a form POST to
// our success/fail/cancel URL, the gateway notifies our IPN URL, and nothing is believed
// until the gateway's validation API has confirmed it.

export type ProviderName = 'sandbox' | 'sslcommerz';

export interface PaymentInit {
  /** Ours, random, at most 30 characters (SSLCommerz's limit). */
  tranId: string;
  invoiceId: string;
  amount: Minor;
  currency: 'BDT';
  successUrl: string;
  failUrl: string;
  cancelUrl: string;
  ipnUrl: string;
  customer: { name: string; email: string; phone: string; address: string; city: string; postcode: string; country: string };
  shipping: { method: 'YES' | 'NO'; name: string; address: string; city: string; postcode: string; country: string };
  productName: string;
  productCategory: string;
  numOfItems: number;
}

export interface PaymentSession {
  /** Where the shopper pays: taken from the gateway's answer, never built by us. */
  gatewayUrl: string;
  sessionKey: string | null;
}

/** A transaction as the gateway's validation or query API describes it. */
export interface GatewayTransaction {
  /** VALID, VALIDATED, PENDING, FAILED, CANCELLED, INVALID_TRANSACTION, … */
  status: string;
  tranId: string | null;
  valId: string | null;
  /** Amount in poisha, parsed exactly from the gateway's decimal text; null if unreadable. */
  amount: Minor | null;
  /** The currency the merchant sent (currency_type), else the settlement currency. */
  currency: string | null;
  /** 1 = high risk (hold for review), 0 = low. */
  riskLevel: number | null;
  bankTranId: string | null;
  cardType: string | null;
  /** What the gateway answered, for the record (no store credentials). */
  raw: Record<string, unknown>;
}

/** A refund asked of the gateway (SSLCommerz's refund API: bank_tran_id, refund_amount, refund_remarks, refe_id). */
export interface RefundRequest {
  /** The bank's transaction id of the verified payment. */
  bankTranId: string;
  amount: Minor;
  remarks: string;
  /** Ours: the same refe_id twice is the same refund at the gateway. */
  refeId: string;
}

export interface RefundAnswer {
  /** success: started; processing: this refund was started before; failed: refused. */
  status: 'success' | 'processing' | 'failed';
  refundRefId: string | null;
  reason: string | null;
  raw: Record<string, unknown>;
}

export interface RefundState {
  /** refunded: the money went back; processing: not yet; cancelled: the gateway dropped it. */
  status: 'refunded' | 'processing' | 'cancelled' | 'unknown';
  raw: Record<string, unknown>;
}

export interface PaymentProvider {
  /** The refund API: hands back part or all of a verified payment. Throws ProviderError when unreachable. */
  refund(req: RefundRequest): Promise<RefundAnswer>;
  /** The refund query API, by the gateway's refund reference. */
  refundStatus(refundRefId: string): Promise<RefundState>;
  readonly name: ProviderName;
  /** Opens a payment session. Throws ProviderError when the gateway refuses or is unreachable. */
  initiate(init: PaymentInit): Promise<PaymentSession>;
  /** The validation API: what the gateway says about this val_id (null: it does not know it). */
  validate(valId: string): Promise<GatewayTransaction | null>;
  /** The transaction query API: every attempt the gateway has for this tran_id. */
  queryByTranId(tranId: string): Promise<GatewayTransaction[]>;
  /** Checks verify_sign over the fields named by verify_key (a notification's own signature). */
  verifySignature(fields: Record<string, string>): boolean;
  /** The largest amount this gateway takes in one transaction (SSLCommerz: ৳500,000). */
  readonly maxAmount: Minor;
  readonly minAmount: Minor;
}

/** The gateway could not be reached or refused the request. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly detail?: unknown,
  ) {
    super(message);
  }
}

export const VERIFIED_STATUSES = new Set(['VALID', 'VALIDATED']);
