import { type Kysely, sql } from 'kysely';
import type { TAdminProductFilter } from '@storefront/shared';
import type { Database } from '../../db/schema.ts';

// The back office's catalogue queries (docs/decisions/0031). They read the catalogue tables,
// not the read side: staff see drafts, archived products and stock as it is now.

type Db = Kysely<Database>;

const stockOf = sql<number>`coalesce((select sum(st.quantity) from stocks st inner join skus s2 on s2.id = st.sku_id where s2.product_id = p.id), 0)`;
const priceOf = sql<number | null>`(select min(s3.sales_price) from skus s3 where s3.product_id = p.id)`;

export async function productPage(db: Db, q: TAdminProductFilter, lowStock: number) {
  // Filtering or sorting by stock joins every product's total, summed in one grouped pass
  // (a sum per product row would run 100,000 times on a large catalogue).
  const byStock = q.sort === 'stock' || q.stock === 'in' || q.stock === 'out';
  let base = byStock
    ? db
        .selectFrom('products as p')
        .leftJoin(
          (eb) =>
            eb
              .selectFrom('stocks as st')
              .innerJoin('skus as s2', 's2.id', 'st.sku_id')
              .select(['s2.product_id', (x) => x.fn.sum<number>('st.quantity').as('q')])
              .groupBy('s2.product_id')
              .as('t'),
          (join) => join.onRef('t.product_id', '=', 'p.id'),
        )
        .select([])
    : db.selectFrom('products as p').select([]);
  const stockKey = sql<number>`coalesce(t.q, 0)`;
  if (q.q?.trim()) {
    const like = `%${q.q
      .trim()
      .toLowerCase()
      .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base = base.where((eb) =>
      eb.or([
        eb(sql`lower(p.title)`, 'like', sql`${like} escape '\\'`),
        // Staff find a product by its Bangla title too (docs/decisions/0038).
        eb(sql`coalesce(p.title_bn, '')`, 'like', sql`${like} escape '\\'`),
        eb(sql`lower(coalesce(p.model_code, ''))`, 'like', sql`${like} escape '\\'`),
        eb.exists(
          eb.selectFrom('skus as sq').select('sq.id').whereRef('sq.product_id', '=', 'p.id').where(sql`lower(sq.code)`, 'like', sql`${like} escape '\\'`),
        ),
      ]),
    );
  }
  if (q.categoryId) {
    const categoryId = q.categoryId;
    base = base.where((eb) =>
      eb.exists(
        eb.selectFrom('product_categories as pc').select('pc.product_id').whereRef('pc.product_id', '=', 'p.id').where('pc.category_id', '=', categoryId),
      ),
    );
  }
  if (q.status) base = base.where('p.status', '=', q.status);
  if (q.stock === 'out') base = base.where(stockKey, '=', 0);
  else if (q.stock === 'in') base = base.where(stockKey, '>', 0);
  // Low: a sku at or below its own threshold, or the shop's default (as the low-stock view
  // counts); every sku's total is summed in one grouped pass, not once per product.
  else if (q.stock === 'low')
    base = base.where(
      'p.id',
      'in',
      sql<number>`(select sl.product_id from skus sl left join stocks st on st.sku_id = sl.id
        group by sl.id, sl.product_id, sl.low_stock_threshold
        having coalesce(sum(st.quantity), 0) <= coalesce(sl.low_stock_threshold, ${lowStock}))`,
    );

  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const order = {
    updated: sql`coalesce(p.updated_at, p.created_at)`,
    title: sql`p.title`,
    price: priceOf,
    stock: stockKey,
    id: sql`p.id`,
  }[q.sort];
  const dir = q.dir === 'asc' ? sql`asc` : sql`desc`;
  // The page's ids first, ordered by the sort key alone; then what the table shows, for those
  // only: a deep page or a large result never computes prices, stock and pictures for the
  // rows it skips.
  const ids = await base
    .select('p.id')
    .orderBy(sql`${order} ${dir}`)
    .orderBy('p.id', q.dir)
    .offset((q.page - 1) * q.size)
    .limit(q.size)
    .execute();
  if (!ids.length) return { total: Number(total?.n ?? 0), rows: [] };
  const rows = await db
    .selectFrom('products as p')
    .leftJoin('categories as c', 'c.id', 'p.primary_category_id')
    .where(
      'p.id',
      'in',
      ids.map((r) => r.id),
    )
    .select([
      'p.id',
      'p.title',
      'p.slug',
      'p.model_code',
      'p.status',
      'p.created_at',
      'p.updated_at',
      'c.name as category',
      priceOf.as('price'),
      stockOf.as('stock'),
      sql<number>`(select count(*) from skus s4 where s4.product_id = p.id)`.as('sku_count'),
      sql<string | null>`(select pi.url from product_images pi where pi.product_id = p.id order by pi.sort_order, pi.id limit 1)`.as('image_url'),
    ])
    .execute();
  const at = new Map(ids.map((r, i) => [r.id, i]));
  rows.sort((a, b) => (at.get(a.id) ?? 0) - (at.get(b.id) ?? 0));
  return { total: Number(total?.n ?? 0), rows };
}

export function productRow(db: Db, id: number) {
  return db
    .selectFrom('products')
    .select([
      'id',
      'title',
      'title_bn',
      'slug',
      'model_code',
      'description',
      'description_bn',
      'kind',
      'primary_category_id',
      'is_new_arrival',
      'status',
      'version',
      'created_at',
      'updated_at',
    ])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function productParts(db: Db, id: number) {
  const [categories, images, skus] = await Promise.all([
    db.selectFrom('product_categories').select('category_id').where('product_id', '=', id).orderBy('category_id').execute(),
    db.selectFrom('product_images').select(['url', 'alt', 'variant_value']).where('product_id', '=', id).orderBy('sort_order').orderBy('id').execute(),
    db
      .selectFrom('skus')
      .select(['id', 'code', 'sales_price', 'discounted_sales_price', 'low_stock_threshold'])
      .where('product_id', '=', id)
      .orderBy('sort_order')
      .orderBy('id')
      .execute(),
  ]);
  const skuIds = skus.map((s) => s.id);
  const [values, stock] = skuIds.length
    ? await Promise.all([
        db
          .selectFrom('sku_attribute_values as v')
          .innerJoin('attributes as a', 'a.id', 'v.attribute_id')
          .select(['v.sku_id', 'v.attribute_id', 'v.value', 'v.display_label'])
          .where('v.sku_id', 'in', skuIds)
          .orderBy('a.sort_order')
          .orderBy('a.id')
          .execute(),
        db.selectFrom('stocks').select(['sku_id', 'branch_id', 'quantity']).where('sku_id', 'in', skuIds).orderBy('branch_id').execute(),
      ])
    : [[], []];
  return { categories, images, skus, values, stock };
}

export function bundleItemsOf(db: Db, productId: number) {
  return db
    .selectFrom('bundle_items as b')
    .innerJoin('skus as s', 's.id', 'b.sku_id')
    .innerJoin('products as p', 'p.id', 's.product_id')
    .select(['b.sku_id', 's.code', 'p.title', 'b.quantity'])
    .where('b.bundle_product_id', '=', productId)
    .orderBy('s.code')
    .execute();
}

export async function hasOrders(db: Db, productId: number): Promise<boolean> {
  const r = await db.selectFrom('sale_lines').select('id').where('product_id', '=', productId).limit(1).executeTakeFirst();
  return !!r;
}

export async function orderedSkus(db: Db, skuIds: number[]): Promise<Set<number>> {
  if (!skuIds.length) return new Set();
  const rows = await db.selectFrom('sale_lines').select('sku_id').distinct().where('sku_id', 'in', skuIds).execute();
  return new Set(rows.map((r) => r.sku_id));
}
