import type { TGlobalDiscount, TSearchRequest } from '@storefront/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { booleanField, integerField, pagedSearch, textField } from '../../lib/paging.ts';
import * as repo from './pricing.repository.ts';

type Db = Kysely<Database>;

type DiscountRow = { id: number; title: string; type: string; discount_type: string; value: number; starts_at: string | null; ends_at: string | null };

/** Every category and all its descendants, for each listed category (also the back office's discount preview). */
export function descendantsOf(parents: { id: number; parent_id: number | null }[]) {
  const children = new Map<number, number[]>();
  for (const c of parents) {
    if (c.parent_id == null) continue;
    const list = children.get(c.parent_id) ?? [];
    list.push(c.id);
    children.set(c.parent_id, list);
  }
  return (roots: number[]): number[] => {
    const seen = new Set<number>();
    const stack = [...roots];
    while (stack.length) {
      const id = stack.pop()!;
      if (seen.has(id)) continue;
      seen.add(id);
      stack.push(...(children.get(id) ?? []));
    }
    return [...seen].sort((a, b) => a - b);
  };
}

/** Rows of global_discounts to the API shape of spec §3, with categories, items and reach. */
async function toDiscounts(db: Db, rows: DiscountRow[], validIds: (id: number) => boolean): Promise<TGlobalDiscount[]> {
  const ids = rows.map((r) => r.id);
  const [cats, items, parents] = await Promise.all([
    repo.discountCategories(db, ids),
    repo.discountItems(db, ids),
    rows.some((r) => r.type === 'FIXED_CATEGORY') ? repo.categoryParents(db) : Promise.resolve([]),
  ]);
  const reach = descendantsOf(parents);
  return rows.map((r) => {
    const categories = cats.filter((c) => c.discount_id === r.id).map((c) => ({ categoryId: c.category_id }));
    return {
      id: r.id,
      title: r.title,
      valid: validIds(r.id),
      type: r.type as TGlobalDiscount['type'],
      discountType: r.discount_type as TGlobalDiscount['discountType'],
      value: r.value,
      categories,
      coveredCategoryIds: r.type === 'FIXED_CATEGORY' ? reach(categories.map((c) => c.categoryId)) : [],
      items: items.filter((i) => i.discount_id === r.id).map((i) => ({ itemId: i.product_id, skuCode: i.sku_code })),
      startsAt: r.starts_at,
      endsAt: r.ends_at,
    };
  });
}

/** The discounts in force now: what the quote and the storefront's display apply. */
export async function validDiscounts(db: Db, now = new Date()): Promise<TGlobalDiscount[]> {
  const rows = await repo.validDiscounts(db, now.toISOString());
  return toDiscounts(db, rows, () => true);
}

/**
 * POST /api/global/discounts/search (spec §7): the paged search over every discount,
 * valid or not. `valid` is computed at the time of the call and may be filtered on.
 */
export async function searchDiscounts(db: Db, req: TSearchRequest, now = new Date()) {
  const page = await pagedSearch(repo.discountSearchQuery(db, now.toISOString()), req, {
    filter: {
      id: integerField('id'),
      type: textField('type'),
      discountType: textField('discount_type'),
      valid: booleanField('valid'),
      title: textField('title'),
    },
    sort: { id: 'id', title: 'title', value: 'value', startsAt: 'starts_at', endsAt: 'ends_at' },
    tieBreaker: 'id',
  });
  const validIds = new Set(page.list.filter((r) => Number(r.valid) === 1).map((r) => r.id));
  return { ...page, list: await toDiscounts(db, page.list, (id) => validIds.has(id)) };
}
