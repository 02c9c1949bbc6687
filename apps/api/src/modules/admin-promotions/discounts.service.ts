import {
  priceSku,
  promotionState,
  type TAdminDiscount,
  type TAdminDiscountRow,
  type TDiscountInput,
  type TDiscountListQuery,
  type TDiscountPreview,
  type TDiscountPreviewInput,
  type TDiscountSwitch,
  type TGlobalDiscount,
  ZDiscountInput,
  ZDiscountListQuery,
  ZDiscountPreviewInput,
} from '@storefront/shared';
import type { Kysely, Selectable } from 'kysely';
import type { Database, GlobalDiscountsTable } from '../../db/schema.ts';
import { conflict, fieldError, notFound } from '../../lib/errors.ts';
import { bumpReadSideVersion } from '../catalogue/search-index.ts';
import * as pricingRepo from '../pricing/pricing.repository.ts';
import { descendantsOf, validDiscounts } from '../pricing/pricing.service.ts';
import { type Actor, recordAudit } from '../staff/audit.ts';
import * as repo from './promotions.repository.ts';

// Global discounts in the back office (docs/decisions/0034). A discount's prices are baked
// into the catalogue's listings (docs/decisions/0006), so every write ends by having the
// read side catch up (`readSideChanged`, given by the route: rebuild the index when the
// discounts in force changed, then tell every process) before it answers: the next
// listing, product page and cart quote show the change.

type Row = Selectable<GlobalDiscountsTable>;
type Parsed = ReturnType<typeof ZDiscountInput.parse>;
const STALE = 'Someone changed this discount meanwhile: reload it and make your change again';

function toRow(r: Row, targets: number, now: Date): TAdminDiscountRow {
  const active = Number(r.active) === 1;
  return {
    id: r.id,
    title: r.title,
    type: r.type as TAdminDiscountRow['type'],
    discountType: r.discount_type as TAdminDiscountRow['discountType'],
    value: r.value,
    active,
    state: promotionState({ active, startsAt: r.starts_at, endsAt: r.ends_at }, now),
    startsAt: r.starts_at,
    endsAt: r.ends_at,
    targets,
    version: Number(r.version),
    updatedAt: r.updated_at ?? r.created_at,
  };
}

/** Stored instants are UTC ISO text, so the storefront's text comparisons order them right. */
const instant = (v: string | null) => (v == null ? null : new Date(v).toISOString());

const snapshot = (d: Parsed) => ({
  title: d.title,
  type: d.type,
  discountType: d.discountType,
  value: d.value,
  categoryIds: d.type === 'FIXED_CATEGORY' ? d.categoryIds : [],
  items: d.type === 'FIXED_PRODUCT' ? d.items.map((i) => [i.productId, i.skuCode]) : [],
  startsAt: instant(d.startsAt),
  endsAt: instant(d.endsAt),
  active: d.active,
});

export class AdminDiscountsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly readSideChanged: () => Promise<void>,
  ) {}

  async list(query: TDiscountListQuery, now = new Date()): Promise<{ items: TAdminDiscountRow[]; total: number; page: number; size: number }> {
    const { page, size, q, state } = ZDiscountListQuery.parse(query);
    const base = repo.discountListQuery(this.db, { q, state, now: now.toISOString() });
    const [total, rows] = await Promise.all([repo.countOf(base), repo.discountRows(base, page, size)]);
    return {
      items: rows.map((r) => toRow(r, r.type === 'FIXED_CATEGORY' ? Number(r.category_count ?? 0) : Number(r.item_count ?? 0), now)),
      total,
      page,
      size,
    };
  }

  async get(id: number, db: Kysely<Database> = this.db, now = new Date()): Promise<TAdminDiscount> {
    const r = await repo.discountById(db, id);
    if (!r) throw notFound('The discount');
    const [categories, items] = await repo.discountTargets(db, id);
    return {
      ...toRow(r, r.type === 'FIXED_CATEGORY' ? categories.length : items.length, now),
      categories: categories.map((c) => ({ id: c.id, name: c.name })),
      items: items.map((i) => ({ productId: i.product_id, title: i.title, skuCode: i.sku_code })),
    };
  }

  /** Unknown categories, products or skus are the form's mistakes, each on its field. */
  private async checkTargets(db: Kysely<Database>, d: Parsed): Promise<{ categoryIds: number[]; items: { productId: number; skuCode: string | null }[] }> {
    if (d.type === 'FIXED_CATEGORY') {
      const ids = [...new Set(d.categoryIds)];
      const found = new Set((await repo.existingCategoryIds(db, ids)).map((c) => c.id));
      const missing = ids.filter((id) => !found.has(id));
      if (missing.length) throw fieldError('categoryIds', `No such category: ${missing.join(', ')}`);
      return { categoryIds: ids, items: [] };
    }
    const rows = await repo.productsWithSkus(db, [...new Set(d.items.map((i) => i.productId))]);
    const skus = new Map<number, Set<string>>();
    for (const r of rows) {
      const set = skus.get(r.id) ?? new Set<string>();
      if (r.code) set.add(r.code);
      skus.set(r.id, set);
    }
    const seen = new Set<string>();
    const items: { productId: number; skuCode: string | null }[] = [];
    for (const i of d.items) {
      const codes = skus.get(i.productId);
      if (!codes) throw fieldError('items', `No such product: ${i.productId}`);
      const skuCode = i.skuCode ? i.skuCode.toUpperCase() : null;
      const match = skuCode ? [...codes].find((c) => c.toUpperCase() === skuCode) : null;
      if (skuCode && !match) throw fieldError('items', `Product ${i.productId} has no sku ${i.skuCode}`);
      const key = `${i.productId}:${match ?? ''}`;
      if (seen.has(key)) continue;
      seen.add(key);
      items.push({ productId: i.productId, skuCode: match ?? null });
    }
    return { categoryIds: [], items };
  }

  async create(input: TDiscountInput, actor: Actor): Promise<TAdminDiscount> {
    const d = ZDiscountInput.parse(input);
    const out = await this.db.transaction().execute(async (trx) => {
      const targets = await this.checkTargets(trx, d);
      const now = new Date().toISOString();
      const row = await trx
        .insertInto('global_discounts')
        .values({
          title: d.title,
          type: d.type,
          discount_type: d.discountType,
          value: d.value,
          active: d.active ? 1 : 0,
          starts_at: instant(d.startsAt),
          ends_at: instant(d.endsAt),
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await repo.replaceDiscountTargets(trx, row.id, targets.categoryIds, targets.items);
      await recordAudit(trx, actor, {
        action: 'discount_created',
        entity: 'global_discount',
        entityId: row.id,
        before: null,
        after: snapshot({ ...d, ...targets }),
      });
      await bumpReadSideVersion(trx);
      return this.get(row.id, trx);
    });
    await this.readSideChanged();
    return out;
  }

  async update(id: number, input: TDiscountInput, actor: Actor): Promise<TAdminDiscount> {
    const d = ZDiscountInput.parse(input);
    const out = await this.db.transaction().execute(async (trx) => {
      const before = await this.get(id, trx);
      if (d.version !== undefined && d.version !== before.version) throw conflict('stale_version', STALE);
      const targets = await this.checkTargets(trx, d);
      const moved = await trx
        .updateTable('global_discounts')
        .set({
          title: d.title,
          type: d.type,
          discount_type: d.discountType,
          value: d.value,
          active: d.active ? 1 : 0,
          starts_at: instant(d.startsAt),
          ends_at: instant(d.endsAt),
          version: before.version + 1,
          updated_at: new Date().toISOString(),
        })
        .where('id', '=', id)
        .where('version', '=', before.version)
        .returning('id')
        .executeTakeFirst();
      if (!moved) throw conflict('stale_version', STALE);
      await repo.replaceDiscountTargets(trx, id, targets.categoryIds, targets.items);
      await recordAudit(trx, actor, {
        action: 'discount_updated',
        entity: 'global_discount',
        entityId: id,
        before: snapshotOf(before),
        after: snapshot({ ...d, ...targets }),
      });
      await bumpReadSideVersion(trx);
      return this.get(id, trx);
    });
    await this.readSideChanged();
    return out;
  }

  /** Switches a discount on or off: what the screen's switch does after the preview. */
  async setActive(id: number, body: TDiscountSwitch, actor: Actor): Promise<TAdminDiscount> {
    const out = await this.db.transaction().execute(async (trx) => {
      const before = await this.get(id, trx);
      if (body.version !== before.version) throw conflict('stale_version', STALE);
      const moved = await trx
        .updateTable('global_discounts')
        .set({ active: body.active ? 1 : 0, version: before.version + 1, updated_at: new Date().toISOString() })
        .where('id', '=', id)
        .where('version', '=', before.version)
        .returning('id')
        .executeTakeFirst();
      if (!moved) throw conflict('stale_version', STALE);
      await recordAudit(trx, actor, {
        action: body.active ? 'discount_switched_on' : 'discount_switched_off',
        entity: 'global_discount',
        entityId: id,
        before: { active: before.active },
        after: { active: body.active },
      });
      await bumpReadSideVersion(trx);
      return this.get(id, trx);
    });
    await this.readSideChanged();
    return out;
  }

  async remove(id: number, version: number, actor: Actor): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const before = await this.get(id, trx);
      if (version !== before.version) throw conflict('stale_version', STALE);
      // Orders keep their own prices (sale_lines), so nothing else points at a discount.
      await trx.deleteFrom('global_discounts').where('id', '=', id).where('version', '=', before.version).execute();
      await recordAudit(trx, actor, { action: 'discount_removed', entity: 'global_discount', entityId: id, before: snapshotOf(before), after: null });
      await bumpReadSideVersion(trx);
    });
    await this.readSideChanged();
  }

  /**
   * What the discount as typed would do: every sku it reaches with its price now and its
   * price were the discount in force, by the storefront's own rule (packages/shared
   * priceSku, the largest saving wins). `id` names the saved discount it would replace,
   * which is left out of the "new" side.
   */
  async preview(input: TDiscountPreviewInput, page: number, size: number, now = new Date()): Promise<TDiscountPreview> {
    const d = ZDiscountPreviewInput.parse(input);
    const targets = await this.checkTargets(this.db, d);
    const [inForce, parents] = await Promise.all([validDiscounts(this.db, now), pricingRepo.categoryParents(this.db)]);
    const covered = d.type === 'FIXED_CATEGORY' ? descendantsOf(parents)(targets.categoryIds) : [];
    const typed: TGlobalDiscount = {
      // A new discount gets an id above every saved one: ties go to the lower id.
      id: d.id ?? Number.MAX_SAFE_INTEGER,
      title: d.title,
      valid: true,
      type: d.type,
      discountType: d.discountType,
      value: d.value,
      categories: targets.categoryIds.map((categoryId) => ({ categoryId })),
      coveredCategoryIds: covered,
      items: targets.items.map((i) => ({ itemId: i.productId, skuCode: i.skuCode })),
      startsAt: d.startsAt,
      endsAt: d.endsAt,
    };
    const withTyped = [...inForce.filter((x) => x.id !== d.id), typed];
    const skus =
      d.type === 'FIXED_CATEGORY'
        ? await repo.reachedSkus(this.db, { categoryIds: covered })
        : await repo.reachedSkus(this.db, { productIds: targets.items.map((i) => i.productId) });
    const cats = await pricingRepo.productCategoryIds(this.db, [...new Set(skus.map((s) => s.product_id))]);
    const catsOf = new Map<number, number[]>();
    for (const c of cats) catsOf.set(c.product_id, [...(catsOf.get(c.product_id) ?? []), c.category_id]);
    const lines = [];
    for (const s of skus) {
      const priceInput = {
        productId: s.product_id,
        categoryIds: catsOf.get(s.product_id) ?? [],
        skuCode: s.code,
        salesPrice: Number(s.sales_price),
        discountedSalesPrice: s.discounted_sales_price == null ? null : Number(s.discounted_sales_price),
      };
      // A FIXED_PRODUCT discount narrowed to one sku leaves the product's other skus alone.
      if (d.type === 'FIXED_PRODUCT' && !typed.items.some((i) => i.itemId === s.product_id && (i.skuCode == null || i.skuCode === s.code))) continue;
      const current = priceSku(priceInput, inForce);
      const next = priceSku(priceInput, withTyped);
      lines.push({
        productId: s.product_id,
        title: s.title,
        skuCode: s.code,
        salesPrice: current.salesPrice,
        currentPrice: current.unitPrice,
        newPrice: next.unitPrice,
        wins: next.discountId === typed.id && next.source === 'global',
      });
    }
    return {
      items: lines.slice((page - 1) * size, page * size),
      total: lines.length,
      products: new Set(lines.map((l) => l.productId)).size,
      lowered: lines.filter((l) => l.newPrice < l.currentPrice).length,
      page,
      size,
    };
  }
}

function snapshotOf(d: TAdminDiscount) {
  return {
    title: d.title,
    type: d.type,
    discountType: d.discountType,
    value: d.value,
    categoryIds: d.categories.map((c) => c.id),
    items: d.items.map((i) => [i.productId, i.skuCode]),
    startsAt: d.startsAt,
    endsAt: d.endsAt,
    active: d.active,
  };
}
