import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// Catalogue reads carry ETag and Cache-Control and are served from the in-process read
// cache (docs/decisions/0007); stock never is. This file runs the app with the cache on, as
// production does (the other API tests turn it off to read their own writes at once).

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ config: { readCacheMs: 60_000 } });
});
afterAll(() => t?.close());

describe('HTTP caching of catalogue reads', () => {
  it('a GET answers with a validator and a public lifetime, and 304 when the client has it', async () => {
    const first = await t.api('/api/categories/search', { method: 'POST', json: { size: 50 } });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers.get('cache-control')).toMatch(/^public, max-age=\d+/);
    const get = await t.api('/api/v3/items/joined?id=1');
    const again = await t.api('/api/v3/items/joined?id=1', { headers: { 'if-none-match': get.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const other = await t.api('/api/v3/items/joined?id=1', { headers: { 'if-none-match': 'W/"something-else"' } });
    expect(other.status).toBe(200);
    expect(other.body.id).toBe(1);
  });

  it('the same question gets the same ETag; a different one a different ETag', async () => {
    const body = (q: string) => ({ method: 'POST', json: { textParams: [{ field: 'query', value: q }] } });
    const a = await t.api('/api/search/indices/items', body('sofa'));
    const b = await t.api('/api/search/indices/items', body('sofa'));
    const c = await t.api('/api/search/indices/items', body('bed'));
    expect(b.headers.get('etag')).toBe(a.headers.get('etag'));
    expect(c.headers.get('etag')).not.toBe(a.headers.get('etag'));
    expect(b.text).toBe(a.text);
  });

  it('errors are not cached: a 404 stays a 404 and carries no ETag', async () => {
    const res = await t.api('/api/v3/items/joined?id=987654');
    expect(res.status).toBe(404);
    expect(res.headers.get('etag')).toBeNull();
  });
});

describe('the in-process read cache', () => {
  it('serves a repeated read from memory until the catalogue is rebuilt', async () => {
    const before = await t.api('/api/branches');
    await t.db.kysely.updateTable('branches').set({ name: 'Renamed Showroom' }).where('id', '=', before.body.list[0].id).execute();
    const cached = await t.api('/api/branches');
    expect(cached.body.list[0].name).toBe(before.body.list[0].name);
    await t.app.reindexCatalogue();
    const fresh = await t.api('/api/branches');
    expect(fresh.body.list[0].name).toBe('Renamed Showroom');
    expect(fresh.headers.get('etag')).not.toBe(before.headers.get('etag'));
  });

  it('a product added to the catalogue is searchable after the rebuild', async () => {
    const db = t.db.kysely;
    const leaf = await db.selectFrom('categories').select('id').where('slug', '=', 'armchairs').executeTakeFirstOrThrow();
    const p = await db
      .insertInto('products')
      .values({
        id: 80_001,
        title: 'Zeppelin Lounger',
        slug: 'zeppelin-lounger',
        model_code: 'AFL-80001',
        description: '',
        kind: 'single',
        primary_category_id: leaf.id,
        is_new_arrival: 1,
        model_url: null,
        created_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('product_categories').values({ product_id: p.id, category_id: leaf.id }).execute();
    await db
      .insertInto('skus')
      .values({ id: 800_001, product_id: p.id, code: 'AFL-80001-X', sales_price: 500_000, discounted_sales_price: null, sort_order: 0 })
      .execute();
    const search = () => t.api('/api/search/indices/items', { method: 'POST', json: { textParams: [{ field: 'query', value: 'zeppelin' }] } });
    expect((await search()).body.list).toEqual([]);
    await t.app.reindexCatalogue();
    expect((await search()).body.list.map((c: { id: number }) => c.id)).toEqual([p.id]);
  });

  it('stock is read from the database every time, even with the cache on', async () => {
    const body = { method: 'POST', json: { size: 100, textParams: [{ field: 'itemId', value: 3 }] } };
    const first = await t.api('/api/stocks/items/skus/search', body);
    const row = first.body.list[0];
    const sku = await t.db.kysely.selectFrom('skus').select('id').where('code', '=', row.skuCode).executeTakeFirstOrThrow();
    await t.db.kysely
      .updateTable('stocks')
      .set({ quantity: row.quantity + 1 })
      .where('sku_id', '=', sku.id)
      .where('branch_id', '=', row.branchId)
      .execute();
    const second = await t.api('/api/stocks/items/skus/search', body);
    expect(second.body.list[0].quantity).toBe(row.quantity + 1);
  });
});

describe('listings priced with the discounts in force', () => {
  it('a global discount that starts moves prices, the sale flag and the price order; when it ends they return', async () => {
    const db = t.db.kysely;
    const armchairs = (await db.selectFrom('categories').select('id').where('slug', '=', 'armchairs').executeTakeFirstOrThrow()).id;
    const list = async () =>
      (
        await t.api('/api/search/indices/items', {
          method: 'POST',
          json: { size: 100, textParams: [{ field: 'categoryId', value: armchairs }], sortParams: [{ field: 'price' }] },
        })
      ).body.list as {
        id: number;
        price: number;
        onSale: boolean;
        sku: { salesPrice: number; discountedSalesPrice: number | null };
      }[];
    const before = await list();
    expect(await t.app.checkCatalogueDiscounts()).toBe(false);

    const d = await db
      .insertInto('global_discounts')
      .values({
        title: 'Half-price armchairs',
        type: 'FIXED_CATEGORY',
        discount_type: 'PERCENTAGE',
        value: 50,
        active: 1,
        starts_at: new Date(Date.now() - 60_000).toISOString(),
        ends_at: null,
        created_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('global_discount_categories').values({ discount_id: d.id, category_id: armchairs }).execute();
    expect(await t.app.checkCatalogueDiscounts()).toBe(true);

    const during = await list();
    expect(during.map((c) => c.id).sort()).toEqual(before.map((c) => c.id).sort());
    for (const c of during) {
      expect(c.onSale).toBe(true);
      // Half the list price, rounded down to the whole taka (decisions.md), unless the sku's own price is lower.
      const half = c.sku.salesPrice - Math.floor((c.sku.salesPrice * 50) / 10_000) * 100;
      expect(c.price).toBe(Math.min(half, c.sku.discountedSalesPrice ?? Number.MAX_SAFE_INTEGER));
    }
    expect(during.map((c) => c.price)).toEqual([...during.map((c) => c.price)].sort((a, b) => a - b));
    const sales = await t.api('/api/search/indices/items', {
      method: 'POST',
      json: {
        textParams: [
          { field: 'onSale', value: true },
          { field: 'categoryId', value: armchairs },
        ],
        fetchCount: true,
      },
    });
    expect(sales.body.count).toBe(during.length);

    await db.updateTable('global_discounts').set({ active: 0 }).where('id', '=', d.id).execute();
    expect(await t.app.checkCatalogueDiscounts()).toBe(true);
    expect((await list()).map((c) => [c.id, c.price])).toEqual(before.map((c) => [c.id, c.price]));
  });
});
