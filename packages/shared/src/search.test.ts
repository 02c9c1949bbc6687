import { describe, expect, it } from 'vitest';
import { isModelCode, normalizeSearchTerm } from './search.ts';
import { ZSearchRequest } from './search-schemas.ts';

describe('search term', () => {
  it('is trimmed and upper-cased', () => {
    expect(normalizeSearchTerm('  sofa bed ')).toBe('SOFA BED');
  });
  it('treats AFL- and DFL- codes as model numbers, in any case', () => {
    expect(isModelCode('afl-1021')).toBe(true);
    expect(isModelCode(' DFL-2040')).toBe(true);
    expect(isModelCode('AFL1021')).toBe(false);
    expect(isModelCode('sofa')).toBe(false);
  });
});

describe('paged search body', () => {
  it('fills defaults', () => {
    expect(ZSearchRequest.parse({})).toEqual({ page: 1, size: 20, fetchCount: false, textParams: [], sortParams: [], nestedParams: [] });
  });
  it('refuses a page below 1 and a size above the maximum', () => {
    expect(ZSearchRequest.safeParse({ page: 0 }).success).toBe(false);
    expect(ZSearchRequest.safeParse({ size: 1000 }).success).toBe(false);
  });
  it('normalises the sort direction', () => {
    expect(ZSearchRequest.parse({ sortParams: [{ field: 'title', type: 'desc' }] }).sortParams[0].type).toBe('DESC');
  });
});
