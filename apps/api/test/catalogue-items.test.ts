import type { TBranch, TCategory, TProductCard, TProductDetails, TStockRow } from '@storefront/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectApiError } from './helpers/assertions.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// The catalogue's reads other than search, on the demo shop: categories,
// one product, its content, stock, showrooms, options and the site content the screens use.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

type Page<T> = { list: T[]; nextPageToken: string; count?: number };
const post = <T = any>(path: string, body: unknown) => t.api<T>(path, { method: 'POST', json: body });

/** Follows nextPageToken from page 1 to the end, checking each token is the next page. */
async function allPages<T>(path: string, body: Record<string, unknown>): Promise<{ items: T[]; pages: Page<T>[] }> {
  const pages: Page<T>[] = [];
  for (let page = 1; ; page++) {
    const res = await post<Page<T>>(path, { ...body, page });
    expect(res.status, res.text.slice(0, 200)).toBe(200);
    pages.push(res.body);
    if (res.body.nextPageToken === '') break;
    expect(res.body.nextPageToken).toBe(String(page + 1));
    if (page > 200) throw new Error('paging never ends');
  }
  return { items: pages.flatMap((p) => p.list), pages };
}

describe('POST /api/categories/search', () => {
  it('pages through the whole tree with size 50 and gives each category its spec fields', async () => {
    const { items, pages } = await allPages<TCategory>('/api/categories/search', { size: 50 });
    expect(pages).toHaveLength(1);
    const count = (await post<Page<TCategory>>('/api/categories/search', { fetchCount: true, size: 1 })).body.count!;
    expect(items).toHaveLength(count);
    const living = items.find((c) => c.slug === 'living-room')!;
    expect(living).toMatchObject({ name: 'Living Room', parentId: null, sortOrder: 0, img: expect.stringMatching(/^\/media\//) });
    expect(living.extras.shop_banner_image_url).toMatch(/^\/media\/banner\//);
    expect(living.children.map((c) => c.name)).toEqual(['Sofas', 'Armchairs', 'Coffee Tables', 'TV Units']);
    const leaf = items.find((c) => c.slug === 'three-seater-sofas')!;
    expect(leaf.children).toEqual([]);
    expect(leaf.options.map((o) => o.discriminator)).toEqual(['Color', 'Size']);
    expect(leaf.options[0].values[0]).toEqual({ displayLabel: expect.any(String) });
    // Every parent comes before its children, so a client can build the tree in one pass.
    const seen = new Set<number>();
    for (const c of items) {
      if (c.parentId !== null) expect(seen.has(c.parentId)).toBe(true);
      seen.add(c.id);
    }
  });

  it('small pages return every category exactly once and end with an empty token', async () => {
    const { items, pages } = await allPages<TCategory>('/api/categories/search', { size: 7, sortParams: [{ field: 'name', type: 'ASC' }] });
    expect(new Set(items.map((c) => c.id)).size).toBe(items.length);
    expect(pages.at(-1)!.nextPageToken).toBe('');
    const names = items.map((c) => c.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : 1)));
  });

  it('filters by parentId and answers an empty list for no match', async () => {
    const res = await post<Page<TCategory>>('/api/categories/search', { textParams: [{ field: 'parentId', value: 1 }] });
    expect(res.body.list.map((c) => c.name)).toEqual(['Sofas', 'Armchairs', 'Coffee Tables', 'TV Units']);
    const none = await post('/api/categories/search', { textParams: [{ field: 'slug', value: 'no-such-thing' }], fetchCount: true });
    expect(none.body).toEqual({ list: [], nextPageToken: '', count: 0 });
  });

  it('refuses invalid bodies with a 400 in the one error shape', async () => {
    expectApiError(await post('/api/categories/search', { page: 0 }), 400, 'validation_error');
    expectApiError(await post('/api/categories/search', { size: 500 }), 400, 'validation_error');
    expectApiError(await post('/api/categories/search', { textParams: [{ field: 'image_url', value: 'x' }] }), 400, 'bad_request');
    expectApiError(await t.api('/api/categories/search', { method: 'POST', body: '{not json', headers: { 'content-type': 'application/json' } }), 400);
    expectApiError(await t.api('/api/categories/search', { method: 'POST', json: {}, apiKey: null }), 401);
  });
});

describe('GET /api/v3/items/joined', () => {
  it('returns a product with skus, attribute values, pictures per colour and its category path', async () => {
    const res = await t.api<TProductDetails>('/api/v3/items/joined?id=1');
    expect(res.status).toBe(200);
    const p = res.body;
    expect(p).toMatchObject({ id: 1, kind: 'single', modelCode: expect.stringMatching(/^(AFL|DFL)-\d+$/) });
    // Leaf first, then its ancestors (spec §3: the first category's id is used).
    expect(p.categories.map((c) => c.slug)).toEqual(['three-seater-sofas', 'sofas', 'living-room']);
    expect(p.categoryIds).toEqual(p.categories.map((c) => c.id));
    expect(p.skus.length).toBeGreaterThan(0);
    for (const s of p.skus) {
      expect(Number.isInteger(s.salesPrice)).toBe(true);
      expect(s.attributeValues.map((a) => a.optionDisplayLabel)).toEqual(['Color', 'Size']);
      if (s.discountedSalesPrice !== null) expect(s.discountedSalesPrice).toBeLessThan(s.salesPrice);
    }
    const colours = new Set(p.skus.map((s) => s.attributeValues[0].value));
    expect(new Set(p.images.map((i) => i.variantValue))).toEqual(colours);
    expect(p.image).toBe(p.images[0].url);
    expect(p.skuDetails).toEqual([]);
  });

  it('finds the same product by slug and by model code in any case', async () => {
    const byId = (await t.api<TProductDetails>('/api/v3/items/joined?id=7')).body;
    const bySlug = await t.api<TProductDetails>(`/api/v3/items/joined?slug=${byId.slug}`);
    const byCode = await t.api<TProductDetails>(`/api/v3/items/joined?code=${byId.modelCode!.toLowerCase()}`);
    expect(bySlug.body).toEqual(byId);
    expect(byCode.body).toEqual(byId);
  });

  it('a bundle carries its parts (spec §3 skuDetails)', async () => {
    const bundles = (await t.api('/api/bundles/joined')).body.list;
    const res = await t.api<TProductDetails>(`/api/v3/items/joined?id=${bundles[0].id}`);
    expect(res.body.kind).toBe('bundle');
    expect(res.body.skuDetails.length).toBeGreaterThanOrEqual(2);
    for (const part of res.body.skuDetails) {
      expect(part).toMatchObject({ quantity: 1, skuCode: expect.any(String), product: { id: expect.any(Number), title: expect.any(String) } });
    }
  });

  it('an unknown product is a 404; no key, two keys or a bad id are 400s', async () => {
    expectApiError(await t.api('/api/v3/items/joined?id=999999'), 404, 'not_found');
    expectApiError(await t.api('/api/v3/items/joined?slug=nope'), 404, 'not_found');
    expectApiError(await t.api('/api/v3/items/joined'), 400);
    expectApiError(await t.api('/api/v3/items/joined?id=1&slug=x'), 400);
    expectApiError(await t.api('/api/v3/items/joined?id=abc'), 400, 'validation_error');
    expectApiError(await t.api('/api/v3/items/joined?id=-4'), 400, 'validation_error');
  });
});

describe("a product's content", () => {
  it('GET /api/v2/items/content gives the description and a specification from the data', async () => {
    const res = await t.api('/api/v2/items/content?itemId=1');
    expect(res.status).toBe(200);
    expect(res.body.description.length).toBeGreaterThan(40);
    const labels = res.body.specifications.map((s: { label: string }) => s.label);
    expect(labels).toEqual(['Model number', 'Category', 'Color', 'Size']);
    expectApiError(await t.api('/api/v2/items/content?itemId=999999'), 404);
    expectApiError(await t.api('/api/v2/items/content'), 400, 'validation_error');
  });

  it('articles and bullets are those aimed at the product category; bullets include the general ones', async () => {
    const sofaArticles = (await t.api('/api/v2/items/cms/articles?itemId=1')).body.list;
    expect(sofaArticles.map((a: { slug: string }) => a.slug)).toEqual(['fabric-care']);
    const bullets = (await t.api('/api/v2/items/cms/bullets?itemId=1')).body.list.map((b: { slug: string }) => b.slug);
    expect(bullets).toEqual(expect.arrayContaining(['free-delivery', 'frame-warranty-sofa', 'removable-covers']));
    expect(bullets).not.toContain('termite-treated');
    expectApiError(await t.api('/api/v2/items/cms/bullets?itemId=999999'), 404);
  });

  it('GET /api/items/cms/variants/images groups the pictures by colour', async () => {
    const item = (await t.api<TProductDetails>('/api/v3/items/joined?id=1')).body;
    const res = await t.api('/api/items/cms/variants/images?itemId=1');
    expect(res.status).toBe(200);
    expect(res.body.variants.length).toBe(new Set(item.images.map((i) => i.variantValue)).size);
    for (const v of res.body.variants) {
      expect(v.name).toBe('color');
      expect(v.images.length).toBeGreaterThan(0);
      for (const img of v.images) expect(img.url).toContain(v.value);
    }
  });

  it('POST /api/items/linked/search pages through products of the same category, without the product itself', async () => {
    const self = (await t.api<TProductDetails>('/api/v3/items/joined?id=1')).body;
    const { items } = await allPages<TProductCard>('/api/items/linked/search', { size: 5, textParams: [{ field: 'itemId', value: 1 }] });
    expect(items.length).toBeGreaterThan(5);
    expect(items.map((p) => p.id)).not.toContain(1);
    expect(new Set(items.map((p) => p.id)).size).toBe(items.length);
    for (const p of items) expect(p.categoryId).toBe(self.categories[0].id);
    expectApiError(await post('/api/items/linked/search', {}), 400, 'bad_request');
    expectApiError(
      await post('/api/items/linked/search', {
        textParams: [
          { field: 'itemId', value: 1 },
          { field: 'x', value: 1 },
        ],
      }),
      400,
    );
    expectApiError(await post('/api/items/linked/search', { textParams: [{ field: 'itemId', value: 999999 }] }), 404);
  });

  it('POST /api/items/attachments/search lists 3D models, filtered by item', async () => {
    const all = await allPages<{ itemId: number; kind: string; url: string }>('/api/items/attachments/search', { size: 20 });
    expect(all.items.length).toBeGreaterThan(0);
    for (const a of all.items) expect(a).toMatchObject({ kind: '3d-model', url: '/sofa-3d' });
    const one = await post('/api/items/attachments/search', { textParams: [{ field: 'itemId', value: all.items[0].itemId }] });
    expect(one.body.list).toHaveLength(1);
    const none = await post('/api/items/attachments/search', { textParams: [{ field: 'itemId', value: 5 }] });
    expect(none.body).toEqual({ list: [], nextPageToken: '' });
  });

  it('GET /api/bundles/joined lists the sets with their parts; an unknown or non-bundle id is a 404', async () => {
    const res = await t.api('/api/bundles/joined');
    expect(res.body.list.length).toBe(4);
    for (const b of res.body.list) {
      expect(b.sku.code).toBe(b.modelCode);
      expect(b.skuDetails.length).toBeGreaterThanOrEqual(2);
    }
    expect((await t.api(`/api/bundles/joined?id=${res.body.list[1].id}`)).body.list).toHaveLength(1);
    expectApiError(await t.api('/api/bundles/joined?id=1'), 404);
  });
});

describe('stock and showrooms', () => {
  it('POST /api/stocks/items/skus/search gives stock per sku per branch, paged to the end', async () => {
    const item = (await t.api<TProductDetails>('/api/v3/items/joined?id=1')).body;
    const { items } = await allPages<TStockRow>('/api/stocks/items/skus/search', { size: 4, textParams: [{ field: 'itemId', value: 1 }] });
    const codes = new Set(item.skus.map((s) => s.code));
    for (const r of items) {
      expect(codes.has(r.skuCode)).toBe(true);
      expect(r.itemId).toBe(1);
      expect(r.quantity).toBeGreaterThanOrEqual(0);
    }
    expect(new Set(items.map((r) => `${r.skuCode}@${r.branchId}`)).size).toBe(items.length);
    const direct = await t.db.kysely
      .selectFrom('stocks')
      .innerJoin('skus', 'skus.id', 'stocks.sku_id')
      .select(['skus.code', 'stocks.branch_id', 'stocks.quantity'])
      .where('skus.product_id', '=', 1)
      .execute();
    expect(items.length).toBe(direct.length);
  });

  it('filters by several sku codes and by branch; no match is an empty list', async () => {
    const stocked = await post<Page<TStockRow>>('/api/stocks/items/skus/search', { size: 100, textParams: [{ field: 'itemId', value: 1 }] });
    const codes = [...new Set(stocked.body.list.map((r) => r.skuCode))].slice(0, 2);
    expect(codes.length).toBe(2);
    const both = await post<Page<TStockRow>>('/api/stocks/items/skus/search', {
      size: 100,
      textParams: [{ field: 'skuCode', value: codes.join(','), matchType: 'IN' }],
    });
    expect(new Set(both.body.list.map((r) => r.skuCode))).toEqual(new Set(codes));
    const res = await post<Page<TStockRow>>('/api/stocks/items/skus/search', {
      size: 100,
      textParams: [
        { field: 'skuCode', value: codes.join(','), matchType: 'IN' },
        { field: 'branchId', value: 1 },
      ],
    });
    expect(res.body.list.length).toBe(both.body.list.filter((r) => r.branchId === 1).length);
    for (const r of res.body.list) {
      expect(codes).toContain(r.skuCode);
      expect(r.branchId).toBe(1);
    }
    const none = await post('/api/stocks/items/skus/search', { textParams: [{ field: 'skuCode', value: 'NO-SUCH-SKU' }] });
    expect(none.body).toEqual({ list: [], nextPageToken: '' });
    expectApiError(await post('/api/stocks/items/skus/search', { textParams: [{ field: 'quantity', value: 1 }] }), 400);
  });

  it('stock is answered fresh, with an ETag to revalidate and no-cache', async () => {
    const body = { textParams: [{ field: 'itemId', value: 2 }], size: 100 };
    const first = await post<Page<TStockRow>>('/api/stocks/items/skus/search', body);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const row = first.body.list[0];
    const sku = await t.db.kysely.selectFrom('skus').select('id').where('code', '=', row.skuCode).executeTakeFirstOrThrow();
    await t.db.kysely
      .updateTable('stocks')
      .set({ quantity: row.quantity + 3 })
      .where('sku_id', '=', sku.id)
      .where('branch_id', '=', row.branchId)
      .execute();
    const second = await post<Page<TStockRow>>('/api/stocks/items/skus/search', body);
    expect(second.body.list.find((r) => r.skuCode === row.skuCode && r.branchId === row.branchId)!.quantity).toBe(row.quantity + 3);
    expect(second.headers.get('etag')).not.toBe(first.headers.get('etag'));
  });

  it('GET /api/branches lists the showrooms in order, and by kind', async () => {
    const all = (await t.api<{ list: TBranch[] }>('/api/branches')).body.list;
    expect(all).toHaveLength(6);
    expect(all.map((b) => b.sortOrder)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(all[0]).toMatchObject({ name: 'Gulshan Flagship Showroom', city: 'Dhaka', kind: 'showroom', latitude: expect.any(Number) });
    const outlets = (await t.api<{ list: TBranch[] }>('/api/branches?kind=outlet')).body.list;
    expect(outlets.map((b) => b.kind)).toEqual(['outlet']);
    expectApiError(await t.api('/api/branches?kind=castle'), 400, 'validation_error');
  });
});

describe('attributes, options and site content', () => {
  it('the attribute search pages from 1 with size 50 and fetchCount, list of id and sortOrder (spec §7)', async () => {
    const res = await post('/api/attributes/search', { page: 1, size: 50, fetchCount: true, textParams: [] });
    expect(res.body).toEqual({
      list: [
        { id: expect.any(Number), name: 'color', displayLabel: 'Color', sortOrder: 1 },
        { id: expect.any(Number), name: 'size', displayLabel: 'Size', sortOrder: 2 },
      ],
      nextPageToken: '',
      count: 2,
    });
    const { items } = await allPages('/api/attributes/search', { size: 1 });
    expect(items).toHaveLength(2);
    expectApiError(await post('/api/attributes/search', { size: 0 }), 400, 'validation_error');
  });

  it('GET /api/options gives each attribute with the values in use', async () => {
    const list = (await t.api('/api/options')).body.list;
    expect(list.map((o: { name: string }) => o.name)).toEqual(['color', 'size']);
    expect(list[0].values.map((v: { displayLabel: string }) => v.displayLabel)).toContain('Teal');
    expect(list[1].values.map((v: { displayLabel: string }) => v.displayLabel)).toContain('Queen 60x80 in');
  });

  it('sliders, bullets and attribute texts', async () => {
    const slides = (await t.api('/api/cms/sliders/images')).body.list;
    expect(slides).toHaveLength(3);
    for (const s of slides)
      expect(s).toMatchObject({ title: expect.any(String), image: expect.stringMatching(/^\/media\//), link: expect.stringMatching(/^\/shop\?/) });
    const bullets = (await t.api('/api/cms/bullets')).body.list.map((b: { slug: string }) => b.slug);
    expect(bullets).toEqual(['free-delivery', 'warranty', 'payment-options']);
    const size = (await t.api('/api/cms/attrs/text?attribute=size')).body.list;
    expect(size).toHaveLength(1);
    expect(size[0].title).toBe('Size guide');
    expect((await t.api('/api/cms/attrs/text')).body.list).toHaveLength(2);
  });

  it('a slider linking off the site is shown without its link', async () => {
    const now = new Date().toISOString();
    await t.db.kysely
      .insertInto('cms_content')
      .values({
        type: 'slider',
        title: 'Elsewhere',
        slug: 'elsewhere',
        body: '',
        fields: JSON.stringify({ image: '/media/banner/sofa/5f7a8a.svg', link: 'https://evil.example/' }),
        sort_order: 9,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const slide = (await t.api('/api/cms/sliders/images')).body.list.find((s: { title: string }) => s.title === 'Elsewhere');
    expect(slide.link).toBeNull();
  });
});

describe('sitemap', () => {
  it('/sitemap.xml indexes a pages file and product files that list every product by its readable address', async () => {
    const index = await fetch(`${t.baseUrl}/sitemap.xml`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/xml/);
    const xml = await index.text();
    expect(xml).toContain('<sitemapindex');
    expect(xml).toContain('/sitemaps/pages.xml');
    const products = await (await fetch(`${t.baseUrl}/sitemaps/products-1.xml`)).text();
    const total = Number(
      (
        await t.db.kysely
          .selectFrom('products')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(products.match(/<url>/g)).toHaveLength(total);
    expect(products).toMatch(/<loc>http:\/\/127\.0\.0\.1\/products\/[a-z0-9-]+<\/loc>/);
    const pages = await (await fetch(`${t.baseUrl}/sitemaps/pages.xml`)).text();
    expect(pages).toContain('/shop?categoryId=');
    expect((await fetch(`${t.baseUrl}/sitemaps/products-2.xml`)).status).toBe(404);
    expect((await fetch(`${t.baseUrl}/sitemaps/products-x.xml`)).status).toBe(404);
  });
});

describe('the OpenAPI document', () => {
  it('describes every catalogue endpoint with its body or query and its answers', async () => {
    const doc = (await t.api('/api/openapi.json', { apiKey: null })).body;
    const expected: [string, string][] = [
      ['/api/categories/search', 'post'],
      ['/api/v3/items/joined', 'get'],
      ['/api/v2/items/content', 'get'],
      ['/api/v2/items/indices', 'post'],
      ['/api/search/indices/items', 'post'],
      ['/api/bundles/joined', 'get'],
      ['/api/items/linked/search', 'post'],
      ['/api/items/attachments/search', 'post'],
      ['/api/stocks/items/skus/search', 'post'],
      ['/api/items/cms/variants/images', 'get'],
      ['/api/v2/items/cms/articles', 'get'],
      ['/api/v2/items/cms/bullets', 'get'],
      ['/api/cms/sliders/images', 'get'],
      ['/api/cms/attrs/text', 'get'],
      ['/api/cms/articles/search', 'post'],
      ['/api/cms/bullets', 'get'],
      ['/api/options', 'get'],
      ['/api/kvps', 'get'],
      ['/api/branches', 'get'],
      ['/api/attributes/search', 'post'],
    ];
    for (const [path, method] of expected) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(JSON.stringify(op.responses['200']), path).toContain('"type"');
      if (method === 'post') expect(JSON.stringify(op.requestBody), path).toContain('textParams');
    }
  });
});
