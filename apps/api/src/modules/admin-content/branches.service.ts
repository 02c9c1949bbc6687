import type { TAdminBranch, TBranchInput } from '@storefront/shared';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { BranchesTable, Database } from '../../db/schema.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { bumpReadSideVersion } from '../catalogue/search-index.ts';
import { type Actor, recordAudit } from '../staff/audit.ts';

// Showrooms, outlets and warehouses in the back office (docs/decisions/0035). The storefront
// lists them (/outlets, checkout's pickup, the product page's stock); a branch that stock,
// reservations, stock movements or orders refer to cannot be removed — hiding it takes it
// off the storefront and keeps its history.

type Q = Kysely<Database> | Transaction<Database>;
type Row = Selectable<BranchesTable>;

const toAdmin = (r: Row, inUse: boolean): TAdminBranch => ({
  id: r.id,
  name: r.name,
  kind: r.kind,
  address: r.address,
  city: r.city,
  phone: r.phone,
  hours: r.hours,
  latitude: Number(r.latitude),
  longitude: Number(r.longitude),
  sortOrder: r.sort_order,
  hidden: Number(r.hidden) === 1,
  version: r.version,
  inUse,
});

const snapshot = (b: TAdminBranch) => {
  const { version: _v, inUse: _u, id: _i, ...rest } = b;
  return rest;
};

/** The branches that something still refers to, of those given (all when none given). */
async function branchesInUse(db: Q, ids?: number[]): Promise<Set<number>> {
  if (ids && !ids.length) return new Set();
  const some = ids ?? [];
  const all = !ids;
  const [stock, moves, holds, pickups, sales] = await Promise.all([
    db
      .selectFrom('stocks')
      .select('branch_id as id')
      .where('quantity', '<>', 0)
      .$if(!all, (q) => q.where('branch_id', 'in', some))
      .distinct()
      .execute(),
    db
      .selectFrom('stock_movements')
      .select('branch_id as id')
      .$if(!all, (q) => q.where('branch_id', 'in', some))
      .distinct()
      .execute(),
    db
      .selectFrom('stock_reservations')
      .select('branch_id as id')
      .$if(!all, (q) => q.where('branch_id', 'in', some))
      .distinct()
      .execute(),
    db
      .selectFrom('sales')
      .select('pickup_branch_id as id')
      .where('pickup_branch_id', 'is not', null)
      .$if(!all, (q) => q.where('pickup_branch_id', 'in', some))
      .distinct()
      .execute(),
    db
      .selectFrom('sales')
      .select('branch_id as id')
      .where('branch_id', 'is not', null)
      .$if(!all, (q) => q.where('branch_id', 'in', some))
      .distinct()
      .execute(),
  ]);
  return new Set([...stock, ...moves, ...holds, ...pickups, ...sales].map((r) => Number(r.id)));
}

export async function adminBranches(db: Q): Promise<TAdminBranch[]> {
  const [rows, used] = await Promise.all([db.selectFrom('branches').selectAll().orderBy('sort_order').orderBy('id').execute(), branchesInUse(db)]);
  return rows.map((r) => toAdmin(r, used.has(r.id)));
}

const values = (input: TBranchInput) => ({
  name: input.name,
  kind: input.kind,
  address: input.address,
  city: input.city,
  phone: input.phone,
  hours: input.hours,
  latitude: input.latitude,
  longitude: input.longitude,
  hidden: input.hidden ? 1 : 0,
});

const STALE = 'Someone changed this branch meanwhile: reload it and make your change again';

export async function createBranch(db: Kysely<Database>, input: TBranchInput, actor: Actor): Promise<TAdminBranch> {
  return db.transaction().execute(async (trx) => {
    const last = await trx
      .selectFrom('branches')
      .select((eb) => eb.fn.max('sort_order').as('n'))
      .executeTakeFirst();
    const row = await trx
      .insertInto('branches')
      .values({ ...values(input), sort_order: input.sortOrder ?? (last?.n == null ? 0 : Number(last.n) + 1) })
      .returningAll()
      .executeTakeFirstOrThrow();
    const branch = toAdmin(row, false);
    await recordAudit(trx, actor, { action: 'branch_created', entity: 'branch', entityId: row.id, before: null, after: snapshot(branch) });
    await bumpReadSideVersion(trx);
    return branch;
  });
}

export async function updateBranch(db: Kysely<Database>, id: number, input: TBranchInput, actor: Actor): Promise<TAdminBranch> {
  return db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('branches').selectAll().where('id', '=', id).executeTakeFirst();
    if (!before) throw notFound('The branch');
    if (input.version !== undefined && input.version !== before.version) throw conflict('stale_version', STALE);
    const moved = await trx
      .updateTable('branches')
      .set({
        ...values({ ...input, hidden: input.hidden ?? Number(before.hidden) === 1 }),
        sort_order: input.sortOrder ?? before.sort_order,
        version: before.version + 1,
      })
      .where('id', '=', id)
      .where('version', '=', before.version)
      .returningAll()
      .executeTakeFirst();
    if (!moved) throw conflict('stale_version', STALE);
    const used = (await branchesInUse(trx, [id])).has(id);
    const branch = toAdmin(moved, used);
    await recordAudit(trx, actor, {
      action: 'branch_updated',
      entity: 'branch',
      entityId: id,
      before: snapshot(toAdmin(before, used)),
      after: snapshot(branch),
    });
    await bumpReadSideVersion(trx);
    return branch;
  });
}

export async function deleteBranch(db: Kysely<Database>, id: number, actor: Actor): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('branches').selectAll().where('id', '=', id).executeTakeFirst();
    if (!before) throw notFound('The branch');
    if ((await branchesInUse(trx, [id])).has(id)) {
      throw conflict('branch_in_use', 'Stock or orders refer to this branch, so it cannot be removed: hide it instead to take it off the shop');
    }
    // Rows of nothing in stock go with it (the table cascades).
    await trx.deleteFrom('branches').where('id', '=', id).execute();
    await recordAudit(trx, actor, { action: 'branch_removed', entity: 'branch', entityId: id, before: snapshot(toAdmin(before, false)), after: null });
    await bumpReadSideVersion(trx);
  });
}
