import { ZAdminDashboard, ZAdminDashboardQuery, ZApiError } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AdminDashboardService } from '../../../modules/admin-dashboard/dashboard.service.ts';
import { ADMIN } from './tags.ts';

/** The owner's dashboard (docs/decisions/0032): figures for those who may read revenue. */
export const adminDashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  const dashboard = new AdminDashboardService(app.db);

  app.get(
    '/api/admin/dashboard',
    {
      config: { permission: 'reports.read' },
      schema: {
        ...ADMIN,
        summary: 'The dashboard’s figures: today, this month, what waits on staff, and the last 30 or 90 days',
        description: [
          'Days are Dhaka calendar days (UTC+6); amounts are poisha.',
          '`ordersPlaced`: sales created in the period, except card orders whose payment never completed (pending_payment, payment_failed, payment_cancelled, payment_expired).',
          '`revenuePaid`: the sum of `amount_paid` of the sales whose `paid_at` is in the period.',
          '`refunds`: refunds recorded in the period that are refunded or with the gateway (processing).',
          '`codToCollect`: cash-on-delivery orders, not cancelled or returned, still unpaid, whenever placed.',
          '`proofsToVerify`: bookings (booked) whose payment proof waits to be checked.',
          '`lowStockSkus`: as GET /api/admin/stock/low counts them.',
          '`series`, `topProducts` and `paymentMethods` cover the last `days` days up to today, counting the sales `ordersPlaced` counts; the series’ revenue is money received each day.',
        ].join('\n\n'),
        querystring: ZAdminDashboardQuery,
        response: { 200: ZAdminDashboard, 400: ZApiError, 401: ZApiError, 403: ZApiError },
      },
    },
    async (req) => dashboard.read(req.query.days, new Date()),
  );
};
