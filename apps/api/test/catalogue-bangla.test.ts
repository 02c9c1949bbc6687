import type { TItemSearchResult, TProductCard, TProductDetails } from '@storefront/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectApiError } from './helpers/assertions.ts';
import { signedInStaff, type TestStaff } from './helpers/staff.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// The catalogue in Bangla (docs/decisions/0038, migration 0024): Bangla texts entered in the
// back office are served to requests whose `lang` cookie is bn, the English otherwise and
// where none was entered; Bangla words are found by the search on both databases (their
// vowel signs inside the word); model codes are found however they are typed.

let t: TestApp;
let manager: TestStaff;
beforeAll(async () => {
  // A read cache that outlives the test: answers in one language must not serve the other.
  t = await startTestApp({ config: { readCacheMs: 60_000 } });
  manager = await signedInStaff(t, 'manager');
});
afterAll(() => t?.close());

const BN = { cookie: 'lang=bn' };
const EN = { cookie: 'lang=en' };
type Body = Record<string, unknown>;
const search = async (value: string, headers: Record<string, string> = {}, extra: Body = {}) => {
  const r = await t.api<TItemSearchResult>('/api/search/indices/items', {
    method: 'POST',
    json: { page: 1, size: 100, fetchCount: true, textParams: [{ field: 'query', value }], ...extra },
    headers,
  });
  expect(r.status, r.text.slice(0, 300)).toBe(200);
  return r.body;
};
const details = async (id: number, headers: Record<string, string> = {}) => {
  const r = await t.api<TProductDetails>(`/api/v3/items/joined?id=${id}`, { headers });
  expect(r.status, r.text.slice(0, 300)).toBe(200);
  return r.body;
};
const admin = (method: string, path: string, json?: unknown) => t.api(path, { method, json, headers: manager.headers });
const editable = (p: any) => {
  const { id: _id, hasOrders: _o, createdAt: _c, updatedAt: _u, skus, bundleItems, ...rest } = p;
  return {
    ...rest,
    skus: skus.map(({ stock: _s, ...s }: any) => s),
    bundleItems: bundleItems.map((b: any) => ({ skuCode: b.skuCode, quantity: b.quantity })),
  };
};

/** Every published product filed under the category with this slug (or under its children). */
async function productsUnder(slug: string): Promise<number[]> {
  const cat = await t.db.kysely.selectFrom('categories').select('id').where('slug', '=', slug).executeTakeFirstOrThrow();
  const rows = await t.db.kysely
    .selectFrom('product_categories as pc')
    .innerJoin('products as p', 'p.id', 'pc.product_id')
    .select('pc.product_id')
    .where('pc.category_id', '=', cat.id)
    .where('p.status', '=', 'published')
    .execute();
  return rows.map((r) => r.product_id).sort((a, b) => a - b);
}
const ids = (list: TProductCard[]) => list.map((c) => c.id).sort((a, b) => a - b);

describe('the demo catalogue in Bangla', () => {
  it('names every category in Bangla for a Bangla reader and in English otherwise', async () => {
    const read = async (headers: Record<string, string>) =>
      (await t.api('/api/categories/search', { method: 'POST', json: { page: 1, size: 100 }, headers })).body.list as any[];
    const [bn, en, none] = await Promise.all([read(BN), read(EN), read({})]);
    expect(bn.length).toBeGreaterThan(20);
    expect(bn.find((c) => c.slug === 'sofas')).toMatchObject({ name: 'সোফা' });
    expect(bn.find((c) => c.slug === 'wardrobes')).toMatchObject({ name: 'আলমারি' });
    // Every name has Bangla letters, children included; the shape is the English one's.
    for (const c of bn) expect(c.name, c.slug).toMatch(/[\u0980-\u09ff]/);
    for (const c of bn) for (const k of c.children) expect(k.name).toMatch(/[\u0980-\u09ff]/);
    expect(en.find((c) => c.slug === 'sofas').name).toBe('Sofas');
    expect(none).toEqual(en);
    expect(Object.keys(bn[0]).sort()).toEqual(Object.keys(en[0]).sort());
  });

  it('shows a sofa with its Bangla title and description in Bangla, in English otherwise', async () => {
    const [sofa] = await productsUnder('sofas');
    const [bn, en] = await Promise.all([details(sofa, BN), details(sofa, EN)]);
    expect(bn.title).toMatch(/সোফা|সোফা কাম বেড/);
    expect(bn.description).toContain('গাজীপুর');
    expect(bn.categories.map((c) => c.name)).toContain('সোফা');
    expect(en.title).toMatch(/Sofa/);
    expect(en.description).toContain('Gazipur');
    expect({ ...bn, title: '', description: '', categories: [] }).toEqual({ ...en, title: '', description: '', categories: [] });
  });

  it('serves the about page’s Bangla text and title to a Bangla reader', async () => {
    const page = async (headers: Record<string, string>) =>
      (
        await t.api('/api/cms/articles/search', {
          method: 'POST',
          json: { page: 1, size: 50, textParams: [{ field: 'type', value: 'page', matchType: 'EXACT' }] },
          headers,
        })
      ).body.list.find((p: any) => p.slug === 'about');
    const [bn, en] = [await page(BN), await page(EN)];
    expect(bn.title).toBe('আমাদের সম্পর্কে');
    expect(bn.body).toContain('## আমরা যা তৈরি করি');
    expect(en.title).toBe('About Us');
    expect(en.body).toContain('Nibash Furniture');
  });
});

describe('searching in Bangla', () => {
  it('সোফা finds every sofa, shown with its Bangla title; the English search finds the same products', async () => {
    const sofas = await productsUnder('sofas');
    expect(sofas.length).toBeGreaterThan(5);
    const bn = await search('সোফা', BN);
    expect(ids(bn.list)).toEqual(sofas);
    expect(bn.count).toBe(sofas.length);
    expect(bn.match).toBe('text');
    for (const c of bn.list) expect(c.title).toMatch(/[\u0980-\u09ff]/);
    // The same Bangla word from an English page finds the same products, titled in English.
    const en = await search('সোফা', EN);
    expect(ids(en.list)).toEqual(sofas);
    for (const c of en.list) expect(c.title).toMatch(/^[\x20-\x7e]+$/);
  });

  it('keeps vowel signs inside the word on this database: a consonant of সোফা alone is no word', async () => {
    // The tokenizer itself (FTS5 with marks as word characters; PostgreSQL's parser).
    const db = t.db.kysely;
    const count = async (word: string) => {
      const r =
        t.dialect === 'postgres'
          ? await sql<{ n: number }>`select count(*) as n from product_search where document @@ to_tsquery('simple', ${word})`.execute(db)
          : await sql<{ n: number }>`select count(*) as n from product_search_fts where product_search_fts match ${`"${word}"`}`.execute(db);
      return Number(r.rows[0].n);
    };
    expect(await count('সোফা')).toBeGreaterThan(5);
    expect(await count('ফ')).toBe(0);
    expect(await count('স')).toBe(0);
    if (t.dialect === 'postgres') {
      const r = await sql<{ v: string }>`select to_tsvector('simple', 'সোফা ডাইনিং টেবিল')::text as v`.execute(db);
      expect(r.rows[0].v).toBe("'টেবিল':3 'ডাইনিং':2 'সোফা':1");
    }
    // Through the API: 'ফা' finds products with a word starting ফা (ফাল্গুন), never a sofa for its ফা.
    const fa = await search('ফা', BN);
    expect(fa.list.length).toBeGreaterThan(0);
    for (const c of fa.list)
      expect(
        c.title.split(' ').some((w) => w.startsWith('ফা')),
        c.title,
      ).toBe(true);
  });

  it('a two-word Bangla term narrows: ডাইনিং টেবিল finds dining tables, not dining chairs', async () => {
    const tables = await productsUnder('dining-tables');
    const res = await search('ডাইনিং টেবিল', BN);
    expect(ids(res.list)).toEqual(expect.arrayContaining(tables));
    const chairs = await productsUnder('dining-chairs');
    expect(res.list.some((c) => chairs.includes(c.id))).toBe(false);
  });
});

describe('model codes typed loosely', () => {
  async function aDflProduct() {
    return t.db.kysely
      .selectFrom('products')
      .select(['id', 'model_code'])
      .where('model_code', 'like', 'DFL-%')
      .where('status', '=', 'published')
      .orderBy('id')
      .executeTakeFirstOrThrow();
  }

  it('finds the product however the code is spaced, cased or joined, as an exact model match', async () => {
    const p = await aDflProduct();
    const digits = p.model_code!.slice(4);
    for (const typed of [p.model_code!, `dfl ${digits}`, `DFL${digits}`, `dfl-${digits}`, `Dfl_${digits}`, ` dfl  ${digits} `]) {
      const res = await search(typed);
      expect(res.match, typed).toBe('model');
      expect(ids(res.list), typed).toEqual([p.id]);
    }
    // The shop's model field, as the search bar sets it, is as loose.
    const viaModel = await search('', {}, { textParams: [{ field: 'model', value: `dfl ${digits}` }] });
    expect(ids(viaModel.list)).toEqual([p.id]);
  });

  it('a code that is only begun is a text search, and finds the codes starting so', async () => {
    const p = await aDflProduct();
    const begun = `DFL${p.model_code!.slice(4, 6)}`;
    const res = await search(begun);
    expect(res.match).toBe('text');
    expect(res.list.map((c) => c.id)).toContain(p.id);
    for (const c of res.list) expect(c.modelCode?.replace('-', '').startsWith(begun)).toBe(true);
  });
});

describe('Bangla entered in the back office', () => {
  it('a product’s Bangla title and description are saved, shown to Bangla readers, searched, and kept when left out', async () => {
    const [id] = await productsUnder('wardrobes');
    const p = (await admin('GET', `/api/admin/products/${id}`)).body;
    const saved = await admin('PUT', `/api/admin/products/${id}`, {
      ...editable(p),
      titleBn: 'বকুল সেগুন কাঠের আলমারি',
      descriptionBn: 'তিন দরজার মজবুত আলমারি।',
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({ titleBn: 'বকুল সেগুন কাঠের আলমারি', descriptionBn: 'তিন দরজার মজবুত আলমারি।' });
    const [bn, en] = await Promise.all([details(id, BN), details(id, EN)]);
    expect(bn).toMatchObject({ title: 'বকুল সেগুন কাঠের আলমারি', description: 'তিন দরজার মজবুত আলমারি।' });
    expect(en).toMatchObject({ title: p.title, description: p.description });
    const found = await search('কাঠের আলমারি', BN);
    expect(found.list.map((c) => c.title)).toEqual(['বকুল সেগুন কাঠের আলমারি']);

    // An edit that does not send the Bangla keeps it; an empty one removes it.
    const again = (await admin('GET', `/api/admin/products/${id}`)).body;
    const { titleBn: _t, descriptionBn: _d, ...withoutBangla } = editable(again);
    expect((await admin('PUT', `/api/admin/products/${id}`, withoutBangla)).body.titleBn).toBe('বকুল সেগুন কাঠের আলমারি');
    const third = (await admin('GET', `/api/admin/products/${id}`)).body;
    const cleared = await admin('PUT', `/api/admin/products/${id}`, { ...editable(third), titleBn: '  ', descriptionBn: '' });
    expect(cleared.body).toMatchObject({ titleBn: null, descriptionBn: null });
    expect((await details(id, BN)).title).toBe(p.title);
  });

  it('a Bangla title is limited as the English one', async () => {
    const [id] = await productsUnder('cabinets');
    const p = (await admin('GET', `/api/admin/products/${id}`)).body;
    const res = await admin('PUT', `/api/admin/products/${id}`, { ...editable(p), titleBn: 'আ'.repeat(201) });
    expectApiError(res, 400);
    expect(JSON.stringify(res.body.error)).toContain('titleBn');
  });

  it('a product made without Bangla is shown in English to a Bangla reader', async () => {
    const ref = (await admin('GET', '/api/admin/reference')).body;
    const leaf = ref.categories.find((c: any) => c.depth === 2);
    const made = await admin('POST', '/api/admin/products', {
      title: 'Karatoa Cane Stool',
      slug: 'karatoa-cane-stool',
      modelCode: 'AFL-7701',
      description: 'A stool of woven cane.',
      categoryIds: [leaf.id],
      primaryCategoryId: leaf.id,
      status: 'published',
      skus: [{ code: 'AFL-7701-NAT', salesPrice: 650_000, discountedSalesPrice: null }],
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ titleBn: null, descriptionBn: null });
    expect(await details(made.body.id, BN)).toMatchObject({ title: 'Karatoa Cane Stool', description: 'A stool of woven cane.' });
    const res = await search('afl 7701', BN);
    expect(res.match).toBe('model');
    expect(res.list.map((c) => c.title)).toEqual(['Karatoa Cane Stool']);
  });

  it('a category’s Bangla name is saved, checked and shown in the shop’s menu and facets', async () => {
    const tree = (await admin('GET', '/api/admin/categories')).body.items as any[];
    const c = tree.find((x) => x.slug === 'shoe-racks');
    expect(c.nameBn).toBe('জুতার র‍্যাক');
    const tooLong = await admin('PUT', `/api/admin/categories/${c.id}`, { name: c.name, nameBn: 'ক'.repeat(121), slug: c.slug, version: c.version });
    expectApiError(tooLong, 400);
    const saved = await admin('PUT', `/api/admin/categories/${c.id}`, { name: c.name, nameBn: 'জুতা রাখার র‍্যাক', slug: c.slug, version: c.version });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.nameBn).toBe('জুতা রাখার র‍্যাক');
    const bn = (await t.api('/api/categories/search', { method: 'POST', json: { page: 1, size: 100 }, headers: BN })).body.list as any[];
    expect(bn.find((x) => x.id === c.id).name).toBe('জুতা রাখার র‍্যাক');
    const en = (await t.api('/api/categories/search', { method: 'POST', json: { page: 1, size: 100 }, headers: EN })).body.list as any[];
    expect(en.find((x) => x.id === c.id).name).toBe(c.name);
    // Its products are found by the new Bangla name (typed with or without the joiner).
    const found = await search('জুতা রাখার র্যাক', BN);
    expect(ids(found.list)).toEqual(await productsUnder('shoe-racks'));
    // A listing of the category carries its Bangla name; a name left out of an edit stays.
    const listing = await t.api<TItemSearchResult>('/api/v2/items/indices', {
      method: 'POST',
      json: { page: 1, size: 1, facets: true, textParams: [{ field: 'categoryId', value: c.id }] },
      headers: BN,
    });
    expect(listing.body.category?.name).toBe('জুতা রাখার র‍্যাক');
    const kept = await admin('PUT', `/api/admin/categories/${c.id}`, { name: c.name, slug: c.slug, version: saved.body.version });
    expect(kept.body.nameBn).toBe('জুতা রাখার র‍্যাক');
  });

  it('a page’s Bangla text passes the same safe-text rules as the English and is served to Bangla readers', async () => {
    const pages = (await admin('GET', '/api/admin/content?type=page')).body.items as any[];
    const terms = pages.find((p) => p.slug === 'terms-conditions');
    expect(terms.bodyBn).toBeNull();
    const base = {
      type: 'page',
      title: terms.title,
      slug: terms.slug,
      body: terms.body,
      fields: terms.fields,
      active: true,
      version: terms.version,
    };
    const unsafe = await admin('PUT', `/api/admin/content/${terms.id}`, { ...base, bodyBn: 'শর্ত <script>alert(1)</script>' });
    expectApiError(unsafe, 400, 'validation_error');
    expect(unsafe.body.error.fields.bodyBn).toMatch(/Remove the <script> tag/);
    const titled = await admin('PUT', `/api/admin/content/${terms.id}`, { ...base, titleBn: '<b>শর্ত</b>' });
    expect(titled.body.error.fields.titleBn).toMatch(/plain text/);

    const saved = await admin('PUT', `/api/admin/content/${terms.id}`, { ...base, titleBn: 'শর্তাবলি', bodyBn: '## মূল্য\nসব দাম টাকায়।' });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({ titleBn: 'শর্তাবলি', bodyBn: '## মূল্য\nসব দাম টাকায়।' });
    const served = async (headers: Record<string, string>) =>
      (
        await t.api('/api/cms/articles/search', {
          method: 'POST',
          json: { page: 1, size: 50, textParams: [{ field: 'slug', value: 'terms-conditions', matchType: 'EXACT' }] },
          headers,
        })
      ).body.list[0];
    expect(await served(BN)).toMatchObject({ title: 'শর্তাবলি', body: '## মূল্য\nসব দাম টাকায়।' });
    expect(await served(EN)).toMatchObject({ title: terms.title, body: terms.body });
  });
});
