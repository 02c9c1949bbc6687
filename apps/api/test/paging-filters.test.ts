import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type TestCustomer } from './helpers/accounts.ts';
import { expectApiError } from './helpers/assertions.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// Typed filters of the paged searches (spec §3, §7; docs/decisions/0025-typed-search-filters.md):
// each filter field says what its column holds. A value of the right type is converted before
// it is bound, so a request answers alike on SQLite and PostgreSQL; anything else is a 400 in
// the one error shape naming the field. Before, a boolean filter was a 500 on SQLite (its
// driver cannot bind one) and a text match on a number a 500 on PostgreSQL (no lower(integer)).

let t: TestApp;
let customer: TestCustomer;
beforeAll(async () => {
  t = await startTestApp({ config: { trustProxy: true } });
  customer = await signUp(t);
});
afterAll(() => t?.close());

type Page = { list: any[]; nextPageToken: string; count?: number };
const search = (path: string, body: unknown, signedIn = false) => t.api<Page>(path, { method: 'POST', json: body, headers: signedIn ? customer.auth : {} });

/** Every endpoint built on the shared paged search, with a field of each type it filters on. */
const SEARCHES: { path: string; signedIn?: boolean; text?: string; integer?: string; boolean?: string }[] = [
  { path: '/api/categories/search', text: 'name', integer: 'id' },
  { path: '/api/attributes/search', text: 'name', integer: 'id' },
  { path: '/api/items/attachments/search', integer: 'itemId' },
  { path: '/api/stocks/items/skus/search', text: 'skuCode', integer: 'branchId' },
  { path: '/api/cms/articles/search', text: 'title' },
  { path: '/api/global/discounts/search', text: 'title', integer: 'id', boolean: 'valid' },
  { path: '/api/discount/coupons/search', text: 'code', boolean: 'valid' },
  { path: '/api/addresses/search', signedIn: true, text: 'district' },
  { path: '/api/wishlists/items/search', signedIn: true, text: 'skuCode', integer: 'itemId' },
  { path: '/api/sales', signedIn: true, text: 'invoiceId' },
];

/** A 400 in the one error shape whose textParams entry names the field ("field: why"). */
function expectRefused(res: Awaited<ReturnType<typeof search>>, field: string) {
  expectApiError(res, 400);
  expect((res.body as any).error.fields?.textParams, res.text).toMatch(new RegExp(`^${field}: `));
}

describe('typed filters of the paged searches', () => {
  it('refuse a boolean for a text field with a 400 naming it, whatever the match type', async () => {
    for (const s of SEARCHES.filter((x) => x.text)) {
      for (const matchType of ['EXACT', 'IN', 'CONTAINS', 'STARTS_WITH']) {
        for (const value of [true, false]) expectRefused(await search(s.path, { textParams: [{ field: s.text, value, matchType }] }, s.signedIn), s.text!);
      }
    }
  });

  it('refuse a text match (CONTAINS, STARTS_WITH) on an integer or yes/no field with a 400 naming it', async () => {
    for (const s of SEARCHES) {
      for (const field of [s.integer, s.boolean].filter((f): f is string => !!f)) {
        for (const matchType of ['CONTAINS', 'STARTS_WITH']) {
          for (const value of [1, '1', 'x']) expectRefused(await search(s.path, { textParams: [{ field, value, matchType }] }, s.signedIn), field);
        }
      }
    }
  });

  it('refuse what an integer field cannot hold (text, fractions, beyond 32 bits, booleans) with a 400 naming it', async () => {
    for (const s of SEARCHES.filter((x) => x.integer)) {
      for (const value of ['abc', '1.5', 1.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, true, false]) {
        expectRefused(await search(s.path, { textParams: [{ field: s.integer, value }] }, s.signedIn), s.integer!);
      }
      expectRefused(await search(s.path, { textParams: [{ field: s.integer, value: '1,two', matchType: 'IN' }] }, s.signedIn), s.integer!);
    }
  });

  it('take an integer as a number or as its digits, and answer the same', async () => {
    const [row] = (await search('/api/stocks/items/skus/search', { size: 1 })).body.list;
    for (const field of ['itemId', 'branchId'] as const) {
      const asNumber = await search('/api/stocks/items/skus/search', { fetchCount: true, textParams: [{ field, value: row[field] }] });
      expect(asNumber.status, asNumber.text).toBe(200);
      expect(asNumber.body.list.length).toBeGreaterThan(0);
      expect(asNumber.body.list.every((r) => r[field] === row[field])).toBe(true);
      const asText = await search('/api/stocks/items/skus/search', { fetchCount: true, textParams: [{ field, value: ` ${row[field]} ` }] });
      expect(asText.body).toEqual(asNumber.body);
      const asList = await search('/api/stocks/items/skus/search', {
        fetchCount: true,
        textParams: [{ field, value: `${row[field]}, ${2 ** 31 - 1}`, matchType: 'IN' }],
      });
      expect(asList.body).toEqual(asNumber.body);
    }
    const categories = await search('/api/categories/search', { textParams: [{ field: 'parentId', value: '1' }] });
    expect(categories.body).toEqual((await search('/api/categories/search', { textParams: [{ field: 'parentId', value: 1 }] })).body);
  });

  it('take a yes/no field as true/false, "true"/"false" or 1/0, answering the same, and refuse anything else', async () => {
    for (const s of SEARCHES.filter((x) => x.boolean)) {
      for (const [yes, no] of [
        [true, false],
        ['true', 'false'],
        [1, 0],
        ['1', '0'],
      ]) {
        const valid = await search(s.path, { size: 100, fetchCount: true, textParams: [{ field: s.boolean, value: yes }] });
        const invalid = await search(s.path, { size: 100, fetchCount: true, textParams: [{ field: s.boolean, value: no }] });
        expect(valid.status, valid.text).toBe(200);
        expect(valid.body.list.every((d) => d.valid === true)).toBe(true);
        expect(invalid.body.list.every((d) => d.valid === false)).toBe(true);
        const all = await search(s.path, { size: 1, fetchCount: true });
        expect(valid.body.count! + invalid.body.count!).toBe(all.body.count);
      }
      for (const value of ['maybe', 'yes', 2, -1, 0.5, ''])
        expectRefused(await search(s.path, { textParams: [{ field: s.boolean, value }] }, s.signedIn), s.boolean!);
      expectRefused(await search(s.path, { textParams: [{ field: s.boolean, value: 'true,false', matchType: 'IN' }] }, s.signedIn), s.boolean!);
    }
  });

  it('take a number for a text field as its text', async () => {
    const res = await search('/api/sales', { textParams: [{ field: 'invoiceId', value: 12345 }] }, true);
    expect(res.status, res.text).toBe(200);
    expect(res.body.list).toEqual([]);
    const articles = await search('/api/cms/articles/search', { textParams: [{ field: 'title', value: 0, matchType: 'CONTAINS' }] });
    expect(articles.status, articles.text).toBe(200);
  });

  it('name the filter fields there are when asked for one there is not', async () => {
    const res = await search('/api/stocks/items/skus/search', { textParams: [{ field: 'quantity', value: 1 }] });
    expectApiError(res, 400);
    expect((res.body as any).error.fields).toEqual({ textParams: 'unknown field quantity; filter fields: skuCode, itemId, branchId' });
    const sort = await search('/api/stocks/items/skus/search', { sortParams: [{ field: 'itemId' }] });
    expect((sort.body as any).error.fields).toEqual({ sortParams: 'unknown field itemId; sort fields: skuCode, branchId, quantity' });
  });
});
