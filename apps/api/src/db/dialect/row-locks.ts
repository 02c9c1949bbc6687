import type { SelectQueryBuilder } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Locks the rows a SELECT reads until the transaction ends (PostgreSQL `FOR UPDATE`), so
 * that a read-decide-write sequence (how much stock is left, then take it) cannot
 * interleave with another transaction doing the same. SQLite has no row locks and needs
 * none: its write transactions run one at a time on the one connection (decision 0016).
 * Callers lock rows in one global order (by key) so that two transactions never wait on
 * each other in a cycle.
 */
export function forUpdate<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  dialect: Dialect,
  of?: (TB & string)[],
): SelectQueryBuilder<DB, TB, O> {
  if (dialect !== 'postgres') return query;
  // FOR UPDATE OF t: lock only the rows of t, not those of tables joined for reading.
  return of?.length ? query.forUpdate(of as never) : query.forUpdate();
}
