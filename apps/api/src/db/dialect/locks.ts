import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Serialises a one-off job (such as seeding) between server processes that share a
 * PostgreSQL database. Call inside a transaction; the lock ends with it. SQLite's
 * write transactions are already exclusive.
 */
export async function lockForTransaction(trx: Kysely<any>, dialect: Dialect, key: number): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${key})`.execute(trx);
}
