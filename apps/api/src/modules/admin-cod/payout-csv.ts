import { parseTaka } from '@storefront/shared';
import { COD_MAX_LINES, COD_REPORT_MAX_ROWS } from '@storefront/shared/cod-schemas';
import { CsvError, csvRows } from '../../lib/csv.ts';

// A courier's payment report as CSV (docs/decisions/0043). Steadfast documents no CSV layout
// for its payments, so the shop defines one, named after the fields of Steadfast's payment
// API: one row per parcel, the parcel named by consignment_id, tracking_code or invoice (at
// least one), and the taka collected (collected, or cod_amount), delivery_charge and
// cod_charge. Headers are matched without regard to case, spaces or dashes; other columns
// are ignored. Amounts are taka with at most two decimals ("1,060.50" quoted, "৳1060"), read
// exactly into poisha, never through a float; an empty charge is none, an empty collected
// amount is refused.

export interface ReportLine {
  /** The file's line the row starts on (the header is line 1). */
  lineNo: number;
  consignmentId: string | null;
  trackingCode: string | null;
  invoice: string | null;
  collected: number;
  deliveryCharge: number;
  codCharge: number;
}

export interface ReportProblem {
  line: number;
  /** The column, or '' for the row or the file. */
  column: string;
  message: string;
}

type Key = 'consignment_id' | 'tracking_code' | 'invoice' | 'collected' | 'delivery_charge' | 'cod_charge';

/** Each column the report may have, with the other names a spreadsheet may give it. */
const COLUMNS: Record<Key, string[]> = {
  consignment_id: ['consignment_id', 'consignmentid', 'cid', 'consignment'],
  tracking_code: ['tracking_code', 'trackingcode', 'tracking', 'tracking_id'],
  invoice: ['invoice', 'invoice_id', 'invoice_no', 'invoice_number'],
  collected: ['collected', 'collected_amount', 'cod_amount', 'cod_collected'],
  delivery_charge: ['delivery_charge', 'delivery_fee'],
  cod_charge: ['cod_charge', 'cod_fee'],
};
const IDS = ['consignment_id', 'tracking_code', 'invoice'] as const;
const MAX_PROBLEMS = 200;
/** Cells in one row: the report's columns and the courier's others. */
const MAX_CELLS = 100;

const normalise = (header: string) =>
  header
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/** Taka as typed in the report, in poisha; a message when it is not an exact amount. */
export function readTaka(cell: string, emptyIsZero = false): { poisha: number } | { problem: string } {
  const t = cell.trim();
  if (t === '') return emptyIsZero ? { poisha: 0 } : { problem: 'is empty: type 0 where nothing was collected' };
  if (/^-/.test(t)) return { problem: `“${t}” is below zero` };
  if (/\.\d{3,}$/.test(t.replace(/\s/g, ''))) return { problem: `“${t}” has more than 2 decimals: amounts are taka and poisha` };
  const poisha = parseTaka(t);
  return poisha === null ? { problem: `“${t}” is not an amount in taka` } : { poisha };
}

/**
 * The rows of a report, or every problem found in it (then nothing is to be written). Rows are
 * read in slices that let the shop answer meanwhile; past COD_REPORT_MAX_ROWS rows, empty ones
 * counted, the reading stops with a CsvTooLargeError (docs/decisions/0051).
 */
export async function readReport(text: string): Promise<{ lines: ReportLine[]; problems: ReportProblem[]; problemCount: number; ignoredColumns: string[] }> {
  const problems: ReportProblem[] = [];
  let problemCount = 0;
  const add = (line: number, column: string, message: string) => {
    problemCount++;
    if (problems.length < MAX_PROBLEMS) problems.push({ line, column, message });
  };
  const done = (lines: ReportLine[] = [], ignoredColumns: string[] = []) => ({ lines: problemCount ? [] : lines, problems, problemCount, ignoredColumns });

  let header: string[] | null = null;
  const filled: { row: string[]; line: number }[] = [];
  try {
    for await (const { cells, line } of csvRows(text, { maxRows: COD_REPORT_MAX_ROWS, maxCells: MAX_CELLS })) {
      if (!header) header = cells;
      // Spreadsheets save rows left empty as commas: they are not parcels.
      else if (cells.some((c) => c.trim() !== '')) filled.push({ row: cells, line });
    }
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    add(err.line, '', err.message);
    return done();
  }
  header ??= [];
  const col = new Map<Key, { index: number; name: string }>();
  const ignoredColumns: string[] = [];
  header.forEach((raw, index) => {
    const name = normalise(raw);
    const key = (Object.keys(COLUMNS) as Key[]).find((k) => COLUMNS[k].includes(name));
    if (!key) {
      if (raw.trim()) ignoredColumns.push(raw.trim());
      return;
    }
    const seen = col.get(key);
    if (seen) add(1, raw.trim(), `This column and “${seen.name}” both give ${key}`);
    else col.set(key, { index, name: raw.trim() });
  });
  if (!IDS.some((k) => col.has(k))) add(1, '', 'The report needs a consignment_id, tracking_code or invoice column');
  for (const k of ['collected', 'delivery_charge', 'cod_charge'] as const) {
    if (!col.has(k)) add(1, k, `The report needs a ${k} column${k === 'collected' ? ' (or cod_amount)' : ''}`);
  }
  if (problemCount) return done();
  const cell = (row: string[], key: Key) => {
    const c = col.get(key);
    return c ? (row[c.index] ?? '').trim() : '';
  };
  if (!filled.length) {
    add(1, '', header.length ? 'The report has a header but no parcels' : 'The report is empty');
    return done();
  }
  if (filled.length > COD_MAX_LINES) {
    add(1, '', `The report has ${filled.length} parcels; at most ${COD_MAX_LINES} are read at once. Split it.`);
    return done();
  }

  const lines: ReportLine[] = [];
  for (const { row, line } of filled) {
    // "1,060.50" unquoted splits into two cells and moves every column after it.
    if (row.length > header.length && row.slice(header.length).some((c) => c.trim() !== '')) {
      add(line, '', `The row has ${row.length} cells and the header ${header.length}: quote amounts written with a comma ("1,060.50")`);
      continue;
    }
    const ids = Object.fromEntries(IDS.map((k) => [k, cell(row, k) || null])) as Record<'consignment_id' | 'tracking_code' | 'invoice', string | null>;
    if (!ids.consignment_id && !ids.tracking_code && !ids.invoice) add(line, '', 'Name the parcel: its consignment_id, tracking_code or invoice');
    for (const k of IDS) {
      const v = ids[k];
      if (v && v.length > (k === 'invoice' ? 60 : 40)) add(line, col.get(k)!.name, 'Too long for a parcel’s id');
    }
    const amounts = {} as Record<'collected' | 'delivery_charge' | 'cod_charge', number>;
    for (const k of ['collected', 'delivery_charge', 'cod_charge'] as const) {
      // A charge the courier did not make may be left empty; what was collected may not.
      const r = readTaka(cell(row, k), k !== 'collected');
      if ('problem' in r) add(line, col.get(k)!.name, `${col.get(k)!.name} ${r.problem}`);
      else amounts[k] = r.poisha;
    }
    lines.push({
      lineNo: line,
      consignmentId: ids.consignment_id,
      trackingCode: ids.tracking_code,
      invoice: ids.invoice,
      collected: amounts.collected ?? 0,
      deliveryCharge: amounts.delivery_charge ?? 0,
      codCharge: amounts.cod_charge ?? 0,
    });
  }
  return done(lines, ignoredColumns);
}
