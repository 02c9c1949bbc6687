import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectApiError } from './helpers/assertions.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

describe('GET /api/currencies/conversions', () => {
  it('lists the display currencies with imageUrl, sourceId, sourceCountry and rate, BDT first (spec §3)', async () => {
    const res = await t.api('/api/currencies/conversions?size=10');
    expect(res.status).toBe(200);
    expect(res.body.nextPageToken).toBe('');
    const list = res.body.list;
    expect(list[0]).toEqual({ sourceId: 'BDT', sourceCountry: 'bangladesh', rate: 1, numCode: '+88', imageUrl: '/media/flags/BDT.svg' });
    expect(list.map((c: any) => c.sourceId)).toEqual(['BDT', 'USD', 'EUR', 'GBP', 'INR', 'AED']);
    for (const c of list) {
      expect(c.rate).toBeGreaterThan(0);
      expect(typeof c.rate).toBe('number');
      expect(c.imageUrl).toBe(`/media/flags/${c.sourceId}.svg`);
      expect(c.sourceCountry).toMatch(/^[a-z ]+$/);
    }
    expect(list.find((c: any) => c.sourceId === 'EUR').rate).toBe(131.5);
    expect(res.headers.get('cache-control')).toMatch(/max-age=\d+/);
  });

  it('serves a flag image for every currency', async () => {
    const list = (await t.api('/api/currencies/conversions')).body.list;
    for (const c of list) {
      const res = await fetch(`${t.baseUrl}${c.imageUrl}`);
      expect(res.status, c.imageUrl).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    }
  });

  it('uses the spec page size of 10 by default and pages with nextPageToken', async () => {
    const first = await t.api('/api/currencies/conversions?size=4');
    expect(first.body.list).toHaveLength(4);
    expect(first.body.nextPageToken).toBe('2');
    const second = await t.api('/api/currencies/conversions?size=4&page=2');
    expect(second.body.list.map((c: any) => c.sourceId)).toEqual(['INR', 'AED']);
    expect(second.body.nextPageToken).toBe('');
  });

  it('keeps BDT in the list even if its row is gone: it is the currency the shop charges in', async () => {
    await t.db.kysely.deleteFrom('currencies').where('code', '=', 'BDT').execute();
    try {
      const res = await t.api('/api/currencies/conversions');
      expect(res.body.list[0]).toMatchObject({ sourceId: 'BDT', rate: 1, sourceCountry: 'bangladesh', numCode: '+88' });
    } finally {
      await t.db.kysely
        .insertInto('currencies')
        .values({ code: 'BDT', country: 'bangladesh', rate: 1, num_code: '+88', image_url: '/media/flags/BDT.svg', sort_order: 0 })
        .execute();
    }
  });

  it('a changed rate shows on the next read', async () => {
    await t.db.kysely.updateTable('currencies').set({ rate: 121.25 }).where('code', '=', 'USD').execute();
    const res = await t.api('/api/currencies/conversions');
    expect(res.body.list.find((c: any) => c.sourceId === 'USD').rate).toBe(121.25);
  });

  it('refuses a bad size or page with a 400', async () => {
    for (const q of ['size=0', 'size=-1', 'size=abc', 'size=1000', 'page=0', 'size=2.5']) {
      expectApiError(await t.api(`/api/currencies/conversions?${q}`), 400, 'validation_error');
    }
  });
});

describe('the OpenAPI document', () => {
  it('describes the discount, coupon, quote and currency endpoints, with the items encoding', async () => {
    const doc = (await t.api('/api/openapi.json', { apiKey: null })).body;
    expect(doc.paths['/api/global/discounts/search']).toHaveProperty('post');
    expect(doc.paths['/api/discount/coupons/search']).toHaveProperty('post');
    expect(doc.paths['/api/carts/quote']).toHaveProperty('post');
    expect(doc.paths['/api/currencies/conversions']).toHaveProperty('get');
    const apply = doc.paths['/api/discount/coupons/apply'].get;
    expect(apply.parameters.map((p: any) => p.name).sort()).toEqual(['code', 'items']);
    expect(apply.description).toContain('SKU:QTY');
    for (const status of ['200', '400', '404', '409', '422']) expect(apply.responses).toHaveProperty(status);
  });
});
