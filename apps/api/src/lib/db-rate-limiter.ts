import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface LimitState {
  /** Hits counted in the current window, this one included. */
  hits: number;
  /** When the current window ends. */
  resetAt: Date;
}

/** Rows of windows older than this are removed now and then; no window is longer. */
const PRUNE_AFTER_MS = 24 * 60 * 60_000;

/**
 * Fixed-window counters kept in the `rate_limits` table rather than in process memory,
 * so that a limit holds across a restart and across several server processes sharing one
 * PostgreSQL database. Each hit is one atomic upsert (INSERT … ON CONFLICT DO UPDATE …
 * RETURNING), so concurrent requests never lose a count on either database.
 */
export class DbRateLimiter {
  /**
   * `prune: false` inside a transaction: a prune started there could run on the
   * connection after the transaction has given it back to the pool.
   */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly opts: { prune?: boolean } = {},
  ) {}

  /** Counts one hit on `key` (or `by`: a picture's megapixels) and answers the count of its window. */
  async hit(key: string, windowMs: number, now = new Date(), by = 1): Promise<LimitState> {
    const nowIso = now.toISOString();
    const staleBefore = new Date(now.getTime() - windowMs).toISOString();
    const row = await this.db
      .insertInto('rate_limits')
      .values({ key, window_start: nowIso, hits: by })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => {
          // Both expressions read the row as it was, so a stale window restarts at 1.
          const stale = eb('rate_limits.window_start', '<=', staleBefore);
          return {
            hits: eb
              .case()
              .when(stale)
              .then(eb.val(by))
              .else(eb('rate_limits.hits', '+', by))
              .end(),
            window_start: eb.case().when(stale).then(eb.val(nowIso)).else(eb.ref('rate_limits.window_start')).end(),
          };
        }),
      )
      .returning(['hits', 'window_start'])
      .executeTakeFirstOrThrow();
    if (this.opts.prune !== false && Math.random() < 0.01) void this.prune(now).catch(() => {});
    return { hits: Number(row.hits), resetAt: new Date(new Date(row.window_start).getTime() + windowMs) };
  }

  // No peek (a count without a hit): a limit checked first and counted after lets requests
  // sent at once all pass the check. Count first with hit(), then undo() what turns out not
  // to count.

  /** Takes back one hit, or `by` (a request that turned out not to count, such as a good password). */
  async undo(key: string, by = 1): Promise<void> {
    await this.db
      .updateTable('rate_limits')
      .set((eb) => ({ hits: eb('hits', '-', by) }))
      .where('key', '=', key)
      .where('hits', '>=', by)
      .execute();
  }

  async clear(key: string): Promise<void> {
    await this.db.deleteFrom('rate_limits').where('key', '=', key).execute();
  }

  async prune(now = new Date()): Promise<void> {
    await this.db
      .deleteFrom('rate_limits')
      .where('window_start', '<', new Date(now.getTime() - PRUNE_AFTER_MS).toISOString())
      .execute();
  }
}

/** Seconds until `resetAt`, at least 1, for a Retry-After header. */
export function retryAfterSeconds(resetAt: Date, now = new Date()): number {
  return Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000));
}
