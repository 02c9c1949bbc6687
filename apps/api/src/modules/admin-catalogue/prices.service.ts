import {
  DEFAULT_LOW_STOCK,
  type TBulkPriceApply,
  type TBulkPriceChange,
  type TBulkPriceLine,
  type TBulkPricePreview,
  type TLowStockRow,
  type TProductStatus,
  ZBulkPriceApply,
  ZBulkPriceChange,
} from '@storefront/shared';
import { type Kysely, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { conflict, fieldError } from '../../lib/errors.ts';
import { bumpReadSideVersion, syncProducts } from '../catalogue/search-index.ts';
import { type Actor, recordAudit } from '../staff/audit.ts';

type Rule = ReturnType<typeof ZBulkPriceChange.parse>;

/** Lines the preview sends to the screen; the count covers them all. */
const PREVIEW_LINES = 200;
/** Past this many products, the read side is rebuilt whole after the change rather than product by product. */
const SYNC_LIMIT = 500;

/** The new amount under a rule, rounded to the rule's step, never below one step. */
export function changed(amount: number, rule: Pick<Rule, 'kind' | 'value' | 'roundTo'>): number {
  const raw = rule.kind === 'percent' ? amount * (1 + rule.value / 100) : amount + rule.value;
  return Math.max(rule.roundTo, Math.round(raw / rule.roundTo) * rule.roundTo);
}

/**
 * Bulk price changes (docs/decisions/0031): by category (with its sub-categories) or by
 * chosen products, by a percentage or an amount, previewed before applied. Applying is one
 * transaction that checks the selection is still the one previewed, moves every product's
 * version (an editor open on one of them gets a 409 rather than writing old prices back),
 * and is audited with every sku's old and new prices.
 */
export class AdminPricesService {
  constructor(
    private readonly db: Db,
    private readonly rebuild: () => Promise<unknown>,
    private readonly changedHere: () => Promise<void>,
  ) {}

  private async selection(db: Kysely<Database>, rule: Rule) {
    let q = db
      .selectFrom('skus as s')
      .innerJoin('products as p', 'p.id', 's.product_id')
      .select(['s.id', 's.code', 's.product_id', 'p.title', 's.sales_price', 's.discounted_sales_price'])
      .where('p.status', '!=', 'archived');
    if (rule.productIds?.length) q = q.where('p.id', 'in', rule.productIds);
    if (rule.categoryId != null) {
      const root = rule.categoryId;
      // The category and everything under it (three levels at most).
      const tree = sql<number>`(select c.id from categories c where c.id = ${root}
        or c.parent_id = ${root}
        or c.parent_id in (select c2.id from categories c2 where c2.parent_id = ${root}))`;
      q = q.where((eb) =>
        eb.exists(eb.selectFrom('product_categories as pc').select('pc.product_id').whereRef('pc.product_id', '=', 'p.id').where('pc.category_id', 'in', tree)),
      );
    }
    return q.orderBy('p.id').orderBy('s.sort_order').orderBy('s.id').execute();
  }

  private check(body: TBulkPriceChange): Rule {
    const rule = ZBulkPriceChange.parse(body);
    if (rule.categoryId == null && !rule.productIds?.length) throw fieldError('categoryId', 'Choose a category or some products');
    if (rule.kind === 'percent' && !(rule.value >= -90 && rule.value <= 500 && rule.value !== 0))
      throw fieldError('value', 'Enter a percentage between -90 and 500 (not 0)');
    if (rule.kind === 'amount' && !(Number.isInteger(rule.value) && rule.value !== 0)) throw fieldError('value', 'Enter an amount in taka (not 0)');
    return rule;
  }

  private lines(rows: Awaited<ReturnType<AdminPricesService['selection']>>, rule: Rule): TBulkPriceLine[] {
    return rows.map((r) => {
      const oldPrice = Number(r.sales_price);
      const newPrice = changed(oldPrice, rule);
      const oldDiscounted = r.discounted_sales_price == null ? null : Number(r.discounted_sales_price);
      let newDiscounted = oldDiscounted == null ? null : rule.alsoDiscounted ? changed(oldDiscounted, rule) : oldDiscounted;
      // A discounted price is below the price, or there is none.
      if (newDiscounted != null && newDiscounted >= newPrice) newDiscounted = null;
      return { skuId: r.id, code: r.code, productId: r.product_id, title: r.title, oldPrice, newPrice, oldDiscounted, newDiscounted };
    });
  }

  async preview(body: TBulkPriceChange): Promise<TBulkPricePreview> {
    const rule = this.check(body);
    const lines = this.lines(await this.selection(this.db.kysely, rule), rule);
    return { skus: lines.length, products: new Set(lines.map((l) => l.productId)).size, lines: lines.slice(0, PREVIEW_LINES) };
  }

  async apply(body: TBulkPriceApply, actor: Actor): Promise<TBulkPricePreview> {
    const rule = this.check(body);
    const { expectedSkus } = ZBulkPriceApply.parse(body);
    const lines = await this.db.kysely.transaction().execute(async (trx) => {
      const lines = this.lines(await this.selection(trx, rule), rule);
      if (lines.length !== expectedSkus) {
        throw conflict('selection_changed', `The selection has ${lines.length} skus now, not the ${expectedSkus} of the preview. Preview again.`);
      }
      const now = new Date().toISOString();
      for (const l of lines) {
        await trx.updateTable('skus').set({ sales_price: l.newPrice, discounted_sales_price: l.newDiscounted }).where('id', '=', l.skuId).execute();
      }
      const productIds = [...new Set(lines.map((l) => l.productId))];
      for (let i = 0; i < productIds.length; i += 500) {
        await trx
          .updateTable('products')
          .set((eb) => ({ version: eb('version', '+', 1), updated_at: now }))
          .where('id', 'in', productIds.slice(i, i + 500))
          .execute();
      }
      await recordAudit(trx, actor, {
        action: 'bulk_price_change',
        entity: 'prices',
        entityId: rule.categoryId != null ? `category ${rule.categoryId}` : `${productIds.length} products`,
        before: { skus: lines.map((l) => [l.code, l.oldPrice, l.oldDiscounted]) },
        after: {
          rule: { kind: rule.kind, value: rule.value, roundTo: rule.roundTo, alsoDiscounted: rule.alsoDiscounted },
          skus: lines.map((l) => [l.code, l.newPrice, l.newDiscounted]),
        },
      });
      if (productIds.length <= SYNC_LIMIT) await syncProducts(trx, this.db.dialect, productIds);
      await bumpReadSideVersion(trx);
      return lines;
    });
    const products = new Set(lines.map((l) => l.productId)).size;
    if (products > SYNC_LIMIT) await this.rebuild();
    else await this.changedHere();
    return { skus: lines.length, products, lines: lines.slice(0, PREVIEW_LINES) };
  }

  /** Skus at or below their low-stock threshold (their own, or the shop's default) in all branches together. */
  async lowStock(page: number, size: number): Promise<{ items: TLowStockRow[]; total: number; page: number; size: number }> {
    const k = this.db.kysely;
    const total = sql<number>`coalesce((select sum(st.quantity) from stocks st where st.sku_id = s.id), 0)`;
    const threshold = sql<number>`coalesce(s.low_stock_threshold, ${DEFAULT_LOW_STOCK})`;
    const base = k.selectFrom('skus as s').innerJoin('products as p', 'p.id', 's.product_id').where('p.status', '!=', 'archived').where(total, '<=', threshold);
    const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    const rows = await base
      .select(['s.id', 's.code', 's.product_id', 'p.title', 'p.status', total.as('total'), threshold.as('threshold')])
      .orderBy(total)
      .orderBy('s.id')
      .offset((page - 1) * size)
      .limit(size)
      .execute();
    const stock = rows.length
      ? await k
          .selectFrom('stocks')
          .select(['sku_id', 'branch_id', 'quantity'])
          .where(
            'sku_id',
            'in',
            rows.map((r) => r.id),
          )
          .execute()
      : [];
    return {
      items: rows.map((r) => ({
        skuId: r.id,
        code: r.code,
        productId: r.product_id,
        title: r.title,
        status: r.status as TProductStatus,
        total: Number(r.total),
        threshold: Number(r.threshold),
        byBranch: stock.filter((s) => s.sku_id === r.id).map((s) => ({ branchId: s.branch_id, quantity: s.quantity })),
      })),
      total: Number(count?.n ?? 0),
      page,
      size,
    };
  }
}
