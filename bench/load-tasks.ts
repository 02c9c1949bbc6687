import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { originalPositionFor } from '@jridgewell/trace-mapping';
import puppeteer, { type Protocol } from 'puppeteer-core';
import { CHROME_PATH, CHROMIUM_ARGS } from '../e2e/fixtures/chromium.ts';
import { phonePage } from './lib/phone-page.ts';
import { REPO_ROOT, startShop } from './lib/server.ts';
import { shortSource, sourceMaps } from './lib/source-maps.ts';

// The main thread's long tasks of one page load, each with what it did: style, layout, paint,
// parsing, script (from Chromium's trace) and the functions that ran in it (V8's sampling
// profiler, through the build's source maps), marked before or after the first paint.
// Lighthouse counts the tasks after the first paint in its blocking time (four times their
// length, less 50 ms each, on its phone) and those before it in its first paint; page-profile
// says where a whole load's script time goes, this says which task it lands in.
//
//   (cd apps/web && WEB_SOURCEMAP=1 WEB_BUILD_OUT=build-map npx react-router build)
//   WEB_BUILD_DIR=apps/web/build-map node --import tsx bench/load-tasks.ts [--page /shop] [--runs 2] [--min 12]
//
// Unthrottled milliseconds on this machine, at a phone's viewport; the first load is not shown
// (it makes the picture copies).

const { values } = parseArgs({
  options: {
    page: { type: 'string', default: '/' },
    runs: { type: 'string', default: '2' },
    min: { type: 'string', default: '12' },
  },
});
const minUs = Number(values.min) * 1000;
const build = path.resolve(REPO_ROOT, process.env.WEB_BUILD_DIR ?? 'apps/web/build');
const server = await startShop({ db: 'sqlite', env: { WEB_BUILD_DIR: build } });
const base = server.baseUrl;

type TraceEvent = {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { data?: { documentLoaderURL?: string; reason?: string }; beginData?: { dirtyObjects?: number; totalObjects?: number } };
};
type Frame = Protocol.Runtime.CallFrame;

const mapFor = sourceMaps(build);

/** A function's name and place (source-mapped where the build has maps), and whether it is the app's own code. */
function describe(frame: Frame): { name: string; app: boolean } {
  const map = frame.url.startsWith(base) ? mapFor(frame.url) : null;
  const original = map ? originalPositionFor(map, { line: frame.lineNumber + 1, column: frame.columnNumber }) : null;
  if (!original?.source) return { name: `${frame.functionName || '(anonymous)'} ${frame.url.replace(base, '')}`, app: false };
  return { name: `${original.name ?? frame.functionName} ${shortSource(original.source)}:${original.line}`, app: !original.source.includes('node_modules/') };
}

const top = (m: Map<string, number>, n: number) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `${v.toFixed(1)} ${k}`)
    .join(' | ');

const KINDS = [
  'ParseHTML',
  'UpdateLayoutTree',
  'Layout',
  'Paint',
  'EvaluateScript',
  'v8.evaluateModule',
  'FunctionCall',
  'TimerFire',
  'EventDispatch',
  'FireAnimationFrame',
  'RunMicrotasks',
];
const browser = await puppeteer.launch({ executablePath: CHROME_PATH, headless: true, args: CHROMIUM_ARGS });
const traceFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'load-tasks-')), 'trace.json');
try {
  for (let run = 0; run <= Number(values.runs); run++) {
    const { page, cdp, close } = await phonePage(browser, 100);
    if (run > 0) {
      await page.tracing.start({
        path: traceFile,
        categories: [
          'devtools.timeline',
          'disabled-by-default-devtools.timeline',
          'disabled-by-default-devtools.timeline.invalidationTracking',
          'loading',
          'blink.user_timing',
        ],
      });
      await cdp.send('Profiler.start');
    }
    await page.goto(base + values.page, { waitUntil: 'networkidle0' });
    await new Promise((r) => setTimeout(r, 1000));
    if (run === 0) {
      await close();
      continue;
    }
    const { profile } = await cdp.send('Profiler.stop');
    await page.tracing.stop();
    await close();

    const events: TraceEvent[] = JSON.parse(fs.readFileSync(traceFile, 'utf8')).traceEvents;
    const fcp = events.find((e) => e.name === 'firstContentfulPaint');
    const nav = events.find((e) => e.name === 'navigationStart' && e.pid === fcp?.pid && e.args?.data?.documentLoaderURL?.startsWith('http'));
    if (!fcp || !nav) throw new Error('the trace has no first paint or no navigation start');
    const main = events.filter((e) => e.pid === fcp.pid && e.tid === fcp.tid && e.ph === 'X');
    // Why each layout ran: the reasons Chromium gave for the layout invalidations since the one before.
    const invalidations = events.filter((e) => e.pid === fcp.pid && e.name === 'LayoutInvalidationTracking').sort((a, b) => a.ts - b.ts);
    const layoutWhy = new Map<TraceEvent, Map<string, number>>();
    let since = nav.ts;
    for (const layout of main.filter((e) => e.name === 'Layout').sort((a, b) => a.ts - b.ts)) {
      const why = new Map<string, number>();
      for (const e of invalidations)
        if (e.ts > since && e.ts <= layout.ts) why.set(e.args?.data?.reason ?? '?', (why.get(e.args?.data?.reason ?? '?') ?? 0) + 1);
      layoutWhy.set(layout, why);
      since = layout.ts;
    }
    const tasks = main.filter((e) => e.name === 'RunTask' && e.ts >= nav.ts && (e.dur ?? 0) > minUs).sort((a, b) => a.ts - b.ts);

    // Sample i ran from times[i] to times[i + 1]; the profile's clock is the trace's.
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
    const samples = profile.samples ?? [];
    let clock = profile.startTime;
    const times = samples.map((_, i) => (clock += profile.timeDeltas?.[i] ?? 0));

    console.log(`\n${values.page} run ${run}: first paint at ${((fcp.ts - nav.ts) / 1000).toFixed(0)} ms; tasks over ${values.min} ms:`);
    for (const task of tasks) {
      const end = task.ts + (task.dur ?? 0);
      const kinds = new Map<string, number>();
      for (const e of main) if (e.ts >= task.ts && e.ts <= end && KINDS.includes(e.name)) kinds.set(e.name, (kinds.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
      const self = new Map<string, number>();
      const app = new Map<string, number>();
      for (let i = 0; i < samples.length; i++) {
        if (times[i] < task.ts || times[i] > end) continue;
        const node = nodes.get(samples[i]);
        if (!node || ['(idle)', '(program)'].includes(node.callFrame.functionName)) continue;
        const ms = ((times[i + 1] ?? times[i]) - times[i]) / 1000;
        const own = describe(node.callFrame).name;
        self.set(own, (self.get(own) ?? 0) + ms);
        // The app's functions on the stack, each counted once per sample (inclusive time).
        const seen = new Set<string>();
        for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
          const frame = nodes.get(id)?.callFrame;
          const d = frame && describe(frame);
          if (d?.app && !seen.has(d.name)) {
            seen.add(d.name);
            app.set(d.name, (app.get(d.name) ?? 0) + ms);
          }
        }
      }
      const what = [...kinds]
        .filter(([, v]) => v >= 1)
        .map(([k, v]) => `${k} ${v.toFixed(0)}`)
        .join(', ');
      console.log(
        `${((task.ts - nav.ts) / 1000).toFixed(0).padStart(6)} ms  ${((task.dur ?? 0) / 1000).toFixed(1).padStart(6)} ms  ${task.ts < fcp.ts ? 'before' : 'after '} first paint  ${what}`,
      );
      for (const layout of main.filter((e) => e.name === 'Layout' && e.ts >= task.ts && e.ts <= end && (e.dur ?? 0) >= 1000)) {
        const why = layoutWhy.get(layout) ?? new Map<string, number>();
        const objects = layout.args?.beginData;
        console.log(
          `      layout ${((layout.dur ?? 0) / 1000).toFixed(0)} ms, ${objects?.dirtyObjects ?? '?'} of ${objects?.totalObjects ?? '?'} objects: ${top(why, 4) || 'no invalidation recorded'}`,
        );
      }
      if (self.size) console.log(`      self: ${top(self, 4)}`);
      if (app.size) console.log(`      app:  ${top(app, 5)}`);
    }
  }
} finally {
  await browser.close();
  await server.stop();
  fs.rmSync(path.dirname(traceFile), { recursive: true, force: true });
}
