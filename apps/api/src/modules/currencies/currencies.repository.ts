import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * One page of the display currencies shoppers may choose, in their shop order, with one
 * extra row to tell if more follow. A currency staff disabled is left out (docs/decisions/0037).
 */
export function currencyPage(db: Kysely<Database>, offset: number, limit: number) {
  return db
    .selectFrom('currencies')
    .select(['code', 'country', 'rate', 'num_code', 'image_url'])
    .where('enabled', '=', 1)
    .orderBy('sort_order')
    .orderBy('code')
    .limit(limit)
    .offset(offset)
    .execute();
}
