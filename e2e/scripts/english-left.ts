import { chromium } from '@playwright/test';
import { CHROME_PATH, CHROMIUM_ARGS } from '../fixtures/chromium.ts';
import { englishLeft } from '../fixtures/english-left.ts';

// Prints what each page still shows in English when asked for Bangla (docs/decisions/0038):
// visible texts and labels with Latin letters, one line each under the page's path.
//   node --import tsx e2e/scripts/english-left.ts http://127.0.0.1:3000 / /shop '/shop?sort=price'
// Options (anywhere among the paths):
//   --ignore "regex"   cut matches out before checking (product and category names from the
//                      database); may be repeated
//   --width 390        viewport width (default 1440; height 900)
//   --no-head          skip the <title> and meta description
//   --cookie name=val  send a cookie with every page (e.g. a signed-in session)
// Each path is loaded with lang=bn added to its own query. Exits 1 when something is left.
const args = process.argv.slice(2);
const ignore: string[] = [];
const paths: string[] = [];
const cookies: { name: string; value: string }[] = [];
let base = '';
let width = 1440;
let head = true;
for (let i = 0; i < args.length; i++) {
  const a = args[i] as string;
  if (a === '--ignore') ignore.push(args[++i] ?? '');
  else if (a === '--width') width = Number(args[++i]);
  else if (a === '--no-head') head = false;
  else if (a === '--cookie') {
    const [name, ...value] = (args[++i] ?? '').split('=');
    cookies.push({ name: name ?? '', value: value.join('=') });
  } else if (!base) base = a;
  else paths.push(a);
}
if (!base) {
  console.error('usage: english-left.ts <base URL> [paths…] [--ignore regex] [--width 390] [--no-head] [--cookie name=value]');
  process.exit(2);
}
if (paths.length === 0) paths.push('/');

const browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROMIUM_ARGS });
const context = await browser.newContext({ viewport: { width, height: 900 } });
if (cookies.length) await context.addCookies(cookies.map((c) => ({ ...c, url: base })));
const page = await context.newPage();
let total = 0;
for (const p of paths) {
  const url = new URL(p, base);
  url.searchParams.set('lang', 'bn');
  const res = await page.goto(url.toString(), { waitUntil: 'load' });
  // Let hydration and deferred data settle; a page that keeps a connection open still counts.
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => {});
  const left = await englishLeft(page, { ignore, head });
  total += left.length;
  console.log(`${p}  [${res?.status() ?? '?'}]  ${left.length ? `${left.length} left` : 'nothing left'}`);
  for (const line of left) console.log(`  ${line}`);
}
await browser.close();
process.exit(total ? 1 : 0);
