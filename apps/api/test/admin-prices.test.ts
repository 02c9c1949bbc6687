import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changed } from '../src/modules/admin-catalogue/prices.service.ts';
import { signedInStaff, type TestStaff } from './helpers/staff.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// Bulk price changes and the low-stock view of the back office (docs/decisions/0031).

let t: TestApp;
let manager: TestStaff;
let owner: TestStaff;
beforeAll(async () => {
  t = await startTestApp({ config: { readCacheMs: 60_000 } });
  manager = await signedInStaff(t, 'manager');
  owner = await signedInStaff(t, 'owner');
});
afterAll(() => t?.close());

const post = (path: string, json: unknown, who = manager) => t.api(path, { method: 'POST', json, headers: who.headers });

async function leafWithProducts() {
  const ref = (await t.api('/api/admin/reference', { headers: manager.headers })).body;
  for (const c of ref.categories.filter((x: any) => x.depth === 2)) {
    const list = await t.api(`/api/admin/products?categoryId=${c.id}&size=100`, { headers: manager.headers });
    if (list.body.total >= 3) return { category: c, products: list.body.items };
  }
  throw new Error('no category with products');
}

describe('the rule', () => {
  it('changes by a percentage or an amount, rounds to the step, and never reaches zero', () => {
    expect(changed(1_250_000, { kind: 'percent', value: 10, roundTo: 100 })).toBe(1_375_000);
    expect(changed(1_234_567, { kind: 'percent', value: -7.5, roundTo: 100 })).toBe(1_142_000);
    expect(changed(1_234_567, { kind: 'percent', value: -7.5, roundTo: 10_000 })).toBe(1_140_000);
    expect(changed(50_000, { kind: 'amount', value: -100_000, roundTo: 100 })).toBe(100);
  });
});

describe('bulk price change', () => {
  it('previews, then applies to a category in one go; listings show it at once; open editors get a 409', async () => {
    const { category, products } = await leafWithProducts();
    const open = (await t.api(`/api/admin/products/${products[0].id}`, { headers: manager.headers })).body;
    const rule = { categoryId: category.id, kind: 'percent', value: 10, roundTo: 100 };
    const preview = await post('/api/admin/prices/preview', rule);
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body.products).toBe(products.length);
    const line = preview.body.lines[0];
    expect(line.newPrice).toBe(Math.round((line.oldPrice * 1.1) / 100) * 100);
    // Nothing written by the preview.
    expect((await t.api(`/api/admin/products/${open.id}`, { headers: manager.headers })).body.version).toBe(open.version);

    const wrongCount = await post('/api/admin/prices/apply', { ...rule, expectedSkus: preview.body.skus + 1 });
    expect(wrongCount.status).toBe(409);
    expect(wrongCount.body.error.code).toBe('selection_changed');

    const applied = await post('/api/admin/prices/apply', { ...rule, expectedSkus: preview.body.skus });
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body.skus).toBe(preview.body.skus);
    const sku = await t.db.kysely.selectFrom('skus').select('sales_price').where('id', '=', line.skuId).executeTakeFirstOrThrow();
    expect(Number(sku.sales_price)).toBe(line.newPrice);

    // The storefront's listing of the category, with its read cache on.
    const listing = await t.api('/api/v2/items/indices', {
      method: 'POST',
      json: { page: 1, size: 100, textParams: [{ field: 'categoryId', value: category.id }] },
    });
    const card = listing.body.list.find((c: any) => c.id === line.productId);
    const cardLine = applied.body.lines.find((l: any) => l.code === card.sku.code);
    expect(card.sku.salesPrice).toBe(cardLine.newPrice);

    const { id: _i, hasOrders: _h, createdAt: _c, updatedAt: _u, ...body } = open;
    const stale = await t.api(`/api/admin/products/${open.id}`, {
      method: 'PUT',
      json: { ...body, skus: open.skus.map(({ stock: _s, ...s }: any) => s) },
      headers: manager.headers,
    });
    expect(stale.status).toBe(409);

    const audit = await t.api('/api/admin/audit?entity=prices', { headers: owner.headers });
    expect(audit.body.items[0].action).toBe('bulk_price_change');
    expect(audit.body.items[0].staffEmail).toBe(manager.email);
  });

  it('drops a discounted price that is no longer below the price, and refuses bad rules', async () => {
    const { products } = await leafWithProducts();
    const p = (await t.api(`/api/admin/products/${products[1].id}`, { headers: manager.headers })).body;
    const sku = p.skus[0];
    await t.db.kysely
      .updateTable('skus')
      .set({ discounted_sales_price: sku.salesPrice - 100 })
      .where('id', '=', sku.id)
      .execute();
    const rule = { productIds: [p.id], kind: 'amount', value: -200, alsoDiscounted: false };
    const preview = await post('/api/admin/prices/preview', rule);
    const line = preview.body.lines.find((l: any) => l.skuId === sku.id);
    expect(line.newPrice).toBe(sku.salesPrice - 200);
    expect(line.newDiscounted).toBeNull();

    for (const [bad, field] of [
      [{ kind: 'percent', value: 5 }, 'categoryId'],
      [{ productIds: [p.id], kind: 'percent', value: -95 }, 'value'],
      [{ productIds: [p.id], kind: 'amount', value: 0 }, 'value'],
    ] as const) {
      const r = await post('/api/admin/prices/preview', bad);
      expect(r.status).toBe(400);
      expect(r.body.error.fields[field]).toBeTruthy();
    }
  });
});

describe('low stock', () => {
  it('lists a sku at or below its threshold, lowest first, and leaves it once restocked', async () => {
    const { products } = await leafWithProducts();
    const p = (await t.api(`/api/admin/products/${products[2].id}`, { headers: manager.headers })).body;
    const sku = p.skus[0];
    await t.db.kysely.updateTable('stocks').set({ quantity: 0 }).where('sku_id', '=', sku.id).execute();
    const low = await t.api('/api/admin/stock/low?size=100', { headers: manager.headers });
    expect(low.status).toBe(200);
    const row = low.body.items.find((r: any) => r.skuId === sku.id);
    expect(row).toMatchObject({ total: 0, threshold: 3, code: sku.code });
    // The product list's "low stock" filter counts the same way.
    const lowProducts = await t.api('/api/admin/products?stock=low&size=100', { headers: manager.headers });
    expect(lowProducts.body.items.some((x: any) => x.id === p.id)).toBe(true);
    const totals = low.body.items.map((r: any) => r.total);
    expect(totals).toEqual([...totals].sort((a, b) => a - b));

    const branchId = (await t.api('/api/admin/reference', { headers: manager.headers })).body.branches[0].id;
    await post('/api/admin/stock/adjustments', { skuId: sku.id, branchId, reason: 'received', delta: 10 });
    const after = await t.api('/api/admin/stock/low?size=100', { headers: manager.headers });
    expect(after.body.items.some((r: any) => r.skuId === sku.id)).toBe(false);
  });
});
