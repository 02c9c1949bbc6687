import { ZAdminDashboard } from '@storefront/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminDashboardService, dhakaDay } from '../src/modules/admin-dashboard/dashboard.service.ts';
import { expectApiError } from './helpers/assertions.ts';
import { signedInStaff, type TestStaff } from './helpers/staff.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// The owner's dashboard (docs/decisions/0032) against a fixture whose every figure is worked
// out by hand below. Dhaka is UTC+6: a Dhaka day starts at 18:00 UTC the day before, so rows
// at 17:59:59.999Z and 18:00:00.000Z fall on different Dhaka days.

// Dhaka 2026-11-25 23:59: today is 25 November, the month began 2026-10-31T18:00Z.
const NOW = new Date('2026-11-25T17:59:00.000Z');

let t: TestApp;
let manager: TestStaff;
let dashboard: AdminDashboardService;
/** Seven of the demo shop's products (id, a sku of it). */
let p: { productId: number; skuId: number; code: string }[];

interface SaleFixture {
  key: string;
  created: string;
  kind?: 'order' | 'booking';
  method: 'card' | 'cod' | 'later';
  status: string;
  payment: string;
  total: number;
  paid?: [amount: number, at: string];
  /** [product index, quantity, line total, title?] */
  lines: [number, number, number, string?][];
}

// Expected figures for NOW are worked out in the tests from this table.
const SALES: SaleFixture[] = [
  // Today's first instant; cash still to collect.
  {
    key: 'A',
    created: '2026-11-24T18:00:00.000Z',
    method: 'cod',
    status: 'confirmed',
    payment: 'unpaid',
    total: 100_000,
    lines: [[0, 1, 100_000, 'Teak sofa']],
  },
  // Yesterday's last instant, paid today's first.
  {
    key: 'B',
    created: '2026-11-24T17:59:59.999Z',
    method: 'card',
    status: 'confirmed',
    payment: 'paid',
    total: 200_000,
    paid: [200_000, '2026-11-24T18:00:00.000Z'],
    lines: [[1, 2, 200_000]],
  },
  // Card orders whose payment never completed: no sale, though their lines would top the list.
  {
    key: 'C',
    created: '2026-11-24T17:00:00.000Z',
    method: 'card',
    status: 'pending_payment',
    payment: 'pending',
    total: 5_000_000,
    lines: [[5, 10, 5_000_000]],
  },
  { key: 'D', created: '2026-11-10T05:00:00.000Z', method: 'card', status: 'payment_failed', payment: 'failed', total: 5_000_000, lines: [[5, 10, 5_000_000]] },
  // Placed on 31 October (Dhaka), paid on 1 November (Dhaka).
  {
    key: 'E',
    created: '2026-10-31T17:59:59.999Z',
    method: 'cod',
    status: 'fulfilled',
    payment: 'paid',
    total: 300_000,
    paid: [300_000, '2026-10-31T18:00:00.000Z'],
    lines: [[2, 3, 300_000]],
  },
  // Bookings whose proof waits: one this month, one long ago; a cancelled one does not wait.
  {
    key: 'F',
    created: '2026-11-01T02:00:00.000Z',
    kind: 'booking',
    method: 'later',
    status: 'booked',
    payment: 'proof_submitted',
    total: 400_000,
    lines: [[0, 1, 400_000, 'Teak sofa (old name)']],
  },
  {
    key: 'G',
    created: '2026-07-01T02:00:00.000Z',
    kind: 'booking',
    method: 'later',
    status: 'booked',
    payment: 'proof_submitted',
    total: 80_000,
    lines: [[3, 1, 80_000]],
  },
  {
    key: 'P',
    created: '2026-11-05T06:00:00.000Z',
    kind: 'booking',
    method: 'later',
    status: 'cancelled',
    payment: 'proof_submitted',
    total: 20_000,
    lines: [],
  },
  // Cash orders that will never be collected: placed all the same.
  { key: 'H', created: '2026-11-20T06:00:00.000Z', method: 'cod', status: 'cancelled', payment: 'unpaid', total: 70_000, lines: [[3, 1, 70_000]] },
  { key: 'I', created: '2026-11-15T06:00:00.000Z', method: 'cod', status: 'returned', payment: 'unpaid', total: 60_000, lines: [[4, 1, 60_000]] },
  // Cash collected a minute before NOW.
  {
    key: 'K',
    created: '2026-11-22T06:00:00.000Z',
    method: 'cod',
    status: 'fulfilled',
    payment: 'paid',
    total: 10_000,
    paid: [10_000, '2026-11-25T17:58:00.000Z'],
    lines: [[4, 2, 10_000]],
  },
  // Cash to collect, in the 90 days but not the 30.
  { key: 'J', created: '2026-09-15T06:00:00.000Z', method: 'cod', status: 'shipped', payment: 'unpaid', total: 150_000, lines: [[5, 1, 150_000]] },
  // Tomorrow in Dhaka (after NOW): in no period, but its cash is still to collect.
  { key: 'M', created: '2026-11-25T18:00:00.000Z', method: 'cod', status: 'confirmed', payment: 'unpaid', total: 30_000, lines: [[5, 1, 30_000]] },
  // Either side of the 30-day window's start (Dhaka 27 October).
  {
    key: 'N',
    created: '2026-10-26T17:59:59.999Z',
    method: 'card',
    status: 'confirmed',
    payment: 'paid',
    total: 40_000,
    paid: [40_000, '2026-10-26T17:59:59.999Z'],
    lines: [[6, 1, 40_000]],
  },
  {
    key: 'O',
    created: '2026-10-26T18:00:00.000Z',
    method: 'card',
    status: 'on_hold',
    payment: 'review',
    total: 45_000,
    paid: [45_000, '2026-10-26T18:00:00.000Z'],
    lines: [[6, 1, 45_000]],
  },
  // Outside every window.
  {
    key: 'L',
    created: '2026-06-01T06:00:00.000Z',
    method: 'card',
    status: 'fulfilled',
    payment: 'paid',
    total: 900_000,
    paid: [900_000, '2026-06-01T06:05:00.000Z'],
    lines: [[5, 1, 900_000]],
  },
];

const REFUNDS: { sale: string; status: string; amount: number; created: string }[] = [
  { sale: 'B', status: 'refunded', amount: 50_000, created: '2026-11-24T18:00:00.000Z' },
  { sale: 'B', status: 'processing', amount: 20_000, created: '2026-11-24T17:59:59.999Z' },
  { sale: 'B', status: 'failed', amount: 999, created: '2026-11-25T10:00:00.000Z' },
  { sale: 'E', status: 'refunded', amount: 7_000, created: '2026-10-31T17:59:59.999Z' },
];

beforeAll(async () => {
  t = await startTestApp();
  manager = await signedInStaff(t, 'manager');
  dashboard = new AdminDashboardService(t.db);
  const k = t.db.kysely;
  // The demo shop has no sales: every sale below is the whole of the shop's sales.
  const existing = await k
    .selectFrom('sales')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  expect(Number(existing.n)).toBe(0);
  const skus = await k
    .selectFrom('skus')
    .select(['id', 'product_id', 'code'])
    .where(
      'id',
      'in',
      k
        .selectFrom('skus')
        .select((eb) => eb.fn.min('id').as('id'))
        .groupBy('product_id'),
    )
    .orderBy('product_id')
    .limit(7)
    .execute();
  p = skus.map((s) => ({ productId: s.product_id, skuId: s.id, code: s.code }));
  expect(p).toHaveLength(7);

  const ids: Record<string, number> = {};
  for (const s of SALES) {
    const row = await k
      .insertInto('sales')
      .values({
        invoice_id: `DASH-${s.key}`,
        kind: s.kind ?? 'order',
        contact_name: `Customer ${s.key}`,
        contact_mobile: '01700000000',
        contact_email: `${s.key.toLowerCase()}@shop.test`,
        delivery_method: 'home_delivery',
        delivery_address: '{}',
        currency: 'BDT',
        subtotal: s.total,
        discount_total: 0,
        coupon_discount: 0,
        delivery_fee: 0,
        total: s.total,
        payment_method: s.method,
        status: s.status,
        payment_status: s.payment,
        stock_held: 0,
        coupon_held: 0,
        created_at: s.created,
        updated_at: s.created,
        amount_paid: s.paid?.[0] ?? 0,
        paid_at: s.paid?.[1] ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids[s.key] = row.id;
    let lineNo = 0;
    for (const [i, quantity, lineTotal, title] of s.lines) {
      await k
        .insertInto('sale_lines')
        .values({
          sale_id: row.id,
          line_no: ++lineNo,
          sku_id: p[i].skuId,
          sku_code: p[i].code,
          product_id: p[i].productId,
          title: title ?? `Product ${i}`,
          variant: '',
          quantity,
          unit_price: lineTotal / quantity,
          discount: 0,
          line_total: lineTotal,
        })
        .execute();
    }
  }
  let n = 0;
  for (const r of REFUNDS) {
    await k
      .insertInto('refunds')
      .values({
        sale_id: ids[r.sale],
        method: 'bank',
        amount: r.amount,
        status: r.status,
        idempotency_key: `dash-${++n}`,
        staff_name: 'Test',
        created_at: r.created,
        updated_at: r.created,
      })
      .execute();
  }
});
afterAll(() => t?.close());

/** The series' non-zero days, as { day: value }. */
function nonZero(series: { day: string; revenue: number; orders: number }[], key: 'revenue' | 'orders') {
  return Object.fromEntries(series.filter((d) => d[key] !== 0).map((d) => [d.day, d[key]]));
}

describe('the dashboard’s figures', () => {
  it('counts today and this month by Dhaka calendar days', async () => {
    const d = await dashboard.read(30, NOW);
    expect(d.asOf).toBe(NOW.toISOString());
    // Today: A (B was yesterday, M is tomorrow); paid today: B 2,000 + K 100 taka; refunded
    // today: 500 taka (the 200 in process was yesterday, the failed one counts for nothing).
    expect(d.today).toEqual({ from: '2026-11-25', ordersPlaced: 1, revenuePaid: 210_000, refunds: 50_000 });
    // This month: A B F H I K P (E was 31 October; C and D never paid); paid: B + E (paid
    // at Dhaka midnight of the 1st) + K; refunds: 500 + 200 (not October's 70).
    expect(d.month).toEqual({ from: '2026-11-01', ordersPlaced: 7, revenuePaid: 510_000, refunds: 70_000 });
  });

  it('counts what waits on staff whenever it was placed', async () => {
    const d = await dashboard.read(30, NOW);
    // A, J and M: not H (cancelled), I (returned), E or K (collected).
    expect(d.codToCollect).toEqual({ orders: 3, amount: 280_000 });
    // F and G: not P (cancelled).
    expect(d.proofsToVerify).toBe(2);
  });

  it('counts low stock as the low-stock screen does', async () => {
    const before = await dashboard.read(30, NOW);
    const screen = await t.api('/api/admin/stock/low?size=1', { headers: manager.headers });
    expect(screen.status, screen.text).toBe(200);
    expect(before.lowStockSkus).toBe(screen.body.total);
    // A sku that was not low becomes low.
    const low = new Set((await t.db.kysely.selectFrom('skus').select('id').where('low_stock_threshold', 'is not', null).execute()).map((r) => r.id));
    const all = await t.api(`/api/admin/stock/low?size=100&page=1`, { headers: manager.headers });
    const lowIds = new Set(all.body.items.map((r: any) => r.skuId));
    const sku = p.find((x) => !lowIds.has(x.skuId) && !low.has(x.skuId));
    expect(sku).toBeDefined();
    await t.db.kysely.updateTable('skus').set({ low_stock_threshold: 1_000_000 }).where('id', '=', sku!.skuId).execute();
    try {
      expect((await dashboard.read(30, NOW)).lowStockSkus).toBe(before.lowStockSkus + 1);
    } finally {
      await t.db.kysely.updateTable('skus').set({ low_stock_threshold: null }).where('id', '=', sku!.skuId).execute();
    }
  });

  it('gives one point per day of the last 30, zero days included', async () => {
    const d = await dashboard.read(30, NOW);
    expect(d.window).toEqual({ days: 30, from: '2026-10-27', to: '2026-11-25' });
    expect(d.series).toHaveLength(30);
    expect(d.series[0].day).toBe('2026-10-27');
    expect(d.series[29].day).toBe('2026-11-25');
    // Consecutive days, no gap and no repeat.
    for (let i = 1; i < 30; i++) expect(Date.parse(d.series[i].day) - Date.parse(d.series[i - 1].day)).toBe(86_400_000);
    expect(nonZero(d.series, 'orders')).toEqual({
      '2026-10-27': 1, // O, at the window's first instant (N, a millisecond before, is out)
      '2026-10-31': 1, // E
      '2026-11-01': 1, // F
      '2026-11-05': 1, // P
      '2026-11-15': 1, // I
      '2026-11-20': 1, // H
      '2026-11-22': 1, // K
      '2026-11-24': 1, // B
      '2026-11-25': 1, // A
    });
    expect(nonZero(d.series, 'revenue')).toEqual({
      '2026-10-27': 45_000, // O
      '2026-11-01': 300_000, // E
      '2026-11-25': 210_000, // B and K
    });
    expect(d.series.find((x) => x.day === '2026-11-10')).toEqual({ day: '2026-11-10', revenue: 0, orders: 0 });
  });

  it('ranks the window’s top five products by revenue, then units', async () => {
    const d = await dashboard.read(30, NOW);
    expect(d.topProducts).toEqual([
      // A and F; the title of the latest sale (A).
      { productId: p[0].productId, title: 'Teak sofa', units: 2, revenue: 500_000 },
      { productId: p[2].productId, title: 'Product 2', units: 3, revenue: 300_000 },
      { productId: p[1].productId, title: 'Product 1', units: 2, revenue: 200_000 },
      // Level on revenue with product 3: more units first.
      { productId: p[4].productId, title: 'Product 4', units: 3, revenue: 70_000 },
      { productId: p[3].productId, title: 'Product 3', units: 1, revenue: 70_000 },
    ]);
  });

  it('splits the window’s sales by payment method, every method listed', async () => {
    const d = await dashboard.read(30, NOW);
    expect(d.paymentMethods).toEqual([
      { method: 'card', orders: 2, amount: 245_000 }, // B, O
      { method: 'cod', orders: 5, amount: 540_000 }, // A, E, H, I, K
      { method: 'later', orders: 2, amount: 420_000 }, // F, P
      { method: 'bkash', orders: 0, amount: 0 },
      { method: 'nagad', orders: 0, amount: 0 },
    ]);
  });

  it('covers 90 days when asked', async () => {
    const d = await dashboard.read(90, NOW);
    expect(d.window).toEqual({ days: 90, from: '2026-08-28', to: '2026-11-25' });
    expect(d.series).toHaveLength(90);
    expect(nonZero(d.series, 'orders')).toMatchObject({ '2026-09-15': 1, '2026-10-26': 1 });
    expect(Object.values(nonZero(d.series, 'orders')).reduce((a, b) => a + b, 0)).toBe(11);
    expect(nonZero(d.series, 'revenue')).toEqual({ '2026-10-26': 40_000, '2026-10-27': 45_000, '2026-11-01': 300_000, '2026-11-25': 210_000 });
    expect(d.topProducts.map((x) => [x.productId, x.revenue])).toEqual([
      [p[0].productId, 500_000],
      [p[2].productId, 300_000],
      [p[1].productId, 200_000],
      [p[5].productId, 150_000], // J
      [p[6].productId, 85_000], // N and O
    ]);
    expect(d.paymentMethods).toEqual([
      { method: 'card', orders: 3, amount: 285_000 },
      { method: 'cod', orders: 6, amount: 690_000 },
      { method: 'later', orders: 2, amount: 420_000 },
      { method: 'bkash', orders: 0, amount: 0 },
      { method: 'nagad', orders: 0, amount: 0 },
    ]);
    // The periods do not depend on the window.
    expect(d.today).toEqual((await dashboard.read(30, NOW)).today);
  });

  it('moves to the next day and month at Dhaka midnight, not UTC midnight', async () => {
    // 31 October 23:59:59.999 in Dhaka: October's month, E placed today.
    const october = await dashboard.read(30, new Date('2026-10-31T17:59:59.999Z'));
    expect(october.today).toEqual({ from: '2026-10-31', ordersPlaced: 1, revenuePaid: 0, refunds: 7_000 });
    // N, O and E; paid: N and O (E's money came on the 1st).
    expect(october.month).toEqual({ from: '2026-10-01', ordersPlaced: 3, revenuePaid: 85_000, refunds: 7_000 });
    // A millisecond later it is 1 November in Dhaka, still 31 October in UTC.
    const november = await dashboard.read(30, new Date('2026-10-31T18:00:00.000Z'));
    expect(november.today).toEqual({ from: '2026-11-01', ordersPlaced: 0, revenuePaid: 300_000, refunds: 0 });
    expect(november.month).toEqual({ from: '2026-11-01', ordersPlaced: 0, revenuePaid: 300_000, refunds: 0 });
    expect(november.series.at(-1)).toEqual({ day: '2026-11-01', revenue: 300_000, orders: 0 });
  });
});

describe('GET /api/admin/dashboard', () => {
  it('answers those who may read the figures, as of now', async () => {
    const res = await t.api('/api/admin/dashboard', { headers: manager.headers });
    expect(res.status, res.text).toBe(200);
    const d = ZAdminDashboard.parse(res.body);
    expect(d.window.days).toBe(30);
    expect(d.series).toHaveLength(30);
    // The real clock: the last day is today in Dhaka (or tomorrow, if midnight passed meanwhile).
    expect([dhakaDay(new Date(Date.parse(d.asOf))), dhakaDay(new Date())]).toContain(d.window.to);
    expect(d.codToCollect).toEqual({ orders: 3, amount: 280_000 });

    const ninety = await t.api('/api/admin/dashboard?days=90', { headers: manager.headers });
    expect(ninety.status, ninety.text).toBe(200);
    expect(ninety.body.series).toHaveLength(90);

    const readOnly = await signedInStaff(t, 'read_only');
    expect((await t.api('/api/admin/dashboard', { headers: readOnly.headers })).status).toBe(200);
  });

  it('refuses other windows, and staff without the figures’ permission', async () => {
    expectApiError(await t.api('/api/admin/dashboard?days=7', { headers: manager.headers }), 400);
    const staff = await signedInStaff(t, 'staff');
    expectApiError(await t.api('/api/admin/dashboard', { headers: staff.headers }), 403, 'forbidden');
    expectApiError(await t.api('/api/admin/dashboard'), 401);
  });
});
