import { parseArgs } from 'node:util';
import { type DurabilityDb, type DurabilityReport, runDurability } from './lib/durability.ts';
import { formatTable } from './lib/table.ts';

// Kills the shop with SIGKILL under checkout load, again and again, and proves from the
// database that nothing acknowledged was lost and stock adds up (bench/lib/durability.ts).
//
//   node --import tsx bench/durability.ts [--db sqlite|postgres|both] [--cycles 50] [--concurrency 6] [--seed N]
//   npm run durability -w bench -- --db both --cycles 50
//
// Unlike the other benchmarks this one is a proof: it exits 1 when a check fails.

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'both' },
    cycles: { type: 'string', default: '50' },
    concurrency: { type: 'string', default: '6' },
    seed: { type: 'string' },
    'min-load-ms': { type: 'string', default: '200' },
    'max-load-ms': { type: 'string', default: '1500' },
  },
});
const hasPg = Boolean(process.env.DATABASE_URL);
if (!['sqlite', 'postgres', 'both'].includes(values.db)) throw new Error('--db must be sqlite, postgres or both');
if (values.db === 'postgres' && !hasPg) throw new Error('--db postgres needs DATABASE_URL');
const dbs: DurabilityDb[] = values.db === 'both' ? (hasPg ? ['sqlite', 'postgres'] : ['sqlite']) : [values.db as DurabilityDb];
if (values.db === 'both' && !hasPg) console.log('DATABASE_URL is not set: running on SQLite only.\n');

const reports: DurabilityReport[] = [];
for (const db of dbs) {
  reports.push(
    await runDurability({
      db,
      cycles: Number(values.cycles),
      concurrency: Number(values.concurrency),
      seed: values.seed === undefined ? undefined : Number(values.seed),
      loadMs: [Number(values['min-load-ms']), Number(values['max-load-ms'])],
      log: (line) => console.log(line),
    }),
  );
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : 0;
};
console.log('');
console.log(
  formatTable(
    [
      'db',
      'seed',
      'kills',
      'acknowledged',
      'refused',
      'cut off',
      'of which committed',
      'orders in db',
      'units sold',
      'restart p50 ms',
      'restart max ms',
      'problems',
    ],
    reports.map((r) => [
      r.db,
      String(r.seed),
      String(r.kills),
      String(r.acknowledged),
      String(r.refused),
      String(r.inDoubt),
      String(r.inDoubtCommitted),
      String(r.ordersInDb),
      String(r.unitsSold),
      String(pct(r.startMs.slice(1), 50)),
      String(Math.max(0, ...r.startMs.slice(1))),
      String(r.problems.length),
    ]),
    ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
  ),
);
const problems = reports.flatMap((r) => r.problems.map((p) => `  [${r.db}] ${p}`));
if (problems.length) {
  console.log(`\nproblems:\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(
  '\nEvery acknowledged order was found with its exact lines and total; refused and cut-off requests left nothing half-written; stock = initial − sold on every sku and branch.',
);
