import SqliteDatabase from 'better-sqlite3';
import { ZSearchRequest, type TSearchRequestInput } from '@storefront/shared';
import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from './errors.ts';
import { booleanField, integerField, pagedSearch, type SearchFields, textField } from './paging.ts';

// The paging rules on a tiny in-memory table; the API tests run them on both databases.

interface Db {
  things: { id: number; name: string; colour: string; rank: number; in_stock: number };
}

let db: Kysely<Db>;
beforeAll(async () => {
  db = new Kysely<Db>({ dialect: new SqliteDialect({ database: new SqliteDatabase(':memory:') }) });
  await db.schema
    .createTable('things')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('colour', 'text', (c) => c.notNull())
    .addColumn('rank', 'integer', (c) => c.notNull())
    .addColumn('in_stock', 'integer', (c) => c.notNull())
    .execute();
  await db
    .insertInto('things')
    .values([
      { id: 1, name: 'Oak Table', colour: 'brown', rank: 3, in_stock: 1 },
      { id: 2, name: 'Teak Chair', colour: 'brown', rank: 1, in_stock: 0 },
      { id: 3, name: '50% Off Sofa', colour: 'grey', rank: 2, in_stock: 1 },
      { id: 4, name: 'Side_Board', colour: 'white', rank: 2, in_stock: 0 },
      { id: 5, name: 'Sideboard', colour: 'white', rank: 5, in_stock: 1 },
    ])
    .execute();
});
afterAll(() => db?.destroy());

const FIELDS: SearchFields = {
  filter: { name: textField('name'), colour: textField('colour') },
  sort: { name: 'name', rank: 'rank' },
  tieBreaker: 'id',
};

const run = (input: TSearchRequestInput) => pagedSearch(db.selectFrom('things').select(['id', 'name']), ZSearchRequest.parse(input), FIELDS);
const ids = async (input: TSearchRequestInput) => (await run(input)).list.map((r) => r.id);

describe('pagedSearch', () => {
  it('returns a full page with the next page number as the token', async () => {
    const page = await run({ size: 2 });
    expect(page).toEqual({
      list: [
        { id: 1, name: 'Oak Table' },
        { id: 2, name: 'Teak Chair' },
      ],
      nextPageToken: '2',
    });
  });

  it('gives an empty token on the last page, even when it is exactly full', async () => {
    expect((await run({ size: 5 })).nextPageToken).toBe('');
    expect((await run({ size: 2, page: 3 })).nextPageToken).toBe('');
    expect(await run({ size: 2, page: 9 })).toEqual({ list: [], nextPageToken: '' });
  });

  it('breaks ties by the tie-breaker so that pages never overlap', async () => {
    const seen: number[] = [];
    for (let page = 1; page <= 5; page++) seen.push(...(await ids({ size: 1, page, sortParams: [{ field: 'rank' }] })));
    expect(seen).toEqual([2, 3, 4, 1, 5]);
  });

  it('sorts descending when asked', async () => {
    expect(await ids({ sortParams: [{ field: 'rank', type: 'DESC' }] })).toEqual([5, 1, 3, 4, 2]);
  });

  it('counts every match only when fetchCount is set', async () => {
    expect((await run({ size: 1, fetchCount: true, textParams: [{ field: 'colour', value: 'brown' }] })).count).toBe(2);
    expect((await run({ size: 1 })).count).toBeUndefined();
  });

  it('EXACT matches the whole value', async () => {
    expect(await ids({ textParams: [{ field: 'colour', value: 'white' }] })).toEqual([4, 5]);
    expect(await ids({ textParams: [{ field: 'colour', value: 'whit' }] })).toEqual([]);
  });

  it('IN matches any of the comma-separated values', async () => {
    expect(await ids({ textParams: [{ field: 'colour', value: 'grey, white', matchType: 'IN' }] })).toEqual([3, 4, 5]);
  });

  it('refuses an IN filter without values', async () => {
    await expect(run({ textParams: [{ field: 'colour', value: ' , ', matchType: 'IN' }] })).rejects.toBeInstanceOf(ApiError);
  });

  it('CONTAINS and STARTS_WITH ignore case', async () => {
    expect(await ids({ textParams: [{ field: 'name', value: 'TEAK', matchType: 'CONTAINS' }] })).toEqual([2]);
    expect(await ids({ textParams: [{ field: 'name', value: 'side', matchType: 'STARTS_WITH' }] })).toEqual([4, 5]);
  });

  it('treats % and _ in the value as plain characters', async () => {
    expect(await ids({ textParams: [{ field: 'name', value: '%', matchType: 'CONTAINS' }] })).toEqual([3]);
    expect(await ids({ textParams: [{ field: 'name', value: 'side_', matchType: 'STARTS_WITH' }] })).toEqual([4]);
    expect(await ids({ textParams: [{ field: 'name', value: '_', matchType: 'CONTAINS' }] })).toEqual([4]);
  });

  it('refuses an unknown filter or sort field with a 400 naming it', async () => {
    const filter = run({ textParams: [{ field: 'secret', value: 'x' }] });
    await expect(filter).rejects.toMatchObject({ status: 400, fields: { textParams: expect.stringContaining('secret') } });
    const sort = run({ sortParams: [{ field: 'id; drop table things' }] });
    await expect(sort).rejects.toMatchObject({ status: 400, fields: { sortParams: expect.any(String) } });
  });

  it('takes names of Object.prototype (toString, constructor) as the unknown fields they are (found by the fuzz)', async () => {
    for (const field of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      await expect(run({ textParams: [{ field, value: 1 }] })).rejects.toMatchObject({ status: 400 });
      await expect(run({ sortParams: [{ field }] })).rejects.toMatchObject({ status: 400 });
    }
  });

  it('only allows whitelisted names, not arbitrary columns of the table', async () => {
    await expect(run({ textParams: [{ field: 'rank', value: 1 }] })).rejects.toBeInstanceOf(ApiError);
  });
});

// Typed filters (docs/decisions/0025-typed-search-filters.md): each field says what its column
// holds; a value is checked and converted before it is bound, or refused with a 400 naming the field.
describe('pagedSearch with typed filter fields', () => {
  const TYPED: SearchFields = {
    filter: { name: textField('name'), rank: integerField('rank'), inStock: booleanField('in_stock'), colour: textField('colour', ['EXACT']) },
    sort: {},
    tieBreaker: 'id',
  };
  const typed = (input: TSearchRequestInput) => pagedSearch(db.selectFrom('things').select(['id']), ZSearchRequest.parse(input), TYPED);
  const typedIds = async (input: TSearchRequestInput) => (await typed(input)).list.map((r) => r.id);
  const refused = (input: TSearchRequestInput, field: string) =>
    expect(typed(input)).rejects.toMatchObject({ status: 400, fields: { textParams: expect.stringMatching(new RegExp(`^${field}: `)) } });

  it('binds an integer field as a number, given as a number or as its digits', async () => {
    expect(await typedIds({ textParams: [{ field: 'rank', value: 2 }] })).toEqual([3, 4]);
    expect(await typedIds({ textParams: [{ field: 'rank', value: ' 2 ' }] })).toEqual([3, 4]);
    expect(await typedIds({ textParams: [{ field: 'rank', value: '1, 5', matchType: 'IN' }] })).toEqual([2, 5]);
    expect(await typedIds({ textParams: [{ field: 'rank', value: 3, matchType: 'IN' }] })).toEqual([1]);
    expect(await typedIds({ textParams: [{ field: 'rank', value: -0 }] })).toEqual([]);
  });

  it('refuses a value an integer field cannot hold, naming the field', async () => {
    for (const value of ['abc', '2.0', '1e3', 1.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, true, false, ''])
      await refused({ textParams: [{ field: 'rank', value }] }, 'rank');
    await refused({ textParams: [{ field: 'rank', value: '1,x', matchType: 'IN' }] }, 'rank');
    await refused({ textParams: [{ field: 'rank', value: ' , ', matchType: 'IN' }] }, 'rank');
  });

  it('refuses a text match on an integer field (PostgreSQL has no lower(integer))', async () => {
    for (const matchType of ['CONTAINS', 'STARTS_WITH'] as const) {
      await expect(typed({ textParams: [{ field: 'rank', value: 2, matchType }] })).rejects.toMatchObject({
        status: 400,
        fields: { textParams: expect.stringContaining(`rank: matchType ${matchType}`) },
      });
    }
  });

  it('binds a boolean field as the 0 or 1 both databases store, from true/false, "true"/"false" or 1/0', async () => {
    for (const value of [true, 'true', 1, '1']) expect(await typedIds({ textParams: [{ field: 'inStock', value }] })).toEqual([1, 3, 5]);
    for (const value of [false, 'false', 0, '0']) expect(await typedIds({ textParams: [{ field: 'inStock', value }] })).toEqual([2, 4]);
  });

  it('refuses anything else for a boolean field, and any match but EXACT', async () => {
    for (const value of ['yes', 'TRUE', '', 2, -1, 0.5]) await refused({ textParams: [{ field: 'inStock', value }] }, 'inStock');
    for (const matchType of ['IN', 'CONTAINS', 'STARTS_WITH'] as const)
      await refused({ textParams: [{ field: 'inStock', value: true, matchType }] }, 'inStock');
  });

  it('takes a number for a text field as its text, and refuses a boolean (SQLite cannot bind one)', async () => {
    expect(await typedIds({ textParams: [{ field: 'name', value: 50, matchType: 'STARTS_WITH' }] })).toEqual([3]);
    expect(await typedIds({ textParams: [{ field: 'name', value: '50', matchType: 'STARTS_WITH' }] })).toEqual([3]);
    for (const matchType of ['EXACT', 'IN', 'CONTAINS', 'STARTS_WITH'] as const) {
      await refused({ textParams: [{ field: 'name', value: true, matchType }] }, 'name');
      await refused({ textParams: [{ field: 'name', value: false, matchType }] }, 'name');
    }
  });

  it('refuses NUL in a text value (PostgreSQL text cannot hold it), as on every database', async () => {
    await refused({ textParams: [{ field: 'name', value: 'Oak\u0000', matchType: 'CONTAINS' }] }, 'name');
    await refused({ textParams: [{ field: 'name', value: 'a,\u0000', matchType: 'IN' }] }, 'name');
  });

  it('refuses a match type the field does not take', async () => {
    await refused({ textParams: [{ field: 'colour', value: 'whi', matchType: 'STARTS_WITH' }] }, 'colour');
    expect(await typedIds({ textParams: [{ field: 'colour', value: 'white' }] })).toEqual([4, 5]);
  });

  it('names the fields it knows when asked for one it does not', async () => {
    await expect(typed({ textParams: [{ field: 'price', value: 1 }] })).rejects.toMatchObject({
      status: 400,
      fields: { textParams: 'unknown field price; filter fields: name, rank, inStock, colour' },
    });
  });
});
