import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export function listKvps(db: Kysely<Database>, keys?: string[]) {
  let q = db.selectFrom('kvps').select(['key', 'value']).orderBy('key');
  if (keys?.length) q = q.where('key', 'in', keys);
  return q.execute();
}

export function contentQuery(db: Kysely<Database>) {
  return db.selectFrom('cms_content').select(['id', 'type', 'title', 'slug', 'body', 'fields', 'sort_order', 'updated_at']);
}
