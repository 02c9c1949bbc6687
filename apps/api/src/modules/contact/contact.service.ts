import { CONTACT_TEXTS, type ContactField, type Locale, normaliseContactForm, validateContactForm } from '@storefront/shared';
import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import { lockForTransaction } from '../../db/dialect/locks.ts';
import type { Database } from '../../db/schema.ts';
import type { ClientAddress } from '../../lib/client-address.ts';
import { ApiError } from '../../lib/errors.ts';
import type { Mailer } from '../mail/mailer.ts';
import { countContactMessagesSince, findSupportEmail, insertContactMessage, setContactOutboxId } from './contact.repository.ts';

/** At most this many messages from one address in the window (decision 0010). */
export const CONTACT_RATE_LIMIT = { max: 5, windowMs: 10 * 60_000 } as const;

/** Separates this lock's keys from other advisory locks of the app. */
const LOCK_BASE = 0x7c000000;

function lockKey(address: ClientAddress): number {
  // FNV-1a: one lock per sender address, so senders do not wait for each other.
  let h = 0x811c9dc5;
  for (let i = 0; i < address.length; i++) h = Math.imul(h ^ address.charCodeAt(i), 0x01000193);
  return LOCK_BASE + ((h >>> 0) % 0x00ffffff);
}

export interface ContactDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  mailer: Mailer;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/**
 * The contact form (spec §2, decisions.md): validate every field, store the message
 * (so nothing is lost if mail is down), then hand it to the mailer, which delivers it
 * to the support mailbox now or keeps it in the outbox for later.
 */
export async function sendContactMessage(
  deps: ContactDeps,
  input: { form: Partial<Record<ContactField, unknown>>; address: ClientAddress; customerId: number | null; locale?: Locale | null; now?: Date },
): Promise<{ id: number; createdAt: string }> {
  const errors = validateContactForm(input.form);
  if (Object.keys(errors).length) throw new ApiError('validation_error', 'Please check the highlighted fields', errors);
  const form = normaliseContactForm(input.form);
  const now = input.now ?? new Date();

  // The count and the insert in one transaction, serialised per sender, so that ten
  // requests at once cannot all slip under the limit.
  const stored = await deps.db.transaction().execute(async (trx) => {
    await lockForTransaction(trx, deps.dialect, lockKey(input.address));
    const since = new Date(now.getTime() - CONTACT_RATE_LIMIT.windowMs).toISOString();
    if ((await countContactMessagesSince(trx, input.address, since)) >= CONTACT_RATE_LIMIT.max) {
      throw new ApiError('rate_limited', CONTACT_TEXTS.rateLimited);
    }
    return insertContactMessage(trx, {
      name: form.client_name,
      email: form.client_email,
      subject: form.client_subject,
      message: form.client_message,
      customer_id: input.customerId,
      // The sender as the limit counts them (docs/decisions/0049): the count reads this column.
      ip: input.address,
      mail_outbox_id: null,
      created_at: now.toISOString(),
      // The shop's answer is framed in the sender's language (docs/decisions/0038).
      locale: input.locale ?? 'en',
    });
  });

  try {
    const support = (await findSupportEmail(deps.db))?.value?.trim();
    if (!support) {
      deps.log.warn({ contactMessageId: stored.id }, 'no support email set (kvp contact.supportEmail): contact message stored, not mailed');
    } else {
      const queued = await deps.mailer.send({
        to: support,
        replyTo: form.client_email,
        subject: `Contact form: ${form.client_subject}`,
        text: contactMailText(form, stored.id, stored.created_at),
      });
      await setContactOutboxId(deps.db, stored.id, queued.id);
    }
  } catch (err) {
    // The message is stored; the shop can still read it. Do not make the sender retry.
    deps.log.error({ err, contactMessageId: stored.id }, 'contact message stored but not queued for mail');
  }
  return { id: stored.id, createdAt: stored.created_at };
}

export function contactMailText(form: Record<ContactField, string>, id: number, createdAt: string): string {
  return [
    'A message from the contact form of the shop.',
    '',
    `From: ${form.client_name} <${form.client_email}>`,
    `Subject: ${form.client_subject}`,
    `Received: ${createdAt} (message #${id})`,
    '',
    form.client_message,
    '',
    '-- ',
    'Reply to this email to answer the sender.',
  ].join('\n');
}
