import { INBOX_MESSAGES, isEmailShaped, type TAdminMail, type TAdminMailQuery, type TAdminMailRow, type TAdminMailStatus } from '@storefront/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { ApiError, conflict, notFound } from '../../lib/errors.ts';
import { MAX_ATTEMPTS, type Mailer } from '../mail/mailer.ts';
import { brandedMail } from '../orders/mail.ts';
import { type Actor, recordAudit } from '../staff/audit.ts';
import { shopBrand } from '../orders/notify.ts';
import * as repo from './inbox.repository.ts';

// The mail outbox in the back office (docs/decisions/0036): what the shop sent, what waits,
// what failed and why; a failed mail put back to waiting, and a test mail. Owners only: the
// outbox holds password-reset links and guests' order links.

type Db = Kysely<Database>;
type MailRow = NonNullable<Awaited<ReturnType<typeof repo.mailById>>>;

/**
 * Links that carry a credential (a password-reset token, a guest's signed order key, an
 * unsubscribe token), with the credential hidden. Even an owner reading the outbox should not
 * be handed a live way into a customer's account; the mail itself keeps it (a retry sends it
 * as it was). In HTML the `&` before a parameter is written `&amp;`.
 */
export function hideLinkSecrets(text: string): { text: string; hidden: boolean } {
  let hidden = false;
  const out = text.replace(/([?&;](?:token|key|code)=)([^&\s"'<>]+)/gi, (_m, name: string) => {
    hidden = true;
    return `${name}[hidden]`;
  });
  return { text: out, hidden };
}

function toRow(r: Pick<MailRow, 'id' | 'to_address' | 'subject' | 'status' | 'attempts' | 'last_error' | 'created_at' | 'sent_at'>): TAdminMailRow {
  return {
    id: r.id,
    to: r.to_address,
    subject: r.subject,
    state: repo.mailState(r.status, r.attempts),
    attempts: r.attempts,
    lastError: r.last_error,
    createdAt: r.created_at,
    sentAt: r.sent_at,
  };
}

function toMail(r: MailRow): TAdminMail {
  const text = hideLinkSecrets(r.text_body);
  const html = r.html_body == null ? null : hideLinkSecrets(r.html_body);
  return { ...toRow(r), replyTo: r.reply_to, text: text.text, html: html?.text ?? null, redacted: text.hidden || !!html?.hidden };
}

export async function mailStatus(db: Db, mailer: Mailer, from: string): Promise<TAdminMailStatus> {
  return { smtpConfigured: mailer.configured, from, maxAttempts: MAX_ATTEMPTS, ...(await repo.outboxCounts(db)) };
}

export async function listMails(db: Db, query: TAdminMailQuery) {
  const { rows, total } = await repo.listMails(db, query);
  return { items: rows.map(toRow), total, page: query.page, size: query.size };
}

export async function readMail(db: Db, id: number): Promise<TAdminMail> {
  const row = await repo.mailById(db, id);
  if (!row) throw notFound('The mail');
  return toMail(row);
}

/** A claim older than this is a process that died mid-send; the mailer retries such claims too. */
const FRESH_CLAIM_MS = 60_000;

/**
 * Puts a mail that was not sent back to waiting, its attempts counted afresh, and tries it at
 * once when SMTP is configured. A sent mail is refused (409): sending it again is a new mail.
 */
export async function retryMail(db: Db, mailer: Mailer, id: number, actor: Actor): Promise<TAdminMail> {
  await db.transaction().execute(async (trx) => {
    const row = await repo.mailById(trx, id);
    if (!row) throw notFound('The mail');
    if (row.status === 'sent') throw conflict('already_sent', 'This mail was sent; it cannot be tried again');
    if (row.status === 'sending' && row.claimed_at && Date.now() - Date.parse(row.claimed_at) < FRESH_CLAIM_MS) {
      throw conflict('mail_sending', 'This mail is being sent right now');
    }
    const moved = await repo.requeueMail(trx, id, row);
    if (Number(moved.numUpdatedRows) !== 1) throw conflict('stale_version', 'The mail changed meanwhile: reload it');
    await recordAudit(trx, actor, {
      action: 'mail_retry',
      entity: 'mail',
      entityId: id,
      before: { state: repo.mailState(row.status, row.attempts), attempts: row.attempts, lastError: row.last_error },
      after: { state: 'waiting', attempts: 0 },
    });
  });
  await mailer.deliverNow(id).catch(() => false);
  return readMail(db, id);
}

/** A branded test mail through the outbox, to the given address or the staff member's own. */
export async function sendTestMail(
  deps: { db: Db; mailer: Mailer; publicUrl: string },
  input: { to?: string },
  actor: Actor & { name: string },
): Promise<TAdminMail> {
  const to = input.to?.trim() || actor.email;
  if (!isEmailShaped(to)) throw new ApiError('validation_error', INBOX_MESSAGES.testAddress, { to: INBOX_MESSAGES.testAddress });
  const brand = await shopBrand(deps.db, deps.publicUrl);
  const { text, html } = brandedMail(brand, 'A test mail from the back office', [
    { p: `${actor.name} sent this mail from the back office to check that the shop's mail reaches its readers.` },
    { facts: [['Sent', new Date().toISOString()]] },
  ]);
  const id = await deps.db.transaction().execute(async (trx) => {
    const queued = await deps.mailer.queue({ to, subject: `Test mail from ${brand.name}`, text, html, replyTo: brand.supportEmail }, trx);
    await recordAudit(trx, actor, { action: 'mail_test', entity: 'mail', entityId: queued, before: null, after: { to } });
    return queued;
  });
  await deps.mailer.deliverNow(id).catch(() => false);
  return readMail(deps.db, id);
}
