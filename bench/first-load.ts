import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';
import puppeteer, { type CDPSession } from 'puppeteer-core';
import { CHROME_PATH, CHROMIUM_ARGS } from '../e2e/fixtures/chromium.ts';
import { REPO_ROOT, startShop } from './lib/server.ts';
import { formatTable } from './lib/table.ts';

// First-load JavaScript of each storefront route, as a shopper's browser gets it: every
// route is opened cold (a fresh browser context, empty HTTP cache) in Debian's Chromium,
// and every script the page fetches until the network has been quiet for a moment is
// counted, hydration's own imports included. Sizes are brotli (the build's .br file, as
// the server sends it to a browser that asks for br), next to the uncompressed bytes.
// The budget is 100 KiB brotli per route (decision 0030); rows over it are marked.
//
//   CHROME_PATH=/usr/bin/chromium node --import tsx bench/first-load.ts [--json out.json] [--list]
//   npm run first-load -w bench
//
// Needs the web build (npm run build; WEB_BUILD_DIR picks another). Sizes do not depend on
// the machine's load: unlike the throughput figures, they can be compared across machines.

const { values } = parseArgs({
  options: {
    json: { type: 'string' },
    // Also print each route's scripts, largest first.
    list: { type: 'boolean', default: false },
    'budget-kib': { type: 'string', default: '100' },
  },
});
const budget = Number(values['budget-kib']) * 1024;
const chromePath = CHROME_PATH;
const buildDir = path.resolve(REPO_ROOT, process.env.WEB_BUILD_DIR ?? 'apps/web/build');
const API_KEY = process.env.STOREFRONT_API_KEY ?? 'storefront-web';

/** The brotli size of a served script: the build's .br beside it, else compressed here. */
function brotliBytes(urlPath: string, body: Buffer): number {
  const file = path.join(buildDir, 'client', decodeURIComponent(urlPath));
  if (fs.existsSync(`${file}.br`)) return fs.statSync(`${file}.br`).size;
  return zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
}

const server = await startShop({
  db: 'sqlite',
  env: { WEB_BUILD_DIR: process.env.WEB_BUILD_DIR ? buildDir : undefined },
});
const browser = await puppeteer.launch({
  executablePath: chromePath,
  headless: true,
  args: CHROMIUM_ARGS,
});

interface Row {
  route: string;
  path: string;
  scripts: { url: string; raw: number; br: number }[];
  raw: number;
  br: number;
}

try {
  const base = server.baseUrl;
  const api = async (p: string): Promise<any> => (await fetch(`${base}${p}`, { headers: { 'x-api-key': API_KEY } })).json();
  let productId = 0;
  for (let id = 1; id < 60 && !productId; id++) if ((await api(`/api/v3/items/joined?id=${id}`))?.id === id) productId = id;
  if (!productId) throw new Error('no product in the demo catalogue');

  const routes: { route: string; path: string }[] = [
    { route: 'home', path: '/' },
    { route: 'shop', path: '/shop' },
    { route: 'search', path: '/shop?search=sofa' },
    { route: 'details', path: `/details?id=${productId}` },
    { route: 'new-arrival', path: '/new-arrival' },
    { route: 'sales', path: '/sales' },
    { route: 'cart', path: '/cart' },
    { route: 'checkout', path: '/checkout' },
    { route: 'sign-in', path: '/sign-in' },
    { route: 'sign-up', path: '/sign-up' },
    { route: 'forgot-password', path: '/forgot-password' },
    { route: 'contact', path: '/contact' },
    { route: 'outlets', path: '/outlets' },
    { route: 'about', path: '/about' },
    { route: 'not-found', path: '/no-such-page' },
  ];

  const rows: Row[] = [];
  for (const r of routes) {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    const cdp: CDPSession = await page.createCDPSession();
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const scriptIds = new Map<string, string>();
    cdp.on('Network.responseReceived', (e) => {
      if (e.type === 'Script') scriptIds.set(e.requestId, e.response.url);
    });
    const finished = new Set<string>();
    cdp.on('Network.loadingFinished', (e) => {
      if (scriptIds.has(e.requestId)) finished.add(e.requestId);
    });
    await page.goto(`${base}${r.path}`, { waitUntil: 'networkidle0' });
    const scripts: Row['scripts'] = [];
    for (const [id, url] of scriptIds) {
      if (!finished.has(id)) continue;
      const { body, base64Encoded } = await cdp.send('Network.getResponseBody', { requestId: id });
      const buf = Buffer.from(body, base64Encoded ? 'base64' : 'utf8');
      const u = new URL(url);
      scripts.push({ url: u.pathname, raw: buf.length, br: brotliBytes(u.pathname, buf) });
    }
    scripts.sort((a, b) => b.br - a.br);
    rows.push({
      ...r,
      scripts,
      raw: scripts.reduce((s, x) => s + x.raw, 0),
      br: scripts.reduce((s, x) => s + x.br, 0),
    });
    await context.close();
  }

  const kib = (n: number) => (n / 1024).toFixed(1);
  console.log(
    `first-load script per route, cold cache, ${chromePath}; budget ${kib(budget)} KiB brotli; load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}\n`,
  );
  console.log(
    formatTable(
      ['route', 'files', 'brotli KiB', 'raw KiB', 'budget'],
      rows.map((r) => [r.route, String(r.scripts.length), kib(r.br), kib(r.raw), r.br <= budget ? 'ok' : 'OVER']),
    ),
  );
  if (values.list)
    for (const r of rows) {
      console.log(`\n${r.route} (${r.path})`);
      for (const s of r.scripts) console.log(`  ${kib(s.br).padStart(7)} KiB br ${kib(s.raw).padStart(8)} KiB  ${s.url}`);
    }
  if (values.json) fs.writeFileSync(values.json, JSON.stringify(rows, null, 2));
} finally {
  await browser.close();
  await server.stop();
}
