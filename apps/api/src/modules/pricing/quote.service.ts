import {
  cartTotals,
  evaluateCoupon,
  LINE_QUANTITY_CEILING,
  normalizeCouponCode,
  priceSku,
  type TCartQuote,
  type TCouponRule,
  type TDiscountType,
  type TQuoteCoupon,
  type TQuoteLine,
} from '@storefront/shared';
import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import { lockForTransaction } from '../../db/dialect/locks.ts';
import type { Database } from '../../db/schema.ts';
import * as repo from './pricing.repository.ts';
import { validDiscounts } from './pricing.service.ts';

// The server's price of a cart (decisions.md: the server computes every price, discount
// and coupon amount from its own data; what the browser sends is never trusted). One
// function for the coupon apply call, the cart page and checkout.

type Db = Kysely<Database>;

export interface QuoteInput {
  lines: readonly { skuCode: string; quantity: number }[];
  couponCode?: string | null;
  customerId: number | null;
  now?: Date;
}

export function couponRule(c: NonNullable<Awaited<ReturnType<typeof repo.couponByCode>>>): TCouponRule {
  return {
    code: c.code,
    discountType: c.discount_type as TDiscountType,
    value: c.value,
    minimumOrder: c.minimum_order,
    maxAmount: c.max_amount,
    startsAt: c.starts_at,
    endsAt: c.ends_at,
    usageLimit: c.usage_limit,
    perCustomerLimit: c.per_customer_limit,
    active: c.active === 1,
    isPublic: c.is_public === 1,
  };
}

/**
 * Prices cart lines of {skuCode, quantity} from the database alone, then applies one
 * coupon after the global discounts. Lines for the same sku are merged. A sku that no
 * longer exists is reported as unavailable and left out of the totals; a sku short of
 * stock is priced and flagged, so the shopper learns both what it costs and what is left.
 */
export async function quoteCart(db: Db, input: QuoteInput): Promise<TCartQuote> {
  const now = input.now ?? new Date();
  const merged = new Map<string, number>();
  for (const l of input.lines) merged.set(l.skuCode, Math.min(LINE_QUANTITY_CEILING, (merged.get(l.skuCode) ?? 0) + l.quantity));
  const codes = [...merged.keys()];

  const [skus, discounts] = await Promise.all([repo.skusByCode(db, codes), validDiscounts(db, now)]);
  const skuIds = skus.map((s) => s.sku_id);
  const [cats, labels, stock] = await Promise.all([
    repo.productCategoryIds(db, [...new Set(skus.map((s) => s.product_id))]),
    repo.skuAttributeLabels(db, skuIds),
    repo.skuStock(db, skuIds),
  ]);
  const byCode = new Map(skus.map((s) => [s.code, s]));
  const catsOf = new Map<number, number[]>();
  for (const c of cats) catsOf.set(c.product_id, [...(catsOf.get(c.product_id) ?? []), c.category_id]);
  const stockOf = new Map(stock.map((s) => [s.sku_id, Number(s.quantity)]));

  const lines: TQuoteLine[] = codes.map((code) => {
    const quantity = merged.get(code)!;
    const s = byCode.get(code);
    if (!s) {
      return {
        skuCode: code,
        quantity,
        status: 'unavailable',
        availableQuantity: 0,
        product: null,
        sku: null,
        salesPrice: 0,
        unitPrice: 0,
        saving: 0,
        discountId: null,
        subTotal: 0,
      };
    }
    const categoryIds = (catsOf.get(s.product_id) ?? []).sort((a, b) => a - b);
    const price = priceSku(
      { productId: s.product_id, categoryIds, skuCode: s.code, salesPrice: s.sales_price, discountedSalesPrice: s.discounted_sales_price },
      discounts,
    );
    const available = stockOf.get(s.sku_id) ?? 0;
    const status: TQuoteLine['status'] = available <= 0 ? 'out_of_stock' : available < quantity ? 'insufficient_stock' : 'ok';
    return {
      skuCode: code,
      quantity,
      status,
      availableQuantity: available,
      product: { id: s.product_id, title: s.title, slug: s.slug, image: s.image ?? null, kind: s.kind, categoryIds },
      sku: {
        code: s.code,
        label: labels
          .filter((l) => l.sku_id === s.sku_id)
          .map((l) => l.display_label)
          .join(' / '),
        salesPrice: s.sales_price,
        discountedSalesPrice: s.discounted_sales_price,
      },
      salesPrice: price.salesPrice,
      unitPrice: price.unitPrice,
      saving: price.saving,
      discountId: price.discountId,
      subTotal: price.unitPrice * quantity,
      ...(s.kind === 'bundle' ? { sourceType: 'bundle' as const } : {}),
    };
  });

  const priced = lines.filter((l) => l.status !== 'unavailable');
  const beforeCoupon = cartTotals(priced);
  let coupon: TQuoteCoupon | null = null;
  if (input.couponCode) {
    const code = normalizeCouponCode(input.couponCode);
    const row = await repo.couponByCode(db, code);
    // Counted for an unknown code too (id 0 matches no use): both answers take the same work.
    const used = await repo.couponUseCounts(db, row?.id ?? 0, input.customerId);
    const outcome = evaluateCoupon(row ? couponRule(row) : null, {
      orderAmount: beforeCoupon.total,
      now,
      usedTotal: used.total,
      usedByCustomer: used.byCustomer,
      customerId: input.customerId,
    });
    // An answer as for an unknown code says nothing of the coupon (docs/decisions/0014).
    const minimumOrder = !outcome.ok && outcome.reason === 'unknown' ? null : (row?.minimum_order ?? null);
    coupon = outcome.ok
      ? { code, applied: true, amount: outcome.amount, title: row!.title, discountType: row!.discount_type as TDiscountType, value: row!.value, minimumOrder }
      : { code, applied: false, amount: 0, reason: outcome.reason, message: outcome.message, minimumOrder };
  }
  return { lines, totals: cartTotals(priced, coupon?.amount ?? 0), coupon, currency: 'BDT' };
}

// Coupon use at checkout (#6). Inside the transaction that places the order:
//   await lockCoupon(trx, dialect, code);            // serialises uses of this coupon
//   const quote = await quoteCart(trx, { ... });     // counts uses after the lock
//   if (quote.coupon?.applied) await recordCouponUse(trx, { code, customerId, orderRef, amount });
// so that a coupon with one use left is used once however many shoppers check out at once.

const COUPON_LOCK_BASE = 7_004_000_000;

/** Serialises the uses of one coupon until the transaction ends (PostgreSQL; SQLite's writes already are). */
export async function lockCoupon(trx: Db, dialect: Dialect, code: string): Promise<void> {
  let h = 0;
  for (const ch of normalizeCouponCode(code)) h = (Math.imul(h, 31) + ch.charCodeAt(0)) >>> 0;
  await lockForTransaction(trx, dialect, COUPON_LOCK_BASE + (h % 1_000_000));
}

export async function recordCouponUse(
  trx: Db,
  use: { code: string; customerId: number | null; orderRef: string | null; amount: number; now?: Date },
): Promise<number> {
  const row = await repo.couponByCode(trx, normalizeCouponCode(use.code));
  if (!row) throw new Error(`no coupon ${use.code}`);
  const inserted = await repo.insertCouponUsage(trx, {
    coupon_id: row.id,
    customer_id: use.customerId,
    order_ref: use.orderRef,
    amount: use.amount,
    created_at: (use.now ?? new Date()).toISOString(),
  });
  return inserted.id;
}
