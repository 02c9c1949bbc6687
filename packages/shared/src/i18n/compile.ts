import { compileMessage } from '@lingui/message-utils/compileMessage';
import { BN } from './catalog.ts';
import type { Locale } from './locales.ts';

// Catalogues compiled ahead of use (at build time for the browser, once at start-up on the
// server), so that no page ships or runs the ICU parser (docs/decisions/0038).

export type CompiledCatalog = Record<string, ReturnType<typeof compileMessage>>;

/** A message needs compiling only when it has ICU syntax: a value, a plural or a tag. */
function needsCompiling(message: string): boolean {
  return /[{<]/.test(message);
}

/**
 * The compiled catalogue of a language. English holds only the ids that carry ICU syntax
 * (a plain English id is shown as it is); Bangla holds every id it translates.
 */
export function compileCatalog(locale: Locale): CompiledCatalog {
  const out: CompiledCatalog = {};
  if (locale === 'en') {
    for (const id of Object.keys(BN)) if (needsCompiling(id)) out[id] = compileMessage(id);
  } else {
    for (const [id, message] of Object.entries(BN)) out[id] = compileMessage(message);
  }
  return out;
}
