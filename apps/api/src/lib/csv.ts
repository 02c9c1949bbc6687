// CSV as RFC 4180 writes it, for the catalogue's import and export (docs/decisions/0031):
// fields separated by commas, quoted when they hold a comma, a quote or a line break, a
// quote doubled inside quotes; lines end with CRLF or LF. Spreadsheets save it this way.

/** The rows of a CSV text (a UTF-8 BOM at the start is skipped); each row's line number is where it starts. */
export function parseCsv(text: string): { rows: string[][]; lines: number[] } {
  const rows: string[][] = [];
  const lines: number[] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRow = () => {
    row.push(field);
    field = '';
    // A blank line is not a row.
    if (!(row.length === 1 && row[0] === '')) {
      rows.push(row);
      lines.push(rowLine);
    }
    row = [];
  };
  for (; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (ch === '\n') line++;
        field += ch;
      }
      continue;
    }
    if (ch === '"' && field === '') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      // CRLF: the \n ends the row.
    } else if (ch === '\n' || ch === '\r') {
      endRow();
      line++;
      rowLine = line;
    } else field += ch;
  }
  if (quoted) throw new CsvError(`A quoted field that starts on line ${rowLine} never ends`, rowLine);
  if (field !== '' || row.length) endRow();
  return { rows, lines };
}

export class CsvError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

function quote(value: string): string {
  return /[",\r\n]/.test(value) || /^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** CSV text with a UTF-8 BOM (so spreadsheets read Bangla as Bangla) and CRLF line ends. */
export function toCsv(rows: string[][]): string {
  return `\uFEFF${rows.map((r) => r.map(quote).join(',')).join('\r\n')}\r\n`;
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
