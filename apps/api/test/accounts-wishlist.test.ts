import { WISHLIST_SEARCH } from '@storefront/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectApiError } from './helpers/assertions.ts';
import { signUp, type TestCustomer } from './helpers/accounts.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// The wishlist (POST /api/wishlists/items and its search) on the demo catalogue.

let t: TestApp;
let skus: { itemId: number; skuCode: string; title: string; salesPrice: number }[];

beforeAll(async () => {
  t = await startTestApp({ config: { trustProxy: true } });
  skus = (
    await t.db.kysely
      .selectFrom('skus')
      .innerJoin('products', 'products.id', 'skus.product_id')
      .select(['products.id as itemId', 'skus.code as skuCode', 'products.title as title', 'skus.sales_price as salesPrice'])
      .orderBy('skus.id')
      .limit(15)
      .execute()
  ).map((r) => ({ ...r, salesPrice: Number(r.salesPrice) }));
});
afterAll(() => t?.close());

const set = (c: TestCustomer, body: Record<string, unknown>) => t.api('/api/wishlists/items', { method: 'POST', json: body, headers: c.auth });
const list = (c: TestCustomer, body: Record<string, unknown> = WISHLIST_SEARCH) =>
  t.api('/api/wishlists/items/search', { method: 'POST', json: body, headers: c.auth });

describe('wishlist', () => {
  it('adds an item with itemId, skuCode, userId and wishlistId, and the product to show', async () => {
    const c = await signUp(t);
    const s = skus[0];
    const res = await set(c, { itemId: s.itemId, skuCode: s.skuCode, action: 'add' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      inWishlist: true,
      count: 1,
      item: {
        id: expect.any(Number),
        wishlistId: expect.any(Number),
        userId: c.userId,
        itemId: s.itemId,
        skuCode: s.skuCode,
        dateCreated: expect.any(String),
        title: s.title,
        slug: expect.any(String),
        categoryId: expect.any(Number),
        image: expect.any(String),
        salesPrice: s.salesPrice,
        discountedSalesPrice: expect.toSatisfy((v: unknown) => v === null || Number.isInteger(v)),
      },
    });
  });

  it('adding twice or removing twice changes nothing; no action toggles', async () => {
    const c = await signUp(t);
    const s = skus[1];
    expect((await set(c, { itemId: s.itemId, skuCode: s.skuCode, action: 'add' })).body.count).toBe(1);
    expect((await set(c, { itemId: s.itemId, skuCode: s.skuCode, action: 'add' })).body).toMatchObject({ inWishlist: true, count: 1 });
    expect((await set(c, { itemId: s.itemId, skuCode: s.skuCode, action: 'remove' })).body).toEqual({ inWishlist: false, item: null, count: 0 });
    expect((await set(c, { itemId: s.itemId, skuCode: s.skuCode, action: 'remove' })).body).toEqual({ inWishlist: false, item: null, count: 0 });
    expect((await set(c, { itemId: s.itemId, skuCode: s.skuCode })).body).toMatchObject({ inWishlist: true, count: 1 });
    expect((await set(c, { itemId: s.itemId, skuCode: s.skuCode })).body).toMatchObject({ inWishlist: false, count: 0 });
  });

  it('ten adds of one item at once keep it once', async () => {
    const c = await signUp(t);
    const s = skus[2];
    const results = await Promise.all(Array.from({ length: 10 }, () => set(c, { itemId: s.itemId, skuCode: s.skuCode, action: 'add' })));
    for (const r of results) expect(r.status).toBe(200);
    expect((await list(c)).body.count).toBe(1);
  });

  it('lists 10 at a time, newest first by dateCreated, with nextPageToken', async () => {
    const c = await signUp(t);
    const chosen = skus.slice(0, 12);
    for (const s of chosen) {
      expect((await set(c, { itemId: s.itemId, skuCode: s.skuCode, action: 'add' })).status).toBe(200);
      // Distinct timestamps, so "newest first" has one right answer.
      await new Promise((r) => setTimeout(r, 3));
    }
    const first = await list(c);
    expect(first.status).toBe(200);
    expect(first.body.list).toHaveLength(10);
    expect(first.body).toMatchObject({ nextPageToken: '2', count: 12 });
    expect(first.body.list.map((i: { skuCode: string }) => i.skuCode)).toEqual(
      chosen
        .slice(2)
        .reverse()
        .map((s) => s.skuCode),
    );
    const second = await list(c, { ...WISHLIST_SEARCH, page: 2 });
    expect(second.body.list.map((i: { skuCode: string }) => i.skuCode)).toEqual([chosen[1].skuCode, chosen[0].skuCode]);
    expect(second.body.nextPageToken).toBe('');
    // Filtering by item tells whether one product is in the wishlist.
    const one = await list(c, { textParams: [{ field: 'itemId', value: chosen[3].itemId, matchType: 'EXACT' }] });
    expect(one.body.list.map((i: { skuCode: string }) => i.skuCode)).toContain(chosen[3].skuCode);
    // A non-number for the integer itemId is a 400 on both databases, never a 500.
    for (const bad of [{ value: 'abc' }, { value: '1,x', matchType: 'IN' }, { value: '1', matchType: 'CONTAINS' }]) {
      expectApiError(await list(c, { textParams: [{ field: 'itemId', ...bad }] }), 400);
    }
  });

  it('refuses a sku of another product and unknown items with 404, bad bodies with 400', async () => {
    const c = await signUp(t);
    const other = skus.find((s) => s.itemId !== skus[0].itemId)!;
    expectApiError(await set(c, { itemId: skus[0].itemId, skuCode: other.skuCode, action: 'add' }), 404, 'not_found');
    expectApiError(await set(c, { itemId: 999_999, skuCode: skus[0].skuCode, action: 'add' }), 404);
    expectApiError(await set(c, { itemId: 'x', skuCode: skus[0].skuCode }), 400, 'validation_error');
    expectApiError(await set(c, { itemId: 1e20, skuCode: skus[0].skuCode }), 400, 'validation_error');
    expectApiError(await set(c, { itemId: skus[0].itemId, skuCode: skus[0].skuCode, action: 'explode' }), 400);
  });

  it('another customer’s wishlist item answers 404 and their list stays their own', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const item = (await set(a, { itemId: skus[4].itemId, skuCode: skus[4].skuCode, action: 'add' })).body.item;
    expectApiError(await t.api(`/api/wishlists/items/${item.id}`, { method: 'DELETE', headers: b.auth }), 404, 'not_found');
    expect((await list(b)).body).toMatchObject({ list: [], count: 0 });
    expect((await list(a)).body.count).toBe(1);
    const del = await t.api(`/api/wishlists/items/${item.id}`, { method: 'DELETE', headers: a.auth });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ count: 0 });
  });

  it('is for signed-in customers only', async () => {
    expectApiError(await t.api('/api/wishlists/items', { method: 'POST', json: { itemId: skus[0].itemId, skuCode: skus[0].skuCode } }), 401, 'unauthorized');
    expectApiError(await t.api('/api/wishlists/items/search', { method: 'POST', json: WISHLIST_SEARCH }), 401);
  });
});
