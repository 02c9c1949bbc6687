import { MAX_WISHLIST_ITEMS, type TPage, type TSearchRequest, type TWishlistItem, type TWishlistToggleResult } from '@storefront/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { ApiError, notFound } from '../../lib/errors.ts';
import * as repo from './wishlists.repository.ts';

type Row = NonNullable<Awaited<ReturnType<typeof repo.findItem>>>;

const toItem = (r: Row): TWishlistItem => ({
  id: r.id,
  wishlistId: r.wishlistId,
  userId: r.userId,
  itemId: r.itemId,
  skuCode: r.skuCode,
  dateCreated: r.dateCreated,
  title: r.title,
  slug: r.slug,
  categoryId: r.categoryId,
  image: r.image ?? null,
  salesPrice: Number(r.salesPrice),
  discountedSalesPrice: r.discountedSalesPrice == null ? null : Number(r.discountedSalesPrice),
});

/**
 * Adds, removes or (as the earlier client did, when no action is given) toggles one sku of
 * a product in the customer's wishlist. Adding twice or removing twice changes nothing.
 */
export async function setWishlistItem(
  db: Kysely<Database>,
  customerId: number,
  req: { itemId: number; skuCode: string; action: 'add' | 'remove' | 'toggle' },
): Promise<TWishlistToggleResult> {
  const outcome = await db.transaction().execute(async (trx) => {
    if (!(await repo.skuOfProduct(trx, req.itemId, req.skuCode))) throw notFound('The item');
    const existing = await repo.findEntry(trx, customerId, req.itemId, req.skuCode);
    const want = req.action === 'toggle' ? !existing : req.action === 'add';
    if (want && !existing) {
      if ((await repo.countItems(trx, customerId)) >= MAX_WISHLIST_ITEMS) {
        throw new ApiError('wishlist_full', `A wishlist holds at most ${MAX_WISHLIST_ITEMS} items. Please remove some first.`, undefined, 409);
      }
      const now = new Date().toISOString();
      const wishlistId = await repo.ensureWishlist(trx, customerId, now);
      await repo.insertEntry(trx, { wishlistId, customerId: customerId, productId: req.itemId, skuCode: req.skuCode, now });
    } else if (!want && existing) {
      await repo.deleteEntry(trx, customerId, { productId: req.itemId, skuCode: req.skuCode });
    }
    return { want, count: await repo.countItems(trx, customerId) };
  });
  let item: TWishlistItem | null = null;
  if (outcome.want) {
    const entry = await repo.findEntry(db, customerId, req.itemId, req.skuCode);
    const row = entry && (await repo.findItem(db, customerId, entry.id));
    item = row ? toItem(row) : null;
  }
  return { inWishlist: outcome.want, item, count: outcome.count };
}

export async function removeWishlistEntry(db: Kysely<Database>, customerId: number, id: number): Promise<{ count: number }> {
  if (!(await repo.deleteEntry(db, customerId, { id }))) throw notFound('The wishlist item');
  return { count: await repo.countItems(db, customerId) };
}

export async function searchWishlist(db: Kysely<Database>, customerId: number, req: TSearchRequest): Promise<TPage<TWishlistItem>> {
  // spec §7: newest first by dateCreated unless the client sorts otherwise.
  const sorted = req.sortParams.length ? req : { ...req, sortParams: [{ field: 'dateCreated', type: 'DESC' as const }] };
  const page = await repo.searchItems(db, customerId, sorted);
  return { ...page, list: page.list.map((r) => toItem(r as Row)) };
}
