import type { TSearchRequest } from '@storefront/shared';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { integerField, pagedSearch, textField } from '../../lib/paging.ts';

type Q = Kysely<Database> | Transaction<Database>;

// All SQL of the wishlist. Every query names the customer.

function itemsQuery(db: Q, customerId: number) {
  return db
    .selectFrom('wishlist_items as wi')
    .innerJoin('products as p', 'p.id', 'wi.product_id')
    .innerJoin('skus as s', 's.code', 'wi.sku_code')
    .innerJoin('customers as c', 'c.id', 'wi.customer_id')
    .select([
      'c.user_id as userId',
      'wi.id as id',
      'wi.wishlist_id as wishlistId',
      'wi.product_id as itemId',
      'wi.sku_code as skuCode',
      'wi.created_at as dateCreated',
      'p.title as title',
      'p.slug as slug',
      'p.primary_category_id as categoryId',
      's.sales_price as salesPrice',
      's.discounted_sales_price as discountedSalesPrice',
    ])
    .select((eb) =>
      eb
        .selectFrom('product_images as pi')
        .select('pi.url')
        .whereRef('pi.product_id', '=', 'p.id')
        .orderBy('pi.sort_order')
        .orderBy('pi.id')
        .limit(1)
        .as('image'),
    )
    .where('wi.customer_id', '=', customerId);
}

export function searchItems(db: Q, customerId: number, req: TSearchRequest) {
  return pagedSearch(itemsQuery(db, customerId), req, {
    filter: { itemId: integerField('wi.product_id'), skuCode: textField('wi.sku_code') },
    sort: { dateCreated: 'wi.created_at', title: 'p.title' },
    tieBreaker: 'wi.id',
  });
}

export function findItem(db: Q, customerId: number, id: number) {
  return itemsQuery(db, customerId).where('wi.id', '=', id).executeTakeFirst();
}

export function skuOfProduct(db: Q, productId: number, skuCode: string) {
  return db.selectFrom('skus').select('id').where('product_id', '=', productId).where('code', '=', skuCode).executeTakeFirst();
}

/** The customer's wishlist id, creating the wishlist when it does not exist yet. */
export async function ensureWishlist(db: Q, customerId: number, now: string): Promise<number> {
  await db
    .insertInto('wishlists')
    .values({ customer_id: customerId, created_at: now })
    .onConflict((oc) => oc.column('customer_id').doNothing())
    .execute();
  const row = await db.selectFrom('wishlists').select('id').where('customer_id', '=', customerId).executeTakeFirstOrThrow();
  return row.id;
}

export function findEntry(db: Q, customerId: number, productId: number, skuCode: string) {
  return db
    .selectFrom('wishlist_items')
    .select('id')
    .where('customer_id', '=', customerId)
    .where('product_id', '=', productId)
    .where('sku_code', '=', skuCode)
    .executeTakeFirst();
}

/** Adds the entry unless it is there already (two clicks at once add it once). */
export function insertEntry(db: Q, e: { wishlistId: number; customerId: number; productId: number; skuCode: string; now: string }) {
  return db
    .insertInto('wishlist_items')
    .values({ wishlist_id: e.wishlistId, customer_id: e.customerId, product_id: e.productId, sku_code: e.skuCode, created_at: e.now })
    .onConflict((oc) => oc.columns(['wishlist_id', 'product_id', 'sku_code']).doNothing())
    .execute();
}

export async function deleteEntry(db: Q, customerId: number, where: { id: number } | { productId: number; skuCode: string }): Promise<boolean> {
  let q = db.deleteFrom('wishlist_items').where('customer_id', '=', customerId);
  q = 'id' in where ? q.where('id', '=', where.id) : q.where('product_id', '=', where.productId).where('sku_code', '=', where.skuCode);
  const r = await q.executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function countItems(db: Q, customerId: number): Promise<number> {
  const r = await db
    .selectFrom('wishlist_items')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('customer_id', '=', customerId)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}
