// The shop's two languages (docs/decisions/0038). English is the specification's own
// language and the default; Bangla is chosen by the shopper and remembered in a cookie.

export const LOCALES = ['en', 'bn'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** The cookie that remembers the shopper's language, read by the server to render in it. */
export const LANG_COOKIE = 'lang';
/** The query parameter that chooses a language for a page (and remembers it): `?lang=bn`. */
export const LANG_PARAM = 'lang';

/** What each language is called in itself, for the language switch. */
export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', bn: 'বাংলা' };

export function parseLocale(value: unknown): Locale | null {
  if (typeof value !== 'string') return null;
  const v = value.trim().toLowerCase();
  return (LOCALES as readonly string[]).includes(v) ? (v as Locale) : null;
}

/** The language a Cookie header remembers, if any. */
export function localeFromCookie(cookie: string | null | undefined): Locale | null {
  if (!cookie) return null;
  for (const part of cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === LANG_COOKIE) return parseLocale(part.slice(eq + 1));
  }
  return null;
}

/** The page's language: the address's `?lang=` first, then the cookie, else English. */
export function localeOf(url: URL | string, cookie: string | null | undefined): Locale {
  const u = typeof url === 'string' ? new URL(url, 'http://x') : url;
  return parseLocale(u.searchParams.get(LANG_PARAM)) ?? localeFromCookie(cookie) ?? DEFAULT_LOCALE;
}
