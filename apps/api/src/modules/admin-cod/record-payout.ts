import type { TConsignmentCourier } from '@storefront/shared';
import type { TCodImportBody, TCodImportResult, TCodLineOutcome, TCodManualBody, TCodPayout } from '@storefront/shared/cod-schemas';
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/dialect/unique-violation.ts';
import type { CourierPayoutLinesTable, Database } from '../../db/schema.ts';
import { CsvTooLargeError } from '../../lib/csv.ts';
import { ApiError, conflict } from '../../lib/errors.ts';
import { type Actor, recordAudit } from '../staff/audit.ts';
import { payoutView } from './cod.query.ts';
import * as repo from './cod.repository.ts';
import type { ParcelRow } from './cod.repository.ts';
import { type ReportLine, readReport } from './payout-csv.ts';

// Recording a courier's payout, from its imported report or typed by hand
// (docs/decisions/0043). All or nothing: every line is read and matched first, and a report
// with any bad row is refused whole (422, each problem by its line) with nothing written.
// Each line is matched to the courier's consignment it names (consignment id, tracking code
// or invoice); a consignment an earlier payout settled is reported again, never counted twice
// (the database holds one settling line per consignment, so two payouts recorded at once
// cannot both count it). The same payout reference of a courier is refused (409).

type Trx = Transaction<Database>;
export interface Recorder extends Actor {
  name: string;
}

interface Given extends Omit<ReportLine, 'lineNo'> {
  lineNo: number;
  /** Where a problem with this line is reported: `line.<n>` in a report, `lines.<i>` by hand. */
  field: string;
}

interface PayoutHead {
  courier: TConsignmentCourier;
  reference: string;
  paidOn: string;
  note?: string;
}

const SETTLES: TCodLineOutcome[] = ['paid', 'short', 'over'];
/** Tries of a payout whose consignments another payout settled at the same moment. */
const ATTEMPTS = 3;

export async function importPayout(db: Db, body: TCodImportBody, by: Recorder): Promise<TCodImportResult> {
  await refuseTaken(db.kysely, body);
  const report = await readReport(body.csv).catch((err) => {
    if (!(err instanceof CsvTooLargeError)) throw err;
    // Refused before the rest is read (docs/decisions/0051).
    const message = `${err.message}: split the report.`;
    throw new ApiError('file_too_large', message, { csv: message }, 413);
  });
  if (report.problemCount) {
    const fields = Object.fromEntries(
      report.problems.map((p) => [`line.${p.line}${p.column ? `.${p.column}` : ''}`, `Line ${p.line}${p.column ? `, ${p.column}` : ''}: ${p.message}`]),
    );
    const n = report.problemCount;
    throw new ApiError('invalid_report', `${n === 1 ? 'One problem' : `${n} problems`} in the report: nothing was recorded`, fields, 422);
  }
  const lines = report.lines.map((l) => ({ ...l, field: `line.${l.lineNo}` }));
  const payout = await record(db, body, lines, 'csv', by);
  return { payout, ignoredColumns: report.ignoredColumns };
}

export async function enterPayout(db: Db, body: TCodManualBody, by: Recorder): Promise<TCodPayout> {
  await refuseTaken(db.kysely, body);
  const lines: Given[] = body.lines.map((l, i) => ({
    lineNo: i + 1,
    field: `lines.${i}`,
    consignmentId: l.consignmentId || null,
    trackingCode: l.trackingCode || null,
    invoice: l.invoice || null,
    collected: l.collected,
    deliveryCharge: l.deliveryCharge,
    codCharge: l.codCharge,
  }));
  return record(db, body, lines, 'manual', by);
}

async function refuseTaken(db: Kysely<Database>, head: PayoutHead): Promise<void> {
  const taken = await repo.payoutByReference(db, head.courier, head.reference.trim());
  if (taken) {
    const message = `Payout ${taken.reference} of ${taken.paid_on} is recorded already`;
    throw conflict('payout_recorded', message, { reference: message });
  }
}

async function record(db: Db, head: PayoutHead, lines: Given[], source: 'csv' | 'manual', by: Recorder): Promise<TCodPayout> {
  for (let attempt = 1; ; attempt++) {
    try {
      const id = await db.kysely.transaction().execute((trx) => write(trx, head, lines, source, by));
      return payoutView(db.kysely, id);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // The same reference recorded a moment ago by someone else: the same 409 as the check.
      await refuseTaken(db.kysely, head);
      // Else another payout settled one of these consignments meanwhile: match again, and
      // that line is now reported as paid earlier.
      if (attempt >= ATTEMPTS) throw err;
    }
  }
}

async function write(trx: Trx, head: PayoutHead, lines: Given[], source: 'csv' | 'manual', by: Recorder): Promise<number> {
  await refuseTaken(trx, head);
  const parcels = await matchParcels(trx, head.courier, lines);
  const settled = await repo.settledConsignments(
    trx,
    parcels.flatMap((p) => (p ? [p.id] : [])),
  );
  const rows: Omit<Insertable<CourierPayoutLinesTable>, 'payout_id'>[] = lines.map((l, i) => {
    const parcel = parcels[i];
    const outcome = outcomeOf(parcel, settled, l.collected);
    return {
      line_no: l.lineNo,
      given_consignment_id: l.consignmentId,
      given_tracking_code: l.trackingCode,
      given_invoice: l.invoice,
      consignment_ref: parcel?.id ?? null,
      outcome,
      counted: SETTLES.includes(outcome) ? 1 : 0,
      cod_amount: parcel ? Number(parcel.cod_amount) : null,
      collected: l.collected,
      delivery_charge: l.deliveryCharge,
      cod_charge: l.codCharge,
      net: l.collected - l.deliveryCharge - l.codCharge,
    };
  });
  const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((n, r) => n + f(r), 0);
  const now = new Date().toISOString();
  const payoutId = await repo.insertPayout(trx, {
    courier: head.courier,
    reference: head.reference.trim(),
    paid_on: head.paidOn,
    total: sum((r) => Number(r.net)),
    collected: sum((r) => Number(r.collected)),
    charges: sum((r) => Number(r.delivery_charge) + Number(r.cod_charge)),
    source,
    note: head.note?.trim() || null,
    recorded_by: by.staffId,
    recorded_by_name: by.name,
    created_at: now,
  });
  await repo.insertLines(
    trx,
    rows.map((r) => ({ ...r, payout_id: payoutId })),
  );
  const counts: Record<string, number> = {};
  for (const r of rows) counts[r.outcome as string] = (counts[r.outcome as string] ?? 0) + 1;
  await recordAudit(trx, by, {
    action: 'cod.payout.record',
    entity: 'courier_payout',
    entityId: payoutId,
    before: null,
    after: {
      courier: head.courier,
      reference: head.reference.trim(),
      paidOn: head.paidOn,
      source,
      total: sum((r) => Number(r.net)),
      lines: rows.length,
      counts,
    },
  });
  return payoutId;
}

function outcomeOf(parcel: ParcelRow | null, settled: Set<number>, collected: number): TCodLineOutcome {
  if (!parcel) return 'unmatched';
  if (settled.has(parcel.id)) return 'already_paid';
  if (!(repo.DELIVERED as readonly string[]).includes(parcel.status)) return 'not_delivered';
  const cod = Number(parcel.cod_amount);
  return collected < cod ? 'short' : collected > cod ? 'over' : 'paid';
}

/**
 * The consignment each line names, or null. Identifiers are the courier's: its consignment
 * id, its tracking code (as given or upper-cased), or the invoice the parcel was booked with:
 * the order's, or the order's with a suffix (-2, -3…) for a parcel booked again after a
 * cancellation (docs/decisions/0040), which names that order's n-th consignment. Lines whose
 * identifiers name two parcels, or that name a parcel another line names, are refused.
 */
async function matchParcels(trx: Trx, courier: TConsignmentCourier, lines: Given[]): Promise<(ParcelRow | null)[]> {
  const ids = lines.flatMap((l) => (l.consignmentId ? [l.consignmentId] : []));
  const codes = lines.flatMap((l) => (l.trackingCode ? [l.trackingCode, l.trackingCode.toUpperCase()] : []));
  const invoices = lines.flatMap((l) => {
    if (!l.invoice) return [];
    const inv = l.invoice.toUpperCase();
    const base = /^(.+)-(\d{1,3})$/.exec(inv)?.[1];
    return base ? [inv, base] : [inv];
  });
  const [byId, byCode, byInvoice] = await Promise.all([
    repo.parcelsByCourierId(trx, courier, ids),
    repo.parcelsByTrackingCode(trx, courier, codes),
    repo.parcelsByInvoice(trx, courier, invoices),
  ]);
  // The newest consignment wins where an id was ever given twice (rows come oldest first).
  const newest = (rows: ParcelRow[], key: (r: ParcelRow) => string | null) => {
    const m = new Map<string, ParcelRow>();
    for (const r of rows) {
      const k = key(r);
      if (k) m.set(k, r);
    }
    return m;
  };
  const idMap = newest(byId, (r) => r.consignment_id);
  const codeMap = newest(byCode, (r) => r.tracking_code);
  const ofInvoice = new Map<string, ParcelRow[]>();
  for (const r of byInvoice) ofInvoice.set(r.invoice_id, [...(ofInvoice.get(r.invoice_id) ?? []), r]);
  const byInvoiceGiven = (given: string): ParcelRow | undefined => {
    const inv = given.toUpperCase();
    const all = ofInvoice.get(inv);
    if (all?.length) {
      // The order's own invoice: its delivered parcel, else its newest.
      return [...all].reverse().find((r) => (repo.DELIVERED as readonly string[]).includes(r.status)) ?? all[all.length - 1];
    }
    const m = /^(.+)-(\d{1,3})$/.exec(inv);
    const n = m ? Number(m[2]) : 0;
    return m && n >= 2 ? ofInvoice.get(m[1])?.[n - 1] : undefined;
  };

  const problems: Record<string, string> = {};
  const seen = new Map<string, number>();
  const where = (l: Given) => (l.field.startsWith('line.') ? `Line ${l.lineNo}` : `Parcel ${l.lineNo}`);
  const out = lines.map((l, i) => {
    const found = [
      l.consignmentId ? idMap.get(l.consignmentId) : undefined,
      l.trackingCode ? (codeMap.get(l.trackingCode) ?? codeMap.get(l.trackingCode.toUpperCase())) : undefined,
      l.invoice ? byInvoiceGiven(l.invoice) : undefined,
    ].filter((p): p is ParcelRow => !!p);
    const distinct = [...new Map(found.map((p) => [p.id, p])).values()];
    if (distinct.length > 1) {
      problems[l.field] =
        `${where(l)}: its consignment id, tracking code and invoice name different parcels (orders ${distinct.map((p) => p.invoice_id).join(', ')})`;
      return null;
    }
    const parcel = distinct[0] ?? null;
    // The same parcel twice in one payout is a mistake in it, not a second payment.
    const key = parcel ? `parcel:${parcel.id}` : `given:${l.consignmentId ?? ''}|${l.trackingCode ?? ''}|${(l.invoice ?? '').toUpperCase()}`;
    const first = seen.get(key);
    if (first !== undefined) {
      problems[l.field] = `${where(l)}: the same parcel as ${where(lines[first]).toLowerCase()}`;
    } else seen.set(key, i);
    return parcel;
  });
  const n = Object.keys(problems).length;
  if (n) {
    const fields = Object.fromEntries(Object.entries(problems).slice(0, 200));
    throw new ApiError('invalid_lines', `${n === 1 ? 'One line names' : `${n} lines name`} a parcel wrongly: nothing was recorded`, fields, 422);
  }
  return out;
}
