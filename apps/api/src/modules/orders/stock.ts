import { CHECKOUT_MESSAGES } from '@storefront/shared';
import type { Kysely, Transaction } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { conflict } from '../../lib/errors.ts';
import * as repo from './repository.ts';
import { allocateStock, mainBranch, type Shortage } from './stock-allocation.ts';

// Reserving and releasing the stock of a sale, always inside the caller's transaction
// (decision 0016).

type Q = Kysely<Database> | Transaction<Database>;

/** A conditional stock update found fewer units than the locked read said: roll back. */
export class StockConflictError extends Error {
  constructor(readonly shortages: Shortage[]) {
    super('stock changed while it was being reserved');
  }
}

export type ReserveResult = { ok: true; mainBranchId: number | null } | { ok: false; shortages: Shortage[] };

/**
 * Locks the stock rows of the lines' skus, decides which branches supply them and takes
 * the units with conditional updates. On a shortage nothing has been taken yet. A
 * conditional update that still fails (another process on a shared SQLite file) throws,
 * and the caller's transaction rolls back whatever was taken before it.
 */
export async function reserveStock(
  trx: Q,
  dialect: Dialect,
  saleId: number | null,
  lines: readonly { skuId: number; quantity: number }[],
  preferredBranchId: number | null,
  now: string,
): Promise<ReserveResult & { allocations?: { skuId: number; branchId: number; quantity: number }[] }> {
  const skuIds = [...new Set(lines.map((l) => l.skuId))].sort((a, b) => a - b);
  const rows = await repo.lockStockRows(trx, dialect, skuIds);
  const { allocations, shortages } = allocateStock(
    lines,
    rows.map((r) => ({ skuId: r.sku_id, branchId: r.branch_id, quantity: Number(r.quantity), branchOrder: r.sort_order })),
    preferredBranchId,
  );
  if (shortages.length) return { ok: false, shortages };
  // Updates in the same (sku, branch) order the rows were locked in.
  const ordered = [...allocations].sort((a, b) => a.skuId - b.skuId || a.branchId - b.branchId);
  for (const a of ordered) {
    if (!(await repo.takeStock(trx, a.skuId, a.branchId, a.quantity))) {
      throw new StockConflictError([{ skuId: a.skuId, wanted: a.quantity, available: 0 }]);
    }
  }
  if (saleId !== null) await saveReservations(trx, saleId, ordered, now);
  return { ok: true, mainBranchId: mainBranch(allocations), allocations: ordered };
}

export function saveReservations(trx: Q, saleId: number, allocations: readonly { skuId: number; branchId: number; quantity: number }[], now: string) {
  return repo.insertReservations(
    trx,
    allocations.map((a) => ({ sale_id: saleId, sku_id: a.skuId, branch_id: a.branchId, quantity: a.quantity, created_at: now, released_at: null })),
  );
}

/**
 * Puts back every unit the sale still holds; returns how many. Call after flipping stock_held.
 * With `movement`, each return is also a line of the stock ledger (a cancellation by staff).
 */
export async function releaseStock(trx: Q, saleId: number, now: string, movement?: { note: string; staffId: number | null }): Promise<number> {
  const held = await repo.heldReservations(trx, saleId);
  let units = 0;
  for (const r of held) {
    await repo.returnStock(trx, r.sku_id, r.branch_id, r.quantity);
    if (movement) await recordMovement(trx, r.sku_id, r.branch_id, r.quantity, 'returned', movement.note, movement.staffId, now);
    units += r.quantity;
  }
  await repo.markReservationsReleased(
    trx,
    held.map((r) => r.id),
    now,
  );
  return units;
}

/** The 409 naming each short line of a checkout (by its index in the request) or of an order paid again. */
export function shortageError(shortages: Shortage[], itemsBySku: Map<number, { index: number; code: string; title: string }>) {
  const fields: Record<string, string> = {};
  const names: string[] = [];
  for (const s of shortages) {
    const item = itemsBySku.get(s.skuId);
    const text = s.available <= 0 ? 'Out of stock' : `Only ${s.available} left in stock`;
    if (item) {
      fields[`items.${item.index}.quantity`] = text;
      names.push(`${item.title} (${item.code}): ${s.available <= 0 ? 'out of stock' : `only ${s.available} left`}`);
    }
  }
  return conflict('out_of_stock', `${CHECKOUT_MESSAGES.outOfStock}: ${names.join('; ')}`, fields);
}

/** Takes the stock of a sale's own lines again (its stock went back when its payment looked lost). */
export function reserveAgain(
  trx: Q,
  dialect: Dialect,
  sale: { id: number; pickup_branch_id: number | null },
  lines: readonly { sku_id: number; quantity: number }[],
  now: string,
) {
  return reserveStock(
    trx,
    dialect,
    sale.id,
    lines.map((l) => ({ skuId: l.sku_id, quantity: l.quantity })),
    sale.pickup_branch_id,
    now,
  );
}

/** One line of the stock ledger (stock_movements), with the quantity the branch has after it. */
export async function recordMovement(
  trx: Q,
  skuId: number,
  branchId: number,
  delta: number,
  reason: 'returned' | 'sold' | 'correction' | 'received',
  note: string,
  staffId: number | null,
  now: string,
) {
  const row = await trx.selectFrom('stocks').select('quantity').where('sku_id', '=', skuId).where('branch_id', '=', branchId).executeTakeFirst();
  await trx
    .insertInto('stock_movements')
    .values({
      sku_id: skuId,
      branch_id: branchId,
      delta,
      quantity_after: Number(row?.quantity ?? 0),
      reason,
      note: note.slice(0, 300),
      staff_id: staffId,
      created_at: now,
    })
    .execute();
}
