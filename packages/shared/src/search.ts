import { MODEL_CODE_PREFIXES } from './constants.ts';

// The request schemas of the search body are in search-schemas.ts (decision 0030).

/** A page of results: nextPageToken is '' on the last page (spec §7). */
export type TPage<T> = { list: T[]; nextPageToken: string; count?: number };

/** spec §5: the search term is trimmed and upper-cased. */
export function normalizeSearchTerm(term: string): string {
  return term.trim().toUpperCase();
}

/** spec §5: a term starting with AFL- or DFL- is a model number. */
export function isModelCode(term: string): boolean {
  const t = normalizeSearchTerm(term);
  return MODEL_CODE_PREFIXES.some((p) => t.startsWith(p));
}

/** Bangla digits typed on a Bangla keyboard ('২০৪০') read as the digits of a code. */
function latinDigits(text: string): string {
  return text.replace(/[\u09e6-\u09ef]/g, (d) => String(d.charCodeAt(0) - 0x09e6));
}

/**
 * A model code as its letters and digits only, upper case: shoppers type DFL-2040 as
 * `dfl 2040`, `DFL2040`, `dfl-2040` or `Dfl_2040`, and all of them are 'DFL2040'. The read
 * side stores each product's code in this form, so any of them finds it.
 */
export function modelKey(text: string): string {
  return latinDigits(text.normalize('NFKC'))
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '');
}

/**
 * Whether a term, however it is spaced or punctuated, is a code of the AFL or DFL lines
 * (spec §5 names them by their prefixes): its letters and digits are a prefix and a number,
 * with nothing else in the term. `isModelCode` stays the spec's exact rule for the
 * shop's `model` field.
 */
export function looksLikeModelCode(term: string): boolean {
  const t = normalizeSearchTerm(term);
  // Only letters, digits, spaces and the joiners shoppers use in codes.
  if (!/^[\p{L}\p{N}\s\-_./]+$/u.test(t) || t.length > 64) return false;
  const key = modelKey(t);
  return MODEL_CODE_PREFIXES.some((p) => {
    const prefix = modelKey(p);
    return key.startsWith(prefix) && /^[0-9]+$/.test(key.slice(prefix.length));
  });
}
