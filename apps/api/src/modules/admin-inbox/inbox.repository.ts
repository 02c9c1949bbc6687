import type { TAdminMailQuery, TAdminMessageQuery, TAdminSubscriberQuery, TMailState } from '@storefront/shared';
import { type ExpressionBuilder, type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { MAX_ATTEMPTS } from '../mail/mailer.ts';

// All SQL of the back office's subscribers, contact inbox and mail outbox (docs/decisions/0036).

type Q = Kysely<Database> | Transaction<Database>;

/** `text` as a LIKE pattern that matches it anywhere, its own % and _ taken literally. */
function contains(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
const like = (pattern: string) => sql<string>`${pattern} escape '\\'`;

// ---- subscribers ----------------------------------------------------------------------

export const SUBSCRIBER_COLUMNS = ['id', 'email', 'email_key', 'offer', 'type', 'customer_id', 'created_at', 'unsubscribed_at', 'unsubscribed_by'] as const;

function subscribers(db: Q, f: Pick<TAdminSubscriberQuery, 'q' | 'state'>) {
  let q = db.selectFrom('email_subscriptions');
  if (f.state === 'subscribed') q = q.where('unsubscribed_at', 'is', null);
  if (f.state === 'unsubscribed') q = q.where('unsubscribed_at', 'is not', null);
  const text = f.q?.trim();
  // email_key is the lower-cased address: a part of it in any letter case finds it.
  if (text) q = q.where('email_key', 'like', like(contains(text)));
  return q;
}

export async function listSubscribers(db: Q, query: TAdminSubscriberQuery) {
  const base = subscribers(db, query);
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    base
      .select(SUBSCRIBER_COLUMNS)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.size)
      .offset((query.page - 1) * query.size)
      .execute(),
  ]);
  return { rows, total: Number(count?.n ?? 0) };
}

/** The filtered subscribers, newest first, 500 at a time (keyset: no page is read twice or skipped). */
export async function* subscriberBatches(db: Q, f: Pick<TAdminSubscriberQuery, 'q' | 'state'>) {
  let before: { created_at: string; id: number } | null = null;
  for (;;) {
    let q = subscribers(db, f).select(SUBSCRIBER_COLUMNS);
    if (before) {
      const b = before;
      q = q.where((eb) => eb.or([eb('created_at', '<', b.created_at), eb.and([eb('created_at', '=', b.created_at), eb('id', '<', b.id)])]));
    }
    const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(500).execute();
    if (!rows.length) return;
    yield rows;
    if (rows.length < 500) return;
    const last = rows[rows.length - 1];
    before = { created_at: last.created_at, id: last.id };
  }
}

export function subscriberById(db: Q, id: number) {
  return db.selectFrom('email_subscriptions').select(SUBSCRIBER_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** Conditional: only a subscribed row moves, so two unsubscribes at once record one. */
export function markUnsubscribed(db: Q, id: number, by: 'link' | 'staff', now: string) {
  return db
    .updateTable('email_subscriptions')
    .set({ unsubscribed_at: now, unsubscribed_by: by })
    .where('id', '=', id)
    .where('unsubscribed_at', 'is', null)
    .returning(SUBSCRIBER_COLUMNS)
    .executeTakeFirst();
}

// ---- contact messages -----------------------------------------------------------------

const MESSAGE_COLUMNS = ['id', 'name', 'email', 'subject', 'message', 'customer_id', 'created_at', 'read_at', 'answered_at', 'locale'] as const;

function messages(db: Q, f: Pick<TAdminMessageQuery, 'q' | 'state'>) {
  let q = db.selectFrom('contact_messages');
  if (f.state === 'new') q = q.where('read_at', 'is', null).where('answered_at', 'is', null);
  if (f.state === 'read') q = q.where('read_at', 'is not', null).where('answered_at', 'is', null);
  if (f.state === 'answered') q = q.where('answered_at', 'is not', null);
  const text = f.q?.trim();
  if (text) {
    const p = like(contains(text));
    q = q.where((eb) =>
      eb.or([
        eb(sql<string>`lower(name)`, 'like', p),
        eb(sql<string>`lower(email)`, 'like', p),
        eb(sql<string>`lower(subject)`, 'like', p),
        eb(sql<string>`lower(message)`, 'like', p),
      ]),
    );
  }
  return q;
}

export async function listMessages(db: Q, query: TAdminMessageQuery) {
  const base = messages(db, query);
  let rows = base.select(MESSAGE_COLUMNS);
  // Unread first: what nobody has opened yet is what needs someone.
  if (query.sort === 'unread') rows = rows.orderBy(sql`case when read_at is null then 0 else 1 end`);
  const [count, found] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    rows
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.size)
      .offset((query.page - 1) * query.size)
      .execute(),
  ]);
  return { rows: found, total: Number(count?.n ?? 0) };
}

export function messageById(db: Q, id: number) {
  return db.selectFrom('contact_messages').select(MESSAGE_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** The first opening counts: a later one keeps the time it was first read. */
export function markRead(db: Q, id: number, now: string) {
  return db.updateTable('contact_messages').set({ read_at: now }).where('id', '=', id).where('read_at', 'is', null).executeTakeFirst();
}

export function markAnswered(db: Q, id: number, now: string) {
  return db
    .updateTable('contact_messages')
    .set((eb) => ({ answered_at: now, read_at: eb.fn.coalesce('read_at', sql<string>`${now}`) }))
    .where('id', '=', id)
    .execute();
}

export function repliesOf(db: Q, messageId: number) {
  return db
    .selectFrom('contact_replies')
    .leftJoin('mail_outbox', 'mail_outbox.id', 'contact_replies.mail_outbox_id')
    .select([
      'contact_replies.id',
      'contact_replies.body',
      'contact_replies.staff_name',
      'contact_replies.created_at',
      'contact_replies.mail_outbox_id',
      'mail_outbox.status as mail_status',
      'mail_outbox.attempts as mail_attempts',
    ])
    .where('contact_replies.message_id', '=', messageId)
    .orderBy('contact_replies.id')
    .execute();
}

export function insertReply(db: Q, row: { messageId: number; staffId: number | null; staffName: string; body: string; outboxId: number; now: string }) {
  return db
    .insertInto('contact_replies')
    .values({ message_id: row.messageId, staff_id: row.staffId, staff_name: row.staffName, body: row.body, mail_outbox_id: row.outboxId, created_at: row.now })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export function kvp(db: Q, key: string) {
  return db.selectFrom('kvps').select('value').where('key', '=', key).executeTakeFirst();
}

// ---- mail outbox ----------------------------------------------------------------------

/** The outbox's own statuses as the three states staff see (the same split as /metrics). */
export function mailState(status: string, attempts: number): TMailState {
  if (status === 'sent') return 'sent';
  return attempts >= MAX_ATTEMPTS ? 'failed' : 'waiting';
}

function stateFilter(eb: ExpressionBuilder<Database, 'mail_outbox'>, state: TMailState) {
  if (state === 'sent') return eb('status', '=', 'sent');
  return eb.and([eb('status', 'in', ['pending', 'sending']), eb('attempts', state === 'failed' ? '>=' : '<', MAX_ATTEMPTS)]);
}

const MAIL_ROW_COLUMNS = ['id', 'to_address', 'subject', 'status', 'attempts', 'last_error', 'created_at', 'sent_at'] as const;

function mails(db: Q, f: Pick<TAdminMailQuery, 'q' | 'state'>) {
  let q = db.selectFrom('mail_outbox');
  if (f.state) {
    const state = f.state;
    q = q.where((eb) => stateFilter(eb, state));
  }
  const text = f.q?.trim();
  if (text) q = q.where(sql<string>`lower(to_address)`, 'like', like(contains(text)));
  return q;
}

export async function listMails(db: Q, query: TAdminMailQuery) {
  const base = mails(db, query);
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    base
      .select(MAIL_ROW_COLUMNS)
      .orderBy('id', 'desc')
      .limit(query.size)
      .offset((query.page - 1) * query.size)
      .execute(),
  ]);
  return { rows, total: Number(count?.n ?? 0) };
}

export function mailById(db: Q, id: number) {
  return db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Unsent mail, waiting and given up, through the (status, id) index. */
export async function outboxCounts(db: Q) {
  const r = await db
    .selectFrom('mail_outbox')
    .select([
      sql<number>`sum(case when attempts < ${MAX_ATTEMPTS} then 1 else 0 end)`.as('waiting'),
      sql<number>`sum(case when attempts >= ${MAX_ATTEMPTS} then 1 else 0 end)`.as('failed'),
    ])
    .where('status', 'in', ['pending', 'sending'])
    .executeTakeFirst();
  return { waiting: Number(r?.waiting ?? 0), failed: Number(r?.failed ?? 0) };
}

/**
 * Puts a mail back to waiting with a fresh count of attempts. Conditional on what was read,
 * so a mail that the worker sent (or claimed) meanwhile is not sent twice.
 */
export function requeueMail(db: Q, id: number, seen: { status: string; attempts: number }) {
  return db
    .updateTable('mail_outbox')
    .set({ status: 'pending', attempts: 0, claimed_at: null })
    .where('id', '=', id)
    .where('status', '=', seen.status)
    .where('attempts', '=', seen.attempts)
    .where('status', '!=', 'sent')
    .executeTakeFirst();
}
