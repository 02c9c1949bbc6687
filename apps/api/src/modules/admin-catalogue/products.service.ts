import {
  DEFAULT_LOW_STOCK,
  SLUG_PATTERN,
  type TAdminProduct,
  type TAdminProductInput,
  type TAdminProductQuery,
  type TAdminProductRow,
  type TAdminProductUpdate,
  type TAdminReference,
  type TProductStatus,
  type TStockAdjustment,
  type TStockMovement,
  ZAdminProductInput,
  ZAdminProductQuery,
  ZStockAdjustment,
} from '@storefront/shared';
import type { Kysely } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { isUniqueViolation, violatedConstraint } from '../../db/dialect/unique-violation.ts';
import { ApiError, conflict, notFound } from '../../lib/errors.ts';
import { bumpReadSideVersion, syncProducts } from '../catalogue/search-index.ts';
import { type Actor, recordAudit } from '../staff/audit.ts';
import { staleEdit } from '../staff/staff.service.ts';
import * as repo from './products.repository.ts';

type Trx = Kysely<Database>;
type Input = ReturnType<typeof ZAdminProductInput.parse>;

const iso = () => new Date().toISOString();

class FieldErrors {
  readonly fields: Record<string, string> = {};
  add(field: string, message: string) {
    this.fields[field] ??= message;
  }
  throwIfAny() {
    const first = Object.values(this.fields)[0];
    if (first) throw new ApiError('validation_error', first, this.fields);
  }
  /**
   * A slug, model code or sku code another product has: 409, as the unique index answers
   * the second of two saves at once (docs/decisions/0052), with the code of the first field.
   */
  throwIfTaken() {
    const [field, first] = Object.entries(this.fields)[0] ?? [];
    if (!field || !first) return;
    const code = field === 'slug' ? 'duplicate_slug' : field === 'modelCode' ? 'duplicate_model_code' : 'duplicate_sku_code';
    throw conflict(code, first, this.fields);
  }
}

/**
 * The back office's catalogue (docs/decisions/0031): products with their skus, images,
 * categories and stock. Every write is one transaction that also writes its audit entry and
 * the read side's rows of the products it touched, and moves the read side's version, so
 * that listings, search, product pages and the cart quote show it on the next request in
 * every process.
 */
export class AdminCatalogueService {
  constructor(
    private readonly db: Db,
    /** Forgets this process's cached reads and pages once a write has committed. */
    private readonly changed: () => Promise<void>,
  ) {}

  private get k() {
    return this.db.kysely;
  }

  // ---------------------------------------------------------------------------
  // Reads

  async list(query: TAdminProductQuery) {
    const q = ZAdminProductQuery.parse(query);
    const { total, rows } = await repo.productPage(this.k, q, DEFAULT_LOW_STOCK);
    const items: TAdminProductRow[] = rows.map((r) => ({
      id: r.id,
      title: r.title,
      slug: r.slug,
      modelCode: r.model_code,
      status: r.status as TProductStatus,
      category: r.category ?? '',
      imageUrl: r.image_url,
      skuCount: Number(r.sku_count),
      price: r.price == null ? null : Number(r.price),
      stock: Number(r.stock),
      updatedAt: r.updated_at ?? r.created_at,
    }));
    return { items, total, page: q.page, size: q.size };
  }

  async get(id: number, db: Trx = this.k): Promise<TAdminProduct> {
    const p = await repo.productRow(db, id);
    if (!p) throw notFound('The product');
    const parts = await repo.productParts(db, id);
    return {
      id: p.id,
      title: p.title,
      titleBn: p.title_bn ?? null,
      slug: p.slug,
      modelCode: p.model_code,
      description: p.description,
      descriptionBn: p.description_bn ?? null,
      kind: p.kind === 'bundle' ? 'bundle' : 'single',
      categoryIds: parts.categories.map((c) => c.category_id),
      primaryCategoryId: p.primary_category_id,
      isNewArrival: p.is_new_arrival === 1,
      status: p.status as TProductStatus,
      images: parts.images.map((i) => ({ url: i.url, alt: i.alt, variantValue: i.variant_value ?? null })),
      skus: parts.skus.map((s) => ({
        id: s.id,
        code: s.code,
        salesPrice: Number(s.sales_price),
        discountedSalesPrice: s.discounted_sales_price == null ? null : Number(s.discounted_sales_price),
        lowStockThreshold: s.low_stock_threshold ?? null,
        attributes: parts.values.filter((v) => v.sku_id === s.id).map((v) => ({ attributeId: v.attribute_id, value: v.value, displayLabel: v.display_label })),
        stock: parts.stock.filter((st) => st.sku_id === s.id).map((st) => ({ branchId: st.branch_id, quantity: st.quantity })),
      })),
      bundleItems: (await repo.bundleItemsOf(db, id)).map((b) => ({ skuId: b.sku_id, skuCode: b.code, title: b.title, quantity: b.quantity })),
      hasOrders: await repo.hasOrders(db, id),
      version: p.version,
      createdAt: p.created_at,
      updatedAt: p.updated_at ?? p.created_at,
    };
  }

  async reference(): Promise<TAdminReference> {
    const [categories, attributes, values, branches] = await Promise.all([
      this.k.selectFrom('categories').select(['id', 'name', 'parent_id']).orderBy('sort_order').orderBy('id').execute(),
      this.k.selectFrom('attributes').select(['id', 'name', 'display_label']).orderBy('sort_order').orderBy('id').execute(),
      this.k
        .selectFrom('sku_attribute_values')
        .select(['attribute_id', 'value', 'display_label'])
        .distinct()
        .orderBy('attribute_id')
        .orderBy('display_label')
        .execute(),
      this.k.selectFrom('branches').select(['id', 'name', 'kind']).orderBy('sort_order').orderBy('id').execute(),
    ]);
    // The tree in display order, each with its depth and path ("Living › Sofas › Fabric").
    const byParent = new Map<number | null, typeof categories>();
    for (const c of categories) byParent.set(c.parent_id, [...(byParent.get(c.parent_id) ?? []), c]);
    const tree: TAdminReference['categories'] = [];
    const walk = (parent: number | null, depth: number, path: string) => {
      for (const c of byParent.get(parent) ?? []) {
        const p = path ? `${path} › ${c.name}` : c.name;
        tree.push({ id: c.id, name: c.name, parentId: c.parent_id, depth, path: p });
        if (depth < 3) walk(c.id, depth + 1, p);
      }
    };
    walk(null, 0, '');
    return {
      categories: tree,
      attributes: attributes.map((a) => ({
        id: a.id,
        name: a.name,
        label: a.display_label,
        values: values.filter((v) => v.attribute_id === a.id).map((v) => ({ value: v.value, displayLabel: v.display_label })),
      })),
      branches,
    };
  }

  // ---------------------------------------------------------------------------
  // Writes

  async create(body: TAdminProductInput, actor: Actor): Promise<TAdminProduct> {
    const input = ZAdminProductInput.parse(body);
    const product = await this.write(async (trx) => {
      await this.validate(trx, input, null);
      const now = iso();
      const row = await trx
        .insertInto('products')
        .values({ ...productColumns(input), model_url: null, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      await this.writeParts(trx, row.id, input, []);
      const after = await this.get(row.id, trx);
      await recordAudit(trx, actor, { action: 'create', entity: 'product', entityId: row.id, before: null, after: snapshot(after) });
      await syncProducts(trx, this.db.dialect, [row.id]);
      return after;
    });
    return product;
  }

  async update(id: number, body: TAdminProductUpdate, actor: Actor): Promise<TAdminProduct> {
    const input = ZAdminProductInput.parse(body);
    return this.write(async (trx) => {
      const before = await this.get(id, trx);
      if (before.version !== body.version) throw staleEdit('product');
      if (before.status === 'archived') throw conflict('archived', 'This product is archived. Restore it before editing.');
      await this.validate(trx, input, before);
      const now = iso();
      const r = await trx
        .updateTable('products')
        .set({ ...productColumns(input), version: before.version + 1, updated_at: now })
        .where('id', '=', id)
        .where('version', '=', body.version)
        .executeTakeFirst();
      // Another write got in between the read and this one.
      if (Number(r.numUpdatedRows) !== 1) throw staleEdit('product');
      if (before.slug !== input.slug) {
        // The old address keeps working (a 301 to the new one); a slug taken back is no longer a redirect.
        await trx.deleteFrom('product_slug_redirects').where('slug', '=', input.slug).execute();
        await trx
          .insertInto('product_slug_redirects')
          .values({ slug: before.slug, product_id: id, created_at: now })
          .onConflict((oc) => oc.column('slug').doUpdateSet({ product_id: id, created_at: now }))
          .execute();
      }
      await this.writeParts(
        trx,
        id,
        input,
        before.skus.map((s) => s.id),
      );
      const after = await this.get(id, trx);
      await recordAudit(trx, actor, { action: 'update', entity: 'product', entityId: id, before: snapshot(before), after: snapshot(after) });
      await syncProducts(trx, this.db.dialect, [id]);
      return after;
    });
  }

  /** Archived products leave the storefront and are never deleted: orders keep pointing at them. */
  async setArchived(id: number, archived: boolean, version: number, actor: Actor): Promise<TAdminProduct> {
    return this.write(async (trx) => {
      const before = await this.get(id, trx);
      if (before.version !== version) throw staleEdit('product');
      const status = archived ? 'archived' : 'draft';
      await trx
        .updateTable('products')
        .set({ status, version: version + 1, updated_at: iso() })
        .where('id', '=', id)
        .where('version', '=', version)
        .execute();
      const after = await this.get(id, trx);
      await recordAudit(trx, actor, {
        action: archived ? 'archive' : 'restore',
        entity: 'product',
        entityId: id,
        before: snapshot(before),
        after: snapshot(after),
      });
      await syncProducts(trx, this.db.dialect, [id]);
      return after;
    });
  }

  /** A draft copy: new slug and sku codes, no stock, nothing on the storefront until published. */
  async duplicate(id: number, actor: Actor): Promise<TAdminProduct> {
    const source = await this.get(id);
    const free = async (taken: (v: string) => Promise<boolean>, base: string, max: number) => {
      for (let n = 1; n < 1000; n++) {
        const suffix = n === 1 ? '-copy' : `-copy-${n}`;
        const v = `${base.slice(0, max - suffix.length)}${suffix}`;
        if (!(await taken(v))) return v;
      }
      throw conflict('no_free_copy', 'Too many copies of this product');
    };
    const slug = await free(async (v) => !!(await this.k.selectFrom('products').select('id').where('slug', '=', v).executeTakeFirst()), source.slug, 140);
    const skus = [];
    for (const s of source.skus) {
      const code = await free(async (v) => !!(await this.k.selectFrom('skus').select('id').where('code', '=', v).executeTakeFirst()), s.code, 80);
      skus.push({
        code,
        salesPrice: s.salesPrice,
        discountedSalesPrice: s.discountedSalesPrice,
        attributes: s.attributes,
        lowStockThreshold: s.lowStockThreshold,
      });
    }
    const modelCode = source.modelCode
      ? await free(async (v) => !!(await this.k.selectFrom('products').select('id').where('model_code', '=', v).executeTakeFirst()), source.modelCode, 60)
      : null;
    return this.create(
      {
        title: `Copy of ${source.title}`.slice(0, 200),
        titleBn: source.titleBn,
        slug,
        modelCode,
        description: source.description,
        descriptionBn: source.descriptionBn,
        kind: source.kind,
        categoryIds: source.categoryIds,
        primaryCategoryId: source.primaryCategoryId,
        isNewArrival: source.isNewArrival,
        status: 'draft',
        images: source.images,
        skus,
        bundleItems: source.bundleItems.map((b) => ({ skuCode: b.skuCode, quantity: b.quantity })),
      },
      actor,
    );
  }

  // ---------------------------------------------------------------------------
  // Stock

  /**
   * One stock change, kept as a movement (who, why, how many): received or returned units
   * come in, sold units go out, a correction sets the counted quantity. Stock never goes
   * below zero, and concurrent changes add up (each is one atomic update).
   */
  async adjustStock(body: TStockAdjustment, actor: Actor): Promise<TStockMovement> {
    const a = ZStockAdjustment.parse(body);
    const errors = new FieldErrors();
    if (a.reason === 'correction') {
      if (a.countedQuantity == null || a.countedQuantity < 0) errors.add('countedQuantity', 'Enter the quantity counted (0 or more)');
    } else if (a.delta == null || a.delta === 0) errors.add('delta', 'Enter how many units');
    else if (a.reason === 'sold' ? a.delta > 0 : a.delta < 0)
      errors.add('delta', a.reason === 'sold' ? 'Units sold go out: enter a negative number' : 'Units received or returned come in: enter a positive number');
    errors.throwIfAny();
    const movement = await this.write(async (trx) => {
      const sku = await trx.selectFrom('skus').select(['id', 'code', 'product_id']).where('id', '=', a.skuId).executeTakeFirst();
      if (!sku) throw notFound('The sku');
      const branch = await trx.selectFrom('branches').select(['id', 'name']).where('id', '=', a.branchId).executeTakeFirst();
      if (!branch) throw notFound('The branch');
      await trx
        .insertInto('stocks')
        .values({ sku_id: a.skuId, branch_id: a.branchId, quantity: 0 })
        .onConflict((oc) => oc.columns(['sku_id', 'branch_id']).doNothing())
        .execute();
      const current = await trx
        .selectFrom('stocks')
        .select('quantity')
        .where('sku_id', '=', a.skuId)
        .where('branch_id', '=', a.branchId)
        .executeTakeFirstOrThrow();
      const delta = a.reason === 'correction' ? (a.countedQuantity ?? 0) - current.quantity : (a.delta ?? 0);
      const updated = await trx
        .updateTable('stocks')
        .set((eb) => ({ quantity: eb('quantity', '+', delta) }))
        .where('sku_id', '=', a.skuId)
        .where('branch_id', '=', a.branchId)
        .where((eb) => eb('quantity', '>=', -delta))
        .returning('quantity')
        .executeTakeFirst();
      if (!updated)
        throw conflict('not_enough_stock', `Only ${current.quantity} in stock at ${branch.name}`, {
          delta: `Only ${current.quantity} in stock at ${branch.name}`,
        });
      const now = iso();
      const m = await trx
        .insertInto('stock_movements')
        .values({
          sku_id: a.skuId,
          branch_id: a.branchId,
          delta,
          quantity_after: updated.quantity,
          reason: a.reason,
          note: a.note.trim(),
          staff_id: actor.staffId,
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await recordAudit(trx, actor, {
        action: `stock_${a.reason}`,
        entity: 'stock',
        entityId: `${sku.code}@${a.branchId}`,
        before: { quantity: current.quantity },
        after: { quantity: updated.quantity, note: a.note.trim() },
      });
      // Stock is read live by the storefront; the version tells caches of stock-derived answers.
      await bumpReadSideVersion(trx);
      return {
        id: m.id,
        skuId: sku.id,
        skuCode: sku.code,
        branchId: branch.id,
        branch: branch.name,
        delta,
        quantityAfter: updated.quantity,
        reason: a.reason,
        note: a.note.trim(),
        staffEmail: actor.email,
        createdAt: now,
      } satisfies TStockMovement;
    });
    return movement;
  }

  async movements(skuId: number, limit = 50): Promise<TStockMovement[]> {
    const rows = await this.k
      .selectFrom('stock_movements as m')
      .innerJoin('skus as s', 's.id', 'm.sku_id')
      .innerJoin('branches as b', 'b.id', 'm.branch_id')
      .leftJoin('staff as st', 'st.id', 'm.staff_id')
      .select(['m.id', 'm.sku_id', 's.code', 'm.branch_id', 'b.name', 'm.delta', 'm.quantity_after', 'm.reason', 'm.note', 'st.email', 'm.created_at'])
      .where('m.sku_id', '=', skuId)
      .orderBy('m.id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      skuId: r.sku_id,
      skuCode: r.code,
      branchId: r.branch_id,
      branch: r.name,
      delta: r.delta,
      quantityAfter: r.quantity_after,
      reason: r.reason as TStockMovement['reason'],
      note: r.note,
      staffEmail: r.email ?? null,
      createdAt: r.created_at,
    }));
  }

  // ---------------------------------------------------------------------------

  /** Runs a write in one transaction, then tells this process's caches. */
  private async write<T>(fn: (trx: Trx) => Promise<T>): Promise<T> {
    let out: T;
    try {
      out = await this.k.transaction().execute(async (trx) => {
        const r = await fn(trx);
        await bumpReadSideVersion(trx);
        return r;
      });
    } catch (err) {
      if (isUniqueViolation(err)) {
        const which = violatedConstraint(err);
        if (/slug/.test(which)) throw conflict('duplicate_slug', 'Another product uses this address', { slug: 'Another product uses this address' });
        if (/model/.test(which))
          throw conflict('duplicate_model_code', 'Another product has this model code', { modelCode: 'Another product has this model code' });
        if (/code/.test(which)) throw conflict('duplicate_sku_code', 'Another sku has this code', { skus: 'Another sku has this code' });
      }
      throw err;
    }
    await this.changed();
    return out;
  }

  private async validate(trx: Trx, input: Input, before: TAdminProduct | null): Promise<void> {
    const e = new FieldErrors();
    if (!input.title.trim()) e.add('title', 'Enter a title');
    if (!SLUG_PATTERN.test(input.slug)) e.add('slug', 'Use lower-case letters, digits and single dashes');
    if (input.status === 'published' && !input.skus.length) e.add('skus', 'A published product needs at least one sku');
    if (!input.categoryIds.length) e.add('categoryIds', 'Choose at least one category');
    if (!input.categoryIds.includes(input.primaryCategoryId)) e.add('primaryCategoryId', 'The main category must be one of the product’s categories');
    const codes = new Set<string>();
    input.skus.forEach((s, i) => {
      const code = s.code.trim();
      if (!code) e.add(`skus.${i}.code`, 'Enter a sku code');
      else if (codes.has(code.toLowerCase())) e.add(`skus.${i}.code`, 'Two skus of this product have this code');
      codes.add(code.toLowerCase());
      if (!(s.salesPrice > 0)) e.add(`skus.${i}.salesPrice`, 'Enter a price above zero');
      if (s.discountedSalesPrice != null && !(s.discountedSalesPrice > 0 && s.discountedSalesPrice < s.salesPrice)) {
        e.add(`skus.${i}.discountedSalesPrice`, 'A discounted price is above zero and below the price');
      }
      if (s.lowStockThreshold != null && s.lowStockThreshold < 0) e.add(`skus.${i}.lowStockThreshold`, 'Enter 0 or more');
      if (s.id != null && !before?.skus.some((b) => b.id === s.id)) e.add(`skus.${i}.id`, 'This sku belongs to another product');
    });
    if (input.kind === 'single' && input.bundleItems.length) e.add('bundleItems', 'Only a bundle has contents: choose the kind Bundle');
    if (input.kind === 'bundle' && input.status === 'published' && !input.bundleItems.length)
      e.add('bundleItems', 'A published bundle needs at least one sku in it');
    const inBundle = new Set<string>();
    input.bundleItems.forEach((b, i) => {
      if (!(b.quantity >= 1 && b.quantity <= 99)) e.add(`bundleItems.${i}.quantity`, 'Enter 1 to 99');
      if (inBundle.has(b.skuCode.trim())) e.add(`bundleItems.${i}.skuCode`, 'This sku is in the bundle already');
      if (codes.has(b.skuCode.trim().toLowerCase())) e.add(`bundleItems.${i}.skuCode`, 'A bundle is made of other products’ skus');
      inBundle.add(b.skuCode.trim());
    });
    input.images.forEach((img, i) => {
      if (!/^(\/[^/\\]|https:\/\/)/.test(img.url)) e.add(`images.${i}.url`, 'Use an uploaded image or an https address');
    });
    e.throwIfAny();

    if (input.categoryIds.length) {
      const found = await trx.selectFrom('categories').select('id').where('id', 'in', input.categoryIds).execute();
      if (found.length !== new Set(input.categoryIds).size) e.add('categoryIds', 'One of the categories does not exist');
    }
    const attributeIds = [...new Set(input.skus.flatMap((s) => s.attributes.map((a) => a.attributeId)))];
    if (attributeIds.length) {
      const found = await trx.selectFrom('attributes').select('id').where('id', 'in', attributeIds).execute();
      if (found.length !== attributeIds.length) e.add('skus', 'One of the attributes does not exist');
    }
    const taken = new FieldErrors();
    const slugOwner = await trx.selectFrom('products').select('id').where('slug', '=', input.slug).executeTakeFirst();
    if (slugOwner && slugOwner.id !== before?.id) taken.add('slug', 'Another product uses this address');
    const redirect = await trx.selectFrom('product_slug_redirects').select('product_id').where('slug', '=', input.slug).executeTakeFirst();
    if (redirect && redirect.product_id !== before?.id) taken.add('slug', 'This address was another product’s and still leads to it');
    if (input.modelCode?.trim()) {
      const owner = await trx.selectFrom('products').select('id').where('model_code', '=', input.modelCode.trim()).executeTakeFirst();
      if (owner && owner.id !== before?.id) taken.add('modelCode', 'Another product has this model code');
    }
    if (codes.size) {
      const codesTaken = await trx
        .selectFrom('skus')
        .select(['code', 'product_id'])
        .where(
          'code',
          'in',
          input.skus.map((s) => s.code.trim()),
        )
        .execute();
      input.skus.forEach((s, i) => {
        const t = codesTaken.find((x) => x.code === s.code.trim());
        if (t && t.product_id !== before?.id) taken.add(`skus.${i}.code`, 'Another product has a sku with this code');
      });
    }
    if (input.bundleItems.length) {
      const parts = await trx
        .selectFrom('skus as s')
        .innerJoin('products as p', 'p.id', 's.product_id')
        .select(['s.code', 'p.kind', 'p.id'])
        .where(
          's.code',
          'in',
          input.bundleItems.map((b) => b.skuCode.trim()),
        )
        .execute();
      input.bundleItems.forEach((b, i) => {
        const part = parts.find((x) => x.code === b.skuCode.trim());
        if (!part) e.add(`bundleItems.${i}.skuCode`, 'No sku has this code');
        else if (part.kind === 'bundle') e.add(`bundleItems.${i}.skuCode`, 'A bundle cannot hold another bundle');
        else if (part.id === before?.id) e.add(`bundleItems.${i}.skuCode`, 'A bundle is made of other products’ skus');
      });
    }
    if (before) {
      const kept = new Set(input.skus.map((s) => s.id).filter((x): x is number => x != null));
      const removed = before.skus.filter((s) => !kept.has(s.id));
      const ordered = await repo.orderedSkus(
        trx,
        removed.map((s) => s.id),
      );
      for (const s of removed) if (ordered.has(s.id)) e.add('skus', `Sku ${s.code} has orders and cannot be removed`);
      if (removed.length) {
        const bundled = await trx
          .selectFrom('bundle_items')
          .select('sku_id')
          .where(
            'sku_id',
            'in',
            removed.map((s) => s.id),
          )
          .execute();
        for (const s of removed) if (bundled.some((b) => b.sku_id === s.id)) e.add('skus', `Sku ${s.code} is part of a bundle and cannot be removed`);
      }
    }
    e.throwIfAny();
    taken.throwIfTaken();
  }

  /** Categories, images, skus and a bundle's contents as the input has them (skus updated in place, added, or removed). */
  private async writeParts(trx: Trx, productId: number, input: Input, oldSkuIds: number[]): Promise<void> {
    await trx.deleteFrom('bundle_items').where('bundle_product_id', '=', productId).execute();
    if (input.bundleItems.length) {
      const parts = await trx
        .selectFrom('skus')
        .select(['id', 'code'])
        .where(
          'code',
          'in',
          input.bundleItems.map((b) => b.skuCode.trim()),
        )
        .execute();
      await trx
        .insertInto('bundle_items')
        .values(
          input.bundleItems.map((b) => ({
            bundle_product_id: productId,
            sku_id: parts.find((p) => p.code === b.skuCode.trim())?.id ?? 0,
            quantity: b.quantity,
          })),
        )
        .execute();
    }
    await trx.deleteFrom('product_categories').where('product_id', '=', productId).execute();
    await trx
      .insertInto('product_categories')
      .values([...new Set(input.categoryIds)].map((category_id) => ({ product_id: productId, category_id })))
      .execute();
    await trx.deleteFrom('product_images').where('product_id', '=', productId).execute();
    if (input.images.length) {
      await trx
        .insertInto('product_images')
        .values(
          input.images.map((img, i) => ({
            product_id: productId,
            url: img.url,
            alt: img.alt.trim(),
            sort_order: i,
            variant_value: img.variantValue,
            file_uuid: /^\/files\/([0-9a-f-]{36})(?:\/|$)/.exec(img.url)?.[1] ?? null,
          })),
        )
        .execute();
    }
    const kept = new Set(input.skus.map((s) => s.id).filter((x): x is number => x != null));
    const removed = oldSkuIds.filter((id) => !kept.has(id));
    if (removed.length) await trx.deleteFrom('skus').where('id', 'in', removed).execute();
    // Codes move between skus of one product without tripping the unique index on the way.
    for (const s of input.skus)
      if (s.id != null)
        await trx
          .updateTable('skus')
          .set({ code: `~${s.id}~${Date.now()}` })
          .where('id', '=', s.id)
          .execute();
    for (const [i, s] of input.skus.entries()) {
      const values = {
        code: s.code.trim(),
        sales_price: s.salesPrice,
        discounted_sales_price: s.discountedSalesPrice,
        sort_order: i,
        low_stock_threshold: s.lowStockThreshold,
      };
      let skuId = s.id;
      if (skuId != null) await trx.updateTable('skus').set(values).where('id', '=', skuId).execute();
      else
        skuId = (
          await trx
            .insertInto('skus')
            .values({ product_id: productId, ...values })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      await trx.deleteFrom('sku_attribute_values').where('sku_id', '=', skuId).execute();
      if (s.attributes.length) {
        await trx
          .insertInto('sku_attribute_values')
          .values(
            s.attributes.map((a) => ({
              sku_id: skuId,
              attribute_id: a.attributeId,
              value: a.value.trim(),
              display_label: a.displayLabel.trim() || a.value.trim(),
            })),
          )
          .execute();
      }
    }
  }
}

/** The products row's columns as the editor sets them. */
function productColumns(input: Input) {
  return {
    title: input.title.trim(),
    slug: input.slug,
    model_code: input.modelCode?.trim() || null,
    description: input.description,
    // An empty Bangla text is none: shoppers reading Bangla see the English; a text left
    // out of the request stays as it was (docs/decisions/0038).
    ...(input.titleBn !== undefined && { title_bn: input.titleBn?.trim() || null }),
    ...(input.descriptionBn !== undefined && { description_bn: input.descriptionBn?.trim() ? input.descriptionBn : null }),
    kind: input.kind,
    primary_category_id: input.primaryCategoryId,
    is_new_arrival: input.isNewArrival ? 1 : 0,
    status: input.status,
  };
}

/** What the audit log keeps of a product: everything staff edit, without stock (kept as movements). */
function snapshot(p: TAdminProduct): Record<string, unknown> {
  const { skus, hasOrders: _orders, createdAt: _created, ...rest } = p;
  return { ...rest, skus: skus.map(({ stock: _stock, ...s }) => s) };
}
