import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

/** Empties the catalogue and site tables (children first), for the seed CLI's --reset. */
export async function resetCatalogue(db: Kysely<Database>): Promise<void> {
  const tables = [
    'coupon_usages',
    'coupons',
    'global_discounts',
    'stocks',
    'bundle_items',
    'sku_attribute_values',
    'skus',
    'product_categories',
    'product_images',
    'products',
    'attributes',
    'branches',
    'currencies',
    'cms_content',
    'kvps',
  ] as const;
  await db.transaction().execute(async (trx) => {
    for (const t of tables) await trx.deleteFrom(t).execute();
    // Categories reference their parents: delete leaves upwards.
    for (;;) {
      const res = await trx
        .deleteFrom('categories')
        .where('id', 'not in', trx.selectFrom('categories').select('parent_id').where('parent_id', 'is not', null) as any)
        .executeTakeFirst();
      if (Number(res.numDeletedRows) === 0) break;
    }
  });
}
