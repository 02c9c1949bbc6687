import { CATALOGUE_IMPORT_MAX_ROWS, parseTaka, SLUG_PATTERN, slugify, type TImportProblem, type TImportSummary, takaInput } from '@storefront/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { CsvError, csvRows, fromCsvCell, joinList, splitList, toCsv } from '../../lib/csv.ts';
import { timeSlices } from '../../lib/time-slices.ts';

// Products with their skus and stock as one CSV layout, for export and import
// (docs/decisions/0031, README "The back office"). One row per sku; the product's columns
// repeat on each of its rows (on later rows they may be left empty); one `stock:<branch>`
// column per branch. Lists in a cell are separated by "|". An export imports back unchanged.

type Db = Kysely<Database>;

export const PRODUCT_COLUMNS = [
  'product_slug',
  'title',
  'kind',
  'status',
  'model_code',
  'categories',
  'new_arrival',
  'description',
  'images',
  'image_alts',
  'image_options',
  'bundle',
] as const;
export const SKU_COLUMNS = ['sku_code', 'price', 'discounted_price', 'low_stock_threshold', 'attributes'] as const;
const REQUIRED = ['product_slug', 'title', 'categories', 'sku_code', 'price'];
const STOCK_PREFIX = 'stock:';
/** Cells in one row: the product and sku columns and a stock column for each of up to 280 branches. */
const MAX_IMPORT_CELLS = 300;
/** Problems kept in a report; the count covers them all. */
const MAX_PROBLEMS = 200;

type ProductColumn = (typeof PRODUCT_COLUMNS)[number];

// ---------------------------------------------------------------------------
// Export

export async function exportCatalogue(db: Db): Promise<string> {
  const [products, categories, branches, attributes] = await Promise.all([
    db
      .selectFrom('products')
      .select(['id', 'slug', 'title', 'kind', 'status', 'model_code', 'is_new_arrival', 'description', 'primary_category_id'])
      .orderBy('id')
      .execute(),
    db.selectFrom('categories').select(['id', 'slug']).execute(),
    db.selectFrom('branches').select(['id', 'name']).orderBy('sort_order').orderBy('id').execute(),
    db.selectFrom('attributes').select(['id', 'name']).orderBy('sort_order').orderBy('id').execute(),
  ]);
  const [memberships, images, skus, values, stock, bundles] = await Promise.all([
    db.selectFrom('product_categories').select(['product_id', 'category_id']).orderBy('product_id').orderBy('category_id').execute(),
    db.selectFrom('product_images').select(['product_id', 'url', 'alt', 'variant_value']).orderBy('product_id').orderBy('sort_order').orderBy('id').execute(),
    db
      .selectFrom('skus')
      .select(['id', 'product_id', 'code', 'sales_price', 'discounted_sales_price', 'low_stock_threshold'])
      .orderBy('product_id')
      .orderBy('sort_order')
      .orderBy('id')
      .execute(),
    db.selectFrom('sku_attribute_values').select(['sku_id', 'attribute_id', 'value', 'display_label']).execute(),
    db.selectFrom('stocks').select(['sku_id', 'branch_id', 'quantity']).execute(),
    db
      .selectFrom('bundle_items as b')
      .innerJoin('skus as s', 's.id', 'b.sku_id')
      .select(['b.bundle_product_id', 's.code', 'b.quantity'])
      .orderBy('b.bundle_product_id')
      .orderBy('s.code')
      .execute(),
  ]);
  const slugOf = new Map(categories.map((c) => [c.id, c.slug]));
  const attrName = new Map(attributes.map((a) => [a.id, a.name]));
  const attrOrder = new Map(attributes.map((a, i) => [a.id, i]));
  const by = <T, K>(rows: T[], key: (r: T) => K) => {
    const m = new Map<K, T[]>();
    for (const r of rows) m.set(key(r), [...(m.get(key(r)) ?? []), r]);
    return m;
  };
  const catsOf = by(memberships, (m) => m.product_id);
  const imagesOf = by(images, (i) => i.product_id);
  const skusOf = by(skus, (s) => s.product_id);
  const valuesOf = by(values, (v) => v.sku_id);
  const stockOf = by(stock, (s) => s.sku_id);
  const bundleOf = by(bundles, (b) => b.bundle_product_id);

  const header = [...PRODUCT_COLUMNS, ...SKU_COLUMNS, ...branches.map((b) => `${STOCK_PREFIX}${b.name}`)];
  const out: string[][] = [header];
  for (const p of products) {
    // The main category first, then the others in id order.
    const cats = (catsOf.get(p.id) ?? []).map((m) => m.category_id);
    const ordered = [p.primary_category_id, ...cats.filter((c) => c !== p.primary_category_id)].filter((c) => cats.includes(c) || c === p.primary_category_id);
    const imgs = imagesOf.get(p.id) ?? [];
    const product: Record<ProductColumn, string> = {
      product_slug: p.slug,
      title: p.title,
      kind: p.kind,
      status: p.status,
      model_code: p.model_code ?? '',
      categories: joinList(ordered.map((c) => slugOf.get(c) ?? '')),
      new_arrival: p.is_new_arrival ? 'yes' : 'no',
      description: p.description,
      images: joinList(imgs.map((i) => i.url)),
      image_alts: joinList(imgs.map((i) => i.alt)),
      image_options: joinList(imgs.map((i) => i.variant_value ?? '')),
      bundle: joinList((bundleOf.get(p.id) ?? []).map((b) => `${b.code}*${b.quantity}`)),
    };
    for (const s of skusOf.get(p.id) ?? []) {
      const attrs = (valuesOf.get(s.id) ?? []).sort((a, b) => (attrOrder.get(a.attribute_id) ?? 0) - (attrOrder.get(b.attribute_id) ?? 0));
      const qty = new Map((stockOf.get(s.id) ?? []).map((x) => [x.branch_id, x.quantity]));
      out.push([
        ...PRODUCT_COLUMNS.map((c) => product[c]),
        s.code,
        takaInput(Number(s.sales_price)),
        s.discounted_sales_price == null ? '' : takaInput(Number(s.discounted_sales_price)),
        s.low_stock_threshold == null ? '' : String(s.low_stock_threshold),
        joinList(attrs.map((a) => `${attrName.get(a.attribute_id)}:${a.value}=${a.display_label}`)),
        ...branches.map((b) => String(qty.get(b.id) ?? 0)),
      ]);
    }
  }
  return toCsv(out);
}

// ---------------------------------------------------------------------------
// Reading and checking a file

export interface SkuPlan {
  line: number;
  code: string;
  price: number;
  discounted: number | null;
  lowStock: number | null;
  /** null: the column is absent, keep what is there. */
  attributes: { attributeId: number; value: string; label: string }[] | null;
  /** Branch id → quantity, for the stock cells that are filled. */
  stock: Map<number, number>;
}

export interface ProductPlan {
  line: number;
  slug: string;
  /** Only the product columns the file has (absent ones keep what is there). */
  fields: Partial<Record<ProductColumn, string>>;
  categoryIds: number[] | null;
  images: { url: string; alt: string; variantValue: string | null }[] | null;
  bundle: { code: string; quantity: number }[] | null;
  skus: SkuPlan[];
}

export interface ImportPlan {
  rows: number;
  products: ProductPlan[];
  problems: TImportProblem[];
  problemCount: number;
}

class Problems {
  readonly list: TImportProblem[] = [];
  count = 0;
  add(line: number, column: string, message: string) {
    this.count++;
    if (this.list.length < MAX_PROBLEMS) this.list.push({ line, column, message });
  }
}

/**
 * Reads a file into a plan, checking every row against the file itself and the catalogue:
 * nothing is written. A plan with problems is not applied.
 */
export async function planImport(db: Db, text: string): Promise<ImportPlan> {
  const problems = new Problems();
  const empty = (): ImportPlan => ({ rows: 0, products: [], problems: problems.list, problemCount: problems.count });
  // Rows are read as they come and only what the plan needs is kept (docs/decisions/0051);
  // past CATALOGUE_IMPORT_MAX_ROWS rows (empty ones counted) the reader stops with a
  // CsvTooLargeError, for the caller to refuse.
  const reader = csvRows(text, { maxRows: CATALOGUE_IMPORT_MAX_ROWS, maxCells: MAX_IMPORT_CELLS });
  let header: string[];
  try {
    const first = await reader.next();
    if (first.done) {
      problems.add(1, '', 'The file is empty');
      return empty();
    }
    header = first.value.cells;
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    problems.add(err.line, '', err.message);
    return empty();
  }

  const [categories, attributes, branches, attrValues] = await Promise.all([
    db.selectFrom('categories').select(['id', 'slug']).execute(),
    db.selectFrom('attributes').select(['id', 'name']).execute(),
    db.selectFrom('branches').select(['id', 'name']).execute(),
    db.selectFrom('sku_attribute_values').select(['attribute_id', 'value', 'display_label']).distinct().execute(),
  ]);
  const categoryBySlug = new Map(categories.map((c) => [c.slug, c.id]));
  const attributeByName = new Map(attributes.map((a) => [a.name.toLowerCase(), a.id]));
  const branchByName = new Map(branches.map((b) => [b.name.toLowerCase(), b.id]));
  const valueOfLabel = new Map(attrValues.map((v) => [`${v.attribute_id}\u0000${v.display_label.toLowerCase()}`, v.value]));

  // The header: known columns, stock columns of known branches, the required ones present.
  const col = new Map<string, number>();
  const stockCols: { index: number; branchId: number; name: string }[] = [];
  header.forEach((raw, i) => {
    const name = raw.trim();
    if (col.has(name)) problems.add(1, name, 'This column is there twice');
    if (name.toLowerCase().startsWith(STOCK_PREFIX)) {
      const branch = name.slice(STOCK_PREFIX.length).trim();
      const id = branchByName.get(branch.toLowerCase());
      if (id == null) problems.add(1, name, `No branch is called “${branch}”`);
      else stockCols.push({ index: i, branchId: id, name });
    } else if (!(PRODUCT_COLUMNS as readonly string[]).includes(name) && !(SKU_COLUMNS as readonly string[]).includes(name)) {
      problems.add(1, name, 'Unknown column (see the column layout in the README)');
    }
    col.set(name, i);
  });
  for (const name of REQUIRED) if (!col.has(name)) problems.add(1, name, 'This column is missing');
  // With a header that cannot be read, the rows are still read through, for the file's own
  // problems (a quote never closed, too many rows), but not checked.
  const checkRows = !problems.count;
  const cell = (row: string[], name: string) => {
    const i = col.get(name);
    // The quote the export put in front of a would-be formula comes off (docs/decisions/0053).
    return i == null ? undefined : fromCsvCell(row[i] ?? '').trim();
  };

  // Rows into products (by slug) and skus.
  const products = new Map<string, ProductPlan>();
  const seenCodes = new Map<string, number>();
  const modelCodes = new Map<string, string>();
  let rowCount = 0;
  try {
    for await (const { cells: row, line } of reader) {
      rowCount++;
      if (checkRows) checkRow(row, line);
    }
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    problems.add(err.line, '', err.message);
    return empty();
  }
  if (!rowCount) problems.add(1, '', 'The file has a header but no rows');
  if (!checkRows || !rowCount) return empty();

  await checkAgainstCatalogue(db, [...products.values()], problems);
  return { rows: rowCount, products: [...products.values()], problems: problems.list, problemCount: problems.count };

  function checkRow(row: string[], line: number) {
    const slug = cell(row, 'product_slug') ?? '';
    if (!slug) {
      problems.add(line, 'product_slug', 'Enter the product’s slug');
      return;
    }
    if (!SLUG_PATTERN.test(slug)) {
      problems.add(line, 'product_slug', 'Use lower-case letters, digits and single dashes');
      return;
    }
    let plan = products.get(slug);
    if (!plan) {
      const fields: ProductPlan['fields'] = {};
      for (const c of PRODUCT_COLUMNS) {
        const v = cell(row, c);
        if (v !== undefined && c !== 'product_slug') fields[c] = v;
      }
      plan = { line, slug, fields, categoryIds: null, images: null, bundle: null, skus: [] };
      products.set(slug, plan);
      checkProductFields(plan, line, problems, { categoryBySlug, modelCodes });
    } else {
      // Later rows of a product: its columns empty, or the same as on its first row.
      for (const c of PRODUCT_COLUMNS) {
        const v = cell(row, c);
        if (c === 'product_slug' || v === undefined || v === '') continue;
        if (v !== plan.fields[c]) problems.add(line, c, `Differs from this product’s first row (line ${plan.line})`);
      }
    }
    const code = cell(row, 'sku_code') ?? '';
    if (!code) {
      problems.add(line, 'sku_code', 'Enter the sku code');
      return;
    }
    const again = seenCodes.get(code.toLowerCase());
    if (again) problems.add(line, 'sku_code', `This sku code is on line ${again} too`);
    seenCodes.set(code.toLowerCase(), line);
    const price = parseTaka(cell(row, 'price') ?? '');
    if (price == null || price <= 0) problems.add(line, 'price', 'Enter a price in taka above zero, for example 12500.00');
    const discountedText = cell(row, 'discounted_price') ?? '';
    const discounted = discountedText ? parseTaka(discountedText) : null;
    if (discountedText && (discounted == null || discounted <= 0))
      problems.add(line, 'discounted_price', 'Enter the discounted price in taka, or leave it empty');
    else if (discounted != null && price != null && discounted >= price) problems.add(line, 'discounted_price', 'A discounted price is below the price');
    const lowText = cell(row, 'low_stock_threshold') ?? '';
    const lowStock = lowText ? Number(lowText) : null;
    if (lowText && !(Number.isInteger(lowStock) && (lowStock ?? -1) >= 0))
      problems.add(line, 'low_stock_threshold', 'Enter a whole number (0 or more), or leave it empty');
    let attributes: SkuPlan['attributes'] = null;
    const attrText = cell(row, 'attributes');
    if (attrText !== undefined) {
      attributes = [];
      for (const entry of splitList(attrText)) {
        const m = /^([^:=]+)(?::([^=]*))?=(.+)$/.exec(entry.trim());
        const attributeId = m ? attributeByName.get(m[1].trim().toLowerCase()) : undefined;
        if (!m) problems.add(line, 'attributes', `“${entry}” is not name=value (for example color=Walnut)`);
        else if (attributeId == null) problems.add(line, 'attributes', `No attribute is called “${m[1].trim()}”`);
        else {
          const label = m[3].trim();
          const value = m[2]?.trim() || valueOfLabel.get(`${attributeId}\u0000${label.toLowerCase()}`) || slugify(label);
          attributes.push({ attributeId, value, label });
        }
      }
    }
    const stock = new Map<number, number>();
    for (const s of stockCols) {
      const v = fromCsvCell(row[s.index] ?? '').trim();
      if (!v) continue;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0) problems.add(line, s.name, 'Enter a whole number of units (0 or more), or leave it empty');
      else stock.set(s.branchId, n);
    }
    plan.skus.push({ line, code, price: price ?? 0, discounted, lowStock, attributes, stock });
  }
}

function checkProductFields(
  plan: ProductPlan,
  line: number,
  problems: Problems,
  ctx: { categoryBySlug: Map<string, number>; modelCodes: Map<string, string> },
) {
  const f = plan.fields;
  if (!f.title) problems.add(line, 'title', 'Enter the product’s title');
  if (f.kind && !['single', 'bundle'].includes(f.kind)) problems.add(line, 'kind', 'Use single or bundle');
  if (f.status && !['published', 'draft', 'archived'].includes(f.status)) problems.add(line, 'status', 'Use published, draft or archived');
  if (f.new_arrival && !['yes', 'no'].includes(f.new_arrival.toLowerCase())) problems.add(line, 'new_arrival', 'Use yes or no');
  if (f.model_code) {
    const other = ctx.modelCodes.get(f.model_code.toLowerCase());
    if (other && other !== plan.slug) problems.add(line, 'model_code', `Product ${other} has this model code too`);
    ctx.modelCodes.set(f.model_code.toLowerCase(), plan.slug);
  }
  if (f.categories) {
    const ids: number[] = [];
    for (const slug of splitList(f.categories)) {
      const id = ctx.categoryBySlug.get(slug.trim());
      if (id == null) problems.add(line, 'categories', `No category has the slug “${slug}”`);
      else if (!ids.includes(id)) ids.push(id);
    }
    plan.categoryIds = ids;
  }
  if (f.images !== undefined) {
    const urls = splitList(f.images);
    const alts = splitList(f.image_alts ?? '');
    const options = splitList(f.image_options ?? '');
    if (alts.length > urls.length) problems.add(line, 'image_alts', 'More alternative texts than pictures');
    if (options.length > urls.length) problems.add(line, 'image_options', 'More options than pictures');
    for (const u of urls)
      if (!/^(\/[^/\\]|https:\/\/)/.test(u)) problems.add(line, 'images', `“${u}” is not an uploaded picture’s address (/files/…) or an https address`);
    plan.images = urls.map((url, i) => ({ url, alt: alts[i] ?? '', variantValue: options[i] || null }));
  }
  if (f.bundle !== undefined) {
    plan.bundle = [];
    for (const entry of splitList(f.bundle)) {
      const m = /^(.+)\*(\d+)$/.exec(entry.trim());
      if (!m || Number(m[2]) < 1 || Number(m[2]) > 99) problems.add(line, 'bundle', `“${entry}” is not sku*quantity (1 to 99), for example AFL-1021-OAK*2`);
      else plan.bundle.push({ code: m[1].trim(), quantity: Number(m[2]) });
    }
  }
}

/** What the file says against what the catalogue holds: whose slugs, sku codes and model codes they are. */
async function checkAgainstCatalogue(db: Db, plans: ProductPlan[], problems: Problems) {
  const slugs = plans.map((p) => p.slug);
  const codes = plans.flatMap((p) => p.skus.map((s) => s.code));
  const pause = timeSlices();
  const chunks = <T>(xs: T[]) => Array.from({ length: Math.ceil(xs.length / 500) }, (_, i) => xs.slice(i * 500, i * 500 + 500));
  const existing = new Map<string, { id: number; kind: string }>();
  for (const part of chunks(slugs)) {
    await pause();
    for (const r of await db.selectFrom('products').select(['id', 'slug', 'kind']).where('slug', 'in', part).execute()) existing.set(r.slug, r);
  }
  const redirects = new Map<string, number>();
  for (const part of chunks(slugs)) {
    await pause();
    for (const r of await db.selectFrom('product_slug_redirects').select(['slug', 'product_id']).where('slug', 'in', part).execute())
      redirects.set(r.slug, r.product_id);
  }
  const skuOwner = new Map<string, { productId: number; kind: string }>();
  const bundleCodes = plans.flatMap((p) => (p.bundle ?? []).map((b) => b.code));
  for (const part of chunks([...new Set([...codes, ...bundleCodes])])) {
    await pause();
    const rows = await db
      .selectFrom('skus as s')
      .innerJoin('products as p', 'p.id', 's.product_id')
      .select(['s.code', 's.product_id', 'p.kind'])
      .where('s.code', 'in', part)
      .execute();
    for (const r of rows) skuOwner.set(r.code, { productId: r.product_id, kind: r.kind });
  }
  const modelCodes = plans.map((p) => p.fields.model_code).filter((m): m is string => !!m);
  const modelOwner = new Map<string, number>();
  for (const part of chunks(modelCodes)) {
    await pause();
    for (const r of await db.selectFrom('products').select(['id', 'model_code']).where('model_code', 'in', part).execute())
      if (r.model_code) modelOwner.set(r.model_code, r.id);
  }
  const fileKind = new Map<string, string>();
  for (const p of plans) for (const s of p.skus) fileKind.set(s.code, p.fields.kind || existing.get(p.slug)?.kind || 'single');

  for (const p of plans) {
    await pause();
    const own = existing.get(p.slug);
    const redirect = redirects.get(p.slug);
    if (!own && redirect != null) problems.add(p.line, 'product_slug', 'This slug was another product’s and still leads to it');
    if (!own) {
      if (!p.categoryIds?.length) problems.add(p.line, 'categories', 'A new product needs at least one category');
    } else if (p.categoryIds && !p.categoryIds.length) problems.add(p.line, 'categories', 'Keep at least one category');
    const model = p.fields.model_code;
    if (model && modelOwner.has(model) && modelOwner.get(model) !== own?.id) problems.add(p.line, 'model_code', 'Another product has this model code');
    for (const s of p.skus) {
      const owner = skuOwner.get(s.code);
      if (owner && owner.productId !== own?.id) problems.add(s.line, 'sku_code', 'This sku code belongs to another product');
    }
    const kind = p.fields.kind || own?.kind || 'single';
    if (p.bundle?.length && kind !== 'bundle') problems.add(p.line, 'bundle', 'Only a bundle has contents: set kind to bundle');
    for (const b of p.bundle ?? []) {
      const known = skuOwner.has(b.code) || fileKind.has(b.code);
      const partKind = skuOwner.get(b.code)?.kind ?? fileKind.get(b.code);
      if (!known) problems.add(p.line, 'bundle', `No sku has the code ${b.code}`);
      else if (partKind === 'bundle') problems.add(p.line, 'bundle', `${b.code} is a bundle’s sku: a bundle cannot hold another bundle`);
    }
  }
}

/** What applying a checked plan would do, read from the catalogue as it is now. */
export async function summarize(db: Db, plan: ImportPlan): Promise<TImportSummary> {
  const { productIds: _ids, ...summary } = await applyPlan(db, plan, { dryRun: true });
  return summary;
}

// ---------------------------------------------------------------------------
// Applying a checked plan

/**
 * Writes a plan (in the caller's transaction), product by product; with dryRun, writes
 * nothing and answers what it would do. A product or sku that the file leaves as it is,
 * is not written (re-importing an export changes nothing).
 */
export async function applyPlan(
  trx: Db,
  plan: ImportPlan,
  opts: { dryRun?: boolean; staffId?: number | null; onProduct?: (done: number) => void } = {},
): Promise<TImportSummary & { productIds: number[] }> {
  const summary = { productsCreated: 0, productsChanged: 0, productsUnchanged: 0, skusCreated: 0, skusChanged: 0, stockChanges: 0, productIds: [] as number[] };
  const now = new Date().toISOString();
  const write = !opts.dryRun;
  let done = 0;
  const pause = timeSlices();
  for (const p of plan.products) {
    await pause();
    const f = p.fields;
    const before = await trx
      .selectFrom('products')
      .select(['id', 'title', 'kind', 'status', 'model_code', 'is_new_arrival', 'description', 'primary_category_id', 'version'])
      .where('slug', '=', p.slug)
      .executeTakeFirst();
    const wanted = {
      title: f.title ?? before?.title ?? '',
      kind: f.kind || before?.kind || 'single',
      status: f.status || before?.status || 'draft',
      model_code: f.model_code !== undefined ? f.model_code || null : (before?.model_code ?? null),
      is_new_arrival: f.new_arrival !== undefined && f.new_arrival !== '' ? (f.new_arrival.toLowerCase() === 'yes' ? 1 : 0) : (before?.is_new_arrival ?? 0),
      description: f.description ?? before?.description ?? '',
      primary_category_id: p.categoryIds?.[0] ?? before?.primary_category_id ?? 0,
    };
    let changed = false;
    let productId: number;
    if (!before) {
      summary.productsCreated++;
      productId = write
        ? (
            await trx
              .insertInto('products')
              .values({ ...wanted, slug: p.slug, model_url: null, created_at: now, updated_at: now })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id
        : -1;
    } else {
      productId = before.id;
      changed = (Object.keys(wanted) as (keyof typeof wanted)[]).some((k) => wanted[k] !== before[k]);
    }

    // Categories, pictures and a bundle's contents, where the file has them and they differ.
    if (p.categoryIds) {
      const current = before
        ? (await trx.selectFrom('product_categories').select('category_id').where('product_id', '=', productId).execute()).map((r) => r.category_id)
        : [];
      const same = current.length === p.categoryIds.length && p.categoryIds.every((c) => current.includes(c));
      if (!same) {
        changed = true;
        if (write) {
          await trx.deleteFrom('product_categories').where('product_id', '=', productId).execute();
          await trx
            .insertInto('product_categories')
            .values(p.categoryIds.map((category_id) => ({ product_id: productId, category_id })))
            .execute();
        }
      }
    }
    if (p.images) {
      const current = before
        ? await trx
            .selectFrom('product_images')
            .select(['url', 'alt', 'variant_value'])
            .where('product_id', '=', productId)
            .orderBy('sort_order')
            .orderBy('id')
            .execute()
        : [];
      const same =
        current.length === p.images.length &&
        p.images.every((img, i) => img.url === current[i].url && img.alt === current[i].alt && img.variantValue === (current[i].variant_value ?? null));
      if (!same) {
        changed = true;
        if (write) {
          await trx.deleteFrom('product_images').where('product_id', '=', productId).execute();
          if (p.images.length) {
            await trx
              .insertInto('product_images')
              .values(
                p.images.map((img, i) => ({
                  product_id: productId,
                  url: img.url,
                  alt: img.alt,
                  sort_order: i,
                  variant_value: img.variantValue,
                  file_uuid: /^\/files\/([0-9a-f-]{36})(?:\/|$)/.exec(img.url)?.[1] ?? null,
                })),
              )
              .execute();
          }
        }
      }
    }

    // Skus by code: created, or updated where the file differs.
    // The product's skus, their values and stock, read once for all its rows.
    const ownSkus = before
      ? await trx
          .selectFrom('skus')
          .select(['id', 'code', 'sales_price', 'discounted_sales_price', 'low_stock_threshold', 'sort_order'])
          .where('product_id', '=', productId)
          .execute()
      : [];
    const ownIds = ownSkus.map((x) => x.id);
    const ownValues = ownIds.length
      ? await trx.selectFrom('sku_attribute_values').select(['sku_id', 'attribute_id', 'value', 'display_label']).where('sku_id', 'in', ownIds).execute()
      : [];
    const ownStock = ownIds.length ? await trx.selectFrom('stocks').select(['sku_id', 'branch_id', 'quantity']).where('sku_id', 'in', ownIds).execute() : [];
    let order = ownSkus.reduce((m, x) => Math.max(m, x.sort_order), -1);
    for (const s of p.skus) {
      const sku = ownSkus.find((x) => x.code === s.code);
      let skuId = sku?.id ?? -1;
      let skuChanged = false;
      if (!sku) {
        summary.skusCreated++;
        changed = true;
        if (write) {
          skuId = (
            await trx
              .insertInto('skus')
              .values({
                product_id: productId,
                code: s.code,
                sales_price: s.price,
                discounted_sales_price: s.discounted,
                sort_order: ++order,
                low_stock_threshold: s.lowStock,
              })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id;
        }
      } else if (
        Number(sku.sales_price) !== s.price ||
        (sku.discounted_sales_price == null ? null : Number(sku.discounted_sales_price)) !== s.discounted ||
        (sku.low_stock_threshold ?? null) !== s.lowStock
      ) {
        skuChanged = true;
        if (write)
          await trx
            .updateTable('skus')
            .set({ sales_price: s.price, discounted_sales_price: s.discounted, low_stock_threshold: s.lowStock })
            .where('id', '=', sku.id)
            .execute();
      }
      if (s.attributes) {
        const current = sku ? ownValues.filter((v) => v.sku_id === sku.id) : [];
        const same =
          current.length === s.attributes.length &&
          s.attributes.every((a) => current.some((c) => c.attribute_id === a.attributeId && c.value === a.value && c.display_label === a.label));
        if (!same) {
          if (sku) skuChanged = true;
          changed = true;
          if (write) {
            await trx.deleteFrom('sku_attribute_values').where('sku_id', '=', skuId).execute();
            if (s.attributes.length) {
              await trx
                .insertInto('sku_attribute_values')
                .values(s.attributes.map((a) => ({ sku_id: skuId, attribute_id: a.attributeId, value: a.value, display_label: a.label })))
                .execute();
            }
          }
        }
      }
      if (skuChanged) {
        summary.skusChanged++;
        changed = true;
      }
      // Stock: a count, kept as a correction movement where it differs.
      for (const [branchId, quantity] of s.stock) {
        const current = sku ? ownStock.find((x) => x.sku_id === sku.id && x.branch_id === branchId) : undefined;
        const was = current?.quantity ?? 0;
        if (was === quantity && (current || quantity === 0)) continue;
        summary.stockChanges++;
        if (!write) continue;
        if (current) await trx.updateTable('stocks').set({ quantity }).where('sku_id', '=', skuId).where('branch_id', '=', branchId).execute();
        else await trx.insertInto('stocks').values({ sku_id: skuId, branch_id: branchId, quantity }).execute();
        await trx
          .insertInto('stock_movements')
          .values({
            sku_id: skuId,
            branch_id: branchId,
            delta: quantity - was,
            quantity_after: quantity,
            reason: 'correction',
            note: 'CSV import',
            staff_id: opts.staffId ?? null,
            created_at: now,
          })
          .execute();
      }
    }

    if (p.bundle) {
      const current = before
        ? await trx
            .selectFrom('bundle_items as b')
            .innerJoin('skus as s', 's.id', 'b.sku_id')
            .select(['s.code', 'b.quantity'])
            .where('b.bundle_product_id', '=', productId)
            .execute()
        : [];
      const same = current.length === p.bundle.length && p.bundle.every((b) => current.some((c) => c.code === b.code && c.quantity === b.quantity));
      if (!same) {
        changed = true;
        if (write) {
          await trx.deleteFrom('bundle_items').where('bundle_product_id', '=', productId).execute();
          for (const b of p.bundle) {
            const part = await trx.selectFrom('skus').select('id').where('code', '=', b.code).executeTakeFirstOrThrow();
            await trx.insertInto('bundle_items').values({ bundle_product_id: productId, sku_id: part.id, quantity: b.quantity }).execute();
          }
        }
      }
    }

    if (before) {
      if (changed) {
        summary.productsChanged++;
        if (write) {
          await trx
            .updateTable('products')
            .set({ ...wanted, version: before.version + 1, updated_at: now })
            .where('id', '=', productId)
            .execute();
        }
      } else summary.productsUnchanged++;
    }
    if (changed || !before) summary.productIds.push(productId);
    opts.onProduct?.(++done);
  }
  return summary;
}
