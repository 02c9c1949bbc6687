import type { Kysely } from 'kysely';
import nodemailer, { type TransportOptions, type Transporter } from 'nodemailer';
import type { Database } from '../../db/schema.ts';
import { badRequest } from '../../lib/errors.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
}

/** After this many failed attempts a message is no longer tried: it counts as failed (/metrics). */
export const MAX_ATTEMPTS = 8;
/** A message claimed this long ago by a process that died is tried again. */
const STALE_CLAIM_MS = 5 * 60_000;

/** CR or LF in an address or subject would let a sender add headers of their own. */
export function assertNoHeaderInjection(values: Record<string, string | undefined>): void {
  for (const [field, value] of Object.entries(values)) {
    if (value && /[\r\n]/.test(value)) throw badRequest('Line breaks are not allowed here', { [field]: 'Line breaks are not allowed here' });
  }
}

/**
 * Mail goes through an outbox table first, so nothing is lost when the mail server is
 * down: `send` stores the message and tries to deliver it at once; `flush` (on a timer,
 * in every process) delivers what is still pending. Without SMTP_URL the messages stay
 * in the outbox. Rows are claimed with a conditional update, so several processes on one
 * PostgreSQL database never send a message twice.
 */
export class Mailer {
  private readonly transport: Transporter | null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly opts: { smtpUrl: string | null; from: string; onError?(err: unknown): void },
  ) {
    this.transport = opts.smtpUrl
      ? nodemailer.createTransport({ url: opts.smtpUrl, connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 10_000 } as TransportOptions)
      : null;
  }

  get configured(): boolean {
    return this.transport !== null;
  }

  /** Stores the message; delivers it now when SMTP is configured. Never throws for SMTP. */
  async send(msg: MailMessage): Promise<{ id: number; delivered: boolean }> {
    const id = await this.queue(msg);
    const delivered = await this.deliverNow(id);
    return { id, delivered };
  }

  /**
   * Only stores the message, through `db` (a caller's transaction: the mail then exists
   * exactly when what it reports does); `deliverNow` after the commit sends it at once.
   */
  async queue(msg: MailMessage, db: Kysely<Database> = this.db): Promise<number> {
    assertNoHeaderInjection({ to: msg.to, subject: msg.subject, replyTo: msg.replyTo });
    const row = await db
      .insertInto('mail_outbox')
      .values({
        to_address: msg.to,
        reply_to: msg.replyTo ?? null,
        subject: msg.subject,
        text_body: msg.text,
        html_body: msg.html ?? null,
        status: 'pending',
        created_at: new Date().toISOString(),
        claimed_at: null,
        sent_at: null,
        last_error: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** Tries one waiting message now (false without SMTP, when it failed, or when another process has it). */
  async deliverNow(id: number): Promise<boolean> {
    return this.transport ? this.deliver(id) : false;
  }

  /** Delivers pending messages; returns how many were sent. */
  async flush(limit = 20): Promise<number> {
    if (!this.transport) return 0;
    const staleBefore = new Date(Date.now() - STALE_CLAIM_MS).toISOString();
    const due = await this.db
      .selectFrom('mail_outbox')
      .select('id')
      .where((eb) => eb.or([eb('status', '=', 'pending'), eb.and([eb('status', '=', 'sending'), eb('claimed_at', '<', staleBefore)])]))
      .where('attempts', '<', MAX_ATTEMPTS)
      .orderBy('id')
      .limit(limit)
      .execute();
    let sent = 0;
    for (const { id } of due) if (await this.deliver(id)) sent++;
    return sent;
  }

  private async deliver(id: number): Promise<boolean> {
    const now = new Date().toISOString();
    const staleBefore = new Date(Date.now() - STALE_CLAIM_MS).toISOString();
    const claimed = await this.db
      .updateTable('mail_outbox')
      .set((eb) => ({ status: 'sending', claimed_at: now, attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .where((eb) => eb.or([eb('status', '=', 'pending'), eb.and([eb('status', '=', 'sending'), eb('claimed_at', '<', staleBefore)])]))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return false;
    const msg = await this.db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    try {
      await this.transport!.sendMail({
        from: this.opts.from,
        to: msg.to_address,
        replyTo: msg.reply_to ?? undefined,
        subject: msg.subject,
        text: msg.text_body,
        html: msg.html_body ?? undefined,
      });
      await this.db.updateTable('mail_outbox').set({ status: 'sent', sent_at: new Date().toISOString(), last_error: null }).where('id', '=', id).execute();
      return true;
    } catch (err) {
      await this.db
        .updateTable('mail_outbox')
        .set({ status: 'pending', last_error: String((err as Error)?.message ?? err).slice(0, 500) })
        .where('id', '=', id)
        .execute();
      this.opts.onError?.(err);
      return false;
    }
  }

  start(intervalMs = 30_000): void {
    if (!this.transport || this.timer) return;
    this.timer = setInterval(() => void this.flush().catch((e) => this.opts.onError?.(e)), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.transport?.close();
  }
}
