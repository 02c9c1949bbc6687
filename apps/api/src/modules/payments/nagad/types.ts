import type { Minor } from '@storefront/shared';

// The shapes of Nagad's online payment gateway ("Nagad Online Payment API", remote-payment-
// gateway-1.0, API version v-0.2.0), in our terms. Nagad's own field names appear only in
// nagad.client.ts and the stand-in.
//
// Sources for the wire format and the codes quoted in this folder (docs/decisions/0042):
//   - Nagad Online Payment API Integration Guide v3.3 (October 2021), as merchants receive it
//     and as public merchant SDKs reproduce it: §5.1.1 crypto operations, §5.2.2 headers,
//     §5.2.7 purchase statuses, §5.2.8.1 initialize, §5.2.8.2 place order (check-out/complete),
//     §5.2.8.2.6 the callback's query, §5.2.8.3 verify/payment, §5.2.9 error codes.
//   - Nagad's own PHP sample (helper.php/index.php, "Copyright 2019 Nagad"), reproduced in
//     public repositories: SHA256withRSA signatures, `datetime` in the sensitive data,
//     `challenge` echoed from initialize into complete, currencyCode "050".
// The guide documents no refund API; see NagadClient (there is no refund method).

export interface NagadOptions {
  /** Nagad's merchant id (15 digits), from the merchant portal. */
  merchantId: string;
  /** Our RSA private key: PEM (PKCS#8 or PKCS#1) or the bare base64 body Nagad's portal shows. Never logged. */
  merchantPrivateKey: string;
  /** Nagad's ("NPG") RSA public key from the merchant portal: PEM or bare base64 (SPKI). */
  nagadPublicKey: string;
  /**
   * Up to and including the context path: http://sandbox.mynagad.com:10080/remote-payment-gateway-1.0
   * (sandbox), https://api.mynagad.com (live), or a stand-in. /api/dfs/… is appended.
   */
  baseUrl: string;
  /**
   * X-KM-IP-V4: the guide names the header but not whose address it is; the public SDKs send
   * the merchant server's address, which Nagad whitelists (assumption). Default 127.0.0.1.
   */
  ipV4?: string;
  /** The merchant's Nagad wallet number (accountNumber, optional in initialize). */
  accountNumber?: string | null;
  /** How long one call may take; the guide gives no figure, so 30 s as for bKash. */
  timeoutMs?: number;
  /** The clock, in milliseconds (tests move it instead of sleeping). */
  now?: () => number;
}

/** What Nagad said when it refused: its reason code (e.g. 16_0006_083) and message, verbatim. */
export interface NagadRefusal {
  code: string;
  message: string;
  raw: Record<string, unknown>;
}

export type NagadInitializeResult =
  | {
      status: 'initialized';
      paymentRefId: string;
      /** Nagad's challenge, sent back in complete (guide §5.2.8.2.3). */
      challenge: string;
      acceptDateTime: string | null;
    }
  | ({ status: 'refused' } & NagadRefusal);

export interface NagadCompleteRequest {
  paymentRefId: string;
  orderId: string;
  amount: Minor;
  challenge: string;
  /** Nagad appends ?merchant=…&order_id=…&payment_ref_id=…&status=…&status_code=…&payment_dt=…&issuer_payment_ref=… */
  callbackUrl: string;
  /** Saved by Nagad with the payment; some fields are shown on its page (guide §5.2.8.2.3). */
  additionalMerchantInfo?: Record<string, string>;
}

export type NagadCompleteResult =
  | { status: 'created'; redirectUrl: string; raw: Record<string, unknown> }
  /** e.g. 16_0006_017 purchase state invalid (a second complete), 16_0006_080 invalid currency. */
  | ({ status: 'refused' } & NagadRefusal);

export interface NagadCreateRequest {
  /** Ours: alphanumeric, 5 to 20 characters, unique per day at Nagad (16_0006_083 otherwise). */
  orderId: string;
  amount: Minor;
  callbackUrl: string;
  additionalMerchantInfo?: Record<string, string>;
}

export type NagadCreateResult =
  | { status: 'created'; paymentRefId: string; redirectUrl: string }
  | ({ status: 'refused'; stage: 'initialize' | 'complete' } & NagadRefusal);

/**
 * Nagad's purchase status (guide §5.2.7), folded: only Success is paid; the transient ones
 * (OrderInitiated, Ready, InProgress, OtpSent, OtpVerified, PinGiven) are "not finished yet".
 */
export type NagadPaymentState = 'success' | 'open' | 'cancelled' | 'failed' | 'unknown';

export type NagadVerifyResult =
  | {
      status: 'found';
      state: NagadPaymentState;
      /** Nagad's own word: Success, InProgress, Cancelled, Aborted, Failed, … */
      purchaseStatus: string;
      statusCode: string | null;
      paymentRefId: string;
      orderId: string | null;
      merchantId: string | null;
      /** Poisha, parsed exactly; null if unreadable (never matches an order). */
      amount: Minor | null;
      /** The issuer's transaction reference (issuerPaymentRefNo), the payer's receipt number. */
      issuerPaymentRefNo: string | null;
      raw: Record<string, unknown>;
    }
  /** e.g. 16_0006_055 invalid payment reference id. */
  | ({ status: 'error' } & NagadRefusal);

export interface NagadClient {
  /** Initialize then complete: the page the shopper pays on. */
  createPayment(req: NagadCreateRequest): Promise<NagadCreateResult>;
  initialize(orderId: string): Promise<NagadInitializeResult>;
  complete(req: NagadCompleteRequest): Promise<NagadCompleteResult>;
  /** GET verify/payment/{paymentRefId}: what Nagad knows of a payment (the only word we believe). */
  verifyPayment(paymentRefId: string): Promise<NagadVerifyResult>;
  readonly merchantId: string;
}
