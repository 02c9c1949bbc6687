import { ApiError, notFound } from '../../lib/errors.ts';
import { ProviderError } from '../payments/provider.ts';
import { type BkashCheck, checkBkash, recordCompleted } from './bkash-verify.ts';
import type { OrderDeps } from './deps.ts';
import { keepPaymentPage } from './wallet-calls.ts';
import { PAID_STATES } from './history.ts';
import { limitProviderChecks } from './provider-checks.ts';
import * as repo from './repository.ts';
import type { PaymentRow, SaleRow } from './repository.ts';
import { failUnstartedPayment, settleUnpaid } from './settle-unpaid.ts';

// bKash as a wallet payment method, by its tokenized checkout (URL based, mode 0011):
//   placing the order → createPayment with the server's total and the invoice → the shopper
//   goes to bkashURL → bKash redirects the browser to our callback with ?paymentID=…&status=
//   success|failure|cancel → on success we executePayment (money moves only there, once);
//   when execute says "already executed" or its answer is lost, payment/status tells us.
// The callback URL carries our payment row's tran_id, not the invoice, so the redirect names
// one attempt; bKash's paymentID must also be that row's.

/**
 * Creates the bKash payment for a payment row and keeps its paymentID and bkashURL. When bKash
 * refuses or cannot be reached, the payment fails at once (stock released), as a card's does.
 */
export async function openBkashSession(deps: OrderDeps, sale: SaleRow, payment: PaymentRow): Promise<{ sale: SaleRow; url: string | null }> {
  let reason = 'bKash could not start the payment';
  try {
    if (!deps.bkash) throw new ProviderError('bKash is not configured');
    const created = await deps.bkash.createPayment({
      amount: Number(payment.amount),
      invoice: sale.invoice_id,
      // Shown to the payer and prefilled as the wallet number when it is one (bKash's create API).
      payerReference: sale.contact_mobile || sale.invoice_id,
      callbackUrl: `${deps.config.publicUrl}/payments/bkash/callback/${encodeURIComponent(payment.tran_id)}`,
    });
    if (created.status === 'created') {
      await keepPaymentPage(deps, payment.id, created.paymentId, created.bkashUrl);
      return { sale, url: created.bkashUrl };
    }
    reason = `bKash refused the payment (${created.code} ${created.message})`.slice(0, 200);
    deps.log.warn({ invoiceId: sale.invoice_id, code: created.code, message: created.message }, 'bKash refused to create a payment; the payment fails');
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    deps.log.warn({ err: err.message, invoiceId: sale.invoice_id }, 'bKash could not be reached; the payment fails');
  }
  return failUnstartedPayment(deps, sale, payment.tran_id, reason);
}

export type BkashCallbackPage = { invoiceId: string; page: 'success' | 'failed' | 'cancel'; unverified?: boolean };

/**
 * bKash's redirect of the shopper's browser: callbackURL?paymentID=…&status=…. Idempotent:
 * execute works once at bKash, and recording the payment or releasing the stock is a
 * conditional update, so a replayed or concurrent callback changes nothing a second time.
 */
export async function handleBkashCallback(deps: OrderDeps, input: { ref: string; paymentId: string; status: string }): Promise<BkashCallbackPage> {
  const db = deps.db.kysely;
  const payment = input.ref ? await repo.paymentByTranId(db, input.ref) : undefined;
  // Another attempt's paymentID, or a made-up one, is not about this payment.
  if (payment?.provider !== 'bkash' || !payment.session_key || payment.session_key !== input.paymentId) throw notFound('The payment');
  const sale = (await repo.saleById(db, payment.sale_id))!;
  const invoiceId = sale.invoice_id;
  // The payer shows this attempt's reference: bounded like a card payer's checks (docs/decisions/0022).
  await limitProviderChecks(db, invoiceId, { kind: 'payer', tranId: payment.tran_id });

  if (input.status !== 'success') {
    // failure or cancel: settleUnpaid asks bKash first, in case the payment completed after all.
    const outcome = input.status === 'cancel' ? 'cancelled' : 'failed';
    try {
      const r = await settleUnpaid(deps, { invoiceId, tranId: payment.tran_id, outcome, actor: 'guest', authorised: false });
      if (PAID_STATES.includes(r.sale.payment_status)) return { invoiceId, page: 'success' };
    } catch (err) {
      if (err instanceof ApiError && err.code === 'order_paid') return { invoiceId, page: 'success' };
      throw err;
    }
    return { invoiceId, page: outcome === 'cancelled' ? 'cancel' : 'failed' };
  }

  // A replay after the payment was recorded: bKash need not be asked again.
  if (payment.status === 'valid' || payment.status === 'review') return { invoiceId, page: 'success' };

  let check: BkashCheck | null = null;
  let executeFailure: string | null = null;
  try {
    const ex = await deps.bkash!.executePayment(payment.session_key);
    if (ex.status === 'completed') {
      check = await recordCompleted(
        deps,
        sale,
        payment,
        { paymentId: ex.paymentId, trxId: ex.trxId, amount: ex.amount, invoice: ex.invoice, raw: ex.raw },
        'provider',
      );
    } else if (ex.status === 'failed') {
      executeFailure = `The bKash payment failed: ${ex.code} ${ex.message}`.slice(0, 200);
    }
    // already-executed (a replay or a concurrent callback) and pending: the status query decides.
  } catch (err) {
    // A lost answer: the money may have moved; the status query decides.
    if (!(err instanceof ProviderError) || !deps.bkash) throw err;
    deps.log.warn({ err: err.message, invoiceId }, 'bKash execute got no answer; asking its status');
  }
  // A refused execute moved no money; settleUnpaid still asks bKash's status before releasing.
  if (!check && executeFailure) check = { kind: 'unpaid', outcome: 'failed', reason: executeFailure };
  check ??= await checkBkash(deps, sale, payment, 'provider');

  switch (check.kind) {
    case 'paid':
      return { invoiceId, page: 'success' };
    case 'mismatch':
      return { invoiceId, page: 'failed', unverified: true };
    case 'unpaid':
    case 'open': {
      // Execute refused (insufficient balance, wrong PIN, …) or bKash says it did not complete.
      if (check.kind === 'open' && !executeFailure) return { invoiceId, page: 'success' };
      const outcome = check.kind === 'unpaid' ? check.outcome : 'failed';
      const reason = executeFailure ?? (check.kind === 'unpaid' ? check.reason : undefined);
      try {
        const r = await settleUnpaid(deps, { invoiceId, tranId: payment.tran_id, outcome, actor: 'provider', authorised: true, reason });
        if (PAID_STATES.includes(r.sale.payment_status)) return { invoiceId, page: 'success' };
      } catch (err) {
        if (err instanceof ApiError && err.code === 'order_paid') return { invoiceId, page: 'success' };
        throw err;
      }
      return { invoiceId, page: outcome === 'cancelled' ? 'cancel' : 'failed' };
    }
    default:
      // bKash cannot be asked now: the success page shows the order waiting; the expiry job
      // (which asks bKash again) or a later confirm settles it.
      return { invoiceId, page: 'success' };
  }
}
