import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MARK_RANGE, MARK_TEXT } from './font-marks.ts';

// The marks faces of an English page (fonts.css) cover exactly the Bengali characters it shows.

describe('the Bengali marks faces', () => {
  it('cover the taka sign and the name of Bangla, as the stylesheet says', () => {
    expect(MARK_TEXT).toContain('৳');
    const css = fs.readFileSync(path.join(import.meta.dirname, '../fonts.css'), 'utf8');
    const ranges = [...css.matchAll(/font-family: "Shop Bengali Marks";[^}]*unicode-range: ([^;]+);/g)].map((m) => m[1].replace(/\s/g, ''));
    expect(ranges).toEqual([MARK_RANGE, MARK_RANGE]);
  });
});
