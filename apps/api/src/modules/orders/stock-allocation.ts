// Which branches an order's units come from (decision 0016). Pure, so the rule is
// tested on its own; the caller has locked the stock rows it passes in.

export interface StockRow {
  skuId: number;
  branchId: number;
  quantity: number;
  /** The branch's place in the shop's list (branches.sort_order). */
  branchOrder: number;
}

export interface Allocation {
  skuId: number;
  branchId: number;
  quantity: number;
}

export interface Shortage {
  skuId: number;
  wanted: number;
  available: number;
}

/**
 * Takes each line's units from as few branches as the stock allows, deterministically:
 * the preferred branch (the showroom the shopper collects from) first, then a branch that
 * can supply the whole line on its own, then branches in the shop's order (sort order,
 * then id). The same stock and the same order always give the same answer, so a retried
 * or replayed checkout reserves the same rows.
 */
export function allocateStock(
  lines: readonly { skuId: number; quantity: number }[],
  stock: readonly StockRow[],
  preferredBranchId: number | null = null,
): { allocations: Allocation[]; shortages: Shortage[] } {
  const allocations: Allocation[] = [];
  const shortages: Shortage[] = [];
  // Lines of one sku draw on one pool, so a sku listed twice cannot be sold twice.
  const left = new Map<string, number>(stock.map((s) => [`${s.skuId}:${s.branchId}`, Math.max(0, s.quantity)]));
  for (const line of lines) {
    const rows = stock
      .filter((s) => s.skuId === line.skuId)
      .sort((a, b) => {
        const pa = a.branchId === preferredBranchId ? 0 : 1;
        const pb = b.branchId === preferredBranchId ? 0 : 1;
        if (pa !== pb) return pa - pb;
        const wa = (left.get(`${a.skuId}:${a.branchId}`) ?? 0) >= line.quantity ? 0 : 1;
        const wb = (left.get(`${b.skuId}:${b.branchId}`) ?? 0) >= line.quantity ? 0 : 1;
        if (wa !== wb) return wa - wb;
        return a.branchOrder - b.branchOrder || a.branchId - b.branchId;
      });
    const available = rows.reduce((n, r) => n + (left.get(`${r.skuId}:${r.branchId}`) ?? 0), 0);
    if (available < line.quantity) {
      shortages.push({ skuId: line.skuId, wanted: line.quantity, available });
      continue;
    }
    let need = line.quantity;
    for (const r of rows) {
      if (need === 0) break;
      const key = `${r.skuId}:${r.branchId}`;
      const take = Math.min(need, left.get(key) ?? 0);
      if (take <= 0) continue;
      left.set(key, (left.get(key) ?? 0) - take);
      need -= take;
      const same = allocations.find((a) => a.skuId === r.skuId && a.branchId === r.branchId);
      if (same) same.quantity += take;
      else allocations.push({ skuId: r.skuId, branchId: r.branchId, quantity: take });
    }
  }
  return { allocations, shortages };
}

/** The branch that supplies the most units (ties: the lowest id); null when nothing is taken. */
export function mainBranch(allocations: readonly Allocation[]): number | null {
  const units = new Map<number, number>();
  for (const a of allocations) units.set(a.branchId, (units.get(a.branchId) ?? 0) + a.quantity);
  let best: number | null = null;
  for (const [branch, n] of units) {
    if (best === null || n > units.get(best)! || (n === units.get(best)! && branch < best)) best = branch;
  }
  return best;
}
