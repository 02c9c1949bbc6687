import type { Minor } from '@storefront/shared';
import type { TokenCache } from './token-cache.ts';

// The shapes of bKash's tokenized checkout (URL based, "without agreement", mode 0011), in
// our terms. bKash's own field names appear only in bkash.client.ts and the stand-in.
//
// Sources for the wire format and the codes quoted in this folder:
//   - bKash developer portal, Tokenized Checkout v1.2.0-beta: Grant Token, Refresh Token,
//     Create Payment, Execute Payment, Query Payment (payment/status), Search Transaction,
//     Refund Transaction and Refund Status (https://developer.bka.sh/docs, /reference).
//   - bKash's error-code page (https://developer.bka.sh/docs/error-codes): 2001 … 2069,
//     2116 … 2119, 503.
//   - bKash's own WooCommerce plugin (bKash-developer/bKash-for-woocommerce, ApiComm):
//     the header set, the token life cycle, and refund status on the refund endpoint.

export interface BkashOptions {
  appKey: string;
  appSecret: string;
  username: string;
  password: string;
  /** With the version segment: https://tokenized.sandbox.bka.sh/v1.2.0-beta, or a stand-in. */
  baseUrl: string;
  /**
   * How long one call may take. bKash's integration guide asks merchants to allow 30 seconds
   * for every API, so that is the default; anything longer is the caller's choice.
   */
  timeoutMs?: number;
  /** Where id_tokens live; in memory by default, in the database when processes must share one. */
  tokenCache?: TokenCache;
  /**
   * How long before expires_in runs out a token is refreshed. bKash's token-management page
   * advises renewing around the 50th–55th minute of the hour a token lives; default 5 minutes.
   */
  refreshMarginMs?: number;
  /**
   * Which refund API to use: the v1.2.0-beta one under the tokenized base URL
   * (POST …/tokenized/checkout/payment/refund) or the newer v2 one that hangs off the host
   * (POST /v2/tokenized-checkout/refund/payment/transaction and …/status).
   */
  refundApi?: 'v1.2.0-beta' | 'v2';
  /** The clock, in milliseconds (tests move it instead of sleeping). */
  now?: () => number;
}

/** What bKash said when it refused: its code and message, kept verbatim. */
export interface BkashRefusal {
  code: string;
  message: string;
  raw: Record<string, unknown>;
}

export type BkashCreateResult =
  | { status: 'created'; paymentId: string; bkashUrl: string; raw: Record<string, unknown> }
  /** e.g. 2006 invalid amount, 2029 duplicate, 2031 invalid invoice, 2048 payer reference, 2049 callback URL. */
  | ({ status: 'refused' } & BkashRefusal);

export interface BkashCreateRequest {
  amount: Minor;
  /** merchantInvoiceNumber: ours, the order's invoice id. */
  invoice: string;
  /** payerReference: shown to the payer and prefilled as the wallet number when it is one. */
  payerReference: string;
  /** bKash appends ?paymentID=…&status=success|failure|cancel to this. */
  callbackUrl: string;
}

export type BkashExecuteResult =
  | {
      status: 'completed';
      paymentId: string;
      trxId: string;
      /** Poisha, parsed exactly; null if bKash's amount was unreadable (never matches an order). */
      amount: Minor | null;
      invoice: string | null;
      payerAccount: string | null;
      raw: Record<string, unknown>;
    }
  /**
   * This payment was executed before (the callback came twice, or an earlier execute's answer
   * was lost): 2117, 2062 or 2068. Nothing happened now; ask queryPayment what the first did.
   */
  | ({ status: 'already-executed' } & BkashRefusal)
  /** bKash took the execute but did not say Completed; ask queryPayment later. */
  | { status: 'pending'; transactionStatus: string; raw: Record<string, unknown> }
  /** The money did not move: 2023 insufficient balance, 2014 wrong PIN, 2056 invalid payment state, … */
  | ({ status: 'failed' } & BkashRefusal);

/** bKash's transactionStatus, folded: Initiated is "not paid yet", whatever the payer did. */
export type BkashPaymentState = 'initiated' | 'completed' | 'failed' | 'cancelled' | 'expired' | 'unknown';

export type BkashQueryResult =
  | {
      status: 'found';
      paymentId: string;
      state: BkashPaymentState;
      /** bKash's own word: Initiated, Completed, Failed, Cancelled, Expired, … */
      transactionStatus: string;
      trxId: string | null;
      amount: Minor | null;
      invoice: string | null;
      raw: Record<string, unknown>;
    }
  /** e.g. 2002 invalid payment ID. */
  | ({ status: 'error' } & BkashRefusal);

export type BkashSearchResult =
  | {
      status: 'found';
      trxId: string;
      state: BkashPaymentState;
      transactionStatus: string;
      amount: Minor | null;
      /** What can still be refunded, when bKash says (maxRefundableAmount). */
      maxRefundable: Minor | null;
      customerMsisdn: string | null;
      raw: Record<string, unknown>;
    }
  | ({ status: 'error' } & BkashRefusal);

export interface BkashRefundRequest {
  paymentId: string;
  trxId: string;
  amount: Minor;
  /** bKash requires both, at most 255 characters each. */
  reason: string;
  sku: string;
}

export type BkashRefundResult =
  | { status: 'refunded'; refundTrxId: string; amount: Minor | null; originalTrxId: string | null; raw: Record<string, unknown> }
  /** bKash accepted the refund but has not said Completed; ask refundStatus. */
  | { status: 'pending'; refundTrxId: string | null; transactionStatus: string; raw: Record<string, unknown> }
  /** e.g. 2026 more than was paid, 2034 already reversed, 2071 too late, 2072 amount not valid. */
  | ({ status: 'refused' } & BkashRefusal);

export interface BkashRefundLine {
  refundTrxId: string;
  amount: Minor | null;
  transactionStatus: string;
  completedTime: string | null;
}

export type BkashRefundStatusResult =
  | { status: 'found'; refunds: BkashRefundLine[]; raw: Record<string, unknown> }
  /** bKash answers "invalid payment ID" (2002) for a payment with no refund. */
  | ({ status: 'error' } & BkashRefusal);

export interface BkashClient {
  createPayment(req: BkashCreateRequest): Promise<BkashCreateResult>;
  executePayment(paymentId: string): Promise<BkashExecuteResult>;
  queryPayment(paymentId: string): Promise<BkashQueryResult>;
  searchTransaction(trxId: string): Promise<BkashSearchResult>;
  refund(req: BkashRefundRequest): Promise<BkashRefundResult>;
  refundStatus(req: { paymentId: string; trxId: string }): Promise<BkashRefundStatusResult>;
  /** The id_token every call carries, granted or refreshed as needed (exposed for health checks). */
  idToken(): Promise<string>;
}
