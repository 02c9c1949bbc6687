import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { DbConfig } from '../config.ts';
import { migrations } from './migrations/index.ts';
import type { Database } from './schema.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  destroy(): Promise<void>;
}

// PostgreSQL returns bigint (int8) and numeric as strings; our amounts are safe integers.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

export function openDb(config: DbConfig): Db {
  if (config.kind === 'sqlite') {
    fs.mkdirSync(path.dirname(config.file), { recursive: true });
    const conn = new SqliteDatabase(config.file);
    conn.pragma('journal_mode = WAL');
    // Durable commits: an acknowledged order survives a power cut (issue #2).
    conn.pragma('synchronous = FULL');
    conn.pragma('foreign_keys = ON');
    conn.pragma('busy_timeout = 5000');
    const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: conn }) });
    return { kysely, dialect: 'sqlite', destroy: () => kysely.destroy() };
  }
  const pool = new pg.Pool({
    connectionString: config.url,
    max: Number(process.env.PG_POOL_SIZE ?? 20),
    // An unreachable server (a network partition, a restart) fails a request in bounded
    // time (a 503) instead of leaving it waiting for a connection for ever.
    connectionTimeoutMillis: Number(process.env.PG_CONNECT_TIMEOUT_MS ?? 5_000),
    keepAlive: true,
    // Each test run (and any tenant) may live in its own schema.
    options: config.schema ? `-c search_path=${config.schema}` : undefined,
  });
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { kysely, dialect: 'postgres', destroy: () => kysely.destroy() };
}

export async function migrateToLatest(db: Db, schema?: string): Promise<void> {
  // A run confined to its own PostgreSQL schema (tests, benchmarks) creates it first.
  if (db.dialect === 'postgres' && schema) await sql`create schema if not exists ${sql.id(schema)}`.execute(db.kysely);
  const migrator = new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => migrations },
    // Unless told a schema, Kysely takes a kysely_migration table in *any* schema of the
    // database as its own: a second schema (a test run, a tenant) would then skip creating
    // its bookkeeping tables and fail. Pin them to the schema the tables go into.
    migrationTableSchema: await currentSchema(db),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`${failed ? `migration ${failed.migrationName}` : 'migrations'} failed: ${String((error as Error)?.message ?? error)}`);
  }
}

/** The PostgreSQL schema unqualified tables are created in (first of search_path). */
async function currentSchema(db: Db): Promise<string | undefined> {
  if (db.dialect !== 'postgres') return undefined;
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db.kysely);
  return rows[0]?.schema ?? undefined;
}

export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db.kysely);
}
