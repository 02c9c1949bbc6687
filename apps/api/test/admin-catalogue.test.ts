import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInStaff, type TestStaff } from './helpers/staff.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// The back office's catalogue on a real database (docs/decisions/0031): optimistic locking,
// the audit log, validation in the one error shape, stock as movements, and every write
// reaching the shopper's reads on the next request, with the read cache on.

let t: TestApp;
let manager: TestStaff;
let other: TestStaff;
let owner: TestStaff;

beforeAll(async () => {
  // The read cache on, as in production: a write must empty it, not wait for it to expire.
  t = await startTestApp({ config: { readCacheMs: 60_000 } });
  manager = await signedInStaff(t, 'manager');
  other = await signedInStaff(t, 'manager');
  owner = await signedInStaff(t, 'owner');
});
afterAll(() => t?.close());

const as = (s: TestStaff) => ({ headers: s.headers });
const get = (s: TestStaff, path: string) => t.api(path, as(s));
const put = (s: TestStaff, path: string, json: unknown) => t.api(path, { method: 'PUT', json, ...as(s) });
const post = (s: TestStaff, path: string, json: unknown = {}) => t.api(path, { method: 'POST', json, ...as(s) });

/** The editor's body for a product as the API answered it. */
function editable(p: any) {
  const { id: _id, hasOrders: _o, createdAt: _c, updatedAt: _u, ...rest } = p;
  return { ...rest, skus: p.skus.map(({ stock: _s, ...s }: any) => s) };
}

async function search(query: string) {
  const r = await t.api('/api/search/indices/items', {
    method: 'POST',
    json: { page: 1, size: 24, fetchCount: true, textParams: [{ field: 'query', value: query }] },
  });
  expect(r.status).toBe(200);
  return r.body;
}

async function categoryListing(categoryId: number, sort: 'price' | 'createdAt' = 'createdAt') {
  const r = await t.api('/api/v2/items/indices', {
    method: 'POST',
    json: {
      page: 1,
      size: 100,
      fetchCount: true,
      facets: true,
      textParams: [{ field: 'categoryId', value: categoryId }],
      sortParams: [{ field: sort, type: 'ASC' }],
    },
  });
  expect(r.status).toBe(200);
  return r.body;
}

async function firstProduct(q: string) {
  const list = await get(manager, `/api/admin/products?q=${encodeURIComponent(q)}&size=1&status=published`);
  expect(list.status).toBe(200);
  const p = await get(manager, `/api/admin/products/${list.body.items[0].id}`);
  expect(p.status).toBe(200);
  return p.body;
}

describe('product edits', () => {
  it('a price change reaches search, the category listing, the product details and the cart quote at once', async () => {
    const p = await firstProduct('sofa');
    const sku = p.skus[0];
    // Warm every cache first.
    const before = await search(p.title);
    expect(before.list.find((c: any) => c.id === p.id)).toBeTruthy();
    await categoryListing(p.primaryCategoryId);
    await t.api(`/api/v3/items/joined?id=${p.id}`);

    const newPrice = 1_234_500;
    const body = editable(p);
    body.skus = body.skus.map((s: any) => ({ ...s, salesPrice: newPrice + (s.id === sku.id ? 0 : 100_000), discountedSalesPrice: null }));
    const saved = await put(manager, `/api/admin/products/${p.id}`, body);
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.version).toBe(p.version + 1);

    const card = (await search(p.title)).list.find((c: any) => c.id === p.id);
    expect(card.sku.salesPrice).toBe(newPrice);
    const listed = (await categoryListing(p.primaryCategoryId)).list.find((c: any) => c.id === p.id);
    expect(listed.sku.salesPrice).toBe(newPrice);
    const details = await t.api(`/api/v3/items/joined?id=${p.id}`);
    expect(JSON.stringify(details.body)).toContain(String(newPrice));
    const quote = await t.api('/api/carts/quote', { method: 'POST', json: { lines: [{ skuCode: sku.code, quantity: 1 }] } });
    expect(quote.status).toBe(200);
    expect(quote.body.lines[0].listPrice ?? quote.body.lines[0].salesPrice ?? quote.body.lines[0].unitPrice).toBe(newPrice);
  });

  it('two managers editing one product: the second save is a 409 and writes nothing', async () => {
    const p = await firstProduct('bed');
    const first = await put(manager, `/api/admin/products/${p.id}`, { ...editable(p), title: `${p.title} (first)` });
    expect(first.status).toBe(200);
    const second = await put(other, `/api/admin/products/${p.id}`, { ...editable(p), title: `${p.title} (second)` });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('stale_version');
    const now = await get(manager, `/api/admin/products/${p.id}`);
    expect(now.body.title).toBe(`${p.title} (first)`);
    // Saves sent at the same moment from one version: exactly one wins.
    const both = await Promise.all(
      ['a', 'b', 'c'].map((x) => put(x === 'b' ? other : manager, `/api/admin/products/${p.id}`, { ...editable(now.body), title: `${p.title} ${x}` })),
    );
    expect(both.map((r) => r.status).sort()).toEqual([200, 409, 409]);
  });

  it('records who changed what, from where, with the changed fields', async () => {
    const p = await firstProduct('chair');
    const r = await put(manager, `/api/admin/products/${p.id}`, { ...editable(p), isNewArrival: !p.isNewArrival, description: 'Solid and plain.' });
    expect(r.status).toBe(200);
    const audit = await get(owner, `/api/admin/audit?entity=product&entityId=${p.id}`);
    expect(audit.status).toBe(200);
    const entry = audit.body.items[0];
    expect(entry.staffEmail).toBe(manager.email);
    expect(entry.action).toBe('update');
    expect(entry.ip).toMatch(/127\.0\.0\.1/);
    expect(entry.diff.isNewArrival).toEqual([p.isNewArrival, !p.isNewArrival]);
    expect(entry.diff.description).toEqual([p.description, 'Solid and plain.']);
    expect(Object.keys(entry.diff).sort()).toEqual(['description', 'isNewArrival']);
  });

  it('refuses bad input with the one error shape, by field, and writes nothing', async () => {
    const p = await firstProduct('table');
    const taken = await firstProduct('sofa');
    // A slug or sku code another product has is a conflict with it (409), as when two saves race.
    const cases: [any, string, string][] = [
      [{ ...editable(p), slug: 'Not A Slug' }, 'slug', 'validation_error'],
      [{ ...editable(p), slug: taken.slug }, 'slug', 'duplicate_slug'],
      [{ ...editable(p), title: '   ' }, 'title', 'validation_error'],
      [{ ...editable(p), categoryIds: [999_999], primaryCategoryId: 999_999 }, 'categoryIds', 'validation_error'],
      [
        { ...editable(p), skus: editable(p).skus.map((s: any, i: number) => (i === 0 ? { ...s, salesPrice: -100 } : s)) },
        'skus.0.salesPrice',
        'validation_error',
      ],
      [
        { ...editable(p), skus: editable(p).skus.map((s: any, i: number) => (i === 0 ? { ...s, discountedSalesPrice: s.salesPrice } : s)) },
        'skus.0.discountedSalesPrice',
        'validation_error',
      ],
      [
        { ...editable(p), skus: editable(p).skus.map((s: any, i: number) => (i === 0 ? { ...s, code: taken.skus[0].code } : s)) },
        'skus.0.code',
        'duplicate_sku_code',
      ],
    ];
    for (const [body, field, code] of cases) {
      const r = await put(manager, `/api/admin/products/${p.id}`, body);
      expect(r.status, `${field}: ${r.text}`).toBe(code === 'validation_error' ? 400 : 409);
      expect(r.body.error.code).toBe(code);
      expect(r.body.error.fields[field], r.text).toBeTruthy();
    }
    const now = await get(manager, `/api/admin/products/${p.id}`);
    expect(now.body.version).toBe(p.version);
  });

  it('a changed slug keeps the old one as a redirect; a new product needs a free slug', async () => {
    const p = await firstProduct('shelf');
    const r = await put(manager, `/api/admin/products/${p.id}`, { ...editable(p), slug: `${p.slug}-new` });
    expect(r.status).toBe(200);
    const row = await t.db.kysely.selectFrom('product_slug_redirects').select('product_id').where('slug', '=', p.slug).executeTakeFirst();
    expect(row?.product_id).toBe(p.id);
    // The old slug still leads to this product, so nobody else may take it.
    const clash = await post(manager, '/api/admin/products', {
      ...editable(p),
      version: undefined,
      slug: p.slug,
      modelCode: null,
      skus: [{ code: 'NEW-SLUG-CLASH', salesPrice: 100, discountedSalesPrice: null }],
    });
    expect(clash.status).toBe(409);
    expect(clash.body.error.fields.slug).toBeTruthy();
  });
});

describe('creating, archiving and duplicating', () => {
  it('a new product with two skus and stock in two branches is found by search and its category at once; archived, it leaves both', async () => {
    const ref = (await get(manager, '/api/admin/reference')).body;
    const leaf = ref.categories.find((c: any) => c.depth === 2);
    const [b1, b2] = ref.branches;
    const created = await post(manager, '/api/admin/products', {
      title: 'Jamuna Teak Rocking Chair',
      slug: 'jamuna-teak-rocking-chair',
      modelCode: 'JTR-0001',
      description: 'A rocking chair of seasoned teak.',
      categoryIds: [leaf.id],
      primaryCategoryId: leaf.id,
      status: 'published',
      skus: [
        { code: 'JTR-0001-NAT', salesPrice: 2_450_000, discountedSalesPrice: null },
        { code: 'JTR-0001-DRK', salesPrice: 2_550_000, discountedSalesPrice: 2_399_900 },
      ],
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id;
    for (const [sku, branch, n] of [
      [created.body.skus[0], b1, 4],
      [created.body.skus[1], b2, 2],
    ] as const) {
      const adj = await post(manager, '/api/admin/stock/adjustments', {
        skuId: sku.id,
        branchId: branch.id,
        reason: 'received',
        delta: n,
        note: 'first delivery',
      });
      expect(adj.status, adj.text).toBe(201);
      expect(adj.body.quantityAfter).toBe(n);
    }
    const found = (await search('rocking')).list.find((c: any) => c.id === id);
    expect(found, 'found by search').toBeTruthy();
    // The card's price is what the cart is charged (discounts in force included).
    const priced = await t.api('/api/carts/quote', { method: 'POST', json: { lines: [{ skuCode: found.sku.code, quantity: 1 }] } });
    expect(priced.body.lines[0].unitPrice).toBe(found.price);
    expect(found.price).toBeLessThanOrEqual(2_399_900);
    const listed = await categoryListing(leaf.id, 'price');
    expect(listed.list.some((c: any) => c.id === id)).toBe(true);
    const stock = await t.api(`/api/stocks?itemId=${id}`);
    if (stock.status === 200) expect(JSON.stringify(stock.body)).toContain('JTR-0001-NAT');

    const archived = await post(manager, `/api/admin/products/${id}/archive`, { version: created.body.version });
    expect(archived.status).toBe(200);
    expect((await search('rocking')).list.some((c: any) => c.id === id)).toBe(false);
    expect((await categoryListing(leaf.id)).list.some((c: any) => c.id === id)).toBe(false);
    expect((await t.api(`/api/v3/items/joined?id=${id}`)).status).toBe(404);
    const quote = await t.api('/api/carts/quote', { method: 'POST', json: { lines: [{ skuCode: 'JTR-0001-NAT', quantity: 1 }] } });
    expect(quote.body.lines[0].status).toBe('unavailable');
    // Archived is kept, with its skus and stock: products are never deleted.
    expect((await get(manager, `/api/admin/products/${id}`)).body.status).toBe('archived');
  });

  it('a duplicate is a draft with new slug and sku codes, not shown to shoppers', async () => {
    const p = await firstProduct('sofa');
    const copy = await post(manager, `/api/admin/products/${p.id}/duplicate`);
    expect(copy.status, copy.text).toBe(201);
    expect(copy.body.status).toBe('draft');
    expect(copy.body.slug).not.toBe(p.slug);
    expect(copy.body.skus.map((s: any) => s.code)).not.toContain(p.skus[0].code);
    expect(copy.body.skus.every((s: any) => s.stock.every((x: any) => x.quantity === 0))).toBe(true);
    expect((await t.api(`/api/v3/items/joined?id=${copy.body.id}`)).status).toBe(404);
  });
});

describe('stock', () => {
  it('adjustments are movements with who and why; stock never goes below zero, even sent at once', async () => {
    const p = await firstProduct('desk');
    const sku = p.skus[0];
    const branchId = (await get(manager, '/api/admin/reference')).body.branches[0].id;
    const counted = await post(manager, '/api/admin/stock/adjustments', { skuId: sku.id, branchId, reason: 'correction', countedQuantity: 5, note: 'count' });
    expect(counted.status).toBe(201);
    expect(counted.body.quantityAfter).toBe(5);
    const sold = await Promise.all(
      Array.from({ length: 8 }, () =>
        post(manager, '/api/admin/stock/adjustments', { skuId: sku.id, branchId, reason: 'sold', delta: -1, note: 'showroom sale' }),
      ),
    );
    expect(sold.filter((r) => r.status === 201)).toHaveLength(5);
    expect(sold.filter((r) => r.status === 409).every((r) => r.body.error.code === 'not_enough_stock')).toBe(true);
    const row = await t.db.kysely
      .selectFrom('stocks')
      .select('quantity')
      .where('sku_id', '=', sku.id)
      .where('branch_id', '=', branchId)
      .executeTakeFirstOrThrow();
    expect(row.quantity).toBe(0);
    const moves = await get(manager, `/api/admin/skus/${sku.id}/movements`);
    expect(moves.body.items.filter((m: any) => m.reason === 'sold')).toHaveLength(5);
    expect(moves.body.items[0].staffEmail).toBe(manager.email);
    // A wrong sign is refused with the reason.
    const wrong = await post(manager, '/api/admin/stock/adjustments', { skuId: sku.id, branchId, reason: 'received', delta: -3 });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields.delta).toBeTruthy();
  });
});

describe('the read side after back-office writes', () => {
  it('is what a full rebuild makes of the same catalogue', async () => {
    const snapshot = async () => {
      const k = t.db.kysely;
      const ps = await k
        .selectFrom('product_search')
        .select([
          'product_id',
          'title',
          'slug',
          'sku_code',
          'price',
          'on_sale',
          'sku_count',
          'colors',
          'category_ids',
          'title_text',
          'model_text',
          'category_text',
          'attribute_text',
          'image_url',
        ])
        .orderBy('product_id')
        .execute();
      const facets = await k.selectFrom('product_facets').selectAll().orderBy('product_id').orderBy('attribute_id').orderBy('value').execute();
      const cf = await k.selectFrom('category_facets').selectAll().orderBy('category_id').orderBy('kind').orderBy('key').execute();
      const cl = await k.selectFrom('category_listing').selectAll().orderBy('category_id').orderBy('product_id').execute();
      return JSON.parse(JSON.stringify({ ps, facets, cf: cf.map((r) => ({ ...r, n: Number(r.n) })), cl: cl.map((r) => ({ ...r, price: Number(r.price) })) }));
    };
    // More writes of every kind: a category move, an unpublish, a price cut.
    const a = await firstProduct('wardrobe');
    const ref = (await get(manager, '/api/admin/reference')).body;
    const elsewhere = ref.categories.find((c: any) => c.depth === 2 && !a.categoryIds.includes(c.id));
    expect((await put(manager, `/api/admin/products/${a.id}`, { ...editable(a), categoryIds: [elsewhere.id], primaryCategoryId: elsewhere.id })).status).toBe(
      200,
    );
    const b = await firstProduct('mattress');
    expect((await put(manager, `/api/admin/products/${b.id}`, { ...editable(b), status: 'draft' })).status).toBe(200);
    const c = await firstProduct('dining');
    const cut = { ...editable(c), skus: editable(c).skus.map((s: any) => ({ ...s, discountedSalesPrice: Math.floor(s.salesPrice / 2) })) };
    expect((await put(manager, `/api/admin/products/${c.id}`, cut)).status).toBe(200);

    const incremental = await snapshot();
    await t.app.reindexCatalogue();
    const rebuilt = await snapshot();
    expect(incremental.ps).toEqual(rebuilt.ps);
    expect(incremental.facets).toEqual(rebuilt.facets);
    expect(incremental.cl).toEqual(rebuilt.cl);
    expect(incremental.cf).toEqual(rebuilt.cf);
  });

  it('drops the stored answers of the words a written product has, so a common word is searched live and right', async () => {
    await t.app.reindexCatalogue();
    const stored = await t.db.kysely.selectFrom('search_words').select('word').execute();
    const word = stored.map((r) => r.word).find((w) => w === 'sofa') ?? stored[0].word;
    const p = await firstProduct(word);
    const cheapest = 100;
    const body = editable(p);
    body.skus = body.skus.map((s: any) => ({ ...s, salesPrice: cheapest, discountedSalesPrice: null }));
    expect((await put(manager, `/api/admin/products/${p.id}`, body)).status).toBe(200);
    expect(await t.db.kysely.selectFrom('search_words').select('word').where('word', '=', word).executeTakeFirst()).toBeUndefined();
    const r = await t.api('/api/search/indices/items', {
      method: 'POST',
      json: { page: 1, size: 5, textParams: [{ field: 'query', value: word }], sortParams: [{ field: 'price', type: 'ASC' }] },
    });
    expect(r.body.list[0].id).toBe(p.id);
  });
});

describe('bundles', () => {
  it('a bundle is made of other products’ skus, with quantities; bad contents are refused by field', async () => {
    const singles = async (q: string) => {
      const list = await get(manager, `/api/admin/products?q=${q}&size=10&status=published`);
      for (const row of list.body.items) {
        const p = (await get(manager, `/api/admin/products/${row.id}`)).body;
        if (p.kind === 'single') return p;
      }
      throw new Error(`no single product for ${q}`);
    };
    const a = await singles('bed');
    const b = await singles('wardrobe');
    const ref = (await get(manager, '/api/admin/reference')).body;
    const leaf = ref.categories.find((c: any) => c.depth === 2);
    const base = {
      title: 'Bhairab Bedroom Bundle',
      slug: 'bhairab-bedroom-bundle',
      kind: 'bundle',
      categoryIds: [leaf.id],
      primaryCategoryId: leaf.id,
      status: 'published',
      skus: [{ code: 'BND-BHAIRAB', salesPrice: 15_000_000, discountedSalesPrice: null }],
    };
    for (const [bundleItems, field] of [
      [[{ skuCode: 'NO-SUCH-SKU', quantity: 1 }], 'bundleItems.0.skuCode'],
      [[{ skuCode: a.skus[0].code, quantity: 0 }], 'bundleItems.0.quantity'],
      [[], 'bundleItems'],
    ] as const) {
      const r = await post(manager, '/api/admin/products', { ...base, bundleItems });
      expect(r.status, r.text).toBe(400);
      expect(r.body.error.fields[field], r.text).toBeTruthy();
    }
    const single = await post(manager, '/api/admin/products', { ...base, kind: 'single', bundleItems: [{ skuCode: a.skus[0].code, quantity: 1 }] });
    expect(single.body.error.fields.bundleItems).toBeTruthy();

    const made = await post(manager, '/api/admin/products', {
      ...base,
      bundleItems: [
        { skuCode: a.skus[0].code, quantity: 1 },
        { skuCode: b.skus[0].code, quantity: 2 },
      ],
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body.bundleItems.map((x: any) => [x.skuCode, x.quantity])).toEqual(
      [
        [a.skus[0].code, 1],
        [b.skus[0].code, 2],
      ].sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
    );
    // A sku inside a bundle cannot be removed from its own product.
    const own = await get(manager, `/api/admin/products/${a.id}`);
    if (own.body.skus.length > 1) {
      const without = { ...editable(own.body), skus: editable(own.body).skus.filter((s: any) => s.code !== a.skus[0].code) };
      const r = await put(manager, `/api/admin/products/${a.id}`, without);
      expect(r.status).toBe(400);
      expect(r.body.error.fields.skus).toMatch(/bundle|orders/);
    }
  });
});

describe('the product list', () => {
  it('pages, sorts and filters on the server, the same rows whichever way a page is reached', async () => {
    const byStock = await get(manager, '/api/admin/products?sort=stock&dir=asc&size=50');
    const stocks = byStock.body.items.map((r: any) => r.stock);
    expect(stocks).toEqual([...stocks].sort((a: number, b: number) => a - b));
    const out = await get(manager, '/api/admin/products?stock=out&size=100');
    expect(out.body.items.every((r: any) => r.stock === 0)).toBe(true);
    const inStock = await get(manager, '/api/admin/products?stock=in&size=100');
    expect(inStock.body.items.every((r: any) => r.stock > 0)).toBe(true);
    expect(out.body.total + inStock.body.total).toBe((await get(manager, '/api/admin/products?size=1')).body.total);
    // Two pages of 10 are the first 20 in the same order.
    const twenty = (await get(manager, '/api/admin/products?sort=price&dir=desc&size=20')).body.items.map((r: any) => r.id);
    const first = (await get(manager, '/api/admin/products?sort=price&dir=desc&size=10&page=1')).body.items.map((r: any) => r.id);
    const second = (await get(manager, '/api/admin/products?sort=price&dir=desc&size=10&page=2')).body.items.map((r: any) => r.id);
    expect([...first, ...second]).toEqual(twenty);
    const prices = (await get(manager, '/api/admin/products?sort=price&dir=desc&size=20')).body.items.map((r: any) => r.price);
    expect(prices).toEqual([...prices].sort((a: number, b: number) => b - a));
  });
});
