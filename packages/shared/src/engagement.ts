import { NARROW_SCREEN_PX } from './constants.ts';
import { EMAIL_MAX_LENGTH, isEmailShaped } from './email.ts';
import { NAME_INVISIBLE_MESSAGE, nameHasInvisibleCharacters } from './invisible-characters.ts';
import { MESSAGES } from './messages.ts';

// Home pop-ups, the newsletter subscription and the contact form: the rules both the
// server and the browser apply (spec §2, §3, §4, §5, §8).

// ---------------------------------------------------------------------------------------
// Pop-ups (spec §4)

/** What the pop-ups need of a content item (campaign or subscription-offer, spec §3). */
export interface PopupContent {
  id: number;
  type: string;
  title: string;
  fields: Record<string, unknown>;
  updatedAt?: string;
}

export const POPUP_TEXTS = {
  offerHeading: 'Limited Time',
  offerLine: 'Save your first order and get email only offer when you join',
} as const;

/** spec §9: the pop-up is at most 60 % of the screen wide. */
export const POPUP_MAX_WIDTH = '60%';

/** spec §9: the pop-up image is 80 (narrow screens, below 991 px) or 50 units of the viewport high. */
export function popupImageHeightFactor(viewportWidth: number): 80 | 50 {
  return viewportWidth < NARROW_SCREEN_PX ? 80 : 50;
}

/** The home path, the only one that shows pop-ups. */
export function isHomePath(pathname: string): boolean {
  return pathname === '/' || pathname === '';
}

/**
 * An item is live when fields.hasCampaign is the boolean true and fields.image is set.
 * The spec's data carries the string 'false' for "no"; any string, even 'true', is not
 * the boolean and does not count.
 */
export function isLivePopupContent(item: PopupContent | null | undefined, type: 'campaign' | 'subscription-offer'): boolean {
  if (!item || item.type !== type) return false;
  const image = item.fields.image;
  return item.fields.hasCampaign === true && typeof image === 'string' && image.trim() !== '';
}

export interface PopupState {
  pathname: string;
  signedIn: boolean;
  campaign: PopupContent | null;
  offer: PopupContent | null;
  /** Closed by the visitor during this visit (spec §4 closes; we keep them closed). */
  dismissed: { campaign: boolean; offer: boolean };
}

/**
 * spec §4. Campaign: live item, home path, not closed. Offer: live item, home path,
 * a guest, not closed, and never while the campaign pop-up shows.
 */
export function popupVisibility(s: PopupState): { campaign: boolean; offer: boolean } {
  const home = isHomePath(s.pathname);
  const campaign = home && !s.dismissed.campaign && isLivePopupContent(s.campaign, 'campaign');
  const offer = home && !s.signedIn && !campaign && !s.dismissed.offer && isLivePopupContent(s.offer, 'subscription-offer');
  return { campaign, offer };
}

/**
 * The session-storage key that remembers a closed pop-up for the visit. It names the item
 * and its version, so a new or edited campaign shows again.
 */
export function popupDismissKey(item: PopupContent): string {
  return `popup-dismissed:${item.type}:${item.id}:${item.updatedAt ?? ''}`;
}

/** spec §7, content search: the body the storefront sends to read one content type. */
export function contentSearchBody(type: 'campaign' | 'subscription-offer') {
  return {
    page: 1,
    size: 100,
    textParams: [{ field: 'type', value: type, matchType: 'EXACT' as const }],
    nestedParams: [],
    sortParams: [{ field: 'title', type: 'ASC' as const }],
  };
}

// ---------------------------------------------------------------------------------------
// Subscription (spec §5, §7, §8)

/** spec §5: blank → 'Please Provide Your Email'; not shaped like one → 'Please Provide a Correct Email'. */
export function validateSubscriptionEmail(value: unknown): string | null {
  const v = typeof value === 'string' ? value.trim() : '';
  if (!v) return MESSAGES.subscription.emailRequired;
  if (!isEmailShaped(v)) return MESSAGES.subscription.emailInvalid;
  return null;
}

/** spec §8: the toast for the subscription call's outcome (status 0 is a network error). */
export function subscriptionToast(status: number): { type: 'success' | 'error'; message: string } {
  if (status === 201) return { type: 'success', message: MESSAGES.subscription.success };
  if (status === 409) return { type: 'error', message: MESSAGES.subscription.already };
  return { type: 'error', message: MESSAGES.subscription.failed };
}

export const SUBSCRIPTION_TYPE_FIRST_TIME = 'first-time';

// ---------------------------------------------------------------------------------------
// Contact form (spec §2, §3; decisions.md: every field validated with its own message)

export const CONTACT_FIELDS = ['client_name', 'client_email', 'client_subject', 'client_message'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];
export type ContactForm = Record<ContactField, string>;

export const CONTACT_LIMITS: Record<ContactField, number> = {
  client_name: 100,
  client_email: EMAIL_MAX_LENGTH,
  client_subject: 150,
  client_message: 5000,
};

export const CONTACT_TEXTS = {
  title: "We'll love to hear from you",
  submit: 'Send Your Message',
  labels: { client_name: 'Your Name', client_email: 'Enter e-mail', client_subject: 'Subject', client_message: 'Body' } satisfies Record<ContactField, string>,
  required: {
    client_name: 'Please Give Your Name',
    client_email: 'Please Give Your Email',
    client_subject: 'Please Give a Subject',
    client_message: 'Please Write Your Message',
  } satisfies Record<ContactField, string>,
  emailInvalid: 'Please Give a Correct Email',
  lineBreaks: 'Line breaks are not allowed here',
  nameInvisible: NAME_INVISIBLE_MESSAGE,
  tooLong: (max: number) => `Please keep this under ${max} characters`,
  sent: 'Thank you! Your message has been sent.',
  failed: 'Your message could not be sent. Please try again.',
  rateLimited: 'You have sent several messages just now. Please wait a few minutes and try again.',
} as const;

/**
 * Per-field messages for a contact form, empty when it may be sent. Every field is
 * required; the one-line fields refuse line breaks (the subject becomes a mail header).
 */
export function validateContactForm(form: Partial<Record<ContactField, unknown>>): Partial<Record<ContactField, string>> {
  const errors: Partial<Record<ContactField, string>> = {};
  for (const field of CONTACT_FIELDS) {
    const raw = typeof form[field] === 'string' ? (form[field] as string) : '';
    const v = raw.trim();
    if (!v) errors[field] = CONTACT_TEXTS.required[field];
    else if (v.length > CONTACT_LIMITS[field]) errors[field] = CONTACT_TEXTS.tooLong(CONTACT_LIMITS[field]);
    else if (field !== 'client_message' && /[\r\n]/.test(v)) errors[field] = CONTACT_TEXTS.lineBreaks;
    else if (field === 'client_email' && !isEmailShaped(v)) errors[field] = CONTACT_TEXTS.emailInvalid;
    else if (field === 'client_name' && nameHasInvisibleCharacters(v)) errors[field] = CONTACT_TEXTS.nameInvisible;
  }
  return errors;
}

/** The form as it is stored and sent: every field trimmed. */
export function normaliseContactForm(form: Partial<Record<ContactField, unknown>>): ContactForm {
  const out = {} as ContactForm;
  for (const field of CONTACT_FIELDS) out[field] = typeof form[field] === 'string' ? (form[field] as string).trim() : '';
  return out;
}
