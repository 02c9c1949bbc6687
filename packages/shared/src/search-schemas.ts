import { MAX_PAGE_SIZE } from './constants.ts';
import { z } from './zod.ts';

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

/** A page of results (TPage of search.ts): nextPageToken is '' on the last page (spec §7). */
export function ZPage<T extends z.ZodType>(item: T) {
  return z.object({
    list: z.array(item),
    nextPageToken: z.string(),
    count: z.number().int().optional(),
  });
}
