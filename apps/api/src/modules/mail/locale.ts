import { DEFAULT_LOCALE, type Locale, localeFromCookie, parseLocale } from '@storefront/shared';

// The language of a shopper's mails (docs/decisions/0038). The shop remembers the language a
// shopper reads in the `lang` cookie, which the browser sends to the API (and the web server
// forwards with the rest of the shopper's cookies); what the shopper does in that language
// (signing up or in, placing an order, subscribing, writing to the shop) stores it beside
// the customer, the order, the subscription or the message, so that a mail sent later (a
// status change staff make, a refund) is still in the shopper's language.

/** The language a request's `lang` cookie names, or null when it names none. */
export function requestLocale(req: { headers: { cookie?: string | string[] } }): Locale | null {
  const cookie = req.headers.cookie;
  return localeFromCookie(Array.isArray(cookie) ? cookie.join('; ') : cookie);
}

/** A stored language as a mail's language: English for anything else. */
export function mailLocale(value: string | null | undefined): Locale {
  return parseLocale(value) ?? DEFAULT_LOCALE;
}
