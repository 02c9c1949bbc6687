import { ApiError, notFound } from '../../lib/errors.ts';
import { ProviderError } from '../payments/provider.ts';
import type { OrderDeps } from './deps.ts';
import { keepPaymentPage } from './wallet-calls.ts';
import { PAID_STATES } from './history.ts';
import { checkNagad, nagadOrderId } from './nagad-verify.ts';
import { limitProviderChecks } from './provider-checks.ts';
import * as repo from './repository.ts';
import type { PaymentRow, SaleRow } from './repository.ts';
import { failUnstartedPayment, settleUnpaid, type UnpaidOutcome } from './settle-unpaid.ts';

// Nagad as a wallet payment method, by its online payment gateway (docs/decisions/0042):
//   placing the order → initialize + complete with the server's total → the shopper goes to
//   Nagad's callBackUrl and pays there (OTP, PIN: the money moves on Nagad's side, there is no
//   execute) → Nagad redirects the browser to our callback with ?payment_ref_id=…&status=… →
//   we ask verify/payment, and only its answer decides.
// The callback URL carries our payment row's tran_id, so the redirect names one attempt;
// Nagad's payment reference must also be that row's.

/**
 * Opens the Nagad payment for a payment row and keeps its payment reference and page. When
 * Nagad refuses or cannot be reached, the payment fails at once (stock released), as a card's does.
 */
export async function openNagadSession(deps: OrderDeps, sale: SaleRow, payment: PaymentRow): Promise<{ sale: SaleRow; url: string | null }> {
  let reason = 'Nagad could not start the payment';
  try {
    if (!deps.nagad) throw new ProviderError('Nagad is not configured');
    const created = await deps.nagad.createPayment({
      orderId: nagadOrderId(payment.tran_id),
      amount: Number(payment.amount),
      callbackUrl: `${deps.config.publicUrl}/payments/nagad/callback/${encodeURIComponent(payment.tran_id)}`,
      // Kept by Nagad with the payment, for reconciling in its merchant portal.
      additionalMerchantInfo: { invoiceId: sale.invoice_id },
    });
    if (created.status === 'created') {
      await keepPaymentPage(deps, payment.id, created.paymentRefId, created.redirectUrl);
      return { sale, url: created.redirectUrl };
    }
    reason = `Nagad refused the payment (${created.code} ${created.message})`.slice(0, 200);
    deps.log.warn(
      { invoiceId: sale.invoice_id, stage: created.stage, code: created.code, message: created.message },
      'Nagad refused to open a payment; the payment fails',
    );
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    deps.log.warn({ err: err.message, invoiceId: sale.invoice_id }, 'Nagad could not be reached; the payment fails');
  }
  return failUnstartedPayment(deps, sale, payment.tran_id, reason);
}

export type NagadCallbackPage = { invoiceId: string; page: 'success' | 'failed' | 'cancel'; unverified?: boolean };

/** Nagad's status word in the redirect, as a claim: Success, Cancelled, or anything else (Aborted, Failed, …). */
export function claimedOutcome(status: string): 'success' | 'cancel' | 'failure' {
  const s = status.trim().toLowerCase();
  return s === 'success' ? 'success' : s === 'cancelled' || s === 'canceled' ? 'cancel' : 'failure';
}

async function settle(deps: OrderDeps, invoiceId: string, tranId: string, outcome: UnpaidOutcome, reason?: string): Promise<NagadCallbackPage> {
  try {
    const r = await settleUnpaid(deps, { invoiceId, tranId, outcome, actor: 'provider', authorised: true, reason });
    if (PAID_STATES.includes(r.sale.payment_status)) return { invoiceId, page: 'success' };
  } catch (err) {
    if (err instanceof ApiError && err.code === 'order_paid') return { invoiceId, page: 'success' };
    throw err;
  }
  return { invoiceId, page: outcome === 'cancelled' ? 'cancel' : 'failed' };
}

/**
 * Nagad's redirect of the shopper's browser: merchantCallbackURL?payment_ref_id=…&status=….
 * Whatever the redirect claims, Nagad's verify/payment decides. Idempotent: recording the
 * payment or releasing the stock is a conditional update, so a replayed or concurrent
 * callback changes nothing a second time.
 */
export async function handleNagadCallback(deps: OrderDeps, input: { ref: string; paymentRefId: string; status: string }): Promise<NagadCallbackPage> {
  const db = deps.db.kysely;
  const payment = input.ref ? await repo.paymentByTranId(db, input.ref) : undefined;
  // Another attempt's reference, or a made-up one, is not about this payment.
  if (payment?.provider !== 'nagad' || !payment.session_key || payment.session_key !== input.paymentRefId) throw notFound('The payment');
  const sale = (await repo.saleById(db, payment.sale_id))!;
  const invoiceId = sale.invoice_id;
  // The payer shows this attempt's reference: bounded like a card payer's checks (docs/decisions/0022).
  await limitProviderChecks(db, invoiceId, { kind: 'payer', tranId: payment.tran_id });

  // A replay after the payment was recorded: Nagad need not be asked again.
  if (payment.status === 'valid' || payment.status === 'review') return { invoiceId, page: 'success' };

  const claimed = claimedOutcome(input.status);
  const check = await checkNagad(deps, sale, payment, 'provider');
  switch (check.kind) {
    case 'paid':
      return { invoiceId, page: 'success' };
    case 'mismatch':
      return { invoiceId, page: 'failed', unverified: true };
    case 'unpaid':
      // Nagad's own word: failed (a short balance, wrong PINs, …) or cancelled.
      return settle(deps, invoiceId, payment.tran_id, check.outcome, check.reason);
    default:
      // Nagad says the payment is not finished, or cannot be asked now. A redirect claiming
      // success proves nothing: the success page shows the order waiting, and the expiry job
      // (which asks Nagad again) or a later confirm settles it. A redirect saying the payer
      // gave up releases the stock; a payment that completes after all is still recorded
      // (applyVerifiedPayment takes the stock again or holds the order).
      if (claimed === 'success') return { invoiceId, page: 'success' };
      return settle(deps, invoiceId, payment.tran_id, claimed === 'cancel' ? 'cancelled' : 'failed');
  }
}
