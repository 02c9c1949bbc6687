import { ProviderError } from '../payments/provider.ts';
import type { OrderDeps } from './deps.ts';
import type { SaleRow } from './repository.ts';

// The two wallets' calls fail the same ways (docs/decisions/0041, 0042): the wallet cannot be
// reached (a ProviderError) or answers with an error code. Either way nothing is known about the
// payment, so the caller leaves it as it is and asks again later; this says which, in the log.

type Answer = { status: string };
type ErrorAnswer = { status: 'error'; code: string; message: string };

export async function askWallet<T extends Answer>(
  deps: OrderDeps,
  sale: SaleRow,
  wallet: 'bKash' | 'Nagad',
  call: () => Promise<T | ErrorAnswer>,
): Promise<Exclude<T, ErrorAnswer> | null> {
  let answer: T | ErrorAnswer;
  try {
    answer = await call();
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    deps.log.warn({ err: err.message, invoiceId: sale.invoice_id }, `could not ask ${wallet} about a payment`);
    return null;
  }
  if (answer.status === 'error') {
    const e = answer as ErrorAnswer;
    deps.log.warn({ code: e.code, message: e.message, invoiceId: sale.invoice_id }, `${wallet} refused to tell about a payment`);
    return null;
  }
  return answer as Exclude<T, ErrorAnswer>;
}

/** Keeps the wallet's own id for a payment row and the page the payer is sent to. */
export async function keepPaymentPage(deps: OrderDeps, paymentId: number, sessionKey: string, url: string): Promise<void> {
  await deps.db.kysely
    .updateTable('payments')
    .set({ session_key: sessionKey, gateway_url: url, updated_at: new Date().toISOString() })
    .where('id', '=', paymentId)
    .execute();
}
