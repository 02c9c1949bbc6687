import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  chooseSku,
  isCombinationAvailable,
  isSitePath,
  isStorageCacheExpired,
  nextStorageCache,
  parseShopQuery,
  parseStorageCache,
  searchText,
  searchWords,
  shopQueryString,
  skuOptions,
  shopSearchBody,
  swipeStep,
  toggleAttrValue,
  withShopQuery,
  wrapIndex,
  type TSkuChoice,
} from './catalogue.ts';

describe('search words', () => {
  it('lower-cases, drops accents and splits on anything but letters and digits', () => {
    expect(searchText('  Café-Sofa, 3-Seater (AFL-1021)! ')).toBe('cafe sofa 3 seater afl 1021');
    expect(searchText('Queen 60x80 in')).toBe('queen 60x80 in');
  });
  it('keeps letters of other scripts', () => {
    expect(searchText('সোফা sofa')).toContain('sofa');
    expect(searchText('সোফা').length).toBeGreaterThan(0);
  });
  it('keeps a Bangla word whole, vowel signs and hasanta inside it (docs/decisions/0038)', () => {
    expect(searchText('সোফা, খাট।')).toBe('সোফা খাট');
    expect(searchWords('ডাইনিং টেবিল')).toEqual(['ডাইনিং', 'টেবিল']);
    // The joiner some keyboards put in র‍্যা is dropped; Bangla digits read as 0-9.
    expect(searchText('শু র\u200D্যাক')).toBe(searchText('শু র্যাক'));
    expect(searchText('৩ সিটার')).toBe('3 সিটার');
  });
  it('gives distinct words, at most eight', () => {
    expect(searchWords('oak OAK sofa')).toEqual(['oak', 'sofa']);
    expect(searchWords('a b c d e f g h i j')).toHaveLength(8);
    expect(searchWords(' -- ')).toEqual([]);
  });
  it('never leaves a character a full-text query language could read as syntax', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        for (const w of searchWords(s)) expect(w).toMatch(/^[\p{L}\p{N}]+$/u);
      }),
    );
  });
});

describe('the shop URL', () => {
  const parse = (qs: string) => parseShopQuery(new URLSearchParams(qs), ['color', 'size']);

  it('reads a search with the spec fields: the term upper-cased, categoryName=all', () => {
    const s = parse('q=%20oak%20sofa%20&categoryName=all');
    expect(s).toMatchObject({ q: 'OAK SOFA', categoryName: 'all', model: '', sort: 'relevance', page: 1 });
  });
  it('a model-number term sets model even when the link left it out', () => {
    expect(parse('q=afl-1021').model).toBe('AFL-1021');
    expect(parse('q=AFL-1021&model=AFL-1021').model).toBe('AFL-1021');
    expect(parse('q=sofa&model=nonsense').model).toBe('');
  });
  it('reads a category listing, facets, prices, sort and page', () => {
    const s = parse('categoryId=12&categoryName=Sofas&color=Teal&color=Grey&size=3%20Seater&minPrice=20000&maxPrice=90000&sort=price-asc&page=3');
    expect(s).toMatchObject({
      categoryId: 12,
      categoryName: 'Sofas',
      attrs: { color: ['Grey', 'Teal'], size: ['3 Seater'] },
      minPrice: 20000,
      maxPrice: 90000,
      sort: 'price-asc',
      page: 3,
    });
  });
  it('drops what it cannot use instead of failing', () => {
    const s = parse('categoryId=abc&page=-2&sort=cheapest&minPrice=1e9&utm_source=x&categoryBanner=https://evil.example/x.png');
    expect(s).toMatchObject({ categoryId: null, page: 1, sort: 'newest', minPrice: null, attrs: {}, categoryBanner: '' });
  });
  it('keeps a banner only when it is a path on this site', () => {
    expect(parse('categoryBanner=/media/banner/sofa/5f7a8a.svg').categoryBanner).toBe('/media/banner/sofa/5f7a8a.svg');
    for (const bad of ['//evil.example/x', 'javascript:alert(1)', '/x\\y']) expect(isSitePath(bad)).toBe(false);
  });
  it('swaps a minimum above the maximum', () => {
    expect(parse('minPrice=9000&maxPrice=100')).toMatchObject({ minPrice: 100, maxPrice: 9000 });
  });
  it('relevance without a term is newest', () => {
    expect(parse('sort=relevance').sort).toBe('newest');
  });
  it('writes one URL per state, defaults left out, and reads it back the same', () => {
    const s = parse('sort=newest&page=1&color=Teal&categoryName=Sofas&categoryId=12');
    expect(shopQueryString(s)).toBe('?categoryId=12&categoryName=Sofas&color=Teal');
    fc.assert(
      fc.property(
        fc.record({
          q: fc.constantFrom('', 'SOFA', 'AFL-1021'),
          cat: fc.option(fc.integer({ min: 1, max: 99 }), { nil: null }),
          colors: fc.subarray(['Grey', 'Teal', 'Navy']),
          min: fc.option(fc.integer({ min: 0, max: 50_000 }), { nil: null }),
          sort: fc.constantFrom('newest', 'price-asc', 'price-desc', 'name', 'relevance'),
          page: fc.integer({ min: 1, max: 50 }),
        }),
        (r) => {
          const p = new URLSearchParams();
          if (r.q) p.set('q', r.q);
          if (r.cat) p.set('categoryId', String(r.cat));
          for (const c of r.colors) p.append('color', c);
          if (r.min !== null) p.set('minPrice', String(r.min));
          p.set('sort', r.sort);
          p.set('page', String(r.page));
          const once = parse(p.toString());
          expect(parse(shopQueryString(once).slice(1))).toEqual(once);
        },
      ),
    );
  });
  it('a filter change goes back to page 1; toggling a value twice undoes it', () => {
    const s = parse('categoryId=3&page=4');
    const on = toggleAttrValue(s, 'color', 'Grey');
    expect(on.page).toBe(1);
    expect(on.attrs).toEqual({ color: ['Grey'] });
    expect(toggleAttrValue(on, 'color', 'Grey').attrs).toEqual({});
    expect(withShopQuery(s, { page: 5 }).page).toBe(5);
  });
});

describe('the search body of a shop state', () => {
  it('sends the term, the category, one filter per chosen value, prices in poisha and the sort', () => {
    const s = parseShopQuery(new URLSearchParams('q=oak&categoryId=3&color=Grey&color=Teal&minPrice=100&sort=price-desc&page=2'), ['color']);
    expect(shopSearchBody(s, [{ field: 'onSale', value: true }])).toEqual({
      page: 2,
      size: 24,
      fetchCount: true,
      facets: true,
      textParams: [
        { field: 'onSale', value: true, matchType: 'EXACT' },
        { field: 'query', value: 'OAK', matchType: 'EXACT' },
        { field: 'categoryId', value: 3, matchType: 'EXACT' },
        { field: 'color', value: 'Grey', matchType: 'EXACT' },
        { field: 'color', value: 'Teal', matchType: 'EXACT' },
        { field: 'minPrice', value: 10000, matchType: 'EXACT' },
      ],
      sortParams: [{ field: 'price', type: 'DESC' }],
    });
  });
  it('uses the category name when there is no id, and nothing for all', () => {
    expect(shopSearchBody(parseShopQuery(new URLSearchParams('categoryName=Sofas'))).textParams).toEqual([
      { field: 'categoryName', value: 'Sofas', matchType: 'EXACT' },
    ]);
    expect(shopSearchBody(parseShopQuery(new URLSearchParams('categoryName=all'))).textParams).toEqual([]);
  });
});

describe('choosing a sku by Color and Size', () => {
  const av = (name: string, value: string) => ({ name, value, displayLabel: value, optionDisplayLabel: name === 'color' ? 'Color' : 'Size' });
  const skus: TSkuChoice[] = [
    { code: 'GREY-S', attributeValues: [av('color', 'Grey'), av('size', 'S')] },
    { code: 'GREY-L', attributeValues: [av('color', 'Grey'), av('size', 'L')] },
    { code: 'TEAL-S', attributeValues: [av('color', 'Teal'), av('size', 'S')] },
  ];

  it('lists the options in the order the skus give them', () => {
    expect(skuOptions(skus)).toEqual([
      {
        name: 'color',
        displayLabel: 'Color',
        values: [
          { value: 'Grey', displayLabel: 'Grey' },
          { value: 'Teal', displayLabel: 'Teal' },
        ],
      },
      {
        name: 'size',
        displayLabel: 'Size',
        values: [
          { value: 'S', displayLabel: 'S' },
          { value: 'L', displayLabel: 'L' },
        ],
      },
    ]);
  });
  it('keeps the other choices when it can', () => {
    expect(chooseSku(skus, { color: 'Grey', size: 'S' }, 'size', 'L')?.code).toBe('GREY-L');
    expect(chooseSku(skus, { color: 'Grey', size: 'S' }, 'color', 'Teal')?.code).toBe('TEAL-S');
  });
  it('falls back to a sku with the chosen value when the combination does not exist', () => {
    expect(chooseSku(skus, { color: 'Grey', size: 'L' }, 'color', 'Teal')?.code).toBe('TEAL-S');
    expect(chooseSku(skus, { color: 'Grey' }, 'color', 'Pink')).toBeNull();
  });
  it('says which combinations exist', () => {
    expect(isCombinationAvailable(skus, { color: 'Teal', size: 'S' }, 'size', 'L')).toBe(false);
    expect(isCombinationAvailable(skus, { color: 'Grey', size: 'S' }, 'size', 'L')).toBe(true);
  });
});

describe('browser caches (spec §4, §9)', () => {
  const DAY = 86_400_000;
  it('starts the clock when there is no valid cache', () => {
    expect(nextStorageCache([1], 1000, DAY, null)).toEqual({ list: [1], timestamp: 1000, expiresOn: 1000 + DAY });
  });
  it('keeps the initial timestamp and expiry while valid', () => {
    const first = nextStorageCache([1], 1000, DAY, null);
    expect(nextStorageCache([1, 2], 5000, DAY, first)).toEqual({ list: [1, 2], timestamp: 1000, expiresOn: 1000 + DAY });
  });
  it('is expired from expiresOn on, and then restarts', () => {
    const first = nextStorageCache([1], 0, DAY, null);
    expect(isStorageCacheExpired(first, DAY - 1)).toBe(false);
    expect(isStorageCacheExpired(first, DAY)).toBe(true);
    expect(nextStorageCache([2], DAY + 5, DAY, first).timestamp).toBe(DAY + 5);
  });
  it('treats malformed storage as no cache', () => {
    for (const raw of [null, '', 'not json', '{}', '{"list":3,"timestamp":1,"expiresOn":2}', 'null']) expect(parseStorageCache(raw)).toBeNull();
    expect(parseStorageCache('{"list":[],"timestamp":1,"expiresOn":2}')).toEqual({ list: [], timestamp: 1, expiresOn: 2 });
  });
});

describe('carousel', () => {
  it('wraps around both ends', () => {
    expect(wrapIndex(3, 3)).toBe(0);
    expect(wrapIndex(-1, 3)).toBe(2);
    expect(wrapIndex(5, 0)).toBe(0);
  });
  it('moves on a horizontal drag of 40 px or more (spec §9)', () => {
    expect(swipeStep(-40, 0)).toBe(1);
    expect(swipeStep(40, 5)).toBe(-1);
    expect(swipeStep(-39, 0)).toBe(0);
    expect(swipeStep(-60, 80)).toBe(0);
  });
});
