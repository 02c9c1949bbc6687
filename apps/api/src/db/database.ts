import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { type DatabaseIntrospector, Kysely, type LogEvent, PostgresDialect, SqliteDialect, type SchemaMetadata, sql, type TableMetadata } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import type { DbConfig } from '../config.ts';
import { migrations } from './migrations/index.ts';
import type { Database } from './schema.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  destroy(): Promise<void>;
  /** PostgreSQL: the connection pool's counts, for /metrics (docs/decisions/0027). */
  poolStats?(): { total: number; idle: number; waiting: number };
  /** SQLite: the database file (its -wal beside it), for /metrics and backups. */
  file?: string;
  /**
   * Calls `fn` with the text, duration and parameters of every statement run from now on,
   * until the returned function is called: how tests count and explain what a page costs.
   */
  observe(fn: (sql: string, ms: number, parameters: readonly unknown[]) => void): () => void;
}

/**
 * Kysely prepares every statement it runs; preparing (parsing and planning the SQL) cost
 * about as much as running a page's short lookups. The connection keeps its most recently
 * used prepared statements by SQL text and hands them out again (docs/decisions/0029).
 * Safe because better-sqlite3 runs one statement to completion at a time and the shop
 * never streams (iterates) a result while running another query.
 */
function withStatementCache(conn: SqliteDatabase.Database, max = 500) {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => conn.close(),
    prepare(text: string) {
      let stmt = cache.get(text);
      if (stmt) {
        // Most recently used last: the first entry is the one to drop.
        cache.delete(text);
      } else {
        stmt = conn.prepare(text);
        if (cache.size >= max) cache.delete(cache.keys().next().value as string);
      }
      cache.set(text, stmt);
      return stmt;
    },
  };
}

/** Kysely's log hook, handing each executed statement to the observers (none: nothing to do). */
function statementObservers() {
  const observers = new Set<(sql: string, ms: number, parameters: readonly unknown[]) => void>();
  return {
    log: (event: LogEvent) => {
      if (observers.size) for (const o of observers) o(event.query.sql, event.queryDurationMillis, event.query.parameters);
    },
    observe(fn: (sql: string, ms: number, parameters: readonly unknown[]) => void) {
      observers.add(fn);
      return () => void observers.delete(fn);
    },
  };
}

// PostgreSQL returns bigint (int8) and numeric as strings; our amounts are safe integers.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

export function openDb(config: DbConfig): Db {
  if (config.kind === 'sqlite') {
    fs.mkdirSync(path.dirname(config.file), { recursive: true });
    const conn = new SqliteDatabase(config.file);
    conn.pragma('journal_mode = WAL');
    // Durable commits: an acknowledged order survives a power cut.
    conn.pragma('synchronous = FULL');
    conn.pragma('foreign_keys = ON');
    conn.pragma('busy_timeout = 5000');
    // 32 MB of pages kept by SQLite itself (the default is 2 MB): a search over a large
    // catalogue revisits the same index pages, and rereading them through the OS halved its speed.
    conn.pragma('cache_size = -32768');
    const { log, observe } = statementObservers();
    const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(conn) }), log });
    return { kysely, dialect: 'sqlite', destroy: () => kysely.destroy(), file: config.file, observe };
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
  // Nor one dropped while checked out between two statements (a transaction's, a job's): pg
  // emits that on the client, where no query is waiting to hear it. The next statement on it
  // fails (the request answers 503) and the pool discards it on release, as it is not queryable.
  pool.on('connect', (client) => client.on('error', () => {}));
  const { log, observe } = statementObservers();
  const kysely = new Kysely<Database>({ dialect: new SchemaScopedPostgresDialect({ pool }), log });
  return {
    kysely,
    dialect: 'postgres',
    observe,
    destroy: () => kysely.destroy(),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

/**
 * Kysely's own PostgreSQL introspector (which the migrator uses to see whether its
 * bookkeeping tables exist) reads every schema of the database and calls
 * pg_get_serial_sequence() and has_schema_privilege() on each by name. A schema dropped by
 * another session in the middle of that query (another test file or benchmark finishing)
 * then fails our migration with "schema ... does not exist". This one looks only at the
 * schema we work in and names nothing by text.
 */
class SchemaScopedPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SchemaScopedIntrospector(db);
  }
}

class SchemaScopedIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<any>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace`.execute(this.db);
    return rows.map((r) => ({ name: r.name }));
  }

  async getTables(options: { withInternalKyselyTables?: boolean } = {}): Promise<TableMetadata[]> {
    const { rows } = await sql<{
      table: string;
      schema: string;
      kind: string;
      column: string;
      type: string;
      type_schema: string;
      not_null: boolean;
      has_default: boolean;
      auto_increment: boolean;
    }>`
      select c.relname as table, ns.nspname as schema, c.relkind as kind, a.attname as column,
             typ.typname as type, tns.nspname as type_schema, a.attnotnull as not_null,
             a.atthasdef as has_default,
             (a.attidentity <> '' or coalesce(pg_get_expr(d.adbin, d.adrelid) like 'nextval(%', false)) as auto_increment
        from pg_catalog.pg_class c
        join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
        join pg_catalog.pg_attribute a on a.attrelid = c.oid
        join pg_catalog.pg_type typ on typ.oid = a.atttypid
        join pg_catalog.pg_namespace tns on tns.oid = typ.typnamespace
        left join pg_catalog.pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
       where ns.nspname = current_schema()
         and c.relkind in ('r', 'v', 'p')
         and a.attnum > 0 and not a.attisdropped
       order by c.relname, a.attnum`.execute(this.db);
    const tables = new Map<string, TableMetadata & { columns: TableMetadata['columns'][number][] }>();
    for (const r of rows) {
      if (!options.withInternalKyselyTables && (r.table === 'kysely_migration' || r.table === 'kysely_migration_lock')) continue;
      let t = tables.get(r.table);
      if (!t) {
        t = { name: r.table, schema: r.schema, isView: r.kind === 'v', isForeign: false, columns: [] };
        tables.set(r.table, t);
      }
      t.columns.push({
        name: r.column,
        dataType: r.type,
        dataTypeSchema: r.type_schema,
        isNullable: !r.not_null,
        hasDefaultValue: r.has_default,
        isAutoIncrementing: r.auto_increment,
      });
    }
    return [...tables.values()];
  }
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
