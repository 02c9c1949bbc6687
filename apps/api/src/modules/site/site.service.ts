import type { Locale, TContentItem, TSearchRequest } from '@storefront/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { pagedSearch, textField } from '../../lib/paging.ts';
import { contentQuery, listKvps } from './site.repository.ts';

export async function siteSettings(db: Kysely<Database>, keys?: string[]) {
  const rows = await listKvps(db, keys);
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

export type ContentItem = TContentItem;

/** An item in the page's language: its Bangla title and body where entered (docs/decisions/0038). */
export function toContentItem(
  r: {
    id: number;
    type: string;
    title: string;
    slug: string;
    body: string;
    title_bn?: string | null;
    body_bn?: string | null;
    fields: string;
    sort_order: number;
    updated_at: string;
  },
  lang: Locale = 'en',
): ContentItem {
  let fields: Record<string, unknown> = {};
  try {
    fields = JSON.parse(r.fields);
  } catch {
    // A hand-edited row with broken JSON shows without its extras rather than failing.
  }
  const bn = lang === 'bn';
  return {
    id: r.id,
    type: r.type,
    title: (bn && r.title_bn) || r.title,
    slug: r.slug,
    body: (bn && r.body_bn) || r.body,
    fields,
    sortOrder: r.sort_order,
    updatedAt: r.updated_at,
  };
}

/** Content search of spec §7: filter by type/slug/title, sort by title or order. */
export async function searchContent(db: Kysely<Database>, req: TSearchRequest, lang: Locale = 'en') {
  const page = await pagedSearch(contentQuery(db), req, {
    filter: { type: textField('type'), slug: textField('slug'), title: textField('title') },
    sort: { title: 'title', sortOrder: 'sort_order', updatedAt: 'updated_at' },
    tieBreaker: 'id',
  });
  return { ...page, list: page.list.map((r) => toContentItem(r, lang)) };
}
