import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/database.ts';
import { migrations } from '../src/db/migrations/index.ts';
import { seedIfEmpty } from '../src/db/seed/seed.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const db = () => t.db.kysely;
const count = async (table: 'products' | 'skus' | 'stocks' | 'categories' | 'product_images' | 'cms_content' | 'kvps' | 'currencies' | 'branches') =>
  Number(
    (
      await db()
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('the demo shop seeded on first start', () => {
  it('has at least 300 products', async () => {
    expect(await count('products')).toBeGreaterThanOrEqual(300);
  });

  it('has at least 20 categories in a tree three levels deep', async () => {
    const cats = await db().selectFrom('categories').select(['id', 'parent_id', 'slug']).execute();
    expect(cats.length).toBeGreaterThanOrEqual(20);
    const byId = new Map(cats.map((c) => [c.id, c]));
    const depth = (id: number): number => {
      const parent = byId.get(id)!.parent_id;
      if (parent === null) return 1;
      expect(byId.has(parent)).toBe(true);
      return 1 + depth(parent);
    };
    const depths = cats.map((c) => depth(c.id));
    expect(Math.max(...depths)).toBe(3);
    expect(depths.filter((d) => d === 1).length).toBeGreaterThanOrEqual(3);
    expect(new Set(cats.map((c) => c.slug)).size).toBe(cats.length);
  });

  it('files every product under its category and all of that category’s ancestors', async () => {
    const missing = await db()
      .selectFrom('products')
      .leftJoin('product_categories as pc', (j) => j.onRef('pc.product_id', '=', 'products.id').onRef('pc.category_id', '=', 'products.primary_category_id'))
      .where('pc.product_id', 'is', null)
      .select('products.id')
      .execute();
    expect(missing).toEqual([]);
    const roots = await db()
      .selectFrom('products')
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('product_categories as pc')
              .innerJoin('categories as c', 'c.id', 'pc.category_id')
              .whereRef('pc.product_id', '=', 'products.id')
              .where('c.parent_id', 'is', null)
              .select('pc.product_id'),
          ),
        ),
      )
      .select('products.id')
      .execute();
    expect(roots).toEqual([]);
  });

  it('gives every product at least one sku and one image', async () => {
    const noSku = await db()
      .selectFrom('products')
      .where((eb) => eb.not(eb.exists(eb.selectFrom('skus').whereRef('skus.product_id', '=', 'products.id').select('skus.id'))))
      .select('id')
      .execute();
    expect(noSku).toEqual([]);
    const noImage = await db()
      .selectFrom('products')
      .where((eb) => eb.not(eb.exists(eb.selectFrom('product_images as i').whereRef('i.product_id', '=', 'products.id').select('i.id'))))
      .select('id')
      .execute();
    expect(noImage).toEqual([]);
  });

  it('gives single products model codes such as AFL-1234 and DFL-1234', async () => {
    const codes = (await db().selectFrom('products').where('kind', '=', 'single').select('model_code').execute()).map((p) => p.model_code);
    expect(codes.length).toBeGreaterThanOrEqual(300);
    for (const code of codes) expect(code).toMatch(/^(AFL|DFL)-\d{4}$/);
    expect(codes.some((c) => c!.startsWith('AFL-'))).toBe(true);
    expect(codes.some((c) => c!.startsWith('DFL-'))).toBe(true);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('stores prices as whole poisha, with discounts below the price', async () => {
    const skus = await db().selectFrom('skus').select(['sales_price', 'discounted_sales_price']).execute();
    for (const s of skus) {
      expect(Number.isInteger(s.sales_price)).toBe(true);
      expect(s.sales_price).toBeGreaterThan(0);
      if (s.discounted_sales_price !== null) {
        expect(Number.isInteger(s.discounted_sales_price)).toBe(true);
        expect(s.discounted_sales_price).toBeLessThan(s.sales_price);
      }
    }
  });

  it('has bundles made of other products’ skus', async () => {
    const bundles = await db().selectFrom('products').where('kind', '=', 'bundle').select('id').execute();
    expect(bundles.length).toBeGreaterThan(0);
    for (const b of bundles) {
      const items = await db().selectFrom('bundle_items').where('bundle_product_id', '=', b.id).select('sku_id').execute();
      expect(items.length).toBeGreaterThanOrEqual(2);
    }
  });

  it('has BDT at rate 1 with num code +88, and USD, EUR, GBP, INR and AED', async () => {
    const currencies = await db().selectFrom('currencies').selectAll().execute();
    const bdt = currencies.find((c) => c.code === 'BDT');
    expect(bdt).toMatchObject({ rate: 1, num_code: '+88', country: 'bangladesh' });
    expect(currencies.map((c) => c.code)).toEqual(expect.arrayContaining(['BDT', 'USD', 'EUR', 'GBP', 'INR', 'AED']));
    for (const c of currencies) {
      expect(typeof c.rate).toBe('number');
      expect(c.rate).toBeGreaterThan(0);
    }
  });

  it('has branches with coordinates in Bangladesh', async () => {
    const branches = await db().selectFrom('branches').selectAll().execute();
    expect(branches.length).toBeGreaterThanOrEqual(3);
    for (const b of branches) {
      expect(typeof b.latitude).toBe('number');
      expect(typeof b.longitude).toBe('number');
      expect(b.latitude).toBeGreaterThan(20.5);
      expect(b.latitude).toBeLessThan(26.7);
      expect(b.longitude).toBeGreaterThan(88);
      expect(b.longitude).toBeLessThan(92.7);
      expect(b.phone).toBeTruthy();
    }
  });

  it('never has a negative stock, and has some stock to sell', async () => {
    const row = await db()
      .selectFrom('stocks')
      .select((eb) => [eb.fn.min('quantity').as('min'), eb.fn.sum('quantity').as('total')])
      .executeTakeFirstOrThrow();
    expect(Number(row.min)).toBeGreaterThanOrEqual(0);
    expect(Number(row.total)).toBeGreaterThan(0);
  });
});

describe('the database guards its own rules', () => {
  it('refuses a negative stock (CHECK constraint)', async () => {
    const stock = await db().selectFrom('stocks').select(['sku_id', 'branch_id']).limit(1).executeTakeFirstOrThrow();
    await expect(
      db().updateTable('stocks').set({ quantity: -1 }).where('sku_id', '=', stock.sku_id).where('branch_id', '=', stock.branch_id).execute(),
    ).rejects.toThrow(/check constraint/i);
    await expect(
      db()
        .updateTable('stocks')
        .set((eb) => ({ quantity: eb('quantity', '-', 1000) }))
        .where('sku_id', '=', stock.sku_id)
        .execute(),
    ).rejects.toThrow(/check constraint/i);
    const sku = await db()
      .selectFrom('skus')
      .where((eb) =>
        eb.not(
          eb.exists(eb.selectFrom('stocks').whereRef('stocks.sku_id', '=', 'skus.id').where('stocks.branch_id', '=', stock.branch_id).select('stocks.sku_id')),
        ),
      )
      .select('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    await expect(db().insertInto('stocks').values({ sku_id: sku.id, branch_id: stock.branch_id, quantity: -5 }).execute()).rejects.toThrow(/check constraint/i);
    const min = await db()
      .selectFrom('stocks')
      .select((eb) => eb.fn.min('quantity').as('m'))
      .executeTakeFirstOrThrow();
    expect(Number(min.m)).toBeGreaterThanOrEqual(0);
  });

  it('refuses a negative price', async () => {
    await expect(db().updateTable('skus').set({ sales_price: -100 }).where('id', '=', 1).execute()).rejects.toThrow(/check constraint/i);
  });

  it('refuses a stock row for a sku that does not exist (foreign keys are on)', async () => {
    const branch = await db().selectFrom('branches').select('id').limit(1).executeTakeFirstOrThrow();
    await expect(db().insertInto('stocks').values({ sku_id: 99_999_999, branch_id: branch.id, quantity: 1 }).execute()).rejects.toThrow(/foreign key/i);
  });
});

describe('starting again', () => {
  it('running the migrations a second time changes nothing', async () => {
    const before = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db());
    expect(before.rows.map((r) => r.name)).toEqual(Object.keys(migrations).sort());
    const products = await count('products');
    await migrateToLatest(t.db);
    const after = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db());
    expect(after.rows).toEqual(before.rows);
    expect(await count('products')).toBe(products);
  });

  it('seeding a second time is a no-op', async () => {
    const tables = ['products', 'skus', 'stocks', 'categories', 'product_images', 'cms_content', 'kvps', 'currencies', 'branches'] as const;
    const before = await Promise.all(tables.map(count));
    expect(await seedIfEmpty(db(), t.dialect)).toBe(false);
    expect(await Promise.all(tables.map(count))).toEqual(before);
  });

  it('a second app process can start on the same database', async () => {
    // As a restarted or second server would: migrations and seed find everything done.
    await migrateToLatest(t.db);
    expect(await seedIfEmpty(db(), t.dialect)).toBe(false);
    const res = await t.api('/api/health');
    expect(res.status).toBe(200);
  });
});
