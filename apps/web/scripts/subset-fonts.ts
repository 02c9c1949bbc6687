import fs from 'node:fs';
import path from 'node:path';
import subsetFont from 'subset-font';
import { MARK_TEXT } from '../app/lib/font-marks.ts';

// Writes the Bengali font's tiny "marks" faces (fonts.css): only the characters an English
// page shows in Bengali script, cut from the same Noto Sans Bengali files the Bangla pages use.
// Run again when MARK_TEXT or the font package changes:
//   node --import tsx apps/web/scripts/subset-fonts.ts

const files = path.resolve(import.meta.dirname, '../../../node_modules/@fontsource/noto-sans-bengali/files');
const out = path.resolve(import.meta.dirname, '../app/assets/fonts');
fs.mkdirSync(out, { recursive: true });
for (const weight of [400, 600]) {
  const source = fs.readFileSync(path.join(files, `noto-sans-bengali-bengali-${weight}-normal.woff2`));
  const subset = await subsetFont(source, MARK_TEXT, { targetFormat: 'woff2' });
  const file = path.join(out, `shop-bengali-marks-${weight}.woff2`);
  fs.writeFileSync(file, subset);
  console.log(`${path.relative(process.cwd(), file)}: ${subset.length} bytes`);
}
