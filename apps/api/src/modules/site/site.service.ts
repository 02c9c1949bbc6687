import type { TContentItem, TSearchRequest } from '@storefront/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { pagedSearch, textField } from '../../lib/paging.ts';
import { contentQuery, listKvps } from './site.repository.ts';

export async function siteSettings(db: Kysely<Database>, keys?: string[]) {
  const rows = await listKvps(db, keys);
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

export type ContentItem = TContentItem;

export function toContentItem(r: {
  id: number;
  type: string;
  title: string;
  slug: string;
  body: string;
  fields: string;
  sort_order: number;
  updated_at: string;
}): ContentItem {
  let fields: Record<string, unknown> = {};
  try {
    fields = JSON.parse(r.fields);
  } catch {
    // A hand-edited row with broken JSON shows without its extras rather than failing.
  }
  return { id: r.id, type: r.type, title: r.title, slug: r.slug, body: r.body, fields, sortOrder: r.sort_order, updatedAt: r.updated_at };
}

/** Content search of spec §7: filter by type/slug/title, sort by title or order. */
export async function searchContent(db: Kysely<Database>, req: TSearchRequest) {
  const page = await pagedSearch(contentQuery(db), req, {
    filter: { type: textField('type'), slug: textField('slug'), title: textField('title') },
    sort: { title: 'title', sortOrder: 'sort_order', updatedAt: 'updated_at' },
    tieBreaker: 'id',
  });
  return { ...page, list: page.list.map(toContentItem) };
}
