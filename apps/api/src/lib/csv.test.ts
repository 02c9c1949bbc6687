import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvError, CsvTooLargeError, csvCell, csvRows, decodeUtf8, fromCsvCell, joinList, parseCsv, splitList, toCsv } from './csv.ts';

/** The reading the scanner replaced, one character at a time: the two must agree. */
function parseCsvByCharacter(text: string): { rows: string[][]; lines: number[] } {
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

describe('CSV', () => {
  it('reads quotes, doubled quotes, commas and line breaks in fields, CRLF and LF, and a BOM', () => {
    const { rows, lines } = parseCsv('\uFEFFa,b,c\r\n"x, y","say ""hi""","two\nlines"\n\nlast,,\n');
    expect(rows).toEqual([
      ['a', 'b', 'c'],
      ['x, y', 'say "hi"', 'two\nlines'],
      ['last', '', ''],
    ]);
    expect(lines).toEqual([1, 2, 5]);
  });

  it('refuses a quote that never closes, naming its line', () => {
    expect(() => parseCsv('a,b\n"open,b\nc,d')).toThrow(CsvError);
  });

  it('reads back what it writes, Bangla and would-be formulas included, and writes no cell a spreadsheet runs', () => {
    const cell = fc.string({ unit: fc.constantFrom('a', 'ক', ',', '"', '\n', '\r\n', ' ', '|', '\\', 'x', '=', '+', '-', '@', "'", '\t') });
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 5 }), (rows) => {
        // A row of one empty field is a blank line, which is no row.
        const kept = rows.filter((r) => !(r.length === 1 && r[0] === ''));
        const read = parseCsv(toCsv(kept)).rows;
        expect(read.flat().filter((c) => /^[=+\-@\t\r]/.test(c))).toEqual([]);
        expect(read.map((r) => r.map(fromCsvCell))).toEqual(kept);
      }),
    );
  });

  it('starts a would-be formula with a quote (OWASP), and quotes as RFC 4180 says', () => {
    expect(csvCell('=HYPERLINK("http://evil.example","x")')).toBe(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(csvCell("+cmd|' /C calc'!A0")).toBe("'+cmd|' /C calc'!A0");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\rx')).toBe(`"'\rx"`);
    expect(csvCell("'=x")).toBe("''=x");
    expect(csvCell("it's")).toBe("it's");
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(fromCsvCell("'it's")).toBe("'it's");
  });

  it('reads rows one at a time as a reading character by character does, line numbers included', { timeout: 30_000 }, async () => {
    const piece = fc.constantFrom('a', 'ক', ',', '"', '""', '\n', '\r\n', '\r', ' ', 'x', '\uFEFF');
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 30 }), async (pieces) => {
        const text = pieces.join('');
        let whole: ReturnType<typeof parseCsv> | null = null;
        try {
          whole = parseCsvByCharacter(text);
        } catch {}
        if (whole) expect(parseCsv(text)).toEqual(whole);
        else expect(() => parseCsv(text)).toThrow(CsvError);
        const rows: string[][] = [];
        const lines: number[] = [];
        try {
          for await (const r of csvRows(text, { maxRows: 1000, maxCells: 1000 })) {
            rows.push(r.cells);
            lines.push(r.line);
          }
        } catch (err) {
          expect(err).toBeInstanceOf(CsvError);
          expect(whole).toBeNull();
          return;
        }
        expect({ rows, lines }).toEqual(whole);
      }),
      { numRuns: 2000 },
    );
  });

  it('counts blank rows and rows of empty cells toward the limit, and stops at the first row past it', async () => {
    const read = async (text: string) => {
      const seen: string[][] = [];
      for await (const r of csvRows(text, { maxRows: 3, maxCells: 10 })) seen.push(r.cells);
      return seen;
    };
    expect(await read('h\n,\n\n\r\n')).toEqual([['h'], ['', '']]);
    await expect(read('h\n,\n\n\r\n\n')).rejects.toThrow(new CsvTooLargeError('The file has more than 3 rows (empty rows count too)', 5));
    // Millions of empty rows: refused after the first few, at once.
    const t0 = performance.now();
    await expect(read(`h\n${',\n'.repeat(5_000_000)}`)).rejects.toBeInstanceOf(CsvTooLargeError);
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('refuses a row of more cells than the limit, naming its line', async () => {
    const rows = csvRows(`a,b\n${','.repeat(5_000_000)}`, { maxRows: 10, maxCells: 300 });
    await expect(rows.next()).resolves.toMatchObject({ value: { cells: ['a', 'b'], line: 1 } });
    await expect(rows.next()).rejects.toThrow(/Line 2 has more than 300 cells/);
  });

  it('decodes UTF-8 across its slices, Bangla and a BOM included, and refuses anything else', async () => {
    const text = `${'ক'.repeat(700_000)}x`;
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    expect(await decodeUtf8(bytes)).toBe(text);
    expect(await decodeUtf8(Buffer.from([0x61, 0xff, 0x62]))).toBeNull();
    expect(await decodeUtf8(new Uint8Array(0))).toBe('');
  });

  it('keeps lists in one cell, with "|" and "\\" escaped', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: fc.constantFrom('a', '|', '\\', ' ') }), { minLength: 1, maxLength: 5 }), (values) => {
        const back = splitList(joinList(values));
        expect(back).toEqual(values.length === 1 && values[0] === '' ? [] : values);
      }),
    );
  });
});
