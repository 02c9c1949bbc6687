import { PAYMENT_METHODS, type TAdminDashboard, type TDashboardPeriod, type TDashboardWindow, type TSaleStatus } from '@storefront/shared';
import { type Expression, type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { AdminPricesService } from '../admin-catalogue/prices.service.ts';

// The owner's dashboard (docs/decisions/0032). Every figure is an aggregate the database
// computes; this file only sets the periods' bounds and fills the days without sales.
//
// Days are Dhaka calendar days: Asia/Dhaka is UTC+6 all year (no daylight saving), so a
// Dhaka day is the UTC instants from 18:00 the day before to 18:00. Timestamps are ISO-8601
// UTC text, which compares in time order as text: a period is a range on the column
// (sales_created_idx serves it), and the day a timestamp falls on is the text of its date
// six hours later.

const DHAKA_OFFSET_MS = 6 * 3_600_000;
const DAY_MS = 86_400_000;

/**
 * Card orders whose payment never completed: placed and abandoned at the gateway, they are
 * no sale. Everything else created (cash on delivery, bookings, paid card orders, and ones
 * later cancelled or returned) was placed.
 */
const NOT_PLACED: readonly TSaleStatus[] = ['pending_payment', 'payment_failed', 'payment_cancelled', 'payment_expired'];
/** Refunds that are money handed back or on its way; a failed one handed back nothing. */
const REFUND_COUNTED = ['refunded', 'processing'];
/** Cash-on-delivery orders that will never be collected. */
const COD_ENDED: readonly TSaleStatus[] = ['cancelled', 'returned'];
const TOP_PRODUCTS = 5;

/** The Dhaka calendar day (YYYY-MM-DD) an instant falls on. */
export function dhakaDay(instant: Date): string {
  return new Date(instant.getTime() + DHAKA_OFFSET_MS).toISOString().slice(0, 10);
}

/** The UTC instant (ISO text, as stored) a Dhaka day starts at. */
export function dhakaDayStartIso(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) - DHAKA_OFFSET_MS).toISOString();
}

function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

const num = (v: unknown): number => Number(v ?? 0);

export class AdminDashboardService {
  private readonly stock: AdminPricesService;

  constructor(private readonly db: Db) {
    // Only its low-stock read is used, which neither rebuilds nor announces anything.
    this.stock = new AdminPricesService(
      db,
      async () => {},
      async () => {},
    );
  }

  /** The Dhaka day of a timestamp column, as YYYY-MM-DD, in this database's dialect. */
  private dayOf(column: string): RawBuilder<string> {
    const ref = sql.ref(column);
    return this.db.dialect === 'postgres'
      ? sql<string>`to_char((${ref}::timestamptz at time zone 'UTC') + interval '6 hours', 'YYYY-MM-DD')`
      : sql<string>`date(${ref}, '+6 hours')`;
  }

  /** Figures as of `now` (the route passes the real time; tests a fixed one). */
  async read(days: TDashboardWindow, now: Date = new Date()): Promise<TAdminDashboard> {
    const k = this.db.kysely;
    const today = dhakaDay(now);
    const monthFirst = `${today.slice(0, 8)}01`;
    const windowFirst = addDays(today, 1 - days);
    const todayStart = dhakaDayStartIso(today);
    const monthStart = dhakaDayStartIso(monthFirst);
    const windowStart = dhakaDayStartIso(windowFirst);
    // Figures as of `now`: every period ends at it, so a read is a function of its time.
    const end = now.toISOString();
    // This month so far always holds today, so one pass over the month gives both.
    const inToday = (col: string) => sql<boolean>`${sql.ref(col)} >= ${todayStart}`;
    const countIf = (cond: Expression<boolean>) => sql<number>`coalesce(sum(case when ${cond} then 1 else 0 end), 0)`;
    const sumIf = (cond: Expression<boolean>, col: string) => sql<number>`coalesce(sum(case when ${cond} then ${sql.ref(col)} else 0 end), 0)`;
    const sumOf = (col: string) => sql<number>`coalesce(sum(${sql.ref(col)}), 0)`;

    const [placed, paid, refunded, cod, proofs, low, ordersByDay, paidByDay, top, methods] = await Promise.all([
      k
        .selectFrom('sales')
        .select([countIf(inToday('created_at')).as('today'), (eb) => eb.fn.countAll<number>().as('month')])
        .where('created_at', '>=', monthStart)
        .where('created_at', '<=', end)
        .where('status', 'not in', NOT_PLACED)
        .executeTakeFirstOrThrow(),
      k
        .selectFrom('sales')
        .select([sumIf(inToday('paid_at'), 'amount_paid').as('today'), sumOf('amount_paid').as('month')])
        .where('paid_at', '>=', monthStart)
        .where('paid_at', '<=', end)
        .executeTakeFirstOrThrow(),
      k
        .selectFrom('refunds')
        .select([sumIf(inToday('created_at'), 'amount').as('today'), sumOf('amount').as('month')])
        .where('created_at', '>=', monthStart)
        .where('created_at', '<=', end)
        .where('status', 'in', REFUND_COUNTED)
        .executeTakeFirstOrThrow(),
      k
        .selectFrom('sales')
        .select([(eb) => eb.fn.countAll<number>().as('orders'), sumOf('total').as('amount')])
        .where('payment_method', '=', 'cod')
        .where('payment_status', '=', 'unpaid')
        .where('status', 'not in', COD_ENDED)
        .executeTakeFirstOrThrow(),
      k
        .selectFrom('sales')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('kind', '=', 'booking')
        .where('status', '=', 'booked')
        .where('payment_status', '=', 'proof_submitted')
        .executeTakeFirstOrThrow(),
      // The low-stock screen's own query: the two can never disagree.
      this.stock.lowStock(1, 1),
      k
        .selectFrom('sales')
        .select([this.dayOf('created_at').as('day'), (eb) => eb.fn.countAll<number>().as('n')])
        .where('created_at', '>=', windowStart)
        .where('created_at', '<=', end)
        .where('status', 'not in', NOT_PLACED)
        .groupBy(this.dayOf('created_at'))
        .execute(),
      k
        .selectFrom('sales')
        .select([this.dayOf('paid_at').as('day'), sumOf('amount_paid').as('n')])
        .where('paid_at', '>=', windowStart)
        .where('paid_at', '<=', end)
        .groupBy(this.dayOf('paid_at'))
        .execute(),
      k
        .selectFrom('sale_lines as l')
        .innerJoin('sales as s', 's.id', 'l.sale_id')
        .select([
          'l.product_id',
          // A line keeps the title the product had when sold: the latest sale's is shown.
          sql<string>`(select x.title from sale_lines x inner join sales y on y.id = x.sale_id
            where x.product_id = l.product_id order by y.created_at desc, x.id desc limit 1)`.as('title'),
          sumOf('l.quantity').as('units'),
          sumOf('l.line_total').as('revenue'),
        ])
        .where('s.created_at', '>=', windowStart)
        .where('s.created_at', '<=', end)
        .where('s.status', 'not in', NOT_PLACED)
        .groupBy('l.product_id')
        .orderBy(sumOf('l.line_total'), 'desc')
        .orderBy(sumOf('l.quantity'), 'desc')
        .orderBy('l.product_id')
        .limit(TOP_PRODUCTS)
        .execute(),
      k
        .selectFrom('sales')
        .select(['payment_method', (eb) => eb.fn.countAll<number>().as('orders'), sumOf('total').as('amount')])
        .where('created_at', '>=', windowStart)
        .where('created_at', '<=', end)
        .where('status', 'not in', NOT_PLACED)
        .groupBy('payment_method')
        .execute(),
    ]);

    const period = (from: string, key: 'today' | 'month'): TDashboardPeriod => ({
      from,
      ordersPlaced: num(placed[key]),
      revenuePaid: num(paid[key]),
      refunds: num(refunded[key]),
    });
    const orders = new Map(ordersByDay.map((r) => [r.day, num(r.n)]));
    const revenue = new Map(paidByDay.map((r) => [r.day, num(r.n)]));
    const byMethod = new Map(methods.map((r) => [r.payment_method, r]));
    return {
      asOf: now.toISOString(),
      today: period(today, 'today'),
      month: period(monthFirst, 'month'),
      codToCollect: { orders: num(cod.orders), amount: num(cod.amount) },
      proofsToVerify: num(proofs.n),
      lowStockSkus: low.total,
      window: { days, from: windowFirst, to: today },
      series: Array.from({ length: days }, (_, i) => {
        const d = addDays(windowFirst, i);
        return { day: d, revenue: revenue.get(d) ?? 0, orders: orders.get(d) ?? 0 };
      }),
      topProducts: top.map((r) => ({ productId: r.product_id, title: String(r.title ?? ''), units: num(r.units), revenue: num(r.revenue) })),
      paymentMethods: PAYMENT_METHODS.map((method) => ({ method, orders: num(byMethod.get(method)?.orders), amount: num(byMethod.get(method)?.amount) })),
    };
  }
}
