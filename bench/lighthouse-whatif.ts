import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CHROME_PATH, CHROMIUM_ARGS } from '../e2e/fixtures/chromium.ts';
import { REPO_ROOT, startShop } from './lib/server.ts';
import { formatTable } from './lib/table.ts';

// "What would Lighthouse say if this request were smaller, or gone?" — answered without the
// machine's noise. Lighthouse's mobile figures are a simulation (its "lantern" graph) built
// from one observed load: this loads a page once (Lighthouse's gather mode, mobile profile,
// the production build on a fresh SQLite database), then audits that same load again for
// each variant, with the recorded network log edited. The same load audited twice gives the
// same figures, so a variant's difference is the edit's alone.
//
//   CHROME_PATH=/usr/bin/chromium node --import tsx bench/lighthouse-whatif.ts --page '/details?id=1&lang=bn' \
//     --variant 'no Bengali font=drop:noto-sans-bengali' --variant 'half the vendor=size:vendor-*0.5' \
//     --variant 'one script=merge:(root|seo|price)->shell-'
//
// Edits, comma-separated within a variant (the patterns are regular expressions on the URL):
//   drop:RE         the requests are not made
//   size:RE*F       their transfer sizes times F
//   merge:RE->RE2   the requests matching RE are not made, and their bytes go to RE2's
//
// It answers for the network side only: the CPU work of a dropped script stays in the
// trace. Confirm a promising variant with a real build and bench/lighthouse.ts.

const { values } = parseArgs({
  options: {
    page: { type: 'string', default: '/' },
    variant: { type: 'string', multiple: true, default: [] },
    // Audit an earlier gather again (a folder this printed) instead of loading the page.
    artifacts: { type: 'string' },
  },
});

const LIGHTHOUSE = path.join(REPO_ROOT, 'node_modules/.bin/lighthouse');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-whatif-'));

interface DevtoolsEvent {
  method: string;
  params: { requestId?: string; request?: { url: string }; encodedDataLength?: number; dataLength?: number };
}

function lighthouse(args: string[]): void {
  const run = spawnSync(LIGHTHOUSE, args, { env: { ...process.env, CHROME_PATH }, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`lighthouse ${args.join(' ')} failed:\n${run.stderr.slice(-2000)}`);
}

let gathered = values.artifacts ? path.resolve(values.artifacts) : '';
if (!gathered) {
  const server = await startShop({
    db: 'sqlite',
    env: { WEB_BUILD_DIR: process.env.WEB_BUILD_DIR ? path.resolve(REPO_ROOT, process.env.WEB_BUILD_DIR) : undefined },
  });
  try {
    const url = `${server.baseUrl}${values.page}`;
    // One unmeasured visit first, as bench/lighthouse.ts does: a running shop, not a cold one.
    await fetch(url);
    gathered = path.join(work, 'gathered');
    lighthouse([url, `-G=${gathered}`, '--quiet', `--chrome-flags=--headless=new ${CHROMIUM_ARGS.join(' ')}`]);
  } finally {
    await server.stop();
  }
}
const log = JSON.parse(fs.readFileSync(path.join(gathered, 'devtoolslog.json'), 'utf8')) as DevtoolsEvent[];
const urls = new Map<string, string>();
for (const e of log) if (e.method === 'Network.requestWillBeSent' && e.params.requestId && e.params.request) urls.set(e.params.requestId, e.params.request.url);

/** The network log as it would be with the variant's edits. */
function edit(spec: string): DevtoolsEvent[] {
  const dropped = new Set<string>();
  const factor = new Map<string, number>();
  const added = new Map<string, number>();
  const bytes = (id: string) =>
    log.filter((e) => e.method === 'Network.loadingFinished' && e.params.requestId === id).reduce((n, e) => n + (e.params.encodedDataLength ?? 0), 0);
  const matching = (re: string) => [...urls].filter(([, url]) => new RegExp(re).test(url)).map(([id]) => id);
  for (const op of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [kind, arg] = [op.slice(0, op.indexOf(':')), op.slice(op.indexOf(':') + 1)];
    if (kind === 'drop') for (const id of matching(arg)) dropped.add(id);
    else if (kind === 'size') {
      const at = arg.lastIndexOf('*');
      for (const id of matching(arg.slice(0, at))) factor.set(id, Number(arg.slice(at + 1)));
    } else if (kind === 'merge') {
      const [from, to] = arg.split('->');
      const [target] = matching(to);
      if (!target) throw new Error(`merge: no request matches ${to}`);
      for (const id of matching(from).filter((id) => id !== target)) {
        dropped.add(id);
        added.set(target, (added.get(target) ?? 0) + bytes(id));
      }
    } else throw new Error(`unknown edit ${op} (drop:, size: or merge:)`);
  }
  return log
    .filter((e) => !(e.params.requestId && dropped.has(e.params.requestId)))
    .map((e) => {
      const id = e.params.requestId;
      if (!id || e.method !== 'Network.loadingFinished' || !(factor.has(id) || added.has(id))) return e;
      const size = Math.round((e.params.encodedDataLength ?? 0) * (factor.get(id) ?? 1) + (added.get(id) ?? 0));
      return { ...e, params: { ...e.params, encodedDataLength: size } };
    });
}

const METRICS = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'speed-index'] as const;
const rows: string[][] = [];
for (const variant of ['as loaded=', ...values.variant]) {
  const [name, spec] = [variant.slice(0, variant.indexOf('=')), variant.slice(variant.indexOf('=') + 1)];
  const dir = path.join(work, `variant-${rows.length}`);
  fs.cpSync(gathered, dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'devtoolslog.json'), JSON.stringify(edit(spec)));
  const out = path.join(dir, 'report.json');
  lighthouse(['http://audit.invalid/', `-A=${dir}`, '--output=json', `--output-path=${out}`, '--quiet']);
  const lhr = JSON.parse(fs.readFileSync(out, 'utf8'));
  rows.push([name, String(Math.round(lhr.categories.performance.score * 100)), ...METRICS.map((m) => String(Math.round(lhr.audits[m].numericValue)))]);
}
console.log(`${values.page}, one load audited once per variant (gathered in ${gathered})\n`);
console.log(formatTable(['variant', 'performance', 'FCP ms', 'LCP ms', 'TBT ms', 'SI ms'], rows, ['left', 'right', 'right', 'right', 'right', 'right']));
