import { describe, expect, it } from 'vitest';
import { runDurability } from '../../../bench/lib/durability.ts';
import { testDbKind } from './helpers/test-app.ts';

// A short run of the SIGKILL durability proof (bench/lib/durability.ts) inside `npm test`:
// a real server process on this project's database (SQLite, or PostgreSQL in the
// api-postgres project), killed three times under checkout load and restarted. The full
// run (50 cycles and more) is `npm run durability -w bench -- --db both --cycles 50`.

const CYCLES = Number(process.env.DURABILITY_CYCLES ?? 3);

describe('orders survive SIGKILL', () => {
  it(`every acknowledged order is kept with its lines and total, and stock adds up, across ${CYCLES} kills of the server under load`, {
    timeout: 120_000 + CYCLES * 60_000,
  }, async () => {
    const report = await runDurability({ db: testDbKind(), cycles: CYCLES, loadMs: [200, 1200], log: (line) => console.log(line) });
    expect(report.problems, `seed ${report.seed}`).toEqual([]);
    expect(report.kills).toBe(CYCLES);
    expect(report.acknowledged).toBeGreaterThan(0);
    expect(report.ordersInDb).toBeGreaterThanOrEqual(report.acknowledged);
  });
});
