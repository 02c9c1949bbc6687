import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** One page of display currencies in their shop order, with one extra row to tell if more follow. */
export function currencyPage(db: Kysely<Database>, offset: number, limit: number) {
  return db
    .selectFrom('currencies')
    .select(['code', 'country', 'rate', 'num_code', 'image_url'])
    .orderBy('sort_order')
    .orderBy('code')
    .limit(limit)
    .offset(offset)
    .execute();
}
