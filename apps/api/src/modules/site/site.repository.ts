import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * What the storefront may serve of cms_content at `now`: items switched on and inside their
 * schedule (docs/decisions/0035). ISO UTC text compares as time on both databases.
 */
export function liveContent(now = new Date().toISOString()) {
  return (eb: ExpressionBuilder<Database, 'cms_content'>) =>
    eb.and([
      eb('cms_content.active', '=', 1),
      eb.or([eb('cms_content.shown_from', 'is', null), eb('cms_content.shown_from', '<=', now)]),
      eb.or([eb('cms_content.shown_until', 'is', null), eb('cms_content.shown_until', '>', now)]),
    ]);
}

export function listKvps(db: Kysely<Database>, keys?: string[]) {
  let q = db.selectFrom('kvps').select(['key', 'value']).orderBy('key');
  if (keys?.length) q = q.where('key', 'in', keys);
  return q.execute();
}

export function contentQuery(db: Kysely<Database>) {
  return db
    .selectFrom('cms_content')
    .select(['id', 'type', 'title', 'title_bn', 'slug', 'body', 'body_bn', 'fields', 'sort_order', 'updated_at'])
    .where(liveContent());
}
