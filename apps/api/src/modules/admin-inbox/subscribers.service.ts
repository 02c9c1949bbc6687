import { ApiError } from '../../lib/errors.ts';
import type { TAdminSubscriber, TAdminSubscriberQuery } from '@storefront/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { type Actor, recordAudit } from '../staff/audit.ts';
import * as repo from './inbox.repository.ts';
import { unsubscribeTokenId, unsubscribeTokenMatches } from './unsubscribe-link.ts';

// The newsletter's subscribers in the back office (docs/decisions/0036). An address that
// leaves keeps its row with the time and who stopped it: a record that it asked to stop.

type Db = Kysely<Database>;
type Row = Awaited<ReturnType<typeof repo.subscriberById>> & {};

export function toSubscriber(r: Row): TAdminSubscriber {
  return {
    id: r.id,
    email: r.email,
    offer: r.offer,
    type: r.type,
    customerId: r.customer_id,
    createdAt: r.created_at,
    unsubscribedAt: r.unsubscribed_at,
    unsubscribedBy: r.unsubscribed_by,
  };
}

export async function listSubscribers(db: Db, query: TAdminSubscriberQuery) {
  const { rows, total } = await repo.listSubscribers(db, query);
  return { items: rows.map(toSubscriber), total, page: query.page, size: query.size };
}

export const SUBSCRIBER_CSV_HEADER = ['email', 'state', 'subscribed_at', 'unsubscribed_at', 'unsubscribed_by', 'offer', 'type', 'customer_id'];

export function subscriberCsvRow(r: Row): string[] {
  return [
    r.email,
    r.unsubscribed_at ? 'unsubscribed' : 'subscribed',
    r.created_at,
    r.unsubscribed_at ?? '',
    r.unsubscribed_by ?? '',
    r.offer,
    r.type,
    r.customer_id == null ? '' : String(r.customer_id),
  ];
}

/** The filtered list for the CSV, in batches; the export itself is audited (a list of personal data leaves the shop). */
export async function* exportSubscribers(db: Db, filters: Pick<TAdminSubscriberQuery, 'q' | 'state'>, actor: Actor) {
  await recordAudit(db, actor, {
    action: 'export',
    entity: 'subscribers',
    entityId: '*',
    before: null,
    after: { q: filters.q ?? null, state: filters.state ?? null },
  });
  yield* repo.subscriberBatches(db, filters);
}

/** Staff stop an address's newsletter (it asked them to, by phone or mail). */
export async function unsubscribeByStaff(db: Db, id: number, actor: Actor): Promise<TAdminSubscriber> {
  return db.transaction().execute(async (trx) => {
    const before = await repo.subscriberById(trx, id);
    if (!before) throw notFound('The subscriber');
    const after = await repo.markUnsubscribed(trx, id, 'staff', new Date().toISOString());
    if (!after) throw conflict('already_unsubscribed', 'This address has already unsubscribed');
    await recordAudit(trx, actor, {
      action: 'unsubscribe',
      entity: 'subscriber',
      entityId: id,
      before: { email: before.email, subscribed: true },
      after: { email: after.email, subscribed: false },
    });
    return toSubscriber(after);
  });
}

/** The subscriber's own link (no sign-in): leaving twice is no error, the first time is kept. */
export async function unsubscribeByLink(db: Db, secret: string, token: string): Promise<{ email: string; unsubscribedAt: string }> {
  const invalid = () => new ApiError('invalid_token', 'This unsubscribe link is not valid', { token: 'This unsubscribe link is not valid' }, 400);
  const id = unsubscribeTokenId(token.trim());
  if (id === null) throw invalid();
  const row = await repo.subscriberById(db, id);
  if (!row || !unsubscribeTokenMatches(secret, token.trim(), row)) throw invalid();
  if (row.unsubscribed_at) return { email: row.email, unsubscribedAt: row.unsubscribed_at };
  const after = await repo.markUnsubscribed(db, id, 'link', new Date().toISOString());
  const now = after ?? (await repo.subscriberById(db, id))!;
  return { email: now.email, unsubscribedAt: now.unsubscribed_at! };
}
