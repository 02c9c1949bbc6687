import { chromium } from '@playwright/test';
import { CHROME_PATH, CHROMIUM_ARGS } from '../fixtures/chromium.ts';

// Takes full-page screenshots of the given paths at desktop and mobile widths, for a
// person to look at: node --import tsx e2e/scripts/screenshot.ts http://localhost:3000 / /about
const [base, ...paths] = process.argv.slice(2);
const out = process.env.SHOT_DIR ?? '/tmp/shots';
const browser = await chromium.launch({
  executablePath: CHROME_PATH,
  args: CHROMIUM_ARGS,
});
for (const [name, viewport] of [
  ['desktop', { width: 1440, height: 900 }],
  ['mobile', { width: 360, height: 780 }],
] as const) {
  const page = await browser.newPage({ viewport });
  for (const p of paths) {
    await page.goto(base + p, { waitUntil: 'networkidle' });
    const file = `${out}/${name}${p.replace(/[^a-z0-9]+/gi, '_')}.png`;
    await page.screenshot({ path: file, fullPage: process.env.FULL !== '0' });
    console.log(file);
  }
  await page.close();
}
await browser.close();
