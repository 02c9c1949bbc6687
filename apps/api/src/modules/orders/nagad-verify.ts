import { applyVerifiedPayment } from './apply-payment.ts';
import type { OrderDeps } from './deps.ts';
import type { Actor, PaymentOutcome } from './history.ts';
import type { PaymentRow, SaleRow } from './repository.ts';
import { askWallet } from './wallet-calls.ts';

// What Nagad says about one of our payment rows, and recording it (docs/decisions/0042). The
// row keeps Nagad's paymentReferenceId in session_key and, once paid, the issuer's reference
// (issuerPaymentRefNo) in bank_tran_id. The order is paid only when Nagad's verify/payment
// answer says Success for this reference, with our merchant id, this attempt's order id and
// the order's amount exactly; the shopper's redirect is only a hint (Nagad's guide §6: the
// merchant verifies the transaction with Nagad).

/**
 * Nagad's orderId for a payment attempt: alphanumeric, 5 to 20 characters and unique per day
 * at Nagad (guide §5.2.8.1.3, 16_0006_083), so the first 20 characters of our random tran_id
 * (T + 19 hex digits) rather than the invoice, which a second attempt would repeat.
 */
export const nagadOrderId = (tranId: string) => tranId.slice(0, 20);

/** Nagad's verdict on a payment, as the order flow acts on it. */
export type NagadCheck =
  | { kind: 'paid'; outcome: PaymentOutcome }
  /** Nagad says Success for a payment that does not match the order: never paid, a person must look. */
  | { kind: 'mismatch' }
  | { kind: 'unpaid'; outcome: 'failed' | 'cancelled'; reason: string }
  /** The payer has not finished on Nagad's page (OrderInitiated … PinGiven). */
  | { kind: 'open' }
  /** Nagad could not be asked, or said something we cannot act on. */
  | { kind: 'unknown' };

/** Asks Nagad's verify/payment API about a payment row and records a Success that matches the order, once. */
export async function checkNagad(deps: OrderDeps, sale: SaleRow, payment: PaymentRow, actor: Actor): Promise<NagadCheck> {
  if (!deps.nagad || !payment.session_key) return { kind: 'unknown' };
  const nagad = deps.nagad;
  const key = payment.session_key;
  const v = await askWallet(deps, sale, 'Nagad', () => nagad.verifyPayment(key));
  if (!v) return { kind: 'unknown' };
  switch (v.state) {
    case 'success': {
      const total = Number(sale.total);
      const matches =
        v.paymentRefId === payment.session_key &&
        v.orderId === nagadOrderId(payment.tran_id) &&
        (v.merchantId === null || v.merchantId === deps.nagad.merchantId) &&
        v.amount === Number(payment.amount) &&
        v.amount === total;
      if (!matches) {
        deps.log.error(
          { invoiceId: sale.invoice_id, paymentRefId: v.paymentRefId, orderId: v.orderId, paid: v.amount, total, issuerRef: v.issuerPaymentRefNo },
          'Nagad reports a successful payment that does not match the order: not recorded as paid; refund it from the Nagad merchant portal',
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
          amount: v.amount,
          currency: 'BDT',
          riskLevel: null,
          // The issuer's reference is the payer's receipt; the payment reference when Nagad gives none.
          bankTranId: v.issuerPaymentRefNo ?? v.paymentRefId,
          cardType: 'Nagad',
          raw: v.raw,
        },
        actor,
      );
      return { kind: 'paid', outcome };
    }
    case 'cancelled':
      return { kind: 'unpaid', outcome: 'cancelled', reason: 'The Nagad payment was cancelled' };
    case 'failed':
      return {
        kind: 'unpaid',
        outcome: 'failed',
        reason: `The Nagad payment failed (${v.purchaseStatus}${v.statusCode ? ` ${v.statusCode}` : ''})`.slice(0, 200),
      };
    case 'open':
      return { kind: 'open' };
    default:
      deps.log.warn({ invoiceId: sale.invoice_id, purchaseStatus: v.purchaseStatus }, 'Nagad answered a purchase status we do not act on');
      return { kind: 'unknown' };
  }
}
