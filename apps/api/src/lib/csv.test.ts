import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvError, joinList, parseCsv, splitList, toCsv } from './csv.ts';

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

  it('reads back what it writes, Bangla included', () => {
    const cell = fc.string({ unit: fc.constantFrom('a', 'ক', ',', '"', '\n', '\r\n', ' ', '|', '\\', 'x') });
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 5 }), (rows) => {
        // A row of one empty field is a blank line, which is no row.
        const kept = rows.filter((r) => !(r.length === 1 && r[0] === ''));
        expect(parseCsv(toCsv(kept)).rows).toEqual(kept);
      }),
    );
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
