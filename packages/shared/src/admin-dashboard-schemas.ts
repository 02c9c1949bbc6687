import { PAYMENT_METHODS } from './checkout.ts';
import { z } from './zod.ts';

// The owner's dashboard (/api/admin/dashboard, docs/decisions/0032): the day's and the
// month's figures, what is waiting on staff, and the last 30 or 90 days as series. Days are
// calendar days in Dhaka (UTC+6, no daylight saving); amounts are poisha (docs/decisions/0002).

/** The windows the dashboard's series cover, in Dhaka days ending today. */
export const DASHBOARD_WINDOWS = [30, 90] as const;
export type TDashboardWindow = (typeof DASHBOARD_WINDOWS)[number];

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const ZAdminDashboardQuery = z.object({
  days: z.coerce
    .number()
    .pipe(z.literal(DASHBOARD_WINDOWS))
    .default(30)
    // The query's documented values (the coercion hides them from the generated schema).
    .meta({ enum: [...DASHBOARD_WINDOWS], description: 'Days the series, top products and payment mix cover, ending today (Dhaka)' }),
});
export type TAdminDashboardQuery = z.input<typeof ZAdminDashboardQuery>;

/** One period's figures: today, or this month so far. */
export const ZDashboardPeriod = z.object({
  /** The Dhaka day the period starts on. */
  from: day,
  /** Sales placed in the period, card orders whose payment never completed left out. */
  ordersPlaced: z.number().int(),
  /** Money received in the period: `amount_paid` of the sales paid in it. */
  revenuePaid: z.number().int(),
  /** Refunds made or with the gateway, recorded in the period. */
  refunds: z.number().int(),
});
export type TDashboardPeriod = z.infer<typeof ZDashboardPeriod>;

export const ZDashboardDay = z.object({
  day,
  /** Money received that day. */
  revenue: z.number().int(),
  /** Sales placed that day (counted as `ordersPlaced`). */
  orders: z.number().int(),
});
export type TDashboardDay = z.infer<typeof ZDashboardDay>;

export const ZDashboardTopProduct = z.object({
  productId: z.number().int(),
  title: z.string(),
  units: z.number().int(),
  /** Sum of the lines' totals. */
  revenue: z.number().int(),
});
export type TDashboardTopProduct = z.infer<typeof ZDashboardTopProduct>;

export const ZDashboardMethod = z.object({
  method: z.enum(PAYMENT_METHODS),
  orders: z.number().int(),
  /** Sum of the sales' totals. */
  amount: z.number().int(),
});
export type TDashboardMethod = z.infer<typeof ZDashboardMethod>;

export const ZAdminDashboard = z.object({
  /** The instant the figures were read. */
  asOf: z.string(),
  today: ZDashboardPeriod,
  month: ZDashboardPeriod,
  /** Cash-on-delivery orders still to collect (not cancelled or returned, unpaid), whenever placed. */
  codToCollect: z.object({ orders: z.number().int(), amount: z.number().int() }),
  /** Bookings whose payment proof waits for staff to check it. */
  proofsToVerify: z.number().int(),
  /** Skus at or below their low-stock level (as /api/admin/stock/low counts them). */
  lowStockSkus: z.number().int(),
  window: z.object({ days: z.literal(DASHBOARD_WINDOWS), from: day, to: day }),
  /** One point per Dhaka day of the window, oldest first, days without sales at zero. */
  series: z.array(ZDashboardDay),
  /** The window's five best-selling products by revenue. */
  topProducts: z.array(ZDashboardTopProduct),
  /** Sales placed in the window by payment method: every method, zero when unused. */
  paymentMethods: z.array(ZDashboardMethod),
});
export type TAdminDashboard = z.infer<typeof ZAdminDashboard>;
