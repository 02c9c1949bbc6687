import type { TPage, TSearchRequest } from '@storefront/shared';
import { type SelectQueryBuilder, sql } from 'kysely';
import { badRequest } from './errors.ts';

/**
 * The spec's paged search (§3, §7) as one helper for every search endpoint:
 * textParams become filters on whitelisted fields, sortParams an ORDER BY on
 * whitelisted fields, and the page is read with one extra row to know whether
 * another page follows (nextPageToken '' at the end).
 */
export interface SearchFields {
  /** API field name → SQL column reference usable in the query. */
  filter: Record<string, string>;
  sort: Record<string, string>;
  /** Appended to every ORDER BY so that pages never overlap. */
  tieBreaker: string;
}

export async function pagedSearch<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  req: TSearchRequest,
  fields: SearchFields,
): Promise<TPage<O>> {
  let q = query;
  for (const p of req.textParams) {
    // Own keys only: a field named toString or constructor is unknown, not Object's.
    const col = Object.hasOwn(fields.filter, p.field) ? fields.filter[p.field] : undefined;
    if (!col) throw badRequest(`Unknown filter field: ${p.field}`, { textParams: `unknown field ${p.field}` });
    const ref = sql.ref(col);
    if (p.matchType === 'EXACT') q = q.where(ref as any, '=', p.value as any);
    else if (p.matchType === 'IN') {
      const values = String(p.value).split(',').map((s) => s.trim()).filter(Boolean);
      if (!values.length) throw badRequest('An IN filter needs at least one value');
      q = q.where(ref as any, 'in', values as any);
    } else {
      const escaped = String(p.value).toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
      const pattern = p.matchType === 'STARTS_WITH' ? `${escaped}%` : `%${escaped}%`;
      q = q.where(sql`lower(${ref})`, 'like', sql`${pattern} escape '\\'`) as typeof q;
    }
  }
  const filtered = q;
  for (const s of req.sortParams) {
    const col = Object.hasOwn(fields.sort, s.field) ? fields.sort[s.field] : undefined;
    if (!col) throw badRequest(`Unknown sort field: ${s.field}`, { sortParams: `unknown field ${s.field}` });
    q = q.orderBy(sql.ref(col) as any, s.type === 'DESC' ? 'desc' : 'asc');
  }
  q = q.orderBy(sql.ref(fields.tieBreaker) as any, 'asc');

  const offset = (req.page - 1) * req.size;
  const rows = await q.limit(req.size + 1).offset(offset).execute();
  const hasMore = rows.length > req.size;
  const list = hasMore ? rows.slice(0, req.size) : rows;
  const page: TPage<O> = { list, nextPageToken: hasMore ? String(req.page + 1) : '' };
  if (req.fetchCount) {
    const counted = await (filtered as SelectQueryBuilder<DB, TB, O>)
      .clearSelect()
      .clearOrderBy()
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirst();
    page.count = Number((counted as { n?: number } | undefined)?.n ?? 0);
  }
  return page;
}
