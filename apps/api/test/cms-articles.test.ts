import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectApiError } from './helpers/assertions.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const SITE_PAGES = ['about', 'privacy-policy', 'terms-conditions', 'return', 'coming-soon', 'delivery-shipping'];

type Item = { id: number; type: string; title: string; slug: string; body: string; fields: Record<string, unknown>; sortOrder: number; updatedAt: string };
type Page = { list: Item[]; nextPageToken: string; count?: number };

const search = <T = Page>(body: unknown) => t.api<T>('/api/cms/articles/search', { method: 'POST', json: body });
const byType = (type: string) => ({ field: 'type', value: type, matchType: 'EXACT' });

/** Follows nextPageToken from page 1 to the end, as the storefront does (spec §7). */
async function allPages(body: Record<string, unknown>, size: number) {
  const pages: Page[] = [];
  let page = 1;
  for (;;) {
    const res = await search({ ...body, page, size });
    expect(res.status).toBe(200);
    pages.push(res.body);
    if (res.body.nextPageToken === '') break;
    page = Number(res.body.nextPageToken);
    expect(page).toBe(pages.length + 1);
    if (pages.length > 100) throw new Error('paging never ends');
  }
  return pages;
}

describe('POST /api/cms/articles/search', () => {
  it('filtering by type page returns the six site pages', async () => {
    const res = await search({ textParams: [byType('page')] });
    expect(res.status).toBe(200);
    expect(res.body.list.map((i) => i.slug).sort()).toEqual([...SITE_PAGES].sort());
    expect(res.body.nextPageToken).toBe('');
    for (const item of res.body.list) {
      expect(item.type).toBe('page');
      expect(item.title).toBeTruthy();
      expect(item.body.length).toBeGreaterThan(20);
      expect(item.fields).toEqual({});
      expect(Number.isNaN(Date.parse(item.updatedAt))).toBe(false);
    }
  });

  it('paging with size 2 follows nextPageToken to the end and returns each page once', async () => {
    const pages = await allPages({ textParams: [byType('page')], sortParams: [{ field: 'sortOrder', type: 'ASC' }] }, 2);
    expect(pages).toHaveLength(3);
    expect(pages.map((p) => p.nextPageToken)).toEqual(['2', '3', '']);
    const items = pages.flatMap((p) => p.list);
    expect(new Set(items.map((i) => i.id)).size).toBe(6);
    expect(items.map((i) => i.slug)).toEqual(SITE_PAGES);
  });

  it('paging through all content collects every item exactly once', async () => {
    const first = await search({ fetchCount: true, size: 1 });
    const total = first.body.count!;
    expect(total).toBeGreaterThan(6);
    const pages = await allPages({ sortParams: [{ field: 'title', type: 'DESC' }] }, 2);
    const ids = pages.flatMap((p) => p.list.map((i) => i.id));
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
    expect(pages.at(-1)!.nextPageToken).toBe('');
    // When the last page is exactly full, there is no empty page after it.
    for (const p of pages) expect(p.list.length).toBeGreaterThan(0);
  });

  it('fetchCount gives the count of all matches, not of the page', async () => {
    const res = await search({ textParams: [byType('page')], fetchCount: true, size: 2 });
    expect(res.body.count).toBe(6);
    expect(res.body.list).toHaveLength(2);
    const page3 = await search({ textParams: [byType('page')], fetchCount: true, size: 2, page: 3 });
    expect(page3.body.count).toBe(6);
    const without = await search({ textParams: [byType('page')] });
    expect(without.body.count).toBeUndefined();
  });

  it('sorts by the asked field and direction', async () => {
    const asc = await search({ textParams: [byType('page')], sortParams: [{ field: 'title', type: 'ASC' }] });
    const titles = asc.body.list.map((i) => i.title);
    expect(titles).toEqual([...titles].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const desc = await search({ textParams: [byType('page')], sortParams: [{ field: 'title', type: 'desc' }] });
    expect(desc.body.list.map((i) => i.title)).toEqual([...titles].reverse());
  });

  it('finds the campaign and the subscription offer as the storefront asks for them (spec §7)', async () => {
    for (const type of ['campaign', 'subscription-offer']) {
      const res = await search({ textParams: [byType(type)], nestedParams: [], sortParams: [{ field: 'title', type: 'ASC' }], page: 1, size: 100 });
      expect(res.status).toBe(200);
      expect(res.body.list.length).toBeGreaterThan(0);
      expect(res.body.list[0].type).toBe(type);
      expect(res.body.list[0].fields).toMatchObject({ image: expect.any(String), hasCampaign: true });
    }
  });

  it('an unknown filter field is a 400', async () => {
    const res = await search<any>({ textParams: [{ field: 'password', value: 'x' }] });
    expectApiError(res, 400, 'bad_request');
    expect(res.body.error.fields).toHaveProperty('textParams');
  });

  it('an unknown sort field is a 400', async () => {
    const res = await search<any>({ sortParams: [{ field: 'body; drop table kvps', type: 'ASC' }] });
    expectApiError(res, 400, 'bad_request');
    expect(res.body.error.fields).toHaveProperty('sortParams');
  });

  it('an empty result is an empty list with an empty nextPageToken', async () => {
    const res = await search({ textParams: [byType('no-such-type')], fetchCount: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ list: [], nextPageToken: '', count: 0 });
  });

  it('a page past the end is an empty list with an empty nextPageToken', async () => {
    const res = await search({ textParams: [byType('page')], page: 50, size: 2 });
    expect(res.body).toEqual({ list: [], nextPageToken: '' });
  });

  it('CONTAINS matches anywhere in the field, ignoring case', async () => {
    const res = await search({ textParams: [{ field: 'title', value: 'POLICY', matchType: 'CONTAINS' }] });
    expect(res.body.list.map((i) => i.slug).sort()).toEqual(['privacy-policy', 'return']);
  });

  it('STARTS_WITH matches only the start of the field', async () => {
    const res = await search({ textParams: [{ field: 'title', value: 'terms', matchType: 'STARTS_WITH' }] });
    expect(res.body.list.map((i) => i.slug)).toEqual(['terms-conditions']);
    const middle = await search({ textParams: [{ field: 'title', value: 'conditions', matchType: 'STARTS_WITH' }] });
    expect(middle.body.list).toEqual([]);
  });

  it('IN matches any of the comma-separated values', async () => {
    const res = await search({ textParams: [{ field: 'slug', value: 'about, return,nothing', matchType: 'IN' }] });
    expect(res.body.list.map((i) => i.slug).sort()).toEqual(['about', 'return']);
  });

  it('filters combine with AND', async () => {
    const res = await search({ textParams: [byType('page'), { field: 'slug', value: 'about' }] });
    expect(res.body.list.map((i) => i.slug)).toEqual(['about']);
    const none = await search({ textParams: [byType('article'), { field: 'slug', value: 'about' }] });
    expect(none.body.list).toEqual([]);
  });

  it('% and _ in a CONTAINS or STARTS_WITH value match themselves, not any text', async () => {
    // No seeded slug contains % or _ or a backslash: unescaped, these would match every row.
    for (const [field, value, matchType] of [
      ['slug', '%', 'CONTAINS'],
      ['slug', '_', 'CONTAINS'],
      ['slug', 'a_out', 'STARTS_WITH'],
      ['slug', '%bout', 'STARTS_WITH'],
      ['slug', '\\', 'CONTAINS'],
    ]) {
      const res = await search({ textParams: [{ field, value, matchType }] });
      expect(res.status, `${field} ${matchType} ${value}`).toBe(200);
      expect(res.body.list, `${field} ${matchType} ${value}`).toEqual([]);
    }
    // Unescaped, '0%' would also match every title with a 0 in it (such as ৳20,000).
    const tenPercent = await search({ textParams: [{ field: 'title', value: '0%', matchType: 'CONTAINS' }] });
    expect(tenPercent.body.list.map((i) => i.title)).toEqual(['First order 10% off']);

    const now = new Date().toISOString();
    await t.db.kysely
      .insertInto('cms_content')
      .values({
        type: 'article',
        title: 'Save 100% on_time \\ delivery',
        slug: 'save_100',
        body: '',
        fields: '{}',
        sort_order: 9,
        created_at: now,
        updated_at: now,
      })
      .execute();
    for (const [field, value, matchType] of [
      ['title', '100%', 'CONTAINS'],
      ['title', 'on_time', 'CONTAINS'],
      ['title', '\\ deliv', 'CONTAINS'],
      ['slug', 'save_', 'STARTS_WITH'],
    ]) {
      const res = await search({ textParams: [{ field, value, matchType }] });
      expect(
        res.body.list.map((i) => i.slug),
        `${field} ${matchType} ${value}`,
      ).toEqual(['save_100']);
    }
  });
});
