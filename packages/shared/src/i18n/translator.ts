import { type I18n, setupI18n } from '@lingui/core';
import type { CompiledCatalog } from './compile.ts';
import type { Locale } from './locales.ts';
import { withPluralValues } from './plural.ts';

// The translating function, the same on the server (pages, mails) and in the browser.
// A message with no compiled entry (an English id, compile.ts) is compiled here on use: it has
// at most plain values, {name}, which this small compiler fills in, so no page ships Lingui's
// ICU parser.

export type TranslateValues = Record<string, unknown>;
export type Translate = (id: string, values?: TranslateValues) => string;

export function createI18n(locale: Locale, messages: CompiledCatalog): I18n {
  const i18n = setupI18n({ locale, messages: { [locale]: messages } as never });
  i18n.setMessagesCompiler(compilePlainValues as never);
  // The compiled plurals read values derived from each number (plural.ts); <Trans> calls _ too.
  const translate = i18n._.bind(i18n);
  i18n._ = ((id: unknown, values?: Record<string, unknown>, options?: unknown) => {
    if (id && typeof id === 'object') {
      const d = id as { values?: Record<string, unknown> };
      return translate((d.values ? { ...d, values: withPluralValues(d.values, locale) } : d) as never);
    }
    return translate(id as never, (values ? withPluralValues(values, locale) : values) as never, options as never);
  }) as typeof i18n._;
  return i18n;
}

const VALUE = /\{(\w+)\}/g;

/** Lingui's compiled form of a message whose only ICU syntax is plain values: "Hi {name}" → ["Hi ", ["name"]]. */
export function compilePlainValues(message: string): string | (string | [string])[] {
  if (!message.includes('{')) return message;
  const out: (string | [string])[] = [];
  let last = 0;
  for (const m of message.matchAll(VALUE)) {
    if (m.index > last) out.push(message.slice(last, m.index));
    out.push([m[1]]);
    last = m.index + m[0].length;
  }
  if (last < message.length) out.push(message.slice(last));
  return out;
}

export function translator(i18n: I18n): Translate {
  return (id, values) => i18n._(id, values as never);
}
