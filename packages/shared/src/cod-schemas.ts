import { ZAdminPage, ZAdminPageQuery } from './admin-schemas.ts';
import { CONSIGNMENT_COURIERS } from './consignment-schemas.ts';
import { z } from './zod.ts';

// Cash-on-delivery reconciliation in the back office (/api/admin/cod, docs/decisions/0043):
// the courier's payouts, each line matched to a consignment, and what the courier still owes.
// Amounts are poisha (docs/decisions/0003); the screens turn typed taka into poisha.

const money = z.number().int().min(0).max(1_000_000_000_00);
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'A date as YYYY-MM-DD');
/** The courier's payout reference, as its statement or bank transfer shows it. */
const reference = z.string().trim().min(1, 'Type the courier’s payout reference').max(80);
const identifier = (max: number) => z.string().trim().max(max).optional();

/**
 * What a payout line came to (docs/decisions/0043):
 * - paid: a delivered parcel, collected in full;
 * - short / over: a delivered parcel, collected less / more than its cash-on-delivery amount;
 * - already_paid: a parcel an earlier payout settled (reported, not counted again);
 * - not_delivered: a parcel the shop does not know as delivered (in transit, returned…);
 * - unmatched: no consignment of this courier has that id, tracking code or invoice.
 */
export const COD_LINE_OUTCOMES = ['paid', 'short', 'over', 'already_paid', 'not_delivered', 'unmatched'] as const;
export type TCodLineOutcome = (typeof COD_LINE_OUTCOMES)[number];

export const COD_OUTCOME_LABELS: Record<TCodLineOutcome, string> = {
  paid: 'Paid',
  short: 'Short-paid',
  over: 'Paid more',
  already_paid: 'Already paid earlier',
  not_delivered: 'Not delivered',
  unmatched: 'No such parcel',
};

/** Rows a report may hold: a bigger statement is split. */
export const COD_MAX_LINES = 5_000;
/**
 * Rows a report's file may hold, empty ones counted (docs/decisions/0051): room for the empty
 * rows a spreadsheet leaves, while a file of a million empty rows is refused after reading
 * these few.
 */
export const COD_REPORT_MAX_ROWS = 10_000;

const payoutHead = {
  courier: z.enum(CONSIGNMENT_COURIERS),
  reference,
  /** The day the courier paid (its statement's date). */
  paidOn: isoDate,
  note: z.string().trim().max(300).optional(),
};

/** A courier's payment report, as CSV text (the columns are in docs/decisions/0043 and the README). */
export const ZCodImportBody = z.object({
  ...payoutHead,
  csv: z.string().min(1, 'Paste the report or choose its file').max(2_000_000),
});
export type TCodImportBody = z.infer<typeof ZCodImportBody>;

export const ZCodManualLine = z
  .object({
    consignmentId: identifier(40),
    trackingCode: identifier(40),
    invoice: identifier(60),
    /** What the rider collected. */
    collected: money,
    deliveryCharge: money,
    codCharge: money,
  })
  .superRefine((l, ctx) => {
    if (!l.consignmentId && !l.trackingCode && !l.invoice) {
      ctx.addIssue({ code: 'custom', path: ['consignmentId'], message: 'Give the consignment id, the tracking code or the invoice' });
    }
  });
export type TCodManualLine = z.infer<typeof ZCodManualLine>;

/** A payout entered by hand: the same lines a report holds, amounts in poisha. */
export const ZCodManualBody = z.object({
  ...payoutHead,
  lines: z.array(ZCodManualLine).min(1, 'Add at least one parcel').max(500),
});
export type TCodManualBody = z.infer<typeof ZCodManualBody>;

export const ZCodParcel = z.object({
  /** The consignment's own row (not the courier's id). */
  id: z.number().int(),
  orderId: z.number().int(),
  invoice: z.string(),
  consignmentId: z.string().nullable(),
  trackingCode: z.string().nullable(),
  status: z.string(),
  codAmount: z.number().int(),
});
export type TCodParcel = z.infer<typeof ZCodParcel>;

export const ZCodLine = z.object({
  id: z.number().int(),
  payoutId: z.number().int(),
  /** The report's line (the header is line 1), or the line's place in a payout entered by hand. */
  lineNo: z.number().int(),
  /** As the courier gave them. */
  given: z.object({ consignmentId: z.string().nullable(), trackingCode: z.string().nullable(), invoice: z.string().nullable() }),
  parcel: ZCodParcel.nullable(),
  outcome: z.enum(COD_LINE_OUTCOMES),
  /** Whether this line settles its parcel (paid, short, over); a parcel is settled once. */
  counted: z.boolean(),
  collected: z.number().int(),
  deliveryCharge: z.number().int(),
  codCharge: z.number().int(),
  /** collected − delivery charge − COD charge: what the courier paid for this line. */
  net: z.number().int(),
  /** The parcel's cash-on-delivery amount less what was collected (positive: short), when it matched. */
  difference: z.number().int().nullable(),
});
export type TCodLine = z.infer<typeof ZCodLine>;

export const ZCodPayout = z.object({
  id: z.number().int(),
  courier: z.enum(CONSIGNMENT_COURIERS),
  reference: z.string(),
  paidOn: z.string(),
  /** What the courier paid: the lines' net. */
  total: z.number().int(),
  collected: z.number().int(),
  charges: z.number().int(),
  source: z.enum(['csv', 'manual']),
  note: z.string().nullable(),
  recordedBy: z.string().nullable(),
  createdAt: z.string(),
  /** Lines by outcome. */
  counts: z.record(z.enum(COD_LINE_OUTCOMES), z.number().int()),
  lines: z.array(ZCodLine),
});
export type TCodPayout = z.infer<typeof ZCodPayout>;

export const ZCodPayoutPage = ZAdminPage(ZCodPayout);
export type TCodPayoutPage = z.infer<typeof ZCodPayoutPage>;

/** An imported report: the payout, and the report's columns that were not read. */
export const ZCodImportResult = z.object({ payout: ZCodPayout, ignoredColumns: z.array(z.string()) });
export type TCodImportResult = z.infer<typeof ZCodImportResult>;

export const ZCodPayoutQuery = ZAdminPageQuery.extend({
  courier: z.enum(CONSIGNMENT_COURIERS).optional(),
}).extend({ size: z.coerce.number().int().min(1).max(50).default(10) });
export type TCodPayoutQuery = z.infer<typeof ZCodPayoutQuery>;

export const ZCodSummaryQuery = z.object({ courier: z.enum(CONSIGNMENT_COURIERS).optional() });
export type TCodSummaryQuery = z.infer<typeof ZCodSummaryQuery>;

/** A line of an earlier payout, with its payout's reference, for the summary's lists. */
export const ZCodSummaryLine = ZCodLine.extend({ courier: z.enum(CONSIGNMENT_COURIERS), reference: z.string(), paidOn: z.string() });
export type TCodSummaryLine = z.infer<typeof ZCodSummaryLine>;

const list = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), count: z.number().int(), total: z.number().int() });

export const ZCodSummary = z.object({
  /** Delivered cash-on-delivery parcels no payout has settled: total is their amounts. */
  owed: list(ZCodParcel.extend({ courier: z.enum(CONSIGNMENT_COURIERS), deliveredAt: z.string() })),
  /** Lines that collected less than the parcel's amount: total is the differences. */
  shortPaid: list(ZCodSummaryLine),
  /** Lines that name no parcel of the courier: total is what they collected. */
  unmatched: list(ZCodSummaryLine),
  /** Lines to look at: paid more, paid again, or a parcel not delivered: total is what they collected. */
  toCheck: list(ZCodSummaryLine),
  totals: z.object({
    payouts: z.number().int(),
    /** What the couriers paid (the payouts' totals). */
    received: z.number().int(),
    collected: z.number().int(),
    deliveryCharges: z.number().int(),
    codCharges: z.number().int(),
    owed: z.number().int(),
    shortPaid: z.number().int(),
  }),
  /** Each list shows at most this many; count and total cover them all. */
  listLimit: z.number().int(),
});
export type TCodSummary = z.infer<typeof ZCodSummary>;
