import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { CHROME_PATH, CHROMIUM_ARGS } from '../e2e/fixtures/chromium.ts';
import { REPO_ROOT, startShop } from './lib/server.ts';
import { formatTable } from './lib/table.ts';

// Lighthouse 12 (mobile profile: its default, a mid-range phone on a throttled network,
// simulated) on the home page, the shop, a product page and checkout with a cart, against
// the production build served by the real server on a fresh SQLite database. Each page is
// audited --runs times (default 3) in Debian's Chromium; the table shows the median of
// each category score and of the main metrics.
//
//   CHROME_PATH=/usr/bin/chromium node --import tsx bench/lighthouse.ts [--runs 3] [--pages home,shop,product,checkout] [--langs en,bn] [--json out.json] [--reports dir]
//   npm run lighthouse -w bench
//
// Needs the web build (npm run build; WEB_BUILD_DIR picks another). Scores move with the
// machine's load: compare runs made on a quiet machine.

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    pages: { type: 'string', default: 'home,shop,product,checkout' },
    // Each page in these languages (docs/decisions/0038): `bn` audits it with ?lang=bn.
    langs: { type: 'string', default: 'en,bn' },
    json: { type: 'string' },
    // A folder for each run's full Lighthouse report (JSON), to read the audits' details.
    reports: { type: 'string' },
  },
});
const runs = Math.max(1, Number(values.runs));
const wanted = values.pages.split(',').map((s) => s.trim());
const langs = values.langs.split(',').map((s) => s.trim());
const chromePath = CHROME_PATH;
const API_KEY = process.env.STOREFRONT_API_KEY ?? 'storefront-web';
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const METRICS = {
  'largest-contentful-paint': 'LCP ms',
  'total-blocking-time': 'TBT ms',
  'cumulative-layout-shift': 'CLS',
  'first-contentful-paint': 'FCP ms',
} as const;

const median = (xs: number[]) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!s.length) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

console.log(
  `lighthouse ${runs}× per page, mobile profile, ${chromePath}; load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}\n`,
);
const server = await startShop({
  db: 'sqlite',
  env: { WEB_BUILD_DIR: process.env.WEB_BUILD_DIR ? path.resolve(REPO_ROOT, process.env.WEB_BUILD_DIR) : undefined },
});
const browser = await puppeteer.launch({
  executablePath: chromePath,
  headless: true,
  args: CHROMIUM_ARGS,
});
try {
  const base = server.baseUrl;
  const api = async (p: string, init: RequestInit = {}): Promise<any> =>
    (await fetch(`${base}${p}`, { ...init, headers: { 'x-api-key': API_KEY, 'content-type': 'application/json', ...init.headers } })).json();
  // A single product with stock, and the cart the browser would keep for it.
  let product:
    | {
        id: number;
        title: string;
        slug: string;
        image: string | null;
        code: string;
        salesPrice: number;
        discountedSalesPrice: number | null;
        unitPrice: number;
      }
    | undefined;
  for (let id = 1; id < 60 && !product; id++) {
    const item = await api(`/api/v3/items/joined?id=${id}`);
    if (item?.kind !== 'single' || !item.skus?.length) continue;
    const q = await api('/api/carts/quote', { method: 'POST', body: JSON.stringify({ lines: [{ skuCode: item.skus[0].code, quantity: 1 }] }) });
    const line = q.lines?.[0];
    if (line?.availableQuantity > 0)
      product = {
        id: item.id,
        title: item.title,
        slug: item.slug,
        image: line.product?.image ?? null,
        code: line.skuCode,
        salesPrice: line.salesPrice,
        discountedSalesPrice: line.sku?.discountedSalesPrice ?? null,
        unitPrice: line.unitPrice,
      };
  }
  if (!product) throw new Error('no product with stock in the demo catalogue');
  const cart = {
    version: 1,
    lines: [
      {
        product: { id: product.id, title: product.title, slug: product.slug, image: product.image },
        sku: { code: product.code, salesPrice: product.salesPrice, discountedSalesPrice: product.discountedSalesPrice },
        quantity: 1,
        subTotal: product.unitPrice,
        salesPrice: product.unitPrice,
      },
    ],
    couponCode: null,
    couponAmount: 0,
  };

  const pages: { name: string; path: string; withCart?: boolean }[] = [
    { name: 'home', path: '/' },
    { name: 'shop', path: '/shop' },
    { name: 'product', path: `/details?id=${product.id}` },
    { name: 'checkout', path: '/checkout', withCart: true },
  ]
    .filter((p) => wanted.includes(p.name))
    .flatMap((p) =>
      langs.map((lang) => (lang === 'en' ? p : { ...p, name: `${p.name} (${lang})`, path: `${p.path}${p.path.includes('?') ? '&' : '?'}lang=${lang}` })),
    );

  // One visit to each page before any is measured: the figures are of a running shop, not of
  // the first requests after its start (route modules loaded and the database's pages read
  // on first use).
  {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    for (const p of pages) await page.goto(`${base}${p.path}`, { waitUntil: 'networkidle0' });
    await context.close();
  }

  const rows: string[][] = [];
  const raw: Record<string, unknown>[] = [];
  for (const p of pages) {
    const scores: Record<string, number[]> = Object.fromEntries(CATEGORIES.map((c) => [c, []]));
    const metrics: Record<string, number[]> = Object.fromEntries(Object.keys(METRICS).map((m) => [m, []]));
    for (let i = 0; i < runs; i++) {
      const audit = async () => {
        // A browser context of its own: Lighthouse's storage reset keeps cookies, and the
        // language cookie a Bangla run leaves would otherwise render the next page in Bangla.
        const context = await browser.createBrowserContext();
        const page = await context.newPage();
        if (p.withCart) {
          // The cart lives in the browser's storage (spec): put it there, then audit without
          // Lighthouse's storage reset — but with a cold HTTP cache like the other pages.
          await page.goto(`${base}/about`);
          // Runs in the page (bench compiles without the DOM library).
          await page.evaluate(
            (value) => (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('cart', value),
            JSON.stringify(cart),
          );
          const cdp = await page.createCDPSession();
          await cdp.send('Network.clearBrowserCache');
        }
        const result = await lighthouse(`${base}${p.path}`, { logLevel: 'error', output: 'json', disableStorageReset: Boolean(p.withCart) }, undefined, page);
        await context.close();
        return result?.lhr;
      };
      let lhr = await audit();
      // Now and then Chromium's trace of the load lacks its start (NO_NAVSTART), and
      // Lighthouse asks to be run again: the run is repeated, at most twice, and says so.
      for (let retry = 0; retry < 2 && lhr?.runtimeError?.code === 'NO_NAVSTART'; retry++) {
        console.log(`  ${p.name} run ${i + 1}: ${lhr.runtimeError.code}, run again`);
        lhr = await audit();
      }
      if (!lhr) throw new Error(`no Lighthouse result for ${p.path}`);
      if (lhr.runtimeError) throw new Error(`Lighthouse could not audit ${p.path}: ${lhr.runtimeError.message}`);
      if (values.reports) {
        const dir = path.resolve(process.env.INIT_CWD ?? process.cwd(), values.reports);
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(path.join(dir, `${p.name.replace(/\W+/g, '-')}-${i + 1}.json`), JSON.stringify(lhr));
      }
      for (const c of CATEGORIES) scores[c].push(Math.round((lhr.categories[c]?.score ?? NaN) * 100));
      for (const m of Object.keys(METRICS)) metrics[m].push(lhr.audits[m]?.numericValue ?? NaN);
      const failing = Object.values(lhr.audits).filter(
        (a) =>
          a.score !== null &&
          a.score < 0.9 &&
          a.scoreDisplayMode !== 'informative' &&
          a.scoreDisplayMode !== 'manual' &&
          a.scoreDisplayMode !== 'notApplicable',
      );
      raw.push({
        page: p.name,
        run: i + 1,
        scores: Object.fromEntries(CATEGORIES.map((c) => [c, lhr.categories[c]?.score])),
        failing: failing.map((a) => a.id),
      });
      console.log(
        `  ${p.name} run ${i + 1}: ${CATEGORIES.map((c) => `${c} ${scores[c].at(-1)}`).join(', ')}${failing.length ? `; below 90: ${failing.map((a) => a.id).join(', ')}` : ''}`,
      );
    }
    rows.push([
      p.name,
      p.path.replace(/\?id=\d+/, ''),
      ...CATEGORIES.map((c) => String(median(scores[c]))),
      ...Object.keys(METRICS).map((m) => {
        const v = median(metrics[m]);
        return m === 'cumulative-layout-shift' ? v.toFixed(3) : String(Math.round(v));
      }),
    ]);
  }
  console.log('');
  console.log(
    formatTable(['page', 'path', 'performance', 'accessibility', 'best practices', 'SEO', ...Object.values(METRICS)], rows, [
      'left',
      'left',
      'right',
      'right',
      'right',
      'right',
      'right',
      'right',
      'right',
      'right',
    ]),
  );
  console.log(`\nmedian of ${runs} run${runs === 1 ? '' : 's'} per page; goal: 95 or more in each category.`);
  if (values.json) {
    fs.writeFileSync(path.resolve(process.env.INIT_CWD ?? process.cwd(), values.json), JSON.stringify(raw, null, 2));
  }
} finally {
  await browser.close();
  await server.stop();
}
