import os from 'node:os';
import { parseArgs } from 'node:util';
import {
  figures,
  proveCouponOnce,
  proveNoOversell,
  proveSessions,
  proveSharedUploads,
  proveSignInLimit,
  runShoppersLoad,
  STEPS,
  startCluster,
} from './lib/scale-out.ts';
import { formatTable } from './lib/table.ts';

// Scale-out, proven (bench/lib/scale-out.ts): three processes of the shop on one
// PostgreSQL database and one DATA_DIR behind Debian's nginx (installed with apt-get when
// missing). First the promises one at a time (sessions, the once-per-customer coupon, no
// oversell, shared uploads, sign-in limits), then shoppers through nginx for --duration
// seconds with one process killed by SIGKILL halfway. Prints req/s and p50/p99 per process
// and through nginx, the errors, and the orders lost (the goal: 0).
//
//   npm run scale-out -w bench -- [--duration 60] [--shoppers 50] [--processes 3]
//        [--think-min 50] [--think-max 500] [--checkout 0.5] [--no-kill]
//
// Needs DATABASE_URL. SCALE_OUT_PORT_BASE=P puts nginx on P and the processes on P+1…
// (default: free ports). Unlike the figures, the proof is a pass or fail: exit 1 when a
// promise is broken.

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '60' },
    shoppers: { type: 'string', default: '50' },
    processes: { type: 'string', default: '3' },
    'think-min': { type: 'string', default: '50' },
    'think-max': { type: 'string', default: '500' },
    checkout: { type: 'string', default: '0.5' },
    'no-kill': { type: 'boolean', default: false },
  },
});
if (!process.env.DATABASE_URL) {
  console.error('The scale-out proof needs PostgreSQL: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test).');
  process.exit(2);
}
const durationMs = Number(values.duration) * 1000;
const shoppers = Number(values.shoppers);
const processes = Number(values.processes);
if (!(processes >= 2)) throw new Error('--processes: at least 2 (one is killed)');

const cpus = os.cpus();
console.log(
  [
    `storefront scale-out, ${new Date().toISOString()}, node ${process.version}, ${cpus.length} × ${cpus[0]?.model.trim() ?? 'cpu'}`,
    `  ${processes} processes on one PostgreSQL schema behind nginx; ${shoppers} shoppers for ${durationMs / 1000} s${values['no-kill'] ? '' : ', one process killed (SIGKILL) halfway'}`,
    `  load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}${os.loadavg()[0] > cpus.length / 2 ? ' (the machine is busy: figures will be low and noisy)' : ''}`,
    '',
  ].join('\n'),
);

const log = (line: string) => console.log(`  ${line}`);
const cluster = await startCluster({ processes, log });
const problems: string[] = [];
try {
  const proofs: [string, () => Promise<{ problems: string[] }>, (r: any) => string][] = [
    [
      'sessions',
      () => proveSessions(cluster),
      (r) =>
        `signed in on process ${r.signedInOn}; direct ${r.directStatuses.join('/')}, cookie ${r.cookieStatuses.join('/')}, through nginx served by ${[...new Set(r.servedThroughNginx)].join(', ')}; after sign-out ${r.afterSignOut.join('/')}`,
    ],
    [
      'coupon once',
      () => proveCouponOnce(cluster, { customers: 5, perProcess: 4 }),
      (r) =>
        `${r.customers} customers × ${r.sentPerProcess.reduce((a: number, b: number) => a + b, 0)} checkouts at once: ${JSON.stringify(r.statuses)}; orders with the coupon per customer ${r.ordersWithCoupon.join(', ')}`,
    ],
    [
      'no oversell',
      () => proveNoOversell(cluster, { rounds: 5, stock: [3, 2], perProcess: 5 }),
      (r) => `${r.rounds.map((x: any) => `${x.sold}/${x.stock} sold to ${x.sent}, ${x.stockAfter} left`).join('; ')}`,
    ],
    [
      'shared uploads',
      () => proveSharedUploads(cluster),
      (r) => r.uploads.map((u: any) => `via ${u.via} (stored by process ${u.storedBy}): ${u.fetched.join('/')}`).join('; '),
    ],
    [
      'sign-in limit',
      () => proveSignInLimit(cluster),
      (r) => `limit ${r.limit}: in turn ${r.sequential.map((s: any) => `${s.status}@${s.process}`).join(' ')}; at once ${JSON.stringify(r.concurrent)}`,
    ],
  ];
  console.log('the promises, one at a time:');
  for (const [name, prove, summary] of proofs) {
    const r = await prove();
    console.log(`  ${r.problems.length ? 'FAIL' : 'ok  '} ${name.padEnd(15)} ${summary(r)}`);
    problems.push(...r.problems.map((p) => `${name}: ${p}`));
  }

  console.log(`\nshoppers through nginx${values['no-kill'] ? '' : ', with a SIGKILL'}:`);
  const kill = values['no-kill'] ? undefined : { process: 1, afterMs: Math.round(durationMs / 2) };
  const r = await runShoppersLoad(cluster, {
    durationMs,
    shoppers,
    thinkMs: [Number(values['think-min']), Number(values['think-max'])],
    checkoutShare: Number(values.checkout),
    kill,
    log,
  });
  problems.push(...r.problems.map((p) => `load: ${p}`));

  const num = (n: number) => (Number.isFinite(n) ? n.toLocaleString('en-GB', { maximumFractionDigits: n < 10 ? 1 : 0 }) : '-');
  const row = (name: string, rs: typeof r.requests, ms = r.elapsedMs) => {
    const f = figures(rs, ms);
    return [name, num(f.requests), num(f.perSecond), num(f.p50), num(f.p99), num(f.errors)];
  };
  const rows: string[][] = [];
  for (let i = 0; i < cluster.shops.length; i++) {
    const killed = r.killed === i && r.killedAt !== null;
    // The killed process served only until the kill: its rate is over that time.
    rows.push(
      row(
        `process ${i} (port ${cluster.shops[i].port})${killed ? `, killed at ${(r.killedAt! / 1000).toFixed(1)} s` : ''}`,
        r.requests.filter((x) => x.servedBy === i),
        killed ? r.killedAt! : r.elapsedMs,
      ),
    );
  }
  rows.push(
    row(
      'no answer / nginx error',
      r.requests.filter((x) => x.servedBy < 0),
    ),
  );
  rows.push(row(`through nginx, all`, r.requests));
  console.log(formatTable(['served by', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'errors'], rows, ['left', 'right', 'right', 'right', 'right', 'right']));
  console.log('');
  console.log(
    formatTable(
      ['step', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'errors'],
      STEPS.map((s) =>
        row(
          s,
          r.requests.filter((x) => x.step === s),
        ),
      ),
      ['left', 'right', 'right', 'right', 'right', 'right'],
    ),
  );
  const failovers = r.requests.filter((x) => x.failedOver).length;
  console.log(
    [
      '',
      `checkouts: ${r.checkouts.length}, acknowledged ${r.acknowledged}, orders lost: ${r.lost}`,
      `cut off by the kill: ${r.cutOff.length} (${r.cutOffCommitted} of them had committed; each retried once with its Idempotency-Key: ${r.cutOff.map((x) => `${x.status || 'no answer'}→${x.retryStatus ?? '-'}`).join(', ') || 'none'})`,
      `requests nginx passed to another process after a failure: ${failovers}`,
      `errors: no answer or 5xx (allowed only for requests in flight at the kill).`,
    ].join('\n'),
  );
} finally {
  await cluster.stop();
}
if (problems.length) {
  console.log(`\nproblems:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(
  '\nEvery promise held: sessions, the coupon, stock, uploads and sign-in limits are shared by the processes, and no acknowledged order was lost to the kill.',
);
