import fs from 'node:fs';
import path from 'node:path';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config.ts';
import { startTestApp, TEST_API_KEY, type TestApp } from './helpers/test-app.ts';

// What a server-rendered page costs the database (docs/decisions/0029): a budget of
// statements per page, each big table read once, and no statement that a page or the
// catalogue API runs may scan a big table whole. A plan is read with EXPLAIN on the
// database of the project (SQLite: EXPLAIN QUERY PLAN; PostgreSQL: EXPLAIN with sequential
// scans priced out, so that the small test catalogue is planned as a large one would be:
// a Seq Scan that remains is one no index can avoid).

/** Tables that grow with the catalogue or with trade: never scanned whole. */
const LARGE = new Set([
  'products',
  'skus',
  'product_search',
  'product_categories',
  'product_facets',
  'category_listing',
  'sku_attribute_values',
  'product_images',
  'stocks',
  'sales',
  'sale_lines',
  'customers',
  'wishlist_items',
]);

const WEB_BUILD = path.join(REPO_ROOT, 'apps/web/build');
let t: TestApp;
let product: { id: number; slug: string };
let category: { id: number; name: string };

beforeAll(async () => {
  // `npm test` builds the web app before the API tests; the pages are rendered from it.
  if (!fs.existsSync(path.join(WEB_BUILD, 'server/index.js'))) throw new Error(`${WEB_BUILD} is missing: run \`npm run build\` first`);
  t = await startTestApp({ config: { webBuildDir: WEB_BUILD, pageCacheMs: 0, readCacheMs: 0, shellCacheMs: 60_000 } });
  const listing = await t.api('/api/search/indices/items', { method: 'POST', json: { size: 1, facets: true } });
  const top = listing.body.facets.categories as { id: number; name: string; count: number }[];
  category = top.reduce((a, b) => (b.count > a.count ? b : a));
  const p = await t.api('/api/v3/items/joined?id=12');
  product = { id: p.body.id, slug: p.body.slug };
});
afterAll(() => t?.close());

interface Statement {
  sql: string;
  parameters: readonly unknown[];
}

/** The statements one request runs, the page's shell data already computed. */
async function statementsOf(url: string, init: { url?: string; method?: string; json?: unknown } = {}): Promise<Statement[]> {
  const send = () =>
    t.app.inject({
      method: (init.method ?? 'GET') as 'GET',
      url,
      headers: { accept: 'text/html', 'x-api-key': TEST_API_KEY, ...(init.json ? { 'content-type': 'application/json' } : {}) },
      payload: init.json ? JSON.stringify(init.json) : undefined,
    });
  await send();
  const seen: Statement[] = [];
  // The read side's version is polled on a timer of its own (plugins/catalogue.ts), not by
  // the page: a poll that falls inside the request is not the page's statement.
  const stop = t.db.observe((text, _ms, parameters) => {
    if (!/"read_side_version"/.test(text)) seen.push({ sql: text, parameters });
  });
  try {
    const res = await send();
    expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(200);
  } finally {
    stop();
  }
  return seen;
}

/** The tables a statement reads ("from"/"join" targets), aliases resolved. */
function tablesOf(text: string): string[] {
  return [...text.matchAll(/\b(?:from|join)\s+"(\w+)"/gi)].map((m) => m[1]);
}

const pages = () => [
  { url: '/', budget: 8 },
  { url: `/shop?categoryId=${category.id}&categoryName=${encodeURIComponent(category.name)}`, budget: 7 },
  { url: '/shop?q=SOFA&categoryName=all', budget: 9 },
  { url: `/details?id=${product.id}`, budget: 9 },
  { url: `/products/${product.slug}`, budget: 9 },
  { url: '/cart', budget: 0 },
];

describe('statements per page render', () => {
  it('each page stays within its budget of statements', async () => {
    for (const { url, budget } of pages()) {
      const seen = await statementsOf(url);
      expect(seen.length, `${url} ran:\n${seen.map((s) => s.sql).join('\n')}`).toBeLessThanOrEqual(budget);
    }
  });

  it('the product page reads the product, its content and its pictures once', async () => {
    const seen = await statementsOf(`/details?id=${product.id}`);
    const reads = (table: string) => seen.filter((s) => tablesOf(s.sql).includes(table)).length;
    expect(reads('products')).toBe(1);
    expect(reads('cms_content')).toBe(1);
    expect(reads('product_images')).toBe(1);
  });

  it('the home page reads its content once and the shell not at all once computed', async () => {
    const seen = await statementsOf('/');
    const tables = seen.flatMap((s) => tablesOf(s.sql));
    expect(tables.filter((x) => x === 'cms_content')).toHaveLength(1);
    for (const shell of ['kvps', 'categories', 'currencies', 'global_discounts']) expect(tables).not.toContain(shell);
  });
});

// ---- plans ------------------------------------------------------------------------------

/**
 * The big tables a statement's plan reads whole, if any: a scan of the table, or of all of
 * an index of it. Walking an index in order under a LIMIT is not counted: it stops at the
 * page (the category listing's plan for large categories, search.service.ts).
 */
async function fullScans(s: Statement): Promise<string[]> {
  if (t.dialect === 'sqlite') {
    const aliases = new Map([...s.sql.matchAll(/"(\w+)" as "(\w+)"/g)].map((m) => [m[2], m[1]]));
    const limited = /\blimit\b/i.test(s.sql);
    const { rows } = await t.db.kysely.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${s.sql}`, [...s.parameters]));
    return rows
      .map((r) => /^SCAN (\w+)(?: AS \w+)?( USING (?:COVERING )?INDEX \w+)?$/.exec(r.detail.trim()))
      .filter((m): m is RegExpExecArray => m !== null && !(m[2] && limited))
      .map((m) => aliases.get(m[1]) ?? m[1])
      .filter((table) => LARGE.has(table));
  }
  return t.db.kysely.connection().execute(async (conn) => {
    await sql`set enable_seqscan = off`.execute(conn);
    try {
      const { rows } = await conn.executeQuery<{ 'QUERY PLAN': unknown }>(CompiledQuery.raw(`explain (format json) ${s.sql}`, [...s.parameters]));
      const found: string[] = [];
      const walk = (node: Record<string, unknown>, limited: boolean) => {
        const type = String(node['Node Type']);
        const table = String(node['Relation Name']);
        const wholeIndex = /Index/.test(type) && !node['Index Cond'] && !limited;
        if (LARGE.has(table) && (type === 'Seq Scan' || wholeIndex)) found.push(table);
        for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child, limited || type === 'Limit');
      };
      const plan = rows[0]['QUERY PLAN'] as { Plan: Record<string, unknown> }[];
      walk(plan[0].Plan, false);
      return found;
    } finally {
      await sql`set enable_seqscan = on`.execute(conn);
    }
  });
}

describe('query plans', () => {
  // SQLite gathers no statistics by itself; PostgreSQL's autovacuum does (planner-stats.ts).
  it.skipIf(process.env.TEST_DB !== 'sqlite')('SQLite has statistics of the catalogue tables once the read side is built', async () => {
    const { rows } = await sql<{ tbl: string }>`select distinct tbl from sqlite_stat1`.execute(t.db.kysely);
    expect(rows.map((r) => r.tbl)).toEqual(expect.arrayContaining(['products', 'product_search', 'product_facets', 'product_categories']));
  });

  const search = (body: unknown) => ({ method: 'POST', json: body });
  const api = () => [
    { url: '/api/options' },
    { url: `/api/v3/items/joined?id=${product.id}` },
    { url: '/api/items/linked/search', ...search({ page: 1, size: 8, textParams: [{ field: 'itemId', value: product.id }] }) },
    { url: '/api/stocks/items/skus/search', ...search({ page: 1, size: 100, textParams: [{ field: 'itemId', value: product.id }] }) },
    ...['createdAt', 'price', 'title'].flatMap((field) =>
      (['ASC', 'DESC'] as const).map((type) => ({
        url: '/api/search/indices/items',
        ...search({
          page: 2,
          size: 24,
          fetchCount: true,
          facets: true,
          textParams: [{ field: 'categoryId', value: category.id }],
          sortParams: [{ field, type }],
        }),
      })),
    ),
    {
      url: '/api/search/indices/items',
      ...search({
        page: 1,
        size: 24,
        fetchCount: true,
        facets: true,
        textParams: [
          { field: 'query', value: 'SOFA' },
          { field: 'color', value: 'Grey' },
        ],
      }),
    },
    {
      url: '/api/v2/items/indices',
      ...search({ page: 1, size: 8, textParams: [{ field: 'onSale', value: true }], sortParams: [{ field: 'createdAt', type: 'DESC' }] }),
    },
  ];

  it('no page and no catalogue read scans a big table whole', async () => {
    const offenders: string[] = [];
    for (const r of [...pages(), ...api()]) {
      for (const s of await statementsOf(r.url, r)) {
        const scans = await fullScans(s);
        if (scans.length) offenders.push(`${r.url}: ${scans.join(', ')} in ${s.sql}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('the check finds a full scan when there is one', async () => {
    // The test must be able to fail: a filter on a column without an index is a scan, and
    // so is reading every entry of an index (the values in use, as they were once read).
    const k = t.db.kysely;
    expect(await fullScans(k.selectFrom('products').select('id').where('description', '=', 'x').compile())).toEqual(['products']);
    const valuesInUse = k
      .selectFrom('product_facets')
      .select(['attribute_id', 'value', 'display_label'])
      .distinct()
      .orderBy('attribute_id')
      .orderBy('display_label');
    expect(await fullScans(valuesInUse.compile())).toEqual(['product_facets']);
  });
});
