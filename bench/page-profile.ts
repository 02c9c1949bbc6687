import path from 'node:path';
import { parseArgs } from 'node:util';
import { originalPositionFor } from '@jridgewell/trace-mapping';
import puppeteer from 'puppeteer-core';
import { CHROME_PATH, CHROMIUM_ARGS } from '../e2e/fixtures/chromium.ts';
import { phonePage } from './lib/phone-page.ts';
import { REPO_ROOT, startShop } from './lib/server.ts';
import { shortSource, sourceMaps } from './lib/source-maps.ts';

// Where a page's main-thread script time goes: each page is opened cold (a browser context of
// its own) at a phone's viewport with V8's sampling profiler on, until the network is quiet
// and a moment after (hydration, effects, pop-ups), and the samples' own time is summed per
// package or source file and per function, mapped through the build's source maps. The
// first load of each page is not counted (it makes the picture copies). Lighthouse says how
// long the page blocks; this says what is running.
//
//   (cd apps/web && WEB_SOURCEMAP=1 WEB_BUILD_OUT=build-map npx react-router build)
//   WEB_BUILD_DIR=apps/web/build-map node --import tsx bench/page-profile.ts [--pages /,/shop,/details?id=1] [--runs 3] [--top 30]
//
// Times are milliseconds of one load, unthrottled, on this machine: compare builds in one
// quiet session, not across machines.

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '/,/shop,/details?id=1' },
    runs: { type: 'string', default: '3' },
    top: { type: 'string', default: '30' },
  },
});
const runs = Math.max(1, Number(values.runs));
const top = Number(values.top);
const build = path.resolve(REPO_ROOT, process.env.WEB_BUILD_DIR ?? 'apps/web/build');
const server = await startShop({ db: 'sqlite', env: { WEB_BUILD_DIR: build } });
const base = server.baseUrl;

const mapFor = sourceMaps(build);
const short = shortSource;

const table = (m: Map<string, number>) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, v]) => `  ${v.toFixed(1).padStart(7)}  ${k}`)
    .join('\n');

const browser = await puppeteer.launch({ executablePath: CHROME_PATH, headless: true, args: CHROMIUM_ARGS });
try {
  for (const p of values.pages.split(',')) {
    const byFile = new Map<string, number>();
    const byFunction = new Map<string, number>();
    for (let run = 0; run <= runs; run++) {
      const { page, cdp, close } = await phonePage(browser, 200);
      await cdp.send('Profiler.start');
      await page.goto(base + p, { waitUntil: 'networkidle0' });
      await new Promise((r) => setTimeout(r, 2500));
      const { profile } = await cdp.send('Profiler.stop');
      await close();
      if (run === 0) continue;
      // timeDeltas[i] is the time before sample i: sample i ran until sample i + 1.
      const selfTime = new Map<number, number>();
      const samples = profile.samples ?? [];
      const deltas = profile.timeDeltas ?? [];
      for (let i = 0; i < samples.length; i++) selfTime.set(samples[i], (selfTime.get(samples[i]) ?? 0) + (deltas[i + 1] ?? 0));
      for (const node of profile.nodes) {
        const ms = (selfTime.get(node.id) ?? 0) / 1000 / runs;
        const frame = node.callFrame;
        if (!ms || frame.functionName === '(idle)' || frame.functionName === '(program)') continue;
        let file = frame.url ? frame.url.replace(base, '') : frame.functionName;
        let fn = frame.functionName || '(anonymous)';
        const map = frame.url.startsWith(base) ? mapFor(frame.url) : null;
        const original = map ? originalPositionFor(map, { line: frame.lineNumber + 1, column: frame.columnNumber }) : null;
        if (original?.source) {
          file = short(original.source);
          fn = `${original.name ?? fn} ${original.source.replace(/^.*node_modules\//, '')}:${original.line}`;
        }
        byFile.set(file, (byFile.get(file) ?? 0) + ms);
        byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
      }
    }
    const total = [...byFile.values()].reduce((a, b) => a + b, 0);
    console.log(`\n${p}: ${total.toFixed(0)} ms of script per load (self time, unthrottled, mean of ${runs})\n  by package or file:`);
    console.log(table(byFile));
    console.log('  by function:');
    console.log(table(byFunction));
  }
} finally {
  await browser.close();
  await server.stop();
}
