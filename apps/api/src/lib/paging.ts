// biome-ignore-all lint/suspicious/noExplicitAny: Kysely cannot type a column chosen at run time from the field table; the field table itself is typed.
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
  /** API field name → the column it filters and what that column holds. */
  filter: Record<string, FilterField>;
  /** API field name → SQL column reference usable in the query. */
  sort: Record<string, string>;
  /** Appended to every ORDER BY so that pages never overlap. */
  tieBreaker: string;
}

export type MatchType = TSearchRequest['textParams'][number]['matchType'];
type FilterValue = TSearchRequest['textParams'][number]['value'];

/**
 * What a filter column holds decides which values and match types it takes, and what is
 * bound: the drivers do not convert for us (better-sqlite3 cannot bind a boolean;
 * PostgreSQL has no lower(integer) for a text match on a number), and the two databases
 * must answer the same request alike (docs/decisions/0025-typed-search-filters.md).
 */
export type FilterType = 'text' | 'integer' | 'boolean';

export interface FilterField {
  /** SQL column reference usable in the query. */
  column: string;
  type: FilterType;
  /** The match types the field takes. */
  match: readonly MatchType[];
}

const TEXT_MATCHES: readonly MatchType[] = ['EXACT', 'IN', 'CONTAINS', 'STARTS_WITH'];

/** A text column: every match type; a number is taken as its text ("5" and 5 alike). */
export const textField = (column: string, match: readonly MatchType[] = TEXT_MATCHES): FilterField => ({ column, type: 'text', match });
/** An integer column (PostgreSQL integer: 32 bits): EXACT or IN; "5" and 5 alike. */
export const integerField = (column: string, match: readonly MatchType[] = ['EXACT', 'IN']): FilterField => ({ column, type: 'integer', match });
/** A yes/no column, stored 0 or 1 on both databases: EXACT with true/false, "true"/"false", 1/0. */
export const booleanField = (column: string): FilterField => ({ column, type: 'boolean', match: ['EXACT'] });

const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;

/** Refusal of one filter, in the one error shape, naming the field (as "field: why"). */
function refuse(field: string, why: string) {
  return badRequest(`The filter on ${field} is not valid: ${why}`, { textParams: `${field}: ${why}` });
}

function asText(field: string, v: FilterValue): string {
  if (typeof v === 'number') return String(v);
  if (typeof v !== 'string') throw refuse(field, 'must be text');
  // PostgreSQL cannot hold U+0000 in text (a data exception) where SQLite compares it: refused on both.
  if (v.includes('\u0000')) throw refuse(field, 'must not contain a NUL character');
  return v;
}

function asInteger(field: string, v: FilterValue): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*[+-]?\d{1,12}\s*$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n)) throw refuse(field, 'must be a whole number');
  if (n < INT_MIN || n > INT_MAX) throw refuse(field, 'is out of range');
  return n + 0; // -0 binds as 0
}

function asBoolean(field: string, v: FilterValue): 0 | 1 {
  if (v === true || v === 1 || v === 'true' || v === '1') return 1;
  if (v === false || v === 0 || v === 'false' || v === '0') return 0;
  throw refuse(field, 'must be true or false');
}

/** The value as the column's type, ready to bind (a list for IN). */
function bindable(name: string, f: FilterField, matchType: MatchType, value: FilterValue): string | number | (string | number)[] {
  if (matchType === 'IN') {
    const parts = (typeof value === 'string' ? value.split(',') : [value]).map((s) => (typeof s === 'string' ? s.trim() : s)).filter((s) => s !== '');
    if (!parts.length) throw refuse(name, 'an IN filter needs at least one value');
    return parts.map((p) => (f.type === 'integer' ? asInteger(name, p) : f.type === 'boolean' ? asBoolean(name, p) : asText(name, p)));
  }
  if (f.type === 'integer') return asInteger(name, value);
  if (f.type === 'boolean') return asBoolean(name, value);
  return asText(name, value);
}

export async function pagedSearch<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  req: TSearchRequest,
  fields: SearchFields,
): Promise<TPage<O>> {
  let q = query;
  for (const p of req.textParams) {
    // Own keys only: a field named toString or constructor is unknown, not Object's.
    const f = Object.hasOwn(fields.filter, p.field) ? fields.filter[p.field] : undefined;
    if (!f)
      throw badRequest(`Unknown filter field: ${p.field}`, { textParams: `unknown field ${p.field}; filter fields: ${Object.keys(fields.filter).join(', ')}` });
    if (!f.match.includes(p.matchType)) throw refuse(p.field, `matchType ${p.matchType} is not supported here; use ${f.match.join(' or ')}`);
    const value = bindable(p.field, f, p.matchType, p.value);
    const ref = sql.ref(f.column);
    if (p.matchType === 'EXACT') q = q.where(ref as any, '=', value as any);
    else if (p.matchType === 'IN') q = q.where(ref as any, 'in', value as any);
    else {
      // Text columns only (the match lists say so): lower() of a number does not exist in PostgreSQL.
      const escaped = String(value)
        .toLowerCase()
        .replace(/[\\%_]/g, (c) => `\\${c}`);
      const pattern = p.matchType === 'STARTS_WITH' ? `${escaped}%` : `%${escaped}%`;
      q = q.where(sql`lower(${ref})`, 'like', sql`${pattern} escape '\\'`) as typeof q;
    }
  }
  const filtered = q;
  for (const s of req.sortParams) {
    const col = Object.hasOwn(fields.sort, s.field) ? fields.sort[s.field] : undefined;
    if (!col)
      throw badRequest(`Unknown sort field: ${s.field}`, { sortParams: `unknown field ${s.field}; sort fields: ${Object.keys(fields.sort).join(', ')}` });
    q = q.orderBy(sql.ref(col) as any, s.type === 'DESC' ? 'desc' : 'asc');
  }
  q = q.orderBy(sql.ref(fields.tieBreaker) as any, 'asc');

  const offset = (req.page - 1) * req.size;
  const rows = await q
    .limit(req.size + 1)
    .offset(offset)
    .execute();
  const hasMore = rows.length > req.size;
  const list = hasMore ? rows.slice(0, req.size) : rows;
  const page: TPage<O> = { list, nextPageToken: hasMore ? String(req.page + 1) : '' };
  if (req.fetchCount) {
    const counted = await (filtered as SelectQueryBuilder<DB, TB, O>).clearSelect().clearOrderBy().select(sql<number>`count(*)`.as('n')).executeTakeFirst();
    page.count = Number((counted as { n?: number } | undefined)?.n ?? 0);
  }
  return page;
}
