import { applyVerifiedPayment } from './apply-payment.ts';
import type { OrderDeps } from './deps.ts';
import type { Actor, PaymentOutcome } from './history.ts';
import type { PaymentRow, SaleRow } from './repository.ts';
import { askWallet } from './wallet-calls.ts';

// What bKash says about one of our payment rows, and recording it (docs/decisions/0017 applied
// to the wallet). The row keeps bKash's paymentID in session_key and, once paid, its trxID in
// bank_tran_id. The order is paid only when bKash's own answer (execute or payment/status)
// says Completed for this paymentID, with the order's amount exactly and its invoice as
// merchantInvoiceNumber; the shopper's redirect is only a hint (bKash's checkout guide: the
// callback's status must be confirmed with execute or query).

/** bKash's verdict on a payment, as the order flow acts on it. */
export type BkashCheck =
  | { kind: 'paid'; outcome: PaymentOutcome }
  /** bKash completed a payment that does not match the order: never paid, a person must look. */
  | { kind: 'mismatch' }
  | { kind: 'unpaid'; outcome: 'failed' | 'cancelled' | 'expired'; reason: string }
  /** Initiated: the payer has not finished on bKash's page. */
  | { kind: 'open' }
  /** bKash could not be asked, or said something we cannot act on. */
  | { kind: 'unknown' };

export interface BkashCompleted {
  paymentId: string;
  trxId: string;
  amount: number | null;
  invoice: string | null;
  raw: Record<string, unknown>;
}

/** Records a Completed answer from bKash as the payment of the order, once; or refuses it. */
export async function recordCompleted(deps: OrderDeps, sale: SaleRow, payment: PaymentRow, done: BkashCompleted, actor: Actor): Promise<BkashCheck> {
  const total = Number(sale.total);
  if (done.paymentId !== payment.session_key || done.amount !== Number(payment.amount) || done.amount !== total || done.invoice !== sale.invoice_id) {
    deps.log.error(
      { invoiceId: sale.invoice_id, paymentId: done.paymentId, trxId: done.trxId, paid: done.amount, total, invoice: done.invoice },
      'bKash completed a payment that does not match the order: not recorded as paid; refund it from the bKash merchant portal',
    );
    return { kind: 'mismatch' };
  }
  const outcome = await applyVerifiedPayment(
    deps,
    sale.id,
    payment.id,
    {
      status: 'VALID',
      tranId: payment.tran_id,
      valId: null,
      amount: done.amount,
      currency: 'BDT',
      riskLevel: null,
      bankTranId: done.trxId,
      cardType: 'bKash',
      raw: done.raw,
    },
    actor,
  );
  return { kind: 'paid', outcome };
}

/** Asks bKash's payment/status API about a payment row and records a Completed, matching payment. */
export async function checkBkash(deps: OrderDeps, sale: SaleRow, payment: PaymentRow, actor: Actor): Promise<BkashCheck> {
  if (!deps.bkash || !payment.session_key) return { kind: 'unknown' };
  const bkash = deps.bkash;
  const key = payment.session_key;
  const q = await askWallet(deps, sale, 'bKash', () => bkash.queryPayment(key));
  if (!q) return { kind: 'unknown' };
  switch (q.state) {
    case 'completed':
      if (!q.trxId) return { kind: 'unknown' };
      return recordCompleted(deps, sale, payment, { paymentId: q.paymentId, trxId: q.trxId, amount: q.amount, invoice: q.invoice, raw: q.raw }, actor);
    case 'failed':
      return { kind: 'unpaid', outcome: 'failed', reason: `The bKash payment failed (${q.transactionStatus})` };
    case 'cancelled':
      return { kind: 'unpaid', outcome: 'cancelled', reason: 'The bKash payment was cancelled' };
    case 'expired':
      return { kind: 'unpaid', outcome: 'expired', reason: 'The bKash payment expired' };
    case 'initiated':
      return { kind: 'open' };
    default:
      return { kind: 'unknown' };
  }
}
