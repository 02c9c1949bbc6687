import {
  SLUG_PATTERN,
  type TAdminAttribute,
  type TAdminCategory,
  type TAdminCategoryInput,
  type TAdminCategoryUpdate,
  ZAdminCategoryInput,
  ZAdminCategoryUpdate,
} from '@storefront/shared';
import type { Kysely } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { lockForTransaction } from '../../db/dialect/locks.ts';
import { isUniqueViolation } from '../../db/dialect/unique-violation.ts';
import { conflict, fieldError, notFound } from '../../lib/errors.ts';
import { bumpReadSideVersion } from '../catalogue/search-index.ts';
import { type Actor, recordAudit } from '../staff/audit.ts';
import { staleEdit } from '../staff/staff.service.ts';

type Trx = Kysely<Database>;

/** The category tree has three levels (spec §2: department, group, leaf). */
const MAX_DEPTH = 2;

function checkPicture(field: string, url: string | null) {
  if (url != null && url !== '' && !/^\/[^/\\]/.test(url)) throw fieldError(field, 'Use an uploaded picture');
}

/**
 * The category tree and the attributes (docs/decisions/0031). Names feed the search's words,
 * listings' facets and the shop's menus, so after each write the read side is rebuilt whole
 * (categories and attributes change rarely) and every process is told.
 */
/** The advisory lock of taxonomy changes, apart from the app's other locks. */
const TAXONOMY_LOCK = 7_300_000_001;

export class AdminTaxonomyService {
  constructor(
    private readonly db: Db,
    private readonly rebuild: () => Promise<unknown>,
  ) {}

  private get k() {
    return this.db.kysely;
  }

  private async write<T>(fn: (trx: Trx) => Promise<T>): Promise<T> {
    let out: T;
    try {
      out = await this.k.transaction().execute(async (trx) => {
        // One change of the taxonomy at a time (PostgreSQL): a change touches many rows (every
        // sku with an option), and two at once could take them in opposite orders and deadlock.
        await lockForTransaction(trx, this.db.dialect, TAXONOMY_LOCK);
        const r = await fn(trx);
        await bumpReadSideVersion(trx);
        return r;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('duplicate_slug', 'Another category uses this slug', { slug: 'Another category uses this slug' });
      throw err;
    }
    await this.rebuild();
    return out;
  }

  // ---------------------------------------------------------------------------
  // Categories

  async categories(db: Trx = this.k): Promise<TAdminCategory[]> {
    const [rows, counts] = await Promise.all([
      db
        .selectFrom('categories')
        .select(['id', 'name', 'name_bn', 'slug', 'parent_id', 'sort_order', 'image_url', 'banner_url', 'version'])
        .orderBy('sort_order')
        .orderBy('id')
        .execute(),
      db
        .selectFrom('product_categories')
        .select((eb) => ['category_id', eb.fn.countAll<number>().as('n')])
        .groupBy('category_id')
        .execute(),
    ]);
    const products = new Map(counts.map((c) => [c.category_id, Number(c.n)]));
    const out: TAdminCategory[] = [];
    const walk = (parent: number | null, depth: number, path: string) => {
      for (const c of rows.filter((r) => r.parent_id === parent)) {
        const p = path ? `${path} › ${c.name}` : c.name;
        out.push({
          id: c.id,
          name: c.name,
          nameBn: c.name_bn ?? null,
          slug: c.slug,
          parentId: c.parent_id,
          depth,
          path: p,
          imageUrl: c.image_url,
          bannerUrl: c.banner_url,
          productCount: products.get(c.id) ?? 0,
          childCount: rows.filter((r) => r.parent_id === c.id).length,
          version: c.version ?? 1,
        });
        if (depth < MAX_DEPTH) walk(c.id, depth + 1, p);
      }
    };
    walk(null, 0, '');
    return out;
  }

  private async category(trx: Trx, id: number) {
    const c = await trx
      .selectFrom('categories')
      .select(['id', 'name', 'slug', 'parent_id', 'sort_order', 'image_url', 'banner_url', 'version'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!c) throw notFound('The category');
    return c;
  }

  private check(input: { name: string; slug: string; imageUrl: string | null; bannerUrl: string | null }) {
    if (!input.name.trim()) throw fieldError('name', 'Enter a name');
    if (!SLUG_PATTERN.test(input.slug)) throw fieldError('slug', 'Use lower-case letters, digits and single dashes');
    checkPicture('imageUrl', input.imageUrl);
    checkPicture('bannerUrl', input.bannerUrl);
  }

  async createCategory(body: TAdminCategoryInput, actor: Actor): Promise<TAdminCategory> {
    const input = ZAdminCategoryInput.parse(body);
    this.check(input);
    return this.write(async (trx) => {
      let depth = 0;
      if (input.parentId != null) {
        const all = await this.categories(trx);
        const parent = all.find((c) => c.id === input.parentId);
        if (!parent) throw fieldError('parentId', 'The parent category does not exist');
        depth = parent.depth + 1;
        if (depth > MAX_DEPTH) throw fieldError('parentId', 'Categories go three levels deep: choose a higher parent');
      }
      const last = await trx
        .selectFrom('categories')
        .select((eb) => eb.fn.max('sort_order').as('m'))
        .where((eb) => (input.parentId == null ? eb('parent_id', 'is', null) : eb('parent_id', '=', input.parentId)))
        .executeTakeFirst();
      const row = await trx
        .insertInto('categories')
        .values({
          name: input.name.trim(),
          name_bn: input.nameBn?.trim() || null,
          slug: input.slug,
          parent_id: input.parentId,
          sort_order: Number(last?.m ?? 0) + 1,
          image_url: input.imageUrl || null,
          banner_url: input.bannerUrl || null,
          options: '[]',
          created_at: new Date().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const made = (await this.categories(trx)).find((c) => c.id === row.id) as TAdminCategory;
      await recordAudit(trx, actor, { action: 'create', entity: 'category', entityId: row.id, before: null, after: made });
      return made;
    });
  }

  async updateCategory(id: number, body: TAdminCategoryUpdate, actor: Actor): Promise<TAdminCategory> {
    const input = ZAdminCategoryUpdate.parse(body);
    this.check(input);
    return this.write(async (trx) => {
      const before = (await this.categories(trx)).find((c) => c.id === id);
      if (!before) throw notFound('The category');
      if (before.version !== input.version) throw staleEdit('category');
      await trx
        .updateTable('categories')
        .set({
          name: input.name.trim(),
          // Left out of the request: the Bangla name stays as it was (docs/decisions/0038).
          ...(input.nameBn !== undefined && { name_bn: input.nameBn?.trim() || null }),
          slug: input.slug,
          image_url: input.imageUrl || null,
          banner_url: input.bannerUrl || null,
          version: input.version + 1,
        })
        .where('id', '=', id)
        .execute();
      const after = (await this.categories(trx)).find((c) => c.id === id) as TAdminCategory;
      await recordAudit(trx, actor, { action: 'update', entity: 'category', entityId: id, before, after });
      return after;
    });
  }

  /** One place up or down among its siblings. */
  async moveCategory(id: number, direction: 'up' | 'down', version: number, actor: Actor): Promise<TAdminCategory[]> {
    return this.write(async (trx) => {
      const me = await this.category(trx, id);
      if ((me.version ?? 1) !== version) throw staleEdit('category');
      const siblings = await trx
        .selectFrom('categories')
        .select(['id', 'sort_order'])
        .where((eb) => (me.parent_id == null ? eb('parent_id', 'is', null) : eb('parent_id', '=', me.parent_id)))
        .orderBy('sort_order')
        .orderBy('id')
        .execute();
      const at = siblings.findIndex((s) => s.id === id);
      const to = direction === 'up' ? at - 1 : at + 1;
      if (to < 0 || to >= siblings.length)
        throw conflict('cannot_move', direction === 'up' ? 'This category is first already' : 'This category is last already');
      const order = siblings.map((s) => s.id);
      [order[at], order[to]] = [order[to], order[at]];
      for (const [i, sid] of order.entries())
        await trx
          .updateTable('categories')
          .set({ sort_order: i + 1 })
          .where('id', '=', sid)
          .execute();
      await trx
        .updateTable('categories')
        .set({ version: version + 1 })
        .where('id', '=', id)
        .execute();
      await recordAudit(trx, actor, {
        action: `move_${direction}`,
        entity: 'category',
        entityId: id,
        before: { position: at + 1 },
        after: { position: to + 1 },
      });
      return this.categories(trx);
    });
  }

  /** Only an empty category goes: no sub-categories, no products. */
  async deleteCategory(id: number, actor: Actor): Promise<void> {
    await this.write(async (trx) => {
      const all = await this.categories(trx);
      const c = all.find((x) => x.id === id);
      if (!c) throw notFound('The category');
      if (c.childCount) throw conflict('category_not_empty', `“${c.name}” has sub-categories: move or delete them first`);
      if (c.productCount) throw conflict('category_not_empty', `“${c.name}” has ${c.productCount} products: move them to another category first`);
      const primary = await trx.selectFrom('products').select('id').where('primary_category_id', '=', id).limit(1).executeTakeFirst();
      if (primary) throw conflict('category_not_empty', `“${c.name}” is a product’s main category: move it first`);
      const discounted = await trx.selectFrom('global_discount_categories').select('discount_id').where('category_id', '=', id).limit(1).executeTakeFirst();
      if (discounted) throw conflict('category_not_empty', `A discount covers “${c.name}”: change the discount first`);
      await trx.deleteFrom('categories').where('id', '=', id).execute();
      await recordAudit(trx, actor, { action: 'delete', entity: 'category', entityId: id, before: c, after: null });
    });
  }

  // ---------------------------------------------------------------------------
  // Attributes and their options

  async attributes(db: Trx = this.k): Promise<TAdminAttribute[]> {
    const [attrs, values] = await Promise.all([
      db.selectFrom('attributes').select(['id', 'name', 'display_label', 'version']).orderBy('sort_order').orderBy('id').execute(),
      db
        .selectFrom('sku_attribute_values')
        .select((eb) => ['attribute_id', 'value', eb.fn.min('display_label').as('label'), eb.fn.countAll<number>().as('n')])
        .groupBy(['attribute_id', 'value'])
        .orderBy('attribute_id')
        .orderBy('value')
        .execute(),
    ]);
    return attrs.map((a) => ({
      id: a.id,
      name: a.name,
      label: a.display_label,
      version: a.version ?? 1,
      values: values.filter((v) => v.attribute_id === a.id).map((v) => ({ value: v.value, displayLabel: String(v.label), skus: Number(v.n) })),
    }));
  }

  async updateAttribute(id: number, label: string, version: number, actor: Actor): Promise<TAdminAttribute> {
    if (!label.trim()) throw fieldError('label', 'Enter a label');
    return this.write(async (trx) => {
      const before = (await this.attributes(trx)).find((a) => a.id === id);
      if (!before) throw notFound('The attribute');
      if (before.version !== version) throw staleEdit('attribute');
      await trx
        .updateTable('attributes')
        .set({ display_label: label.trim(), version: version + 1 })
        .where('id', '=', id)
        .execute();
      const after = (await this.attributes(trx)).find((a) => a.id === id) as TAdminAttribute;
      await recordAudit(trx, actor, { action: 'update', entity: 'attribute', entityId: id, before: { label: before.label }, after: { label: after.label } });
      return after;
    });
  }

  /** An option's label, on every sku that has it ("Walnut" → "Dark walnut"). */
  async renameValue(id: number, value: string, displayLabel: string, actor: Actor): Promise<TAdminAttribute> {
    if (!displayLabel.trim()) throw fieldError('displayLabel', 'Enter a label');
    return this.write(async (trx) => {
      const before = (await this.attributes(trx)).find((a) => a.id === id);
      if (!before) throw notFound('The attribute');
      const option = before.values.find((v) => v.value === value);
      if (!option) throw notFound('The option');
      await trx
        .updateTable('sku_attribute_values')
        .set({ display_label: displayLabel.trim() })
        .where('attribute_id', '=', id)
        .where('value', '=', value)
        .execute();
      await recordAudit(trx, actor, {
        action: 'rename_option',
        entity: 'attribute',
        entityId: `${id}:${value}`,
        before: { label: option.displayLabel },
        after: { label: displayLabel.trim(), skus: option.skus },
      });
      return (await this.attributes(trx)).find((a) => a.id === id) as TAdminAttribute;
    });
  }
}
