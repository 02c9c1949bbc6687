import { ZAdminPageQuery } from './admin-schemas.ts';
import { z } from './zod.ts';

// The back office's subscribers, contact inbox and mail outbox (/api/admin/subscribers,
// /api/admin/messages, /api/admin/mail; docs/decisions/0036). Shapes and outer bounds here;
// the rules with readable messages (an empty reply, an address that is not one) are checked
// by the service, so the form and the API say the same thing.

const text = (max: number) => z.string().max(max);

/** A reply to a contact message, as staff may type it. */
export const CONTACT_REPLY_MAX = 10_000;

export const INBOX_MESSAGES = {
  replyEmpty: 'Please write your answer',
  replyTooLong: `Please keep your answer under ${CONTACT_REPLY_MAX.toLocaleString('en-US')} characters`,
  testAddress: 'Please give a correct email address',
  noSupportEmail: 'Set the shop’s support address (contact.supportEmail) first: answers are sent with it as Reply-To',
} as const;

// ---- subscribers ----------------------------------------------------------------------

export const SUBSCRIBER_STATES = ['subscribed', 'unsubscribed'] as const;
export type TSubscriberState = (typeof SUBSCRIBER_STATES)[number];

export const ZAdminSubscriberQuery = ZAdminPageQuery.extend({
  /** A part of the address. */
  q: text(120).optional(),
  state: z.enum(SUBSCRIBER_STATES).optional(),
});
export type TAdminSubscriberQuery = z.infer<typeof ZAdminSubscriberQuery>;

export const ZAdminSubscriber = z.object({
  id: z.number(),
  email: z.string(),
  /** The offer the visitor answered, and its kind ('first-time'). */
  offer: z.string(),
  type: z.string(),
  /** The customer account that subscribed, when signed in. */
  customerId: z.number().nullable(),
  createdAt: z.string(),
  unsubscribedAt: z.string().nullable(),
  unsubscribedBy: z.enum(['link', 'staff']).nullable(),
});
export type TAdminSubscriber = z.infer<typeof ZAdminSubscriber>;

// ---- contact messages -----------------------------------------------------------------

export const MESSAGE_STATES = ['new', 'read', 'answered'] as const;
export type TMessageState = (typeof MESSAGE_STATES)[number];
export const MESSAGE_STATE_LABELS: Record<TMessageState, string> = { new: 'New', read: 'Read', answered: 'Answered' };

export const ZAdminMessageQuery = ZAdminPageQuery.extend({
  /** A part of the name, address, subject or message. */
  q: text(120).optional(),
  state: z.enum(MESSAGE_STATES).optional(),
  /** Unread first (then newest), or newest first. */
  sort: z.enum(['unread', 'newest']).default('unread'),
});
export type TAdminMessageQuery = z.infer<typeof ZAdminMessageQuery>;

export const ZAdminMessageRow = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  subject: z.string(),
  /** The start of the message. */
  preview: z.string(),
  state: z.enum(MESSAGE_STATES),
  createdAt: z.string(),
  readAt: z.string().nullable(),
  answeredAt: z.string().nullable(),
});
export type TAdminMessageRow = z.infer<typeof ZAdminMessageRow>;

export const ZContactReply = z.object({
  id: z.number(),
  body: z.string(),
  staffName: z.string(),
  createdAt: z.string(),
  /** The outbox row carrying it, and how it stands. */
  mailId: z.number().nullable(),
  mailState: z.enum(['waiting', 'sent', 'failed']).nullable(),
});
export type TContactReply = z.infer<typeof ZContactReply>;

export const ZAdminMessage = ZAdminMessageRow.omit({ preview: true }).extend({
  message: z.string(),
  customerId: z.number().nullable(),
  replies: z.array(ZContactReply),
});
export type TAdminMessage = z.infer<typeof ZAdminMessage>;

export const ZContactReplyBody = z.object({ body: text(CONTACT_REPLY_MAX + 1000) });
export type TContactReplyBody = z.infer<typeof ZContactReplyBody>;

/** The reply's own rule, shared by the form and the API: something to say, not too much. */
export function validateContactReply(body: string): string | null {
  const t = body.trim();
  if (!t) return INBOX_MESSAGES.replyEmpty;
  if (t.length > CONTACT_REPLY_MAX) return INBOX_MESSAGES.replyTooLong;
  return null;
}

// ---- mail outbox ----------------------------------------------------------------------

/**
 * waiting: not sent yet, still tried (an error from an earlier attempt may show); sent;
 * failed: tried as often as the mailer tries (MAX_ATTEMPTS) and given up.
 */
export const MAIL_STATES = ['waiting', 'sent', 'failed'] as const;
export type TMailState = (typeof MAIL_STATES)[number];
export const MAIL_STATE_LABELS: Record<TMailState, string> = { waiting: 'Waiting', sent: 'Sent', failed: 'Failed' };

export const ZAdminMailQuery = ZAdminPageQuery.extend({
  /** A part of the recipient's address. */
  q: text(120).optional(),
  state: z.enum(MAIL_STATES).optional(),
});
export type TAdminMailQuery = z.infer<typeof ZAdminMailQuery>;

export const ZAdminMailRow = z.object({
  id: z.number(),
  to: z.string(),
  subject: z.string(),
  state: z.enum(MAIL_STATES),
  attempts: z.number(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});
export type TAdminMailRow = z.infer<typeof ZAdminMailRow>;

export const ZAdminMail = ZAdminMailRow.extend({
  replyTo: z.string().nullable(),
  /** The text part; links that carry a secret (a reset token, an order key) show it hidden. */
  text: z.string(),
  /** The HTML part, hidden the same way; shown in a sandboxed frame, never in the page. */
  html: z.string().nullable(),
  /** Some link's secret was hidden from this view (the mail itself keeps it). */
  redacted: z.boolean(),
});
export type TAdminMail = z.infer<typeof ZAdminMail>;

export const ZAdminMailStatus = z.object({
  /** SMTP_URL is set: mail is delivered; otherwise it is only kept in the outbox. */
  smtpConfigured: z.boolean(),
  from: z.string(),
  waiting: z.number(),
  failed: z.number(),
  maxAttempts: z.number(),
});
export type TAdminMailStatus = z.infer<typeof ZAdminMailStatus>;

export const ZTestMailBody = z.object({
  /** The address to send to; the staff member's own when left out or blank. */
  to: text(300).optional(),
});
export type TTestMailBody = z.infer<typeof ZTestMailBody>;

// ---- the subscriber's own unsubscribe link ---------------------------------------------

export const ZUnsubscribeBody = z.object({ token: text(200) });
