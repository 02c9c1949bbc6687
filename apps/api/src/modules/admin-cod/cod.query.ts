import {
  COD_LINE_OUTCOMES,
  type TCodLine,
  type TCodLineOutcome,
  type TCodPayout,
  type TCodPayoutPage,
  type TCodPayoutQuery,
  type TCodSummary,
  type TCodSummaryLine,
  type TCodSummaryQuery,
} from '@storefront/shared/cod-schemas';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import * as repo from './cod.repository.ts';
import type { LineWithParcel, PayoutRow } from './cod.repository.ts';

// Reading cash-on-delivery reconciliation (docs/decisions/0043): payouts with their lines,
// and the summary: what the couriers still owe, what they paid short, and the lines that
// match nothing or need a look.

type Db = Kysely<Database>;

/** Each list of the summary shows at most this many; its count and total cover them all. */
export const SUMMARY_LIST_LIMIT = 200;

export function toLine(r: LineWithParcel): TCodLine {
  const matched = r.consignment_ref != null && r.parcel_sale_id != null;
  return {
    id: Number(r.id),
    payoutId: Number(r.payout_id),
    lineNo: Number(r.line_no),
    given: { consignmentId: r.given_consignment_id, trackingCode: r.given_tracking_code, invoice: r.given_invoice },
    parcel: matched
      ? {
          id: Number(r.consignment_ref),
          orderId: Number(r.parcel_sale_id),
          invoice: r.parcel_invoice ?? '',
          consignmentId: r.parcel_consignment_id ?? null,
          trackingCode: r.parcel_tracking_code ?? null,
          status: r.parcel_status ?? '',
          // What it was when the line was matched: the payout is judged against that.
          codAmount: Number(r.cod_amount ?? r.parcel_cod_amount ?? 0),
        }
      : null,
    outcome: r.outcome,
    counted: Number(r.counted) === 1,
    collected: Number(r.collected),
    deliveryCharge: Number(r.delivery_charge),
    codCharge: Number(r.cod_charge),
    net: Number(r.net),
    difference: r.cod_amount == null ? null : Number(r.cod_amount) - Number(r.collected),
  };
}

function toSummaryLine(r: LineWithParcel): TCodSummaryLine {
  return { ...toLine(r), courier: r.courier, reference: r.reference, paidOn: r.paid_on };
}

function toPayout(p: PayoutRow, lines: LineWithParcel[]): TCodPayout {
  const counts = Object.fromEntries(COD_LINE_OUTCOMES.map((o) => [o, 0])) as Record<TCodLineOutcome, number>;
  for (const l of lines) counts[l.outcome]++;
  return {
    id: Number(p.id),
    courier: p.courier,
    reference: p.reference,
    paidOn: p.paid_on,
    total: Number(p.total),
    collected: Number(p.collected),
    charges: Number(p.charges),
    source: p.source,
    note: p.note,
    recordedBy: p.recorded_by_name,
    createdAt: p.created_at,
    counts,
    lines: lines.map(toLine),
  };
}

export async function payoutView(db: Db, id: number): Promise<TCodPayout> {
  const p = await repo.payoutById(db, id);
  if (!p) throw notFound('The payout');
  return toPayout(p, await repo.linesOfPayouts(db, [p.id]));
}

export async function listPayouts(db: Db, q: TCodPayoutQuery): Promise<TCodPayoutPage> {
  const { items, total } = await repo.payoutPage(db, q.courier, q.page, q.size);
  const lines = await repo.linesOfPayouts(
    db,
    items.map((p) => p.id),
  );
  const byPayout = new Map<number, LineWithParcel[]>();
  for (const l of lines) byPayout.set(Number(l.payout_id), [...(byPayout.get(Number(l.payout_id)) ?? []), l]);
  return { items: items.map((p) => toPayout(p, byPayout.get(Number(p.id)) ?? [])), total, page: q.page, size: q.size };
}

export async function codSummary(db: Db, q: TCodSummaryQuery): Promise<TCodSummary> {
  const courier = q.courier;
  const limit = SUMMARY_LIST_LIMIT;
  const CHECK: TCodLineOutcome[] = ['over', 'already_paid', 'not_delivered'];
  const [owed, short, shortTotals, unmatched, unmatchedTotals, check, checkTotals, totals] = await Promise.all([
    repo.owed(db, courier, limit),
    repo.linesByOutcome(db, ['short'], courier, limit),
    repo.lineTotals(db, ['short'], courier),
    repo.linesByOutcome(db, ['unmatched'], courier, limit),
    repo.lineTotals(db, ['unmatched'], courier),
    repo.linesByOutcome(db, CHECK, courier, limit),
    repo.lineTotals(db, CHECK, courier),
    repo.payoutTotals(db, courier),
  ]);
  return {
    owed: {
      items: owed.items.map((c) => ({
        id: Number(c.id),
        orderId: Number(c.sale_id),
        invoice: c.invoice_id,
        courier: c.courier,
        consignmentId: c.consignment_id,
        trackingCode: c.tracking_code,
        status: c.status,
        codAmount: Number(c.cod_amount),
        deliveredAt: c.updated_at,
      })),
      count: owed.count,
      total: owed.total,
    },
    shortPaid: { items: short.map(toSummaryLine), count: shortTotals.count, total: shortTotals.difference },
    unmatched: { items: unmatched.map(toSummaryLine), count: unmatchedTotals.count, total: unmatchedTotals.collected },
    toCheck: { items: check.map(toSummaryLine), count: checkTotals.count, total: checkTotals.collected },
    totals: { ...totals, owed: owed.total, shortPaid: shortTotals.difference },
    listLimit: limit,
  };
}
