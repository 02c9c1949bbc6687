import { describe, expect, it } from 'vitest';
import { isModelCode, looksLikeModelCode, modelKey, normalizeSearchTerm } from './search.ts';
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

describe('model codes typed loosely', () => {
  it('reduces every spelling of a code to its letters and digits', () => {
    for (const t of ['dfl 2040', 'DFL2040', 'dfl-2040', 'Dfl_2040', ' DFL - 2040 ', 'DFL ২০৪০']) expect(modelKey(t)).toBe('DFL2040');
  });
  it('recognises the AFL and DFL lines however spaced, and nothing else', () => {
    for (const t of ['dfl 2040', 'DFL2040', 'dfl-2040', 'Dfl_2040', 'afl1021']) expect(looksLikeModelCode(t)).toBe(true);
    for (const t of ['sofa', 'dfl', 'dfl sofa', 'afl-x1', 'sofa 2040', 'DFL 2040 sofa']) expect(looksLikeModelCode(t)).toBe(false);
  });
});
