import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv, toCsv } from '../src/lib/csv.ts';
import { signedInStaff, type TestStaff } from './helpers/staff.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// CSV export and import of products (docs/decisions/0031): an export imports back unchanged;
// a good file is applied all at once; a bad one gets a report by line and column and
// changes nothing; 10,000 rows work.

let t: TestApp;
let manager: TestStaff;
beforeAll(async () => {
  t = await startTestApp({ config: { readCacheMs: 60_000 } });
  manager = await signedInStaff(t, 'manager');
});
afterAll(() => t?.close());

async function exported(): Promise<string> {
  const r = await t.api('/api/admin/products/export', { headers: manager.headers });
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/text\/csv/);
  return r.text;
}

async function upload(body: string | Uint8Array, name = 'products.csv') {
  return t.api('/api/admin/imports', { method: 'POST', body, headers: { ...manager.headers, 'content-type': 'text/csv', 'x-file-name': name } });
}

async function applied(id: number) {
  const start = await t.api(`/api/admin/imports/${id}/apply`, { method: 'POST', headers: manager.headers });
  expect(start.status, start.text).toBe(202);
  // Up to two minutes: the 10,000-row file rebuilds the search index in both languages, and
  // a busy two-core machine takes its time.
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    const r = await t.api(`/api/admin/imports/${id}`, { headers: manager.headers });
    if (r.body.status !== 'applying') return r.body;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error('the import did not finish');
}

/** The export as rows, and a way to write rows back as a file. */
function table(csv: string) {
  const { rows } = parseCsv(csv);
  const [header, ...data] = rows;
  const at = (name: string) => header.indexOf(name);
  return { header, data, at, file: (rs: string[][], h = header) => toCsv([h, ...rs]) };
}

describe('export and import', () => {
  it('an export imports back unchanged', async () => {
    const before = await exported();
    const check = await upload(before);
    expect(check.status, check.text).toBe(201);
    expect(check.body.status).toBe('ready');
    expect(check.body.summary).toMatchObject({ productsCreated: 0, productsChanged: 0, skusCreated: 0, skusChanged: 0, stockChanges: 0 });
    expect(check.body.summary.productsUnchanged).toBeGreaterThan(300);
    const done = await applied(check.body.id);
    expect(done.status).toBe('applied');
    expect(await exported()).toBe(before);
  });

  it('writes cells a spreadsheet would run as formulas as text, and imports them back as they were', async () => {
    // OWASP's CSV injection: a cell starting with = + - @ (or a tab or carriage return) is
    // run by a spreadsheet; the export starts it with a quote, which the import takes off.
    const values = ['=HYPERLINK("http://evil.example","Click")', "+cmd|' /C calc'!A0", '-2+3+cmd|x', '@SUM(1+1)*cmd|x', "'=a title that starts with a quote"];
    const db = t.db.kysely;
    const chosen = await db.selectFrom('products').select(['id', 'slug', 'title']).orderBy('id').limit(values.length).execute();
    try {
      for (const [i, p] of chosen.entries()) await db.updateTable('products').set({ title: values[i] }).where('id', '=', p.id).execute();
      const csv = await exported();
      const { data, at } = table(csv);
      const titleOf = (slug: string) => data.find((r) => r[at('product_slug')] === slug)![at('title')];
      expect(chosen.map((p) => titleOf(p.slug))).toEqual(values.map((v) => `'${v}`));
      expect(data.flat().filter((c) => /^[=+\-@\t\r]/.test(c))).toEqual([]);

      const check = await upload(csv);
      expect(check.status, check.text).toBe(201);
      expect(check.body.summary).toMatchObject({ productsCreated: 0, productsChanged: 0, skusChanged: 0, stockChanges: 0 });
      expect((await applied(check.body.id)).status).toBe('applied');
      const after = await db
        .selectFrom('products')
        .select('title')
        .where(
          'id',
          'in',
          chosen.map((p) => p.id),
        )
        .orderBy('id')
        .execute();
      expect(after.map((p) => p.title)).toEqual(values);
    } finally {
      for (const p of chosen) await db.updateTable('products').set({ title: p.title }).where('id', '=', p.id).execute();
    }
  });

  it('a good file changes a price and adds a product with two skus and stock in two showrooms, at once in the shop', async () => {
    const { header, data, at, file } = table(await exported());
    const first = [...data[0]];
    const oldPrice = first[at('price')];
    first[at('price')] = '99999.50';
    const branches = header.filter((h) => h.startsWith('stock:'));
    const blank = () => header.map(() => '');
    const newRow = (code: string, price: string, stock: [string, string]) => {
      const r = blank();
      r[at('product_slug')] = 'tista-cane-lounger';
      r[at('title')] = 'Tista Cane Lounger';
      r[at('kind')] = 'single';
      r[at('status')] = 'published';
      r[at('categories')] = data[0][at('categories')];
      r[at('new_arrival')] = 'yes';
      r[at('sku_code')] = code;
      r[at('price')] = price;
      r[at('attributes')] = 'color=Walnut';
      r[at(stock[0])] = stock[1];
      return r;
    };
    const rows = [first, newRow('TCL-1-WAL', '23,500', [branches[0], '4']), newRow('TCL-1-OAK', '24500', [branches[1], '2'])];
    const check = await upload(file(rows));
    expect(check.body.status, JSON.stringify(check.body.errors)).toBe('ready');
    expect(check.body.summary).toMatchObject({ productsCreated: 1, productsChanged: 1, skusCreated: 2, skusChanged: 1, stockChanges: 2 });
    const done = await applied(check.body.id);
    expect(done.status).toBe('applied');

    const sku = await t.db.kysely.selectFrom('skus').select('sales_price').where('code', '=', first[at('sku_code')]).executeTakeFirstOrThrow();
    expect(Number(sku.sales_price)).toBe(9_999_950);
    expect(oldPrice).not.toBe('99999.50');
    const search = await t.api('/api/search/indices/items', {
      method: 'POST',
      json: { page: 1, size: 5, textParams: [{ field: 'query', value: 'tista lounger' }] },
    });
    const card = search.body.list.find((c: any) => c.title === 'Tista Cane Lounger');
    expect(card?.sku.salesPrice).toBe(2_350_000);
    const moves = await t.db.kysely
      .selectFrom('stock_movements as m')
      .innerJoin('skus as s', 's.id', 'm.sku_id')
      .select(['s.code', 'm.quantity_after', 'm.note'])
      .where('s.code', 'in', ['TCL-1-WAL', 'TCL-1-OAK'])
      .execute();
    expect(moves.map((m) => [m.code, m.quantity_after, m.note]).sort()).toEqual([
      ['TCL-1-OAK', 2, 'CSV import'],
      ['TCL-1-WAL', 4, 'CSV import'],
    ]);
  });

  it('bad files get a report by line and column, and change nothing', async () => {
    const csv = await exported();
    const { header, data, at, file } = table(csv);
    const without = (name: string) => {
      const i = at(name);
      return file(
        data.slice(0, 3).map((r) => r.filter((_, j) => j !== i)),
        header.filter((_, j) => j !== i),
      );
    };
    const edit = (line: number, name: string, value: string) =>
      file(data.slice(0, 5).map((r, i) => (i === line - 2 ? r.map((v, j) => (j === at(name) ? value : v)) : r)));
    const cases: [string, string | Uint8Array, { line: number; column: string; message: RegExp }][] = [
      ['wrong encoding', Buffer.from('product_slug,title\nsofa,Caf\xe9 chair\n', 'latin1'), { line: 1, column: '', message: /not UTF-8/ }],
      ['a missing column', without('price'), { line: 1, column: 'price', message: /missing/ }],
      [
        'an unknown column',
        file(
          data.slice(0, 2).map((r) => [...r, 'x']),
          [...header, 'colour'],
        ),
        { line: 1, column: 'colour', message: /Unknown column/ },
      ],
      ['a duplicate sku code', edit(3, 'sku_code', data[0][at('sku_code')]), { line: 3, column: 'sku_code', message: /line 2 too/ }],
      ['a negative price', edit(4, 'price', '-500'), { line: 4, column: 'price', message: /above zero/ }],
      ['an unknown category', edit(2, 'categories', 'no-such-category'), { line: 2, column: 'categories', message: /No category/ }],
      [
        'a bad stock count',
        edit(5, header.find((h) => h.startsWith('stock:')) ?? '', '2.5'),
        { line: 5, column: header.find((h) => h.startsWith('stock:')) ?? '', message: /whole number/ },
      ],
      ['an empty file', '', { line: 1, column: '', message: /empty/ }],
      ['an unclosed quote', 'product_slug,title\n"sofa,chair\n', { line: 2, column: '', message: /never ends/ }],
    ];
    for (const [what, body, expected] of cases) {
      const r = await upload(body);
      expect(r.status, `${what}: ${r.text}`).toBe(201);
      expect(r.body.status, what).toBe('invalid');
      expect(r.body.errors, what).toContainEqual(
        expect.objectContaining({ line: expected.line, column: expected.column, message: expect.stringMatching(expected.message) }),
      );
      const again = await t.api(`/api/admin/imports/${r.body.id}/apply`, { method: 'POST', headers: manager.headers });
      expect(again.status, what).toBe(409);
    }
    expect(await exported()).toBe(csv);
    const notCsv = await t.api('/api/admin/imports', {
      method: 'POST',
      body: 'x',
      headers: { ...manager.headers, 'content-type': 'text/csv', 'x-file-name': 'evil.exe' },
    });
    expect(notCsv.status).toBe(400);
  });

  it('applies once, whoever asks at the same moment; a file that no longer fits the catalogue is checked again and refused', async () => {
    const { data, at, file } = table(await exported());
    const row = [...data[1]];
    row[at('description')] = 'Changed by an import.';
    const check = await upload(file([row]));
    const both = await Promise.all([1, 2].map(() => t.api(`/api/admin/imports/${check.body.id}/apply`, { method: 'POST', headers: manager.headers })));
    expect(both.map((r) => r.status).sort()).toEqual([202, 409]);

    // Checked, then a sku code of the file is taken by another product before it is applied.
    const fresh = [...data[2]];
    fresh[at('product_slug')] = 'brand-new-import-product';
    fresh[at('model_code')] = 'BNIP-1';
    fresh[at('sku_code')] = 'BNIP-1-X';
    const later = await upload(file([fresh]));
    expect(later.body.status, JSON.stringify(later.body.errors)).toBe('ready');
    const other = await t.db.kysely.selectFrom('skus').select(['id', 'product_id']).where('code', '=', data[3][at('sku_code')]).executeTakeFirstOrThrow();
    await t.db.kysely
      .insertInto('skus')
      .values({ product_id: other.product_id, code: 'BNIP-1-X', sales_price: 100, discounted_sales_price: null, sort_order: 99 })
      .execute();
    const result = await applied(later.body.id);
    expect(result.status).toBe('invalid');
    expect(result.errors[0]).toMatchObject({ column: 'sku_code' });
    expect(await t.db.kysely.selectFrom('products').select('id').where('slug', '=', 'brand-new-import-product').executeTakeFirst()).toBeUndefined();
  });

  it('reads and writes a file of 10,000 rows', { timeout: 180_000 }, async () => {
    const { header, data, at, file } = table(await exported());
    const branch = header.find((h) => h.startsWith('stock:')) ?? '';
    const rows: string[][] = [];
    for (let p = 0; p < 2500; p++) {
      for (let s = 0; s < 4; s++) {
        const r = header.map(() => '');
        r[at('product_slug')] = `bulk-product-${p}`;
        r[at('title')] = `Bulk Product ${p}`;
        r[at('status')] = 'draft';
        r[at('categories')] = data[0][at('categories')];
        r[at('sku_code')] = `BULK-${p}-${s}`;
        r[at('price')] = String(1000 + p + s);
        r[at(branch)] = String(s);
        rows.push(r);
      }
    }
    const text = file(rows);
    let t0 = performance.now();
    const check = await upload(text);
    const checkMs = performance.now() - t0;
    expect(check.body.status, JSON.stringify(check.body.errors.slice(0, 3))).toBe('ready');
    expect(check.body.totalRows).toBe(10_000);
    expect(check.body.summary).toMatchObject({ productsCreated: 2500, skusCreated: 10_000, stockChanges: 7500 });
    t0 = performance.now();
    const done = await applied(check.body.id);
    const applyMs = performance.now() - t0;
    expect(done.status).toBe('applied');
    const n = await t.db.kysely
      .selectFrom('skus')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('code', 'like', 'BULK-%')
      .executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(10_000);
    console.log(
      `[import] 10,000 rows (${(text.length / 1024).toFixed(0)} KB) on ${t.dialect}: checked in ${checkMs.toFixed(0)} ms, written in ${applyMs.toFixed(0)} ms`,
    );
  });
});
