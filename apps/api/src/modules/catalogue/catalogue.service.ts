import type {
  Locale,
  TAttachment,
  TAttribute,
  TBranch,
  TBundle,
  TCategory,
  TCmsItem,
  TItemContent,
  TOption,
  TPage,
  TProductCard,
  TProductDetails,
  TSearchRequest,
  TSku,
  TSlide,
  TStockRow,
  TVariantImages,
} from '@storefront/shared';
import { isSitePath, skuOptions } from '@storefront/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { integerField, pagedSearch, textField } from '../../lib/paging.ts';
import { toContentItem } from '../site/site.service.ts';
import * as repo from './catalogue.repository.ts';
import { localName, localText } from './localized.ts';
import { relatedItems } from './search.repository.ts';
import { toCards } from './search.service.ts';

type Db = Kysely<Database>;

function parseOptions(raw: string): TCategory['options'] {
  try {
    const v = JSON.parse(raw);
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

// ---- categories ---------------------------------------------------------------------------

/** POST /api/categories/search: the tree as a paged list, each with its direct children. */
export async function searchCategories(db: Db, req: TSearchRequest, lang: Locale = 'en'): Promise<TPage<TCategory>> {
  const page = await pagedSearch(repo.categoriesQuery(db), req, {
    filter: { id: integerField('id'), parentId: integerField('parent_id'), name: textField('name'), slug: textField('slug') },
    sort: { sortOrder: 'sort_order', name: 'name', id: 'id', parentId: 'parent_id' },
    tieBreaker: 'id',
  });
  const children = await repo.childrenOf(
    db,
    page.list.map((c) => c.id),
  );
  return {
    ...page,
    list: page.list.map((c) => ({
      id: c.id,
      name: localName(c, lang),
      slug: c.slug,
      parentId: c.parent_id,
      sortOrder: c.sort_order,
      img: c.image_url,
      extras: { shop_banner_image_url: c.banner_url },
      options: parseOptions(c.options),
      children: children.filter((k) => k.parent_id === c.id).map((k) => ({ id: k.id, name: localName(k, lang), slug: k.slug, sortOrder: k.sort_order })),
    })),
  };
}

// ---- one product ----------------------------------------------------------------------------

async function skusWithValues(
  db: Db,
  skus: { id: number; code: string; sales_price: number; discounted_sales_price: number | null }[],
): Promise<Map<number, TSku>> {
  const values = await repo.attributeValuesOfSkus(
    db,
    skus.map((s) => s.id),
  );
  const out = new Map<number, TSku>();
  for (const s of skus) {
    out.set(s.id, {
      code: s.code,
      salesPrice: Number(s.sales_price),
      discountedSalesPrice: s.discounted_sales_price == null ? null : Number(s.discounted_sales_price),
      attributeValues: values
        .filter((v) => v.sku_id === s.id)
        .map((v) => ({ attributeId: v.attribute_id, name: v.name, value: v.value, displayLabel: v.display_label, optionDisplayLabel: v.option_label })),
    });
  }
  return out;
}

async function bundleDetails(db: Db, bundleIds: number[], lang: Locale): Promise<Map<number, TProductDetails['skuDetails']>> {
  const parts = await repo.bundleParts(db, bundleIds);
  const skus = await skusWithValues(
    db,
    parts.map((p) => ({ id: p.sku_id, code: p.code, sales_price: p.sales_price, discounted_sales_price: p.discounted_sales_price })),
  );
  const images = await repo.firstImages(db, [...new Set(parts.map((p) => p.product_id))]);
  const imageOf = new Map<number, string>();
  for (const i of images) if (!imageOf.has(i.product_id)) imageOf.set(i.product_id, i.url);
  const out = new Map<number, TProductDetails['skuDetails']>();
  for (const p of parts) {
    const sku = skus.get(p.sku_id)!;
    const list = out.get(p.bundle_product_id) ?? [];
    list.push({
      skuCode: p.code,
      quantity: p.quantity,
      salesPrice: sku.salesPrice,
      discountedSalesPrice: sku.discountedSalesPrice,
      attributeValues: sku.attributeValues,
      product: { id: p.product_id, title: localText(p.title, p.title_bn, lang), slug: p.slug, image: imageOf.get(p.product_id) ?? null },
    });
    out.set(p.bundle_product_id, list);
  }
  return out;
}

/** GET /api/v3/items/joined: the product by id, slug or model code, with skus, images, categories. */
export async function itemDetails(db: Db, by: { id?: number; slug?: string; code?: string }, lang: Locale = 'en'): Promise<TProductDetails> {
  const p = await repo.productBy(db, by);
  if (!p) throw notFound('The product');
  const [cats, images, skuRows] = await Promise.all([repo.productCategories(db, p.id), repo.productImages(db, p.id), repo.skusOfProducts(db, [p.id])]);
  const skus = await skusWithValues(db, skuRows);
  // Leaf first, then up the tree (spec §3: the first category's id is used).
  const byId = new Map(cats.map((c) => [c.id, c]));
  const path: typeof cats = [];
  for (let c = byId.get(p.primary_category_id); c && path.length < 20; c = c.parent_id == null ? undefined : byId.get(c.parent_id)) path.push(c);
  for (const c of cats) if (!path.includes(c)) path.push(c);
  const parts = p.kind === 'bundle' ? ((await bundleDetails(db, [p.id], lang)).get(p.id) ?? []) : [];
  return {
    id: p.id,
    title: localText(p.title, p.title_bn, lang),
    slug: p.slug,
    modelCode: p.model_code,
    description: localText(p.description, p.description_bn, lang),
    kind: p.kind === 'bundle' ? 'bundle' : 'single',
    modelUrl: p.model_url,
    isNewArrival: p.is_new_arrival === 1,
    createdAt: p.created_at,
    categories: path.map((c) => ({ id: c.id, name: localName(c, lang), slug: c.slug, parentId: c.parent_id })),
    categoryIds: path.map((c) => c.id),
    image: images[0]?.url ?? null,
    images: images.map((i) => ({ url: i.url, alt: i.alt, variantValue: i.variant_value ?? null })),
    skus: skuRows.map((s) => skus.get(s.id)!),
    skuDetails: parts,
  };
}

/** GET /api/v2/items/content: the long text of a product and a specification table from its data. */
export async function itemContent(db: Db, itemId: number, lang: Locale = 'en'): Promise<TItemContent> {
  return contentOf(await itemDetails(db, { id: itemId }, lang));
}

function contentOf(d: TProductDetails): TItemContent {
  const specs: TItemContent['specifications'] = [];
  if (d.modelCode) specs.push({ label: 'Model number', value: d.modelCode });
  if (d.categories[0]) specs.push({ label: 'Category', value: d.categories[0].name });
  for (const o of skuOptions(d.skus)) specs.push({ label: o.displayLabel, value: o.values.map((v) => v.displayLabel).join(', ') });
  if (d.skuDetails.length) specs.push({ label: 'In this set', value: d.skuDetails.map((s) => `${s.quantity} × ${s.product.title}`).join(', ') });
  return { itemId: d.id, title: d.title, description: d.description, specifications: specs };
}

function targets(item: TCmsItem): string[] | null {
  const c = item.fields.categories;
  return Array.isArray(c) ? c.filter((x): x is string => typeof x === 'string') : null;
}

/**
 * Content for a product's page: items of `type` aimed at one of its categories
 * (fields.categories holds category slugs); with `general`, also items aimed at none.
 */
async function itemCms(db: Db, itemId: number, type: string, general: boolean, lang: Locale): Promise<TCmsItem[]> {
  const p = await repo.productBy(db, { id: itemId });
  if (!p) throw notFound('The product');
  const slugs = (await repo.productCategories(db, itemId)).map((c) => c.slug);
  return aimedAt(
    slugs,
    (await repo.cmsOfType(db, [type])).map((r) => toContentItem(r, lang)),
    general,
  );
}

/** The items aimed at one of these category slugs; with `general`, also those aimed at none. */
function aimedAt(categorySlugs: string[], items: TCmsItem[], general: boolean): TCmsItem[] {
  const slugs = new Set(categorySlugs);
  return items.filter((i) => {
    const t = targets(i);
    return t ? t.some((s) => slugs.has(s)) : general;
  });
}

export const itemArticles = (db: Db, itemId: number, lang: Locale = 'en') => itemCms(db, itemId, 'article', false, lang);
export const itemBullets = (db: Db, itemId: number, lang: Locale = 'en') => itemCms(db, itemId, 'bullet', true, lang);

/** GET /api/items/cms/variants/images: the pictures of each colour (or other variant value). */
export async function variantImages(db: Db, itemId: number): Promise<TVariantImages> {
  return variantImagesOf(await itemDetails(db, { id: itemId }));
}

function variantImagesOf(d: TProductDetails): TVariantImages {
  const variants: TVariantImages['variants'] = [];
  for (const o of skuOptions(d.skus)) {
    for (const v of o.values) {
      const images = d.images.filter((i) => i.variantValue === v.value).map((i) => ({ url: i.url, alt: i.alt }));
      if (images.length) variants.push({ name: o.name, value: v.value, displayLabel: v.displayLabel, images });
    }
  }
  return { itemId: d.id, variants };
}

function requireItemId(req: TSearchRequest): number {
  const p = req.textParams.find((t) => t.field === 'itemId');
  const id = Number(p?.value);
  if (!p || !Number.isSafeInteger(id) || id < 1) throw badRequest('itemId is required', { textParams: 'itemId: a product id is required' });
  for (const t of req.textParams) if (t.field !== 'itemId') throw badRequest(`Unknown filter field: ${t.field}`, { textParams: `unknown field ${t.field}` });
  return id;
}

/** POST /api/items/linked/search: related products (same category, nearest in price). */
export async function linkedItems(db: Db, req: TSearchRequest, lang: Locale = 'en'): Promise<TPage<TProductCard>> {
  const itemId = requireItemId(req);
  const rows = await relatedItems(db, itemId, req.page, req.size);
  if (!rows) throw notFound('The product');
  const hasMore = rows.length > req.size;
  return { list: toCards(hasMore ? rows.slice(0, req.size) : rows, lang), nextPageToken: hasMore ? String(req.page + 1) : '' };
}

/** POST /api/items/attachments/search: files that come with a product (a 3D model today). */
export async function attachments(db: Db, req: TSearchRequest, lang: Locale = 'en'): Promise<TPage<TAttachment>> {
  const page = await pagedSearch(repo.productsWithModel(db), req, { filter: { itemId: integerField('id') }, sort: { itemId: 'id' }, tieBreaker: 'id' });
  return {
    ...page,
    list: page.list.map((p) => modelAttachment(p.id, localText(p.title, p.title_bn, lang), p.model_url!)),
  };
}

function modelAttachment(itemId: number, title: string, url: string): TAttachment {
  return { id: `${itemId}-3d`, itemId, kind: '3d-model', title: `${title} in 3D`, url };
}

/**
 * Everything the product page shows (spec §2 /details), with each table read once: what
 * GET /api/v3/items/joined, /api/v2/items/content, the product's bullets and articles, its
 * variant pictures, stock, the branches, related items, attachments and the attributes'
 * help texts answer, derived from one read of the product (docs/decisions/0029).
 */
export async function productPage(db: Db, by: { id?: number; slug?: string; code?: string }, related: { size: number }, lang: Locale = 'en') {
  const item = await itemDetails(db, by, lang);
  const [cms, stock, branches, relatedRows] = await Promise.all([
    repo.cmsOfType(db, ['bullet', 'article', 'attr-text']),
    repo.stockQuery(db).where('stock.itemId', '=', item.id).orderBy('stock.rowKey').limit(2000).execute(),
    branchList(db),
    // A page that streams its related items reads them apart (size 0 here).
    related.size > 0 ? relatedItems(db, item.id, 1, related.size) : null,
  ]);
  const content = cms.map((r) => toContentItem(r, lang));
  const slugs = item.categories.map((c) => c.slug);
  const rows = (relatedRows ?? []).slice(0, related.size);
  return {
    item,
    content: contentOf(item),
    bullets: aimedAt(
      slugs,
      content.filter((c) => c.type === 'bullet'),
      true,
    ),
    articles: aimedAt(
      slugs,
      content.filter((c) => c.type === 'article'),
      false,
    ),
    variants: variantImagesOf(item),
    stock: stock.map(toStockRow),
    branches,
    related: rows.length ? toCards(rows, lang) : [],
    attachments: item.modelUrl ? [modelAttachment(item.id, item.title, item.modelUrl)] : [],
    helpTexts: content.filter((c) => c.type === 'attr-text'),
  };
}

/** GET /api/bundles/joined: sets sold as one line, with their parts (spec §3 skuDetails). */
export async function bundles(db: Db, id?: number, lang: Locale = 'en'): Promise<TBundle[]> {
  const rows = await repo.bundleProducts(db, id);
  const ids = rows.map((r) => r.id);
  const [parts, skus, images] = await Promise.all([bundleDetails(db, ids, lang), repo.skusOfProducts(db, ids), repo.firstImages(db, ids)]);
  const out: TBundle[] = [];
  for (const r of rows) {
    const sku = skus.find((s) => s.product_id === r.id);
    if (!sku) continue;
    out.push({
      id: r.id,
      title: localText(r.title, r.title_bn, lang),
      slug: r.slug,
      modelCode: r.model_code,
      image: images.find((i) => i.product_id === r.id)?.url ?? null,
      sku: {
        code: sku.code,
        salesPrice: Number(sku.sales_price),
        discountedSalesPrice: sku.discounted_sales_price == null ? null : Number(sku.discounted_sales_price),
      },
      skuDetails: parts.get(r.id) ?? [],
    });
  }
  return out;
}

// ---- stock and showrooms --------------------------------------------------------------------

/** POST /api/stocks/items/skus/search: stock per sku per branch. */
export async function searchStock(db: Db, req: TSearchRequest): Promise<TPage<TStockRow>> {
  const page = await pagedSearch(repo.stockQuery(db), req, {
    filter: { skuCode: textField('stock.skuCode'), itemId: integerField('stock.itemId'), branchId: integerField('stock.branchId') },
    sort: { skuCode: 'stock.skuCode', branchId: 'stock.branchId', quantity: 'stock.quantity' },
    tieBreaker: 'stock.rowKey',
  });
  return { ...page, list: page.list.map(toStockRow) };
}

function toStockRow(r: { skuCode: string; itemId: number | string; branchId: number | string; quantity: number | string }): TStockRow {
  return { skuCode: r.skuCode, itemId: Number(r.itemId), branchId: Number(r.branchId), quantity: Number(r.quantity) };
}

export async function branchList(db: Db, kind?: string): Promise<TBranch[]> {
  return (await repo.branches(db, kind)).map((b) => ({
    id: b.id,
    name: b.name,
    kind: b.kind,
    address: b.address,
    city: b.city,
    phone: b.phone,
    hours: b.hours,
    latitude: Number(b.latitude),
    longitude: Number(b.longitude),
    sortOrder: b.sort_order,
  }));
}

// ---- attributes and options -----------------------------------------------------------------

/** The attribute search (spec §7; path POST /api/attributes/search): id, sortOrder and labels. */
export async function searchAttributes(db: Db, req: TSearchRequest): Promise<TPage<TAttribute>> {
  const page = await pagedSearch(db.selectFrom('attributes').select(['id', 'name', 'display_label', 'sort_order']), req, {
    filter: { id: integerField('id'), name: textField('name') },
    sort: { sortOrder: 'sort_order', name: 'name', id: 'id' },
    tieBreaker: 'id',
  });
  return { ...page, list: page.list.map((a) => ({ id: a.id, name: a.name, displayLabel: a.display_label, sortOrder: a.sort_order })) };
}

/** GET /api/options: every attribute with the values products use. */
export async function options(db: Db): Promise<TOption[]> {
  const [attrs, values] = await Promise.all([repo.attributes(db), repo.attributeValuesInUse(db)]);
  return attrs.map((a) => {
    const seen = new Set<string>();
    return {
      id: a.id,
      name: a.name,
      displayLabel: a.display_label,
      sortOrder: a.sort_order,
      values: values
        .filter((v) => v.attribute_id === a.id && !seen.has(v.value) && seen.add(v.value))
        .map((v) => ({ value: v.value, displayLabel: v.display_label })),
    };
  });
}

// ---- site content used by the catalogue's screens --------------------------------------------

/** GET /api/cms/sliders/images: the home carousel. Links are kept only when they stay on the site. */
export async function sliders(db: Db, lang: Locale = 'en'): Promise<TSlide[]> {
  return toSlides((await repo.cmsOfType(db, ['slider'])).map((r) => toContentItem(r, lang)));
}

function toSlides(items: TCmsItem[]): TSlide[] {
  return items.flatMap((s) => {
    const image = typeof s.fields.image === 'string' ? s.fields.image : null;
    if (!image) return [];
    const link = typeof s.fields.link === 'string' && isSitePath(s.fields.link) ? s.fields.link : null;
    return [{ id: s.id, title: s.title, body: s.body, image, link }];
  });
}

/** GET /api/cms/bullets: the shop's selling points (those not aimed at categories). */
export async function siteBullets(db: Db, lang: Locale = 'en'): Promise<TCmsItem[]> {
  return (await repo.cmsOfType(db, ['bullet'])).map((r) => toContentItem(r, lang)).filter((b) => targets(b) === null);
}

/**
 * The home page's content in one read (docs/decisions/0029): the carousel (as
 * GET /api/cms/sliders/images), the selling points (as GET /api/cms/bullets) and the first
 * `articles` articles in their order (as POST /api/cms/articles/search by type).
 */
export async function homeContent(db: Db, articles: number, lang: Locale = 'en') {
  const items = (await repo.cmsOfType(db, ['slider', 'bullet', 'article'])).map((r) => toContentItem(r, lang));
  return {
    slides: toSlides(items.filter((i) => i.type === 'slider')),
    bullets: items.filter((i) => i.type === 'bullet' && targets(i) === null),
    articles: items.filter((i) => i.type === 'article').slice(0, articles),
  };
}

/** GET /api/cms/attrs/text: help texts for attributes (a size guide…), by attribute name in slug. */
export async function attributeTexts(db: Db, attribute?: string, lang: Locale = 'en'): Promise<TCmsItem[]> {
  const items = (await repo.cmsOfType(db, ['attr-text'])).map((r) => toContentItem(r, lang));
  return attribute ? items.filter((i) => i.slug === attribute) : items;
}

// ---- sitemap --------------------------------------------------------------------------------

export const sitemapProducts = repo.sitemapProducts;
export const productCount = repo.productCount;
export const allCategories = repo.allCategories;
