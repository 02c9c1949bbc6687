import type { I18n } from '@lingui/core';
import { I18nProvider, useLingui } from '@lingui/react';
import {
  type DateStyle,
  DEFAULT_LOCALE,
  formatDate,
  formatNumber,
  LANG_PARAM,
  type Locale,
  localDigits,
  parseLocale,
  type Translate,
  createI18n,
  translator,
} from '@storefront/shared';
import type { CompiledCatalog } from '@storefront/shared/i18n/compile';
import { type ReactNode, useMemo } from 'react';

// The shop's language on every page (docs/decisions/0038). Components call
//   const { t } = useT();  t('Add to Cart');  t('{count, plural, one {# item} other {# items}}', { count })
// and <Trans id="Already have an account? <0>Sign in</0>" components={{ 0: <Link to="/sign-in" /> }} />
// for a sentence with a link in it. An id is the English text; packages/shared/src/i18n/bn/
// holds its Bangla. Never build a sentence from pieces: word order differs between the two.

export { Trans } from '@lingui/react';

const instances = new Map<Locale, I18n>();

/** Makes a language's compiled catalogue available (entry.server: both; entry.client: the page's). */
export function registerCatalog(locale: Locale, messages: CompiledCatalog) {
  instances.set(locale, createI18n(locale, messages));
}

/** The language's translator; English (whose plain ids need no catalogue) when it was not loaded. */
export function i18nFor(locale: Locale): I18n {
  let i18n = instances.get(locale) ?? instances.get(DEFAULT_LOCALE);
  if (!i18n) {
    i18n = createI18n(DEFAULT_LOCALE, {});
    instances.set(DEFAULT_LOCALE, i18n);
  }
  return i18n;
}

export function LanguageProvider({ locale, children }: { locale: Locale; children: ReactNode }) {
  return <I18nProvider i18n={i18nFor(locale)}>{children}</I18nProvider>;
}

export interface Localized {
  t: Translate;
  lang: Locale;
  /** A count or quantity: South Asian grouping, Bangla digits in Bangla. */
  n(value: number, fractionDigits?: number): string;
  /** Digits of a code or a phone number in the language's script. */
  digits(text: string): string;
  /** A date in the shopper's language (Dhaka time). */
  date(value: string | number | Date, style?: DateStyle): string;
}

function localized(i18n: I18n): Localized {
  const lang = (parseLocale(i18n.locale) ?? DEFAULT_LOCALE) as Locale;
  return {
    t: translator(i18n),
    lang,
    n: (value, fractionDigits) => formatNumber(value, lang, { fractionDigits }),
    digits: (text) => localDigits(text, lang),
    date: (value, style) => formatDate(value, lang, style),
  };
}

/** The page's language, its translator and formatters. */
export function useT(): Localized {
  const { i18n } = useLingui();
  return useMemo(() => localized(i18n), [i18n]);
}

interface MatchLike {
  id: string;
  data?: unknown;
  loaderData?: unknown;
}

/** The page's language as the root loader decided it, for meta functions and loaders' outputs. */
export function localeOfMatches(matches: readonly (MatchLike | undefined)[]): Locale {
  const root = matches.find((m) => m?.id === 'root');
  const data = (root?.loaderData ?? root?.data) as { lang?: string } | undefined;
  return parseLocale(data?.lang) ?? DEFAULT_LOCALE;
}

/** The translator for a route's meta function: `const { t } = metaT(matches)`. */
export function metaT(matches: readonly (MatchLike | undefined)[]): Localized {
  return localized(i18nFor(localeOfMatches(matches)));
}

/** The same address in the other language: `?lang=` set, everything else kept. */
export function addressIn(locale: Locale, pathname: string, search: string): string {
  const params = new URLSearchParams(search);
  params.set(LANG_PARAM, locale);
  return `${pathname}?${params.toString()}`;
}
