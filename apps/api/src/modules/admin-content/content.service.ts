import {
  ADMIN_CONTENT_TYPES,
  checkContentInput,
  isContentLive,
  SLUG_PATTERN,
  STATIC_PAGE_SLUGS,
  slugify,
  type TAdminContentItem,
  type TAdminContentType,
  type TContentInput,
  type TContentOrder,
} from '@storefront/shared';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { CmsContentTable, Database } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/dialect/unique-violation.ts';
import { ApiError, badRequest, conflict, fieldError, notFound } from '../../lib/errors.ts';
import { bumpReadSideVersion } from '../catalogue/search-index.ts';
import { type Actor, recordAudit } from '../staff/audit.ts';

// Site content in the back office (docs/decisions/0035): the home carousel, articles,
// bullets, the site pages and the two pop-ups. Every write is checked per type
// (checkContentInput in packages/shared), locked optimistically by `version`, audited in
// its transaction, and moves the read side's version so the next storefront request shows it
// (the route calls app.catalogueChanged() after the commit).
//
// A slug is one item's per type: the check below answers a clash, and the unique index on
// (type, slug) answers the same 409 to the second of two saves at once, which both passed
// the check (docs/decisions/0052).

type Q = Kysely<Database> | Transaction<Database>;
type Row = Selectable<CmsContentTable>;

function parseFields(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

export function toAdminContent(r: Row, now = new Date()): TAdminContentItem {
  const item = {
    id: r.id,
    type: r.type,
    title: r.title,
    titleBn: r.title_bn ?? null,
    slug: r.slug,
    body: r.body,
    bodyBn: r.body_bn ?? null,
    fields: parseFields(r.fields),
    sortOrder: r.sort_order,
    active: Number(r.active) === 1,
    shownFrom: r.shown_from,
    shownUntil: r.shown_until,
    version: r.version,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
  return { ...item, live: isContentLive(item, now) };
}

/** What the audit log keeps of an item: its text and settings, not the row's bookkeeping. */
const snapshot = (c: TAdminContentItem) => ({
  type: c.type,
  title: c.title,
  titleBn: c.titleBn,
  slug: c.slug,
  body: c.body,
  bodyBn: c.bodyBn,
  fields: c.fields,
  sortOrder: c.sortOrder,
  active: c.active,
  shownFrom: c.shownFrom,
  shownUntil: c.shownUntil,
});

const isAdminType = (type: string): type is TAdminContentType => (ADMIN_CONTENT_TYPES as readonly string[]).includes(type);

export async function listContent(db: Q, type: TAdminContentType): Promise<TAdminContentItem[]> {
  const rows = await db.selectFrom('cms_content').selectAll().where('type', '=', type).orderBy('sort_order').orderBy('id').execute();
  const now = new Date();
  return rows.map((r) => toAdminContent(r, now));
}

async function rowOf(db: Q, id: number): Promise<Row> {
  const row = await db.selectFrom('cms_content').selectAll().where('id', '=', id).executeTakeFirst();
  // Attribute help texts live in the same table but are not the back office's to edit here.
  if (!row || !isAdminType(row.type)) throw notFound('The content item');
  return row;
}

export async function getContent(db: Q, id: number): Promise<TAdminContentItem> {
  return toAdminContent(await rowOf(db, id));
}

/** The checked values to store, or a 400 naming every field that breaks a rule. */
async function checked(db: Q, input: TContentInput, id: number | null) {
  const result = checkContentInput(input);
  if (!result.ok) {
    const [first] = Object.values(result.fields);
    throw new ApiError('validation_error', first, result.fields);
  }
  const { title, body, titleBn, bodyBn, fields } = result.value;
  let slug = (input.slug ?? '').trim();
  if (input.type === 'page') {
    if (!(STATIC_PAGE_SLUGS as readonly string[]).includes(slug)) {
      throw fieldError('slug', `A page is one of the shop’s addresses: ${STATIC_PAGE_SLUGS.join(', ')}`);
    }
  } else {
    slug ||= slugify(title);
    if (!SLUG_PATTERN.test(slug)) throw fieldError('slug', 'Lower-case letters, digits and single dashes');
  }
  let same = db.selectFrom('cms_content').select('id').where('type', '=', input.type).where('slug', '=', slug);
  if (id !== null) same = same.where('id', '<>', id);
  if (await same.executeTakeFirst()) throw slugTaken(input.type);
  // Pages have no switch or schedule: the shop's links to them must always lead somewhere.
  const scheduled = input.type !== 'page';
  return {
    title,
    slug,
    body,
    // Left out of the request: the Bangla versions stay as they are (docs/decisions/0038).
    ...(titleBn !== undefined && { title_bn: titleBn }),
    ...(bodyBn !== undefined && { body_bn: bodyBn }),
    fields: JSON.stringify(fields),
    active: scheduled ? (input.active ? 1 : 0) : 1,
    shown_from: scheduled ? utc(input.shownFrom) : null,
    shown_until: scheduled ? utc(input.shownUntil) : null,
  };
}

function slugTaken(type: string): ApiError {
  const message = type === 'page' ? 'This page exists already: edit it instead' : 'Another item of this kind has this slug';
  return conflict('duplicate_slug', message, { slug: message });
}

/** Runs a write; the unique index on (type, slug) refusing it is the same 409 as the check. */
async function slugChecked<T>(type: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw slugTaken(type);
    throw err;
  }
}

/** Stored as UTC ISO text, which sorts and compares as time on both databases. */
const utc = (when: string | null | undefined) => (when ? new Date(when).toISOString() : null);

const STALE = 'Someone changed this item meanwhile: reload it and make your change again';

export async function createContent(db: Kysely<Database>, input: TContentInput, actor: Actor): Promise<TAdminContentItem> {
  return slugChecked(input.type, () => insertContent(db, input, actor));
}

function insertContent(db: Kysely<Database>, input: TContentInput, actor: Actor): Promise<TAdminContentItem> {
  return db.transaction().execute(async (trx) => {
    const values = await checked(trx, input, null);
    const last = await trx
      .selectFrom('cms_content')
      .select((eb) => eb.fn.max('sort_order').as('n'))
      .where('type', '=', input.type)
      .executeTakeFirst();
    const now = new Date().toISOString();
    const row = await trx
      .insertInto('cms_content')
      .values({
        type: input.type,
        ...values,
        sort_order: input.sortOrder ?? (last?.n == null ? 0 : Number(last.n) + 1),
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const item = toAdminContent(row);
    await recordAudit(trx, actor, { action: 'content_created', entity: 'cms_content', entityId: row.id, before: null, after: snapshot(item) });
    await bumpReadSideVersion(trx);
    return item;
  });
}

export async function updateContent(db: Kysely<Database>, id: number, input: TContentInput, actor: Actor): Promise<TAdminContentItem> {
  return slugChecked(input.type, () => changeContent(db, id, input, actor));
}

function changeContent(db: Kysely<Database>, id: number, input: TContentInput, actor: Actor): Promise<TAdminContentItem> {
  return db.transaction().execute(async (trx) => {
    const before = await rowOf(trx, id);
    if (before.type !== input.type) throw fieldError('type', 'An item keeps its kind: make a new one instead');
    if (input.version !== undefined && input.version !== before.version) throw conflict('stale_version', STALE);
    const values = await checked(trx, input, id);
    const moved = await trx
      .updateTable('cms_content')
      .set({ ...values, sort_order: input.sortOrder ?? before.sort_order, version: before.version + 1, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('version', '=', before.version)
      .returningAll()
      .executeTakeFirst();
    if (!moved) throw conflict('stale_version', STALE);
    const item = toAdminContent(moved);
    await recordAudit(trx, actor, {
      action: 'content_updated',
      entity: 'cms_content',
      entityId: id,
      before: snapshot(toAdminContent(before)),
      after: snapshot(item),
    });
    await bumpReadSideVersion(trx);
    return item;
  });
}

export async function deleteContent(db: Kysely<Database>, id: number, actor: Actor): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await rowOf(trx, id);
    // The shop's menus and footer link to every site page: a page is edited, never removed.
    if (before.type === 'page') throw badRequest('The shop links to this page, so it cannot be removed: change its text instead');
    await trx.deleteFrom('cms_content').where('id', '=', id).execute();
    await recordAudit(trx, actor, { action: 'content_removed', entity: 'cms_content', entityId: id, before: snapshot(toAdminContent(before)), after: null });
    await bumpReadSideVersion(trx);
  });
}

/**
 * Puts every item of a type in the order given. Reordering does not move the items'
 * versions: an editor open on one of them can still save (its save keeps the new order).
 */
export async function reorderContent(db: Kysely<Database>, order: TContentOrder, actor: Actor): Promise<TAdminContentItem[]> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx.selectFrom('cms_content').select(['id', 'sort_order']).where('type', '=', order.type).execute();
    const have = new Set(rows.map((r) => r.id));
    const given = new Set(order.ids);
    if (given.size !== order.ids.length || given.size !== have.size || order.ids.some((id) => !have.has(id))) {
      throw fieldError('ids', 'Give every item of this kind once, in the order wanted (reload: the list may have changed)');
    }
    const before = [...rows].sort((a, b) => a.sort_order - b.sort_order || a.id - b.id).map((r) => r.id);
    for (const [i, id] of order.ids.entries()) {
      await trx.updateTable('cms_content').set({ sort_order: i }).where('id', '=', id).execute();
    }
    await recordAudit(trx, actor, {
      action: 'content_reordered',
      entity: 'cms_content',
      entityId: order.type,
      before: { order: before },
      after: { order: order.ids },
    });
    await bumpReadSideVersion(trx);
    return listContent(trx, order.type);
  });
}

/**
 * How many scheduled starts or ends fell in (since, until]: the storefront's cached reads
 * are made at one moment, and an item whose window opens or closes later must show or
 * go without a back-office write.
 */
export async function scheduleEdgesBetween(db: Q, since: string, until: string): Promise<number> {
  const r = await db
    .selectFrom('cms_content')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where((eb) =>
      eb.or([eb.and([eb('shown_from', '>', since), eb('shown_from', '<=', until)]), eb.and([eb('shown_until', '>', since), eb('shown_until', '<=', until)])]),
    )
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}
