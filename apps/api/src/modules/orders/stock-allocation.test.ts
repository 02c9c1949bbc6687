import { describe, expect, it } from 'vitest';
import { allocateStock, mainBranch, type StockRow } from './stock-allocation.ts';

const row = (skuId: number, branchId: number, quantity: number, branchOrder = branchId): StockRow => ({ skuId, branchId, quantity, branchOrder });

describe('stock allocation', () => {
  it('takes a line from one branch that has it all, before splitting', () => {
    const { allocations, shortages } = allocateStock([{ skuId: 1, quantity: 3 }], [row(1, 1, 2), row(1, 2, 5), row(1, 3, 9)]);
    expect(shortages).toEqual([]);
    expect(allocations).toEqual([{ skuId: 1, branchId: 2, quantity: 3 }]);
  });

  it('splits a line over branches in the shop order when no branch has enough', () => {
    const { allocations } = allocateStock([{ skuId: 1, quantity: 6 }], [row(1, 3, 4, 0), row(1, 1, 3, 1), row(1, 2, 1, 2)]);
    expect(allocations).toEqual([
      { skuId: 1, branchId: 3, quantity: 4 },
      { skuId: 1, branchId: 1, quantity: 2 },
    ]);
  });

  it('prefers the pickup showroom', () => {
    const { allocations } = allocateStock([{ skuId: 1, quantity: 1 }], [row(1, 1, 5), row(1, 4, 1)], 4);
    expect(allocations).toEqual([{ skuId: 1, branchId: 4, quantity: 1 }]);
  });

  it('reports every short line and never goes below zero', () => {
    const { allocations, shortages } = allocateStock(
      [
        { skuId: 1, quantity: 2 },
        { skuId: 2, quantity: 1 },
        { skuId: 3, quantity: 4 },
      ],
      [row(1, 1, 1), row(2, 1, 1), row(3, 1, -2)],
    );
    expect(shortages).toEqual([
      { skuId: 1, wanted: 2, available: 1 },
      { skuId: 3, wanted: 4, available: 0 },
    ]);
    expect(allocations).toEqual([{ skuId: 2, branchId: 1, quantity: 1 }]);
  });

  it('lets two lines of one sku draw on one pool', () => {
    const { shortages } = allocateStock(
      [
        { skuId: 1, quantity: 1 },
        { skuId: 1, quantity: 1 },
      ],
      [row(1, 1, 1)],
    );
    expect(shortages).toEqual([{ skuId: 1, wanted: 1, available: 0 }]);
  });

  it('gives the same answer for the same stock in any order', () => {
    const stock = [row(1, 1, 2, 2), row(1, 2, 2, 1), row(1, 3, 2, 0)];
    const a = allocateStock([{ skuId: 1, quantity: 5 }], stock);
    const b = allocateStock([{ skuId: 1, quantity: 5 }], [...stock].reverse());
    expect(a).toEqual(b);
  });

  it('names the branch that supplies most units', () => {
    expect(
      mainBranch([
        { skuId: 1, branchId: 3, quantity: 1 },
        { skuId: 2, branchId: 2, quantity: 2 },
      ]),
    ).toBe(2);
    expect(
      mainBranch([
        { skuId: 1, branchId: 3, quantity: 1 },
        { skuId: 2, branchId: 2, quantity: 1 },
      ]),
    ).toBe(2);
    expect(mainBranch([])).toBeNull();
  });
});
