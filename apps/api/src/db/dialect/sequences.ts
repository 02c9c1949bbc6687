import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * After rows were inserted with explicit ids, PostgreSQL's serial sequences must be
 * moved past them; SQLite's rowid allocation needs nothing.
 */
export async function syncSequences(db: Kysely<any>, dialect: Dialect, tables: string[]): Promise<void> {
  if (dialect !== 'postgres') return;
  for (const t of tables) {
    await sql`select setval(pg_get_serial_sequence(${t}, 'id'), coalesce((select max(id) from ${sql.table(t)}), 0) + 1, false)`.execute(db);
  }
}
