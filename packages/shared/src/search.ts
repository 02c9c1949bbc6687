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
