import { type I18n, setupI18n } from '@lingui/core';
import type { CompiledCatalog } from './compile.ts';
import type { Locale } from './locales.ts';

// The translating function, the same on the server (pages, mails) and in the browser.
// A message with no compiled entry is shown as written: an English id needs compiling only
// when it carries ICU syntax (compile.ts), and such ids are always in the catalogue.

export type TranslateValues = Record<string, unknown>;
export type Translate = (id: string, values?: TranslateValues) => string;

export function createI18n(locale: Locale, messages: CompiledCatalog): I18n {
  const i18n = setupI18n({ locale, messages: { [locale]: messages } as never });
  // Without this Lingui warns on each plain id; the identity is all a plain text needs.
  i18n.setMessagesCompiler((message: string) => message as never);
  return i18n;
}

export function translator(i18n: I18n): Translate {
  return (id, values) => i18n._(id, values as never);
}
