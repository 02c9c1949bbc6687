import { type Locale, MESSAGES, normaliseEmail, validateSubscriptionEmail } from '@storefront/shared';
import type { Kysely, Selectable } from 'kysely';
import type { Database, EmailSubscriptionsTable } from '../../db/schema.ts';
import { ApiError, conflict } from '../../lib/errors.ts';
import {
  claimGuestSubscription,
  findCustomerEmail,
  findSubscriptionByCustomer,
  findSubscriptionByEmailKey,
  insertSubscriptionIfNew,
  resubscribe,
} from './subscriptions.repository.ts';

export interface Subscription {
  id: number;
  email: string;
  offer: string;
  type: string;
  createdAt: string;
}

function toSubscription(r: Pick<Selectable<EmailSubscriptionsTable>, 'id' | 'email' | 'offer' | 'type' | 'created_at'>): Subscription {
  return { id: r.id, email: r.email, offer: r.offer, type: r.type, createdAt: r.created_at };
}

/**
 * spec §7: subscribe an address to the newsletter. The subscriber is the signed-in
 * customer of the request, if any; the body's userId is never trusted. 409 when the
 * address (in any letter case) is already subscribed; an address that unsubscribed
 * subscribes again (docs/decisions/0036).
 */
export async function subscribe(
  db: Kysely<Database>,
  input: { email: string; offer: string; type: string; customerId: number | null; locale?: Locale | null },
): Promise<Subscription> {
  const problem = validateSubscriptionEmail(input.email);
  if (problem) throw new ApiError('validation_error', problem, { email: problem });
  const email = input.email.trim();
  const emailKey = normaliseEmail(email);
  const row = await insertSubscriptionIfNew(db, {
    email,
    email_key: emailKey,
    customer_id: input.customerId,
    offer: input.offer.trim(),
    type: input.type.trim(),
    created_at: new Date().toISOString(),
    // The language of the mails the address receives (docs/decisions/0038).
    locale: input.locale ?? 'en',
  });
  if (row) return toSubscription(row);
  const again = await resubscribe(db, emailKey, {
    customerId: input.customerId,
    offer: input.offer.trim(),
    type: input.type.trim(),
    locale: input.locale ?? null,
  });
  if (again) return toSubscription(again);
  if (input.customerId != null) await claimGuestSubscription(db, emailKey, input.customerId);
  throw conflict('already_subscribed', MESSAGES.subscription.already, { email: MESSAGES.subscription.already });
}

/**
 * The signed-in customer's newsletter status: subscribed while signed in, or with the
 * address of their account (a guest who subscribed before signing up).
 */
export async function subscriptionStatus(db: Kysely<Database>, customerId: number) {
  const accountEmail = (await findCustomerEmail(db, customerId))?.email;
  const row =
    (await findSubscriptionByCustomer(db, customerId)) ?? (accountEmail ? await findSubscriptionByEmailKey(db, normaliseEmail(accountEmail)) : undefined);
  return row ? { subscribed: true as const, subscription: toSubscription(row) } : { subscribed: false as const, subscription: null };
}
