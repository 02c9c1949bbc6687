import { ZApiError } from '@storefront/shared';
import {
  ZCodImportBody,
  ZCodImportResult,
  ZCodManualBody,
  ZCodPayout,
  ZCodPayoutPage,
  ZCodPayoutQuery,
  ZCodSummary,
  ZCodSummaryQuery,
} from '@storefront/shared/cod-schemas';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { codSummary, listPayouts } from '../../../modules/admin-cod/cod.query.ts';
import { enterPayout, importPayout, type Recorder } from '../../../modules/admin-cod/record-payout.ts';
import { actorOf, signedInStaff } from '../../../plugins/admin-auth.ts';
import { ADMIN } from './tags.ts';

// Cash-on-delivery reconciliation (docs/decisions/0043): couriers' payouts recorded from their
// reports or by hand, and what the couriers still owe. Reading needs the shop's money figures
// (reports.read); recording a payout is money work for those who may refund (refunds.write).

/** A report of 5,000 parcels is about 300 KB; room for wide rows and other columns. */
const REPORT_BYTES = 2 * 1024 * 1024;
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 409: ZApiError, 413: ZApiError, 422: ZApiError };

const recorderOf = (req: FastifyRequest): Recorder => ({ ...actorOf(req), name: signedInStaff(req).full_name });

export const adminCodRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/cod/summary',
    {
      config: { permission: 'reports.read' },
      schema: {
        ...ADMIN,
        summary: 'What the couriers owe for cash on delivery, what they paid short, and the lines that match nothing',
        description:
          '`owed`: delivered cash-on-delivery parcels no payout has settled. `shortPaid`: lines that collected less than the parcel’s amount ' +
          '(the courier’s own charges apart). `unmatched`: lines naming no parcel. `toCheck`: lines that paid more, paid a parcel again, or name a ' +
          'parcel not delivered. Each list shows at most `listLimit`; counts and totals cover all. Amounts are poisha.',
        querystring: ZCodSummaryQuery,
        response: { 200: ZCodSummary, 400: ZApiError, 401: ZApiError, 403: ZApiError },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return codSummary(app.db.kysely, req.query);
    },
  );

  app.get(
    '/api/admin/cod/payouts',
    {
      config: { permission: 'reports.read' },
      schema: {
        ...ADMIN,
        summary: 'Couriers’ payouts with their lines, the latest paid first',
        querystring: ZCodPayoutQuery,
        response: { 200: ZCodPayoutPage, 400: ZApiError, 401: ZApiError, 403: ZApiError },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return listPayouts(app.db.kysely, req.query);
    },
  );

  app.post(
    '/api/admin/cod/imports',
    {
      config: { permission: 'refunds.write' },
      bodyLimit: REPORT_BYTES,
      schema: {
        ...ADMIN,
        summary: 'Record a courier’s payout from its payment report (CSV)',
        description:
          '`csv` is the report: a header, then one row per parcel, named by `consignment_id`, `tracking_code` or `invoice`, with `collected` ' +
          '(or `cod_amount`), `delivery_charge` and `cod_charge` in taka (at most 2 decimals). Other columns are ignored and listed in the answer. ' +
          'All or nothing: a report with a bad row is a 422 `invalid_report` with each problem under `line.<n>.<column>`, and nothing is recorded. ' +
          'The same reference of the same courier again is a 409 `payout_recorded`. At most 5,000 parcels and 10,000 rows, empty rows counted: ' +
          'a longer report is a 413 `file_too_large`, refused before it is read to the end.',
        body: ZCodImportBody,
        response: { 201: ZCodImportResult, ...errors },
      },
    },
    async (req, reply) => reply.status(201).send(await importPayout(app.db, req.body, recorderOf(req))),
  );

  app.post(
    '/api/admin/cod/payouts',
    {
      config: { permission: 'refunds.write' },
      schema: {
        ...ADMIN,
        summary: 'Record a courier’s payout typed by hand',
        description:
          'The same lines a report holds, amounts in poisha. Lines naming one parcel twice, or two parcels at once, are a 422 `invalid_lines` ' +
          'under `lines.<i>`, and nothing is recorded.',
        body: ZCodManualBody,
        response: { 201: ZCodPayout, ...errors },
      },
    },
    async (req, reply) => reply.status(201).send(await enterPayout(app.db, req.body, recorderOf(req))),
  );
};
