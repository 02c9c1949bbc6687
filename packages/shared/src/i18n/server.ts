import type { I18n } from '@lingui/core';
import { compileCatalog } from './compile.ts';
import { LOCALES, type Locale } from './locales.ts';
import { createI18n, type Translate, translator } from './translator.ts';

// Both languages, compiled once per process, for what the server writes itself: pages'
// first render and mails.

const instances = new Map<Locale, I18n>();

export function serverI18n(locale: Locale): I18n {
  let i18n = instances.get(locale);
  if (!i18n) {
    i18n = createI18n(locale, compileCatalog(locale));
    instances.set(locale, i18n);
  }
  return i18n;
}

/** The translating function of a language, on the server. */
export function serverT(locale: Locale): Translate {
  return translator(serverI18n(locale));
}

export { LOCALES };
