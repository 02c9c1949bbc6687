import { courierStatusSteps, formatMoney, type Minor, refusalOf } from '@storefront/shared';
import { ApiError } from '../../lib/errors.ts';
import { fulfilmentState, takeStep } from '../admin-orders/fulfilment.service.ts';
import { type StaffMail, sendStaffMail } from '../orders/notify.ts';
import * as orders from '../orders/repository.ts';
import * as repo from './consignments.repository.ts';
import type { CourierName, TCourierStatus, WebhookHeaders } from './courier.ts';
import type { CourierDeps } from './deps.ts';
import { pathaoStatus } from './pathao.client.ts';

// What a courier says about a parcel, from its webhook or from polling (docs/decisions/0040).
// Each change of status is recorded once (the consignment's recorded status is changed with
// a conditional update, so a replayed webhook, or a poll hearing what the webhook said,
// records nothing), and moves the order along the fulfilment table where the table allows it
// (fulfilment.ts courierStatusSteps): the steps are the staff's own, so a return puts the
// lines back in stock exactly as a return recorded by staff does, and the shopper gets the
// same mail. A status the table does not allow is recorded and moves nothing.

/** Where the parcel is done with the courier: no more polling, and the order may be booked again. */
const FINISHED: readonly TCourierStatus[] = ['delivered', 'partly_delivered', 'returned', 'cancelled'];

export interface CourierReport {
  courier: CourierName;
  /** The courier's consignment id. */
  consignmentId: string;
  /** Null for a tracking note that does not change where the parcel is. */
  status: TCourierStatus | null;
  courierStatus: string | null;
  message: string | null;
  /** When the courier says it happened, if it says. */
  updatedAt: string | null;
  source: 'webhook' | 'poll';
  /** The cash its rider says was collected, when the report carries it (Steadfast's delivered cod_amount). */
  collected?: Minor | null;
}

export type ReportOutcome = 'unknown_consignment' | 'recorded' | 'unchanged';

export async function recordCourierReport(deps: CourierDeps, report: CourierReport): Promise<ReportOutcome> {
  const db = deps.db.kysely;
  const found = await repo.consignmentByCourierId(db, report.courier, report.consignmentId);
  if (!found) return 'unknown_consignment';
  const now = new Date().toISOString();
  const mails: StaffMail[] = [];
  const outcome = await db.transaction().execute(async (trx): Promise<ReportOutcome> => {
    // The order's row first, as every step does: reports about one order are taken one at a time.
    const sale = await orders.lockSale(trx, deps.db.dialect, found.sale_id);
    if (!sale) return 'unknown_consignment';
    const row = (await repo.consignmentByCourierId(trx, report.courier, report.consignmentId))!;
    if (report.status === null || report.courierStatus === null) {
      if (!report.message) return 'unchanged';
      const before = await repo.eventsOf(trx, [row.id]);
      await repo.insertEvent(trx, {
        consignment_id: row.id,
        status: row.status,
        courier_status: row.courier_status,
        message: report.message.slice(0, 500),
        source: report.source,
        dedupe_key: `note:${report.updatedAt ?? ''}:${report.message.slice(0, 200)}`,
        at: now,
      });
      return (await repo.eventsOf(trx, [row.id])).length > before.length ? 'recorded' : 'unchanged';
    }
    const active = Number(row.active) === 1 && !FINISHED.includes(report.status) ? 1 : 0;
    const changed = await repo.changeStatus(trx, row.id, report.courierStatus, { status: report.status, active, updated_at: now });
    if (!changed) return 'unchanged';
    await repo.insertEvent(trx, {
      consignment_id: row.id,
      status: report.status,
      courier_status: report.courierStatus,
      message: report.message?.slice(0, 500) ?? null,
      source: report.source,
      dedupe_key: `status:${report.courierStatus}:${now}`,
      at: now,
    });
    // Only the live consignment moves the order: a report about one cancelled earlier is history.
    if (Number(row.active) !== 1) return 'recorded';
    // Delivered with another amount collected than the rider was to collect (the parcel's
    // COD amount): the order is not taken as delivered but held for staff, who check with
    // the courier (docs/decisions/0053); the cash owed is otherwise only found at payout.
    const expected = Number(row.cod_amount);
    const collectedOtherwise = report.status === 'delivered' && report.collected != null && report.collected !== expected;
    let current = sale;
    for (const action of courierStatusSteps(report.status)) {
      if (collectedOtherwise && action === 'deliver') continue;
      if (refusalOf(action, fulfilmentState(current))) continue;
      mails.push(await takeStep(trx, current, { action, note: `${report.courier}: ${report.courierStatus}` }, { courier: report.courier }, now));
      current = (await orders.saleById(trx, sale.id))!;
    }
    if (collectedOtherwise) {
      const note = `${report.courier} reports the parcel delivered with ${formatMoney(report.collected!)} collected, but the rider was to collect ${formatMoney(expected)}: check with the courier, then mark the order delivered or record a return`;
      // Only an order on its way is held; one staff already took elsewhere keeps its status, and the line tells them.
      const held =
        current.status === 'shipped' && (await orders.transitionSale(trx, sale.id, { fromStatuses: ['shipped'] }, { status: 'on_hold', updated_at: now }));
      await orders.insertHistory(trx, {
        sale_id: sale.id,
        status: held ? 'on_hold' : current.status,
        payment_status: current.payment_status,
        actor: 'courier',
        note,
        created_at: now,
      });
    }
    return 'recorded';
  });
  for (const m of mails) await sendStaffMail(deps, found.sale_id, m);
  return outcome;
}

/**
 * Steadfast's webhook (its documentation: "Authorization: Bearer {token}", JSON body with
 * notification_type delivery_status or tracking_update). A forged or missing token is a 401
 * and changes nothing; a body that is not Steadfast's is a 400.
 */
export async function receiveSteadfastWebhook(deps: CourierDeps, headers: WebhookHeaders, rawBody: string): Promise<ReportOutcome> {
  const client = deps.couriers.steadfast;
  if (!client) throw new ApiError('unauthorized', 'Steadfast is not set up for this shop');
  const v = client.verifyWebhook(headers, rawBody);
  if (!v.ok) {
    if (v.reason === 'unauthorised') throw new ApiError('unauthorized', 'The webhook’s token is not this shop’s');
    throw new ApiError('bad_request', 'Not a Steadfast status update');
  }
  const e = v.event;
  if (!e.consignmentId) throw new ApiError('bad_request', 'Not a Steadfast status update');
  return recordCourierReport(deps, {
    courier: 'steadfast',
    consignmentId: e.consignmentId,
    status: e.status,
    courierStatus: e.courierStatus,
    message: e.message,
    updatedAt: e.updatedAt,
    source: 'webhook',
    collected: e.codAmount,
  });
}

/**
 * Pathao's statuses as its order-info answer spells them (order_status_slug), the one
 * vocabulary kept for Pathao: its webhook names the same steps as events (its "Webhook
 * Integration" page: order.created … order.exchanged), so a poll that hears what the webhook
 * said finds the status already recorded.
 */
const PATHAO_SLUGS = [
  'Pending',
  'Pickup_Requested',
  'Assigned_for_Pickup',
  'Picked',
  'Pickup_Failed',
  'Pickup_Cancelled',
  'At_the_Sorting_HUB',
  'In_Transit',
  'Received_at_Last_Mile_HUB',
  'Assigned_for_Delivery',
  'Delivered',
  'Partial_Delivery',
  'Return',
  'Delivery_Failed',
  'On_Hold',
  'Payment_Invoice',
  'Paid_Return',
  'Exchange',
] as const;

/** Webhook events whose name is not the slug's. */
const PATHAO_EVENT_SLUG: Record<string, string> = {
  'order.created': 'Pending',
  'order.returned': 'Return',
  'order.paid': 'Payment_Invoice',
  'order.exchanged': 'Exchange',
};

const slugKey = (s: string) =>
  s
    .trim()
    .toLowerCase()
    .replace(/^order\./, '')
    .replace(/[\s-]+/g, '_');
const SLUG_BY_KEY = new Map<string, string>(PATHAO_SLUGS.map((slug) => [slugKey(slug), slug]));

/** A Pathao webhook event ("order.at-the-sorting-hub"), slug or label ("At the Sorting HUB") as its slug; unknown ones as given. */
export function pathaoSlug(status: string): string {
  const event = PATHAO_EVENT_SLUG[status.trim().toLowerCase()];
  return event ?? SLUG_BY_KEY.get(slugKey(status)) ?? status.trim();
}

/**
 * What Pathao said, in the shop's words: where the parcel is (pathao.client.ts's table:
 * picked → picked_up, sorting hub … out for delivery → in_transit, delivered, return →
 * returned, pickup cancelled → cancelled), so the order takes the same steps as with
 * Steadfast. An event that says nothing about where the parcel is (order.updated, order.paid)
 * becomes a line in the parcel's history.
 */
export function pathaoReport(r: {
  consignmentId: string;
  courierStatus: string;
  message: string | null;
  updatedAt: string | null;
  source: CourierReport['source'];
}): CourierReport {
  const slug = pathaoSlug(r.courierStatus);
  const status = pathaoStatus(slug);
  if (status === null) {
    return { ...r, courier: 'pathao', status: null, courierStatus: null, message: r.message ?? `Pathao: ${slug.replace(/_/g, ' ')}` };
  }
  return { ...r, courier: 'pathao', status, courierStatus: slug };
}

export type PathaoWebhookOutcome = ReportOutcome | 'integration' | 'ignored';

/**
 * Pathao's webhook (its "Webhook Integration" page: X-PATHAO-Signature carries the secret
 * entered in the panel; events order.*). A forged or missing secret is a 401 and changes
 * nothing; the panel's integration check is answered without touching any order.
 */
export async function receivePathaoWebhook(deps: CourierDeps, headers: WebhookHeaders, rawBody: string): Promise<PathaoWebhookOutcome> {
  const client = deps.couriers.pathao;
  if (!client) throw new ApiError('unauthorized', 'Pathao is not set up for this shop');
  const v = client.verifyWebhook(headers, rawBody);
  if (!v.ok) {
    if (v.reason === 'unauthorised') throw new ApiError('unauthorized', 'The webhook’s signature is not this shop’s');
    throw new ApiError('bad_request', 'Not a Pathao status update');
  }
  const e = v.event;
  if (e.kind === 'integration') return 'integration';
  if (e.kind !== 'status' || !e.consignmentId || !e.courierStatus) return 'ignored';
  return recordCourierReport(
    deps,
    pathaoReport({ consignmentId: e.consignmentId, courierStatus: e.courierStatus, message: e.message, updatedAt: e.updatedAt, source: 'webhook' }),
  );
}
