import { timeSlices, yieldToEventLoop } from './time-slices.ts';

// CSV as RFC 4180 writes it, for the catalogue's import and every export of the back office
// (docs/decisions/0031): fields separated by commas, quoted when they hold a comma, a quote or
// a line break, a quote doubled inside quotes; lines end with CRLF or LF. Spreadsheets save it
// this way. Every CSV the shop writes goes through csvCell, so none has a cell a spreadsheet
// runs as a formula (docs/decisions/0053).

const COMMA = 44;
const QUOTE = 34;
const CR = 13;
const LF = 10;

/**
 * Reads a CSV text one record at a time. Fields are cut out with slice() between delimiters
 * rather than built a character at a time: a 10 MB file is read in a tenth of a second or so,
 * not seconds (docs/decisions/0051).
 */
class CsvScanner {
  private i: number;
  /** The line the next record starts on. */
  line = 1;

  constructor(private readonly text: string) {
    // A UTF-8 BOM at the start is not part of the first field.
    this.i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  }

  get done(): boolean {
    return this.i >= this.text.length;
  }

  /** The next record's fields (a blank line is one empty field); more than `maxCells` is refused. */
  record(maxCells: number): string[] {
    const { text } = this;
    const n = text.length;
    const rowLine = this.line;
    const cells: string[] = [];
    let i = this.i;
    for (;;) {
      let field = '';
      if (text.charCodeAt(i) === QUOTE) {
        let j = i + 1;
        for (;;) {
          const q = text.indexOf('"', j);
          if (q < 0) throw new CsvError(`A quoted field that starts on line ${rowLine} never ends`, rowLine);
          field += text.slice(j, q);
          // Line breaks inside quotes move the line numbers of the rows after.
          for (let x = j; x < q; x++) if (text.charCodeAt(x) === LF) this.line++;
          if (text.charCodeAt(q + 1) === QUOTE) {
            field += '"';
            j = q + 2;
          } else {
            i = q + 1;
            break;
          }
        }
      }
      // Unquoted text, or what follows a closing quote up to the delimiter, is taken as it is.
      let k = i;
      for (let c = text.charCodeAt(k); k < n && c !== COMMA && c !== LF && c !== CR; c = text.charCodeAt(++k));
      if (k > i) field += text.slice(i, k);
      if (cells.length >= maxCells) throw new CsvTooLargeError(`Line ${rowLine} has more than ${maxCells.toLocaleString('en-US')} cells`, rowLine);
      cells.push(field);
      const c = text.charCodeAt(k);
      if (c === COMMA) {
        i = k + 1;
        continue;
      }
      // A line break (CRLF, LF or CR) ends the record; so does the end of the text.
      if (c === CR || c === LF) {
        k += c === CR && text.charCodeAt(k + 1) === LF ? 2 : 1;
        this.line++;
      }
      this.i = k;
      return cells;
    }
  }
}

const isBlank = (cells: string[]) => cells.length === 1 && cells[0] === '';

/** The rows of a CSV text (a UTF-8 BOM at the start is skipped); each row's line number is where it starts. */
export function parseCsv(text: string): { rows: string[][]; lines: number[] } {
  const rows: string[][] = [];
  const lines: number[] = [];
  const scan = new CsvScanner(text);
  while (!scan.done) {
    const line = scan.line;
    const cells = scan.record(Number.POSITIVE_INFINITY);
    // A blank line is not a row.
    if (!isBlank(cells)) {
      rows.push(cells);
      lines.push(line);
    }
  }
  return { rows, lines };
}

export interface CsvLimits {
  /** Rows after the header, blank ones and ones of empty cells counted. */
  maxRows: number;
  /** Cells in one row. */
  maxCells: number;
}

/**
 * The rows of an uploaded CSV text, one at a time, for a check that reads them as they come
 * and keeps only what it needs (docs/decisions/0051). Between slices of a few milliseconds
 * (the caller's work on each row included) it pauses for the event loop, so the shop keeps
 * answering while a large file is read. Past `maxRows` rows it stops with a CsvTooLargeError:
 * a file of millions of empty rows is refused after its first few thousand.
 */
export async function* csvRows(text: string, limits: CsvLimits): AsyncGenerator<{ cells: string[]; line: number }> {
  const scan = new CsvScanner(text);
  const pause = timeSlices();
  let records = 0;
  while (!scan.done) {
    await pause();
    const line = scan.line;
    const cells = scan.record(limits.maxCells);
    // The header is the one record past the limit.
    if (++records > limits.maxRows + 1) {
      throw new CsvTooLargeError(`The file has more than ${limits.maxRows.toLocaleString('en-US')} rows (empty rows count too)`, line);
    }
    if (!isBlank(cells)) yield { cells, line };
  }
}

/** Bytes decoded between two pauses for the event loop. */
const DECODE_SLICE = 1 << 20;

/**
 * An uploaded file's bytes as text: UTF-8 only (with or without a BOM), null otherwise.
 * Decoded a megabyte at a time with a pause for the event loop between (docs/decisions/0051).
 */
export async function decodeUtf8(bytes: Uint8Array): Promise<string | null> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const parts: string[] = [];
  try {
    for (let at = 0; at < bytes.length; at += DECODE_SLICE) {
      if (at) await yieldToEventLoop();
      parts.push(decoder.decode(bytes.subarray(at, at + DECODE_SLICE), { stream: true }));
    }
    parts.push(decoder.decode());
  } catch {
    return null;
  }
  return parts.join('');
}

/** A file past the rows or cells an import reads; the message says which. */
export class CsvTooLargeError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

export class CsvError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/**
 * Text a spreadsheet would run as a formula (OWASP "CSV injection": a cell starting with
 * = + - @, a tab or a carriage return), with any quotes already in front of it: such a cell is
 * written with one more quote in front, which spreadsheets read as "this is text". A value
 * that already starts with quotes before such a character gets one more too, so the import
 * can take exactly one off (fromCsvCell) and every value comes back as it was.
 */
const FORMULA = /^'*[=+\-@\t\r]/;

/** One value as a CSV cell: kept from running as a formula, then quoted where RFC 4180 needs it. */
export function csvCell(value: string): string {
  const safe = FORMULA.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) || /^\s|\s$/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A cell as it was before csvCell kept it from running as a formula (what the import reads). */
export function fromCsvCell(cell: string): string {
  return cell.startsWith("'") && FORMULA.test(cell) ? cell.slice(1) : cell;
}

/** One row of cells, ending with CRLF. */
export function csvLine(values: readonly string[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** CSV text with a UTF-8 BOM (so spreadsheets read Bangla as Bangla) and CRLF line ends. */
export function toCsv(rows: readonly (readonly string[])[]): string {
  return `\uFEFF${rows.map(csvLine).join('')}`;
}

/** Several values in one cell, separated by "|" (a "|" or "\" inside a value is escaped with "\"). */
export function joinList(values: string[]): string {
  return values.map((v) => v.replace(/\\/g, '\\\\').replace(/\|/g, '\\|')).join('|');
}

export function splitList(cell: string): string[] {
  if (cell === '') return [];
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < cell.length; i++) {
    const ch = cell[i];
    if (ch === '\\' && i + 1 < cell.length) cur += cell[++i];
    else if (ch === '|') {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}
