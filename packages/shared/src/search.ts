import { z } from './zod.ts';
import { MAX_PAGE_SIZE, MODEL_CODE_PREFIXES } from './constants.ts';

// The paged search body of spec §3, shared by every search endpoint.

export const ZTextParam = z.object({
  field: z.string().min(1).max(64),
  value: z.union([z.string().max(500), z.number(), z.boolean()]),
  matchType: z.enum(['EXACT', 'CONTAINS', 'STARTS_WITH', 'IN']).default('EXACT'),
});
export const ZSortParam = z.object({
  field: z.string().min(1).max(64),
  type: z
    .enum(['ASC', 'DESC', 'asc', 'desc'])
    .default('ASC')
    .transform((t) => t.toUpperCase() as 'ASC' | 'DESC'),
});

export const ZSearchRequest = z.object({
  page: z.number().int().min(1).max(100_000).default(1),
  size: z.number().int().min(1).max(MAX_PAGE_SIZE).default(20),
  fetchCount: z.boolean().default(false),
  textParams: z.array(ZTextParam).max(20).default([]),
  sortParams: z.array(ZSortParam).max(5).default([]),
  nestedParams: z.array(ZTextParam).max(20).default([]),
});
export type TSearchRequest = z.infer<typeof ZSearchRequest>;
export type TSearchRequestInput = z.input<typeof ZSearchRequest>;

/** A page of results: nextPageToken is '' on the last page (spec §7). */
export function ZPage<T extends z.ZodType>(item: T) {
  return z.object({
    list: z.array(item),
    nextPageToken: z.string(),
    count: z.number().int().optional(),
  });
}
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
