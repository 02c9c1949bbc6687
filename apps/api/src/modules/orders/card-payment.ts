import { randomBytes } from 'node:crypto';
import { formatMoney } from '@storefront/shared';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { conflict } from '../../lib/errors.ts';
import type { PaymentProvider } from '../payments/provider.ts';
import type { OrderDeps } from './deps.ts';
import * as repo from './repository.ts';
import type { PaymentRow } from './repository.ts';

// What placing an order and paying one again share about a card payment: the gateway's
// limits on the amount, and a fresh payment row with an unguessable transaction id.

/** Our transaction id: 25 characters (the gateway allows 30), unguessable. */
export function newTranId(): string {
  return `T${randomBytes(12).toString('hex').toUpperCase()}`;
}

export function checkCardAmount(provider: PaymentProvider, total: number) {
  if (total > provider.maxAmount) {
    throw conflict('card_limit', `Card payments are limited to ${formatMoney(provider.maxAmount)} per order. Please choose pay later or cash on delivery.`, {
      paymentMethod: `At most ${formatMoney(provider.maxAmount)} by card`,
    });
  }
  if (total < provider.minAmount) {
    throw conflict('card_limit', `Card payments start at ${formatMoney(provider.minAmount)}. Please choose cash on delivery.`, {
      paymentMethod: `At least ${formatMoney(provider.minAmount)} by card`,
    });
  }
}

/** A card (or, with provider 'bkash', wallet) payment of `amount` for the sale, not yet sent to the gateway (a fresh tran_id). */
export function insertNewPayment(
  trx: Transaction<Database>,
  deps: OrderDeps,
  saleId: number,
  amount: number,
  nowIso: string,
  provider: string = deps.payments.name,
): Promise<PaymentRow> {
  return repo.insertPayment(trx, {
    sale_id: saleId,
    provider,
    tran_id: newTranId(),
    val_id: null,
    session_key: null,
    gateway_url: null,
    amount,
    currency: 'BDT',
    status: 'initiated',
    risk_level: null,
    bank_tran_id: null,
    card_type: null,
    raw_verification: null,
    failure_reason: null,
    created_at: nowIso,
    updated_at: nowIso,
    verified_at: null,
  });
}
