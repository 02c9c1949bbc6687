import {
  formatDate,
  INBOX_MESSAGES,
  type TAdminMessage,
  type TAdminMessageQuery,
  type TAdminMessageRow,
  type TMessageState,
  validateContactReply,
} from '@storefront/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { ApiError, conflict, notFound } from '../../lib/errors.ts';
import { serverT } from '@storefront/shared/i18n/server';
import { mailLocale } from '../mail/locale.ts';
import type { Mailer } from '../mail/mailer.ts';
import { brandedMail } from '../orders/mail.ts';
import { type Actor, recordAudit } from '../staff/audit.ts';
import { shopBrand } from '../orders/notify.ts';
import * as repo from './inbox.repository.ts';

// The contact inbox (docs/decisions/0036): the messages the contact form stored
// (docs/decisions/0010), read and answered from the back office. An answer goes to the sender
// as the shop's branded mail, with Reply-To the support address, through the outbox.

type Db = Kysely<Database>;
type Row = NonNullable<Awaited<ReturnType<typeof repo.messageById>>>;

const stateOf = (r: { read_at: string | null; answered_at: string | null }): TMessageState => (r.answered_at ? 'answered' : r.read_at ? 'read' : 'new');

function toRow(r: Row): TAdminMessageRow {
  const flat = r.message.replace(/\s+/g, ' ').trim();
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    subject: r.subject,
    preview: flat.length > 140 ? `${flat.slice(0, 139)}…` : flat,
    state: stateOf(r),
    createdAt: r.created_at,
    readAt: r.read_at,
    answeredAt: r.answered_at,
  };
}

export async function listMessages(db: Db, query: TAdminMessageQuery) {
  const { rows, total } = await repo.listMessages(db, query);
  return { items: rows.map(toRow), total, page: query.page, size: query.size };
}

async function view(db: Db, row: Row): Promise<TAdminMessage> {
  const replies = await repo.repliesOf(db, row.id);
  const { preview: _preview, ...rest } = toRow(row);
  return {
    ...rest,
    message: row.message,
    customerId: row.customer_id,
    replies: replies.map((r) => ({
      id: r.id,
      body: r.body,
      staffName: r.staff_name,
      createdAt: r.created_at,
      mailId: r.mail_outbox_id,
      mailState: r.mail_status == null ? null : repo.mailState(r.mail_status, Number(r.mail_attempts ?? 0)),
    })),
  };
}

/** Opening a message marks it read (the first opening's time is kept); the read is audited, as a customer's is. */
export async function openMessage(db: Db, id: number, actor: Actor): Promise<TAdminMessage> {
  const row = await db.transaction().execute(async (trx) => {
    const found = await repo.messageById(trx, id);
    if (!found) throw notFound('The message');
    if (!found.read_at) await repo.markRead(trx, id, new Date().toISOString());
    await recordAudit(trx, actor, { action: 'read', entity: 'contact_message', entityId: id, before: null, after: null });
    return (await repo.messageById(trx, id))!;
  });
  return view(db, row);
}

/**
 * The answer as the sender receives it: the shop's branded mail, their own message quoted
 * below. The staff member's words go as written; the frame around them is in the language
 * the sender wrote from (docs/decisions/0038).
 */
export function replyMail(brand: Awaited<ReturnType<typeof shopBrand>>, msg: Row, body: string, staffName: string) {
  const locale = mailLocale(msg.locale);
  const t = serverT(locale);
  const paragraphs = body
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  const { text, html } = brandedMail(
    brand,
    t('About your message: {subject}', { subject: msg.subject }),
    [
      { p: t('Dear {name},', { name: msg.name }) },
      ...paragraphs.map((p) => ({ p })),
      { p: `${staffName}, ${brand.name}` },
      { facts: [[t('You wrote on'), formatDate(msg.created_at, locale, 'dateTime')]] },
      { p: msg.message.length > 2000 ? `${msg.message.slice(0, 2000)}…` : msg.message },
    ],
    locale,
  );
  return { subject: /^re:/i.test(msg.subject) ? msg.subject : `Re: ${msg.subject}`, text, html };
}

/**
 * Answers a message: the reply, the message's new state, the outbox row and the audit entry
 * are one transaction (the thread shows an answer exactly when a mail carries it); the mail
 * is tried at once after the commit, or waits in the outbox for the worker.
 */
export async function replyToMessage(
  deps: { db: Db; mailer: Mailer; publicUrl: string },
  id: number,
  input: { body: string },
  actor: Actor & { name: string },
): Promise<TAdminMessage> {
  const problem = validateContactReply(input.body);
  if (problem) throw new ApiError('validation_error', problem, { body: problem });
  const body = input.body.replace(/\r\n?/g, '\n').trim();
  const brand = await shopBrand(deps.db, deps.publicUrl);
  if (!brand.supportEmail) throw conflict('support_email_missing', INBOX_MESSAGES.noSupportEmail);
  const supportEmail = brand.supportEmail;
  const { outboxId } = await deps.db.transaction().execute(async (trx) => {
    const msg = await repo.messageById(trx, id);
    if (!msg) throw notFound('The message');
    const mail = replyMail(brand, msg, body, actor.name);
    const outboxId = await deps.mailer.queue({ to: msg.email, replyTo: supportEmail, ...mail }, trx);
    const now = new Date().toISOString();
    const reply = await repo.insertReply(trx, { messageId: id, staffId: actor.staffId, staffName: actor.name, body, outboxId, now });
    await repo.markAnswered(trx, id, now);
    await recordAudit(trx, actor, {
      action: 'contact_reply',
      entity: 'contact_message',
      entityId: id,
      before: { state: stateOf(msg) },
      after: { state: 'answered', replyId: reply.id, mailId: outboxId },
    });
    return { outboxId };
  });
  await deps.mailer.deliverNow(outboxId).catch(() => false);
  return view(deps.db, (await repo.messageById(deps.db, id))!);
}
