import { compileMessage } from '@lingui/message-utils/compileMessage';
import { BN } from './catalog.ts';
import type { Locale } from './locales.ts';
import { type Message, rewritePlurals } from './plural.ts';

// Catalogues compiled ahead of use (at build time for the browser, once at start-up on the
// server), so that no page ships or runs the ICU parser (docs/decisions/0038).

export type CompiledCatalog = Record<string, ReturnType<typeof compileMessage>>;

/**
 * An English id needs compiling only when it has a plural or a choice: plain values ({name})
 * are filled in by createI18n's own small compiler (translator.ts), and <0>…</0> tags are
 * text to Lingui's <Trans>. So the English catalogue that every page loads is a few entries.
 */
function needsCompiling(message: string): boolean {
  return /\{\s*\w+\s*,/.test(message);
}

/** Lingui's compiled form, with plurals that need no Intl (plural.ts). */
const compile = (message: string) => rewritePlurals(compileMessage(message) as Message) as ReturnType<typeof compileMessage>;

/**
 * The compiled catalogue of a language. English holds only the ids with a plural or a
 * choice; Bangla holds every id it translates.
 */
export function compileCatalog(locale: Locale): CompiledCatalog {
  const out: CompiledCatalog = {};
  if (locale === 'en') {
    for (const id of Object.keys(BN)) if (needsCompiling(id)) out[id] = compile(id);
  } else {
    for (const [id, message] of Object.entries(BN)) out[id] = compile(message);
  }
  return out;
}
