import { MONEY_RECEIVED_STATUSES } from '@storefront/shared';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import * as repo from './repository.ts';
import type { SaleRow } from './repository.ts';

// What every change of an order shares: who made it, the line it adds to the order's
// history, and how a change reports itself.

type Q = Kysely<Database> | Transaction<Database>;

export type Actor = 'customer' | 'guest' | 'provider' | 'system';

/** Payment states in which the money has arrived (review: arrived, to be checked; some may have been refunded since). */
export const PAID_STATES: readonly string[] = MONEY_RECEIVED_STATUSES;

export async function addHistory(db: Q, saleId: number, status: string, paymentStatus: string, actor: Actor, note: string, now: string) {
  await repo.insertHistory(db, { sale_id: saleId, status, payment_status: paymentStatus, actor, note, created_at: now });
}

export interface PaymentOutcome {
  sale: SaleRow;
  /** False when nothing changed (a repeat, or the order was already in that state). */
  changed: boolean;
}
