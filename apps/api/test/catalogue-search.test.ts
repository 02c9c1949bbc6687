import { priceSku, SEARCH_FIELD_WEIGHTS, searchText, searchWords, type TItemSearchResult, type TProductCard } from '@storefront/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validDiscounts } from '../src/modules/pricing/pricing.service.ts';
import { expectApiError } from './helpers/assertions.ts';
import { startTestApp, testDbKind, type TestApp } from './helpers/test-app.ts';

// Listings and the full-text search: what matches, in which order, facets,
// model numbers, pages, and bad requests. The expected results are computed here from the
// database rows, independently of the SQL, and on both databases; a last block checks that
// SQLite and PostgreSQL give the same answers for the same data.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

type Body = Record<string, unknown>;
const search = (app: TestApp, body: Body) => app.api<TItemSearchResult>('/api/search/indices/items', { method: 'POST', json: body });
const query = (value: string, extra: Body = {}) => ({ textParams: [{ field: 'query', value }], ...extra });

/** Every page from 1 to the empty token; checks the tokens and that pages never overlap. */
async function everything(app: TestApp, body: Body, size = 24): Promise<TProductCard[]> {
  const out: TProductCard[] = [];
  for (let page = 1; ; page++) {
    const res = await search(app, { ...body, page, size });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    out.push(...res.body.list);
    if (res.body.nextPageToken === '') break;
    expect(res.body.nextPageToken).toBe(String(page + 1));
    expect(res.body.list).toHaveLength(size);
    if (page > 100) throw new Error('paging never ends');
  }
  expect(new Set(out.map((p) => p.id)).size).toBe(out.length);
  return out;
}

/** Each product's words per field, read straight from the catalogue tables. */
async function documents(app: TestApp) {
  const db = app.db.kysely;
  const products = await db.selectFrom('products').select(['id', 'title', 'model_code', 'created_at']).execute();
  const skus = await db.selectFrom('skus').select(['product_id', 'code']).execute();
  const cats = await db
    .selectFrom('product_categories as pc')
    .innerJoin('categories as c', 'c.id', 'pc.category_id')
    .select(['pc.product_id', 'c.name'])
    .execute();
  const vals = await db
    .selectFrom('sku_attribute_values as v')
    .innerJoin('skus as s', 's.id', 'v.sku_id')
    .select(['s.product_id', 'v.display_label'])
    .execute();
  const of = <T extends { product_id: number }>(rows: T[], id: number) => rows.filter((r) => r.product_id === id);
  return products
    .filter((p) => skus.some((s) => s.product_id === p.id))
    .map((p) => ({
      id: p.id,
      createdAt: p.created_at,
      fields: {
        title: searchText(p.title),
        model: searchText([p.model_code ?? '', ...of(skus, p.id).map((s) => s.code)].join(' ')),
        categories: searchText(
          of(cats, p.id)
            .map((c) => c.name)
            .join(' '),
        ),
        attributes: searchText(
          of(vals, p.id)
            .map((v) => v.display_label)
            .join(' '),
        ),
      },
    }));
}

const hasPrefix = (text: string, word: string) => text.split(' ').some((w) => w.startsWith(word));

/** The expected answer to a term: every word a prefix of some word; ranked by the field weights. */
async function expected(app: TestApp, term: string): Promise<number[]> {
  const words = searchWords(term);
  // A term with no letters or digits matches nothing (not everything).
  if (!words.length) return [];
  const docs = (await documents(app)).filter((d) => words.every((w) => Object.values(d.fields).some((f) => hasPrefix(f, w))));
  const score = (d: (typeof docs)[number]) =>
    words.reduce(
      (n, w) =>
        n +
        (Object.keys(SEARCH_FIELD_WEIGHTS) as (keyof typeof SEARCH_FIELD_WEIGHTS)[]).reduce(
          (m, f) => m + (hasPrefix(d.fields[f], w) ? SEARCH_FIELD_WEIGHTS[f] : 0),
          0,
        ),
      0,
    );
  return docs.sort((a, b) => score(b) - score(a) || (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0) || a.id - b.id).map((d) => d.id);
}

describe('full-text search', () => {
  for (const term of ['sofa', 'OAK', 'teak bed', 'sof', 'queen 60x80', 'walnut charcoal', 'living room chair']) {
    it(`"${term}" finds exactly the products whose words start with every search word, best match first`, async () => {
      const want = await expected(t, term);
      expect(want.length).toBeGreaterThan(0);
      const got = await everything(t, query(term));
      expect(got.map((p) => p.id)).toEqual(want);
      const first = await search(t, query(term, { fetchCount: true, size: 1 }));
      expect(first.body.count).toBe(want.length);
      expect(first.body.match).toBe('text');
    });
  }

  it('a common word ranks title matches above products that only match by category', async () => {
    const res = await search(t, query('sofa', { size: 100 }));
    const titles = res.body.list.map((p) => /sofa/i.test(p.title));
    const firstCategoryOnly = titles.indexOf(false);
    if (firstCategoryOnly >= 0) expect(titles.slice(firstCategoryOnly).every((x) => !x)).toBe(true);
  });

  it('a term that matches nothing, or has no letters at all, is an empty result', async () => {
    for (const term of ['zzqxv', '---', 'sofa zzqxv']) {
      const res = await search(t, query(term, { fetchCount: true, facets: true }));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ list: [], nextPageToken: '', count: 0 });
      expect(res.body.facets!.price).toBeNull();
    }
  });

  it('search words cannot inject query syntax on either database', async () => {
    for (const term of ['"sofa', 'sofa OR bed', 'sofa*', "o'reilly", 'NEAR(sofa bed)', 'sofa:*', '!&|()']) {
      const res = await search(t, query(term));
      expect(res.status, term).toBe(200);
      expect(res.body.list.map((p) => p.id)).toEqual((await expected(t, term)).slice(0, 20));
    }
  });
});

describe('model numbers (spec §5)', () => {
  it('a model number finds that product alone, in any case and with spaces around it', async () => {
    const product = await t.db.kysely
      .selectFrom('products')
      .select(['id', 'model_code'])
      .where('model_code', 'like', 'DFL-%')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    for (const term of [product.model_code!, ` ${product.model_code!.toLowerCase()} `]) {
      const res = await search(t, query(term, { fetchCount: true }));
      expect(res.body.match).toBe('model');
      expect(res.body.list.map((p) => p.id)).toEqual([product.id]);
      expect(res.body.count).toBe(1);
    }
    const viaField = await search(t, {
      textParams: [
        { field: 'query', value: 'X' },
        { field: 'model', value: product.model_code },
      ],
    });
    expect(viaField.body.list.map((p) => p.id)).toEqual([product.id]);
  });

  it('a sku code finds its product', async () => {
    const sku = await t.db.kysely
      .selectFrom('skus')
      .select(['product_id', 'code'])
      .orderBy('id', 'desc')
      .where('code', 'like', 'AFL-%')
      .executeTakeFirstOrThrow();
    const res = await search(t, query(sku.code));
    expect(res.body.match).toBe('model');
    expect(res.body.list.map((p) => p.id)).toEqual([sku.product_id]);
  });

  it('a model-like term without an exact match falls back to the words', async () => {
    const partial = await search(t, query('AFL-10', { size: 100 }));
    expect(partial.body.match).toBe('text');
    expect(partial.body.list.map((p) => p.id)).toEqual((await expected(t, 'AFL-10')).slice(0, 100));
    const none = await search(t, query('DFL-999999', { fetchCount: true }));
    expect(none.body).toMatchObject({ list: [], count: 0, match: 'text' });
  });
});

describe('listings, facets and sorting', () => {
  const sofas = async () => (await t.db.kysely.selectFrom('categories').select('id').where('slug', '=', 'sofas').executeTakeFirstOrThrow()).id;

  it('a category lists everything filed under it and its sub-categories, paged to the end', async () => {
    const id = await sofas();
    const got = await everything(t, { textParams: [{ field: 'categoryId', value: id }] }, 10);
    const members = await t.db.kysely.selectFrom('product_categories').select('product_id').where('category_id', '=', id).execute();
    expect(new Set(got.map((p) => p.id))).toEqual(new Set(members.map((m) => m.product_id)));
    for (const p of got) expect(p.categoryIds).toContain(id);
    // Newest first by default.
    const dates = got.map((p) => p.createdAt);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('categoryName chooses a category in any letter case; "all" means every category', async () => {
    const byName = await search(t, { textParams: [{ field: 'categoryName', value: 'SOFAS' }], fetchCount: true });
    const byId = await search(t, { textParams: [{ field: 'categoryId', value: await sofas() }], fetchCount: true });
    expect(byName.body).toEqual(byId.body);
    expect(byName.body.category).toMatchObject({ name: 'Sofas', slug: 'sofas', banner: expect.stringMatching(/^\/media\/banner/) });
    const all = await search(t, { textParams: [{ field: 'categoryName', value: 'all' }], fetchCount: true });
    const products = (await documents(t)).length;
    expect(all.body.count).toBe(products);
    expect(all.body.category).toBeNull();
    const unknown = await search(t, { textParams: [{ field: 'categoryName', value: 'Spaceships' }], fetchCount: true });
    expect(unknown.body).toMatchObject({ list: [], count: 0, category: null });
  });

  it('facet counts are the numbers a shopper gets by choosing them', async () => {
    const id = await sofas();
    const base = { textParams: [{ field: 'categoryId', value: id }], fetchCount: true, facets: true, size: 1 };
    const res = await search(t, base);
    const { facets } = res.body;
    expect(facets!.categories.map((c) => c.name)).toEqual(['Three-Seater Sofas', 'L-Shaped Sofas', 'Sofa Beds']);
    expect(facets!.categories.reduce((n, c) => n + c.count, 0)).toBeLessThanOrEqual(res.body.count!);
    for (const c of facets!.categories) {
      const sub = await search(t, { textParams: [{ field: 'categoryId', value: c.id }], fetchCount: true, size: 1 });
      expect(sub.body.count, c.name).toBe(c.count);
    }
    const colors = facets!.attributes.find((a) => a.name === 'color')!;
    expect(colors.values.length).toBeGreaterThan(3);
    for (const v of colors.values.slice(0, 3)) {
      const sub = await search(t, { ...base, textParams: [...base.textParams, { field: 'color', value: v.displayLabel }] });
      expect(sub.body.count, v.displayLabel).toBe(v.count);
      // A chosen colour leaves the other colours' counts as they were (OR within one attribute).
      expect(sub.body.facets!.attributes.find((a) => a.name === 'color')!.values).toEqual(colors.values);
    }
    const all = await everything(t, { textParams: base.textParams });
    expect(facets!.price).toEqual({ min: Math.min(...all.map((p) => p.price)), max: Math.max(...all.map((p) => p.price)) });
  });

  it('filtered by a colour, each card shows its picture in that colour', async () => {
    const res = await search(t, { size: 24, textParams: [{ field: 'color', value: 'Teal' }] });
    expect(res.body.list.length).toBeGreaterThan(3);
    for (const card of res.body.list) {
      if (card.kind === 'bundle') continue;
      expect(card.image!.url, card.title).toContain('2f7f7a');
      expect(card.image!.alt).toContain('Teal');
    }
  });

  it('several values of one attribute widen the result; two attributes narrow it', async () => {
    const count = async (params: { field: string; value: unknown }[]) => (await search(t, { textParams: params, fetchCount: true, size: 1 })).body.count!;
    const grey = await count([{ field: 'color', value: 'Grey' }]);
    const teal = await count([{ field: 'color', value: 'Teal' }]);
    const either = await count([
      { field: 'color', value: 'Grey' },
      { field: 'color', value: 'Teal' },
    ]);
    expect(either).toBeGreaterThan(Math.max(grey, teal));
    expect(either).toBe(await count([{ field: 'color', value: 'Grey,Teal', matchType: 'IN' } as never]));
    expect(
      await count([
        { field: 'color', value: 'Grey' },
        { field: 'size', value: 'Queen 60x80 in' },
      ]),
    ).toBeLessThan(grey);
  });

  it('a price range keeps the prices inside it, in poisha', async () => {
    const got = await everything(t, {
      textParams: [
        { field: 'minPrice', value: 2_000_000 },
        { field: 'maxPrice', value: 4_000_000 },
      ],
    });
    expect(got.length).toBeGreaterThan(0);
    for (const p of got) expect(p.price >= 2_000_000 && p.price <= 4_000_000).toBe(true);
  });

  it('sorts by price both ways, by name and by newest, with pages that continue the order', async () => {
    const cat = { textParams: [{ field: 'categoryName', value: 'Bedroom' }] };
    const up = (await everything(t, { ...cat, sortParams: [{ field: 'price', type: 'ASC' }] }, 7)).map((p) => p.price);
    expect(up).toEqual([...up].sort((a, b) => a - b));
    const down = (await everything(t, { ...cat, sortParams: [{ field: 'price', type: 'DESC' }] }, 7)).map((p) => p.price);
    expect(down).toEqual([...up].reverse());
    const names = (await everything(t, { ...cat, sortParams: [{ field: 'title' }] }, 7)).map((p) => p.title);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const newest = (await everything(t, { ...cat, sortParams: [{ field: 'createdAt', type: 'DESC' }] }, 7)).map((p) => p.createdAt);
    expect(newest).toEqual([...newest].sort().reverse());
  });

  it('new arrivals and items on sale', async () => {
    const fresh = await everything(t, { textParams: [{ field: 'newArrival', value: true }] });
    expect(fresh.length).toBeGreaterThan(0);
    for (const p of fresh) expect(p.isNewArrival).toBe(true);
    const sale = await everything(t, { textParams: [{ field: 'onSale', value: 'true' }] });
    for (const p of sale) {
      expect(p.onSale).toBe(true);
    }
    // On sale: the card's price is below its list price (its own sale price or a global discount).
    for (const p of sale) expect(p.price).toBeLessThan(p.sku.salesPrice);
  });

  it('a card shows the cheapest sku at the price a shopper pays (the shared pricing rule with the discounts in force)', async () => {
    const discounts = await validDiscounts(t.db.kysely);
    for (const id of [1, 60, 200]) {
      const [card] = (await search(t, { textParams: [{ field: 'id', value: String(id), matchType: 'IN' }] })).body.list;
      const skus = await t.db.kysely.selectFrom('skus').select(['code', 'sales_price', 'discounted_sales_price']).where('product_id', '=', id).execute();
      const cats = (await t.db.kysely.selectFrom('product_categories').select('category_id').where('product_id', '=', id).execute()).map((c) => c.category_id);
      const prices = skus.map(
        (s) =>
          priceSku({ productId: id, categoryIds: cats, skuCode: s.code, salesPrice: s.sales_price, discountedSalesPrice: s.discounted_sales_price }, discounts)
            .unitPrice,
      );
      expect(card.price).toBe(Math.min(...prices));
      expect(card.skuCount).toBe(skus.length);
    }
  });

  it('POST /api/v2/items/indices lists without full-text search', async () => {
    const res = await t.api<TItemSearchResult>('/api/v2/items/indices', { method: 'POST', json: { textParams: [{ field: 'onSale', value: true }], size: 8 } });
    expect(res.status).toBe(200);
    expect(res.body.list).toHaveLength(8);
    const refused = await t.api('/api/v2/items/indices', { method: 'POST', json: query('sofa') });
    expectApiError(refused, 400, 'bad_request');
  });

  it('a page past the end is an empty list', async () => {
    const res = await search(t, { textParams: [{ field: 'categoryName', value: 'Kids' }], page: 400, size: 24 });
    expect(res.body).toMatchObject({ list: [], nextPageToken: '' });
  });
});

describe('bad requests', () => {
  for (const [what, body] of [
    ['an unknown filter', { textParams: [{ field: 'colour', value: 'Grey' }] }],
    ['an unsupported match type', { textParams: [{ field: 'categoryId', value: '1', matchType: 'CONTAINS' }] }],
    ['a category id that is not a number', { textParams: [{ field: 'categoryId', value: 'sofas' }] }],
    ['a negative price', { textParams: [{ field: 'minPrice', value: -5 }] }],
    ['a price that is not whole poisha', { textParams: [{ field: 'maxPrice', value: 10.5 }] }],
    [
      'a minimum above the maximum',
      {
        textParams: [
          { field: 'minPrice', value: 500 },
          { field: 'maxPrice', value: 100 },
        ],
      },
    ],
    ['a flag that is not true or false', { textParams: [{ field: 'newArrival', value: 'maybe' }] }],
    ['an unknown kind', { textParams: [{ field: 'kind', value: 'service' }] }],
    ['an unknown sort', { sortParams: [{ field: 'popularity' }] }],
  ] as const) {
    it(`${what} is a 400 naming the field`, async () => {
      const res = await search(t, body as Body);
      expectApiError(res, 400, 'bad_request');
      expect(Object.keys((res.body as any).error.fields ?? {})).toEqual([expect.stringMatching(/textParams|sortParams/)]);
    });
  }

  it('a malformed body is a 400', async () => {
    for (const body of [{ page: 0 }, { size: 101 }, { textParams: 'sofa' }, { facets: 'yes' }, { textParams: [{ value: 'x' }] }]) {
      expectApiError(await search(t, body), 400, 'validation_error');
    }
    expectApiError(await t.api('/api/search/indices/items', { method: 'POST', body: '[', headers: { 'content-type': 'application/json' } }), 400);
  });
});

// ---- the same answers on SQLite and PostgreSQL --------------------------------------------------

/** Products whose words are awkward for a tokenizer: accents, punctuation, digits, odd case. */
async function addAwkwardProducts(app: TestApp) {
  const db = app.db.kysely;
  const leaf = await db.selectFrom('categories').select('id').where('slug', '=', 'armchairs').executeTakeFirstOrThrow();
  const parents = await db.selectFrom('categories').select(['id', 'parent_id']).where('id', '=', leaf.id).executeTakeFirstOrThrow();
  const color = await db.selectFrom('attributes').select('id').where('name', '=', 'color').executeTakeFirstOrThrow();
  const titles = [
    'Café Crème Bergère',
    'ÜBER-Comfy Armchair (2-in-1)',
    'armchair, armchair & ARMCHAIR',
    "O'Reilly's 60x80 Reading Chair",
    'Naïve   Rattan — Chair',
  ];
  let n = 0;
  for (const title of titles) {
    const id = 90_000 + n;
    await db
      .insertInto('products')
      .values({
        id,
        title,
        slug: `awkward-${n}`,
        model_code: `DFL-9${n}00`,
        description: '',
        kind: 'single',
        primary_category_id: leaf.id,
        is_new_arrival: 0,
        model_url: null,
        created_at: `2026-01-0${n + 1}T00:00:00.000Z`,
      })
      .execute();
    await db
      .insertInto('product_categories')
      .values([{ product_id: id, category_id: leaf.id }, ...(parents.parent_id ? [{ product_id: id, category_id: parents.parent_id }] : [])])
      .execute();
    await db
      .insertInto('product_images')
      .values({ product_id: id, url: '/media/demo/armchair/a86b4c.svg', alt: title, sort_order: 0, variant_value: 'a86b4c' })
      .execute();
    const sku = await db
      .insertInto('skus')
      .values({ id: 900_000 + n, product_id: id, code: `DFL-9${n}00-X`, sales_price: 1_000_000 + n * 1000, discounted_sales_price: null, sort_order: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('sku_attribute_values')
      .values({ sku_id: sku.id, attribute_id: color.id, value: 'a86b4c', display_label: n % 2 ? 'Crème' : 'Rust' })
      .execute();
    n++;
  }
  await app.app.reindexCatalogue();
}

describe.skipIf(!process.env.DATABASE_URL || testDbKind() !== 'sqlite')('SQLite and PostgreSQL agree (runs when DATABASE_URL is set)', () => {
  let sqlite: TestApp;
  let postgres: TestApp;
  beforeAll(async () => {
    [sqlite, postgres] = await Promise.all([startTestApp({ dialect: 'sqlite' }), startTestApp({ dialect: 'postgres' })]);
    await addAwkwardProducts(sqlite);
    await addAwkwardProducts(postgres);
  });
  afterAll(async () => {
    await sqlite?.close();
    await postgres?.close();
  });

  const cases: [string, Body][] = [
    ['a common word', query('sofa')],
    ['a prefix', query('arm')],
    ['two words', query('teak bed')],
    ['accents', query('creme')],
    ['accents typed', query('Crème Bergère')],
    ['punctuation and case', query("o'reilly ARMCHAIR")],
    ['digits', query('60x80')],
    ['a model code', query('DFL-9100')],
    ['a partial model code', query('DFL-9')],
    ['words that match nothing', query('spaceship')],
    ['a category by name, sorted by name', { textParams: [{ field: 'categoryName', value: 'Living Room' }], sortParams: [{ field: 'title' }] }],
    [
      'a search with a colour filter and facets',
      {
        ...query('chair'),
        textParams: [
          { field: 'query', value: 'chair' },
          { field: 'color', value: 'Rust' },
        ],
        facets: true,
      },
    ],
    ['prices high to low', { textParams: [{ field: 'categoryName', value: 'Dining' }], sortParams: [{ field: 'price', type: 'DESC' }] }],
    ['everything with facets', { facets: true }],
  ];
  for (const [what, body] of cases) {
    it(`${what}: the same products in the same order, the same counts and facets`, async () => {
      // The demo seed dates products relative to the moment it runs: the two databases were
      // seeded moments apart, so createdAt differs by that moment (the order does not).
      const same = (cards: TProductCard[]) => cards.map(({ createdAt: _c, ...rest }) => rest);
      const a = await everything(sqlite, body, 20);
      const b = await everything(postgres, body, 20);
      expect(same(b)).toEqual(same(a));
      const [fa, fb] = await Promise.all([
        search(sqlite, { ...body, fetchCount: true, facets: true }),
        search(postgres, { ...body, fetchCount: true, facets: true }),
      ]);
      expect({ ...fb.body, list: same(fb.body.list) }).toEqual({ ...fa.body, list: same(fa.body.list) });
    });
  }

  it('the awkward products are found on both by their words', async () => {
    for (const [term, title] of [
      ['cafe', 'Café Crème Bergère'],
      ['uber comfy', 'ÜBER-Comfy Armchair (2-in-1)'],
      ['naive rattan', 'Naïve   Rattan — Chair'],
      ['reilly', "O'Reilly's 60x80 Reading Chair"],
    ]) {
      for (const app of [sqlite, postgres]) {
        const res = await search(app, query(term));
        expect(
          res.body.list.map((p) => p.title),
          `${app.dialect}: ${term}`,
        ).toContain(title);
      }
    }
  });
});
