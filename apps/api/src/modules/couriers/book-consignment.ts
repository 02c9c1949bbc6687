import { courierBookingRefusal, formatMoney, type TConsignment } from '@storefront/shared';
import { ApiError, conflict, notFound } from '../../lib/errors.ts';
import { fulfilmentState } from '../admin-orders/fulfilment.service.ts';
import { type StaffActor, staffHistory } from '../admin-orders/staff-history.ts';
import * as orders from '../orders/repository.ts';
import type { SaleRow } from '../orders/repository.ts';
import { recordAudit } from '../staff/audit.ts';
import { consignmentDetail, recipientOf } from './consignment-view.ts';
import * as repo from './consignments.repository.ts';
import { type BookingResult, type ConsignmentRequest, type Courier, CourierError, type CourierName } from './courier.ts';
import type { CourierDeps } from './deps.ts';

// Handing orders to a courier from the back office (docs/decisions/0040). Booking is the
// ship step done by the courier, so it is allowed exactly where fulfilment.ts allows
// 'ship'. The order is claimed first, in a transaction on its locked row (a consignment row
// "requested", unique per order and courier while live), so a double click or two staff at
// once book it once; the courier is asked outside the transaction, and the claim becomes the
// consignment, or is removed when the courier refuses or cannot be reached.

const COURIER_LABEL: Record<CourierName, string> = { steadfast: 'Steadfast', pathao: 'Pathao' };

export type BookOutcome = { orderId: number; ok: true; consignment: TConsignment } | { orderId: number; ok: false; error: ApiError };

/**
 * What staff tell the courier about the parcel beyond the order itself. Pathao prices and
 * routes by its own city, zone and area ids and by weight (docs/decisions/0040); Steadfast
 * takes the address text only and has no weight field.
 */
export interface ParcelDetails {
  destination?: { cityId: number; zoneId: number; areaId?: number };
  weightGrams?: number;
  itemCount?: number;
}

/** How many Pathao bookings of a selection are in flight at once: its API books one parcel a request. */
const PATHAO_CONCURRENCY = 4;

function courierOf(deps: CourierDeps, courier: CourierName): Courier {
  const c = deps.couriers[courier];
  if (!c) throw conflict('courier_not_configured', `${COURIER_LABEL[courier]} is not set up for this shop`);
  return c;
}

/** What the rider collects: what the order still has to receive, never below zero (poisha). */
export function codAmountOf(sale: Pick<SaleRow, 'total' | 'amount_paid'>): number {
  return Math.max(0, Number(sale.total) - Number(sale.amount_paid));
}

interface Claim {
  claimId: number;
  sale: SaleRow;
  req: ConsignmentRequest;
}

async function claim(
  deps: CourierDeps,
  saleId: number,
  courier: CourierName,
  staff: StaffActor,
  note: string | undefined,
  parcel: ParcelDetails,
  now: string,
): Promise<Claim> {
  try {
    return await deps.db.kysely.transaction().execute(async (trx) => {
      const sale = await orders.lockSale(trx, deps.db.dialect, saleId);
      if (!sale) throw notFound('The order');
      const live = await repo.liveConsignmentOf(trx, sale.id);
      if (live) {
        const which = live.consignment_id ? `consignment ${live.consignment_id}` : 'a booking in progress';
        throw conflict('already_booked', `This order is already with ${COURIER_LABEL[live.courier]} (${which})`);
      }
      const refusal = courierBookingRefusal(fulfilmentState(sale));
      if (refusal) throw conflict('transition_not_allowed', refusal);
      const cod = codAmountOf(sale);
      // Steadfast takes each invoice once ("invoice unique"): a parcel booked again after a
      // cancellation carries the order's invoice with a suffix (-2, -3…).
      const earlier = await repo.consignmentCount(trx, sale.id, courier);
      const lines = await orders.linesOf(trx, [sale.id]);
      const to = recipientOf(sale);
      const claimId = await repo.insertConsignment(trx, {
        sale_id: sale.id,
        courier,
        consignment_id: null,
        tracking_code: null,
        status: 'requested',
        courier_status: null,
        cod_amount: cod,
        booked_by: staff.staffId,
        booked_by_name: staff.name,
        poll_claimed_until: null,
        polled_at: null,
        created_at: now,
        updated_at: now,
        destination_city_id: parcel.destination?.cityId ?? null,
        destination_zone_id: parcel.destination?.zoneId ?? null,
        destination_area_id: parcel.destination?.areaId ?? null,
      });
      const itemCount = parcel.itemCount ?? lines.reduce((n, l) => n + l.quantity, 0);
      const req: ConsignmentRequest = {
        invoice: earlier ? `${sale.invoice_id}-${earlier + 1}` : sale.invoice_id,
        recipientName: to.name,
        recipientPhone: to.phone,
        recipientAddress: to.address,
        codAmount: cod,
        ...(note?.trim() ? { note: note.trim() } : {}),
        itemDescription: lines
          .map((l) => `${l.quantity} × ${l.title}`)
          .join(', ')
          .slice(0, 200),
        // Steadfast's API has no weight; furniture is weighed at the counter, and staff give
        // Pathao the weight it prices by (a kilogram an item when they do not).
        weightGrams: parcel.weightGrams ?? 1000 * Math.max(1, itemCount),
        itemCount: Math.max(1, itemCount),
        ...(parcel.destination ? { destination: parcel.destination } : {}),
      };
      return { claimId, sale, req };
    });
  } catch (err) {
    // The unique index on live consignments: another request claimed the order first.
    if (!(err instanceof ApiError) && /unique|duplicate/i.test(String((err as Error)?.message))) {
      throw conflict('already_booked', 'This order is already being booked with a courier');
    }
    throw err;
  }
}

/** The claim made good with the courier's answer, or removed with the refusal in the API's one error shape. */
async function settle(deps: CourierDeps, c: Claim, courier: CourierName, result: BookingResult, staff: StaffActor, now: string): Promise<BookOutcome> {
  const db = deps.db.kysely;
  if (!result.ok) {
    await repo.deleteConsignment(db, c.claimId);
    // Our field names (recipientPhone, codAmount…): the screen shows each message by its field.
    const fields = Object.fromEntries(Object.entries(result.fields).filter((e): e is [string, string] => typeof e[1] === 'string'));
    return {
      orderId: c.sale.id,
      ok: false,
      error: new ApiError('courier_refused', `${COURIER_LABEL[courier]} did not accept the parcel: ${result.message}`, fields, 422),
    };
  }
  await db.transaction().execute(async (trx) => {
    await repo.markBooked(trx, c.claimId, {
      consignment_id: result.consignmentId,
      tracking_code: result.trackingCode,
      status: result.status,
      courier_status: result.courierStatus,
      delivery_fee: result.deliveryFee,
      updated_at: now,
    });
    await repo.insertEvent(trx, {
      consignment_id: c.claimId,
      status: result.status,
      courier_status: result.courierStatus,
      message: `Booked by ${staff.name}`,
      source: 'staff',
      dedupe_key: 'booked',
      at: now,
    });
    const sale = (await orders.saleById(trx, c.sale.id))!;
    const tracking = result.trackingCode ? `, tracking ${result.trackingCode}` : '';
    await staffHistory(
      trx,
      sale.id,
      sale.status,
      sale.payment_status,
      staff,
      `Booked with ${COURIER_LABEL[courier]}: consignment ${result.consignmentId}${tracking}; ${formatMoney(c.req.codAmount)} to collect`,
      now,
    );
    await recordAudit(trx, staff, {
      action: 'order_courier_booked',
      entity: 'order',
      entityId: sale.invoice_id,
      before: null,
      after: { courier, consignmentId: result.consignmentId, trackingCode: result.trackingCode, codAmount: c.req.codAmount },
    });
  });
  const row = (await repo.latestConsignmentOf(db, c.sale.id))!;
  return { orderId: c.sale.id, ok: true, consignment: await consignmentDetail(db, row, c.sale) };
}

function unreachable(courier: CourierName, err: CourierError): ApiError {
  return new ApiError(
    'courier_unavailable',
    `${COURIER_LABEL[courier]} could not be asked (${err.reason}): nothing was booked, try again in a moment`,
    undefined,
    502,
  );
}

/** Books one order; a refusal or an unreachable courier is thrown in the one error shape. */
export async function bookConsignment(
  deps: CourierDeps,
  saleId: number,
  courier: CourierName,
  staff: StaffActor,
  note?: string,
  parcel: ParcelDetails = {},
): Promise<TConsignment> {
  const client = courierOf(deps, courier);
  const now = new Date().toISOString();
  const c = await claim(deps, saleId, courier, staff, note, parcel, now);
  let result: BookingResult;
  try {
    result = await client.book(c.req);
  } catch (err) {
    await repo.deleteConsignment(deps.db.kysely, c.claimId);
    if (err instanceof CourierError) throw unreachable(courier, err);
    throw err;
  }
  const out = await settle(deps, c, courier, result, staff, new Date().toISOString());
  if (!out.ok) throw out.error;
  return out.consignment;
}

/**
 * Books a selection; each order has its own outcome, in the order given. Steadfast takes the
 * selection in one request (create_order/bulk-order). Pathao's bulk endpoint only queues the
 * parcels and answers without their consignment ids, so each order is booked with a request
 * of its own, a few at a time, and keeps its own answer.
 */
export async function bookConsignments(
  deps: CourierDeps,
  saleIds: number[],
  courier: CourierName,
  staff: StaffActor,
  parcels: ReadonlyMap<number, ParcelDetails> = new Map(),
): Promise<BookOutcome[]> {
  const client = courierOf(deps, courier);
  const now = new Date().toISOString();
  const outcomes = new Map<number, BookOutcome>();
  const claims: Claim[] = [];
  for (const id of [...new Set(saleIds)]) {
    try {
      claims.push(await claim(deps, id, courier, staff, undefined, parcels.get(id) ?? {}, now));
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      outcomes.set(id, { orderId: id, ok: false, error: err });
    }
  }
  const steadfast = courier === 'steadfast' ? deps.couriers.steadfast : null;
  if (claims.length && !steadfast) {
    await eachAtMost(PATHAO_CONCURRENCY, claims, async (c) => {
      outcomes.set(c.sale.id, await bookClaim(deps, client, c, courier, staff));
    });
  } else if (claims.length && steadfast) {
    let results: BookingResult[];
    try {
      results = await steadfast.bookMany(claims.map((c) => c.req));
    } catch (err) {
      for (const c of claims) await repo.deleteConsignment(deps.db.kysely, c.claimId);
      if (!(err instanceof CourierError)) throw err;
      for (const c of claims) outcomes.set(c.sale.id, { orderId: c.sale.id, ok: false, error: unreachable(courier, err) });
      results = [];
    }
    const at = new Date().toISOString();
    for (const [i, r] of results.entries()) outcomes.set(claims[i].sale.id, await settle(deps, claims[i], courier, r, staff, at));
  }
  return [...new Set(saleIds)].map((id) => outcomes.get(id)!);
}

/** One claimed order sent to the courier on its own: its consignment, or its refusal or outage as its outcome. */
async function bookClaim(deps: CourierDeps, client: Courier, c: Claim, courier: CourierName, staff: StaffActor): Promise<BookOutcome> {
  let result: BookingResult;
  try {
    result = await client.book(c.req);
  } catch (err) {
    await repo.deleteConsignment(deps.db.kysely, c.claimId);
    if (err instanceof CourierError) return { orderId: c.sale.id, ok: false, error: unreachable(courier, err) };
    throw err;
  }
  return settle(deps, c, courier, result, staff, new Date().toISOString());
}

/** Runs `fn` over the items with at most `limit` running at once. */
async function eachAtMost<T>(limit: number, items: T[], fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** The order's newest consignment with its history and the label's data. */
export async function orderConsignment(deps: CourierDeps, saleId: number): Promise<TConsignment> {
  const db = deps.db.kysely;
  const sale = await orders.saleById(db, saleId);
  if (!sale) throw notFound('The order');
  const row = await repo.latestConsignmentOf(db, saleId);
  if (!row) throw notFound('A consignment for this order');
  return consignmentDetail(db, row, sale);
}
