import { randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migrateToLatest, openDb } from '../src/db/database.ts';
import { testDbKind } from './helpers/test-app.ts';

// Many runs share one PostgreSQL server, each in its own schema (test files, benchmarks, a
// second shop). Migrating one schema must not trip over another being dropped at the same
// moment: Kysely's stock introspector reads every schema and names each by text, and a
// schema that vanished mid-query failed our migration with "schema ... does not exist".

const url = process.env.DATABASE_URL;

describe.runIf(testDbKind() === 'postgres')('migrations on a PostgreSQL server shared with other schemas', () => {
  const name = (p: string) => `${p}_${randomBytes(5).toString('hex')}`;

  async function churn(admin: pg.Client, stop: { done: boolean }) {
    // Schemas with serial columns, created and dropped as fast as the server allows.
    while (!stop.done) {
      const s = name('churn');
      await admin.query(`create schema "${s}"`);
      await admin.query(`create table "${s}".t (id serial primary key, a text, b int)`);
      await admin.query(`drop schema "${s}" cascade`);
    }
  }

  /** Three sessions creating and dropping schemas until the returned function is called. */
  async function startChurn(): Promise<() => Promise<void>> {
    const admins = await Promise.all(
      [0, 1, 2].map(async () => {
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        return c;
      }),
    );
    const stop = { done: false };
    const churning = admins.map((a) => churn(a, stop));
    return async () => {
      stop.done = true;
      await Promise.all(churning);
      await Promise.all(admins.map((a) => a.end()));
    };
  }

  async function migrateFresh(): Promise<void> {
    const schema = name('mig');
    const db = openDb({ kind: 'postgres', url: url!, schema });
    try {
      await migrateToLatest(db, schema);
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from kysely_migration`.execute(db.kysely);
      expect(rows[0].n).toBeGreaterThan(0);
    } finally {
      await db.destroy();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop schema if exists "${schema}" cascade`).finally(() => c.end());
    }
  }

  it('migrates fresh schemas while other schemas are created and dropped', async () => {
    const stopChurn = await startChurn();
    try {
      for (let i = 0; i < 6; i++) await migrateFresh();
    } finally {
      await stopChurn();
    }
  }, 120_000);

  it('sees only the tables of its own schema', async () => {
    const mine = name('own');
    const other = name('other');
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`create schema "${mine}"; create schema "${other}"`);
      await admin.query(`create table "${mine}".mine (id serial primary key, note text not null default '')`);
      await admin.query(`create table "${other}".theirs (id int)`);
      const db = openDb({ kind: 'postgres', url: url!, schema: mine });
      try {
        const tables = await db.kysely.introspection.getTables();
        expect(tables.map((t) => `${t.schema}.${t.name}`)).toEqual([`${mine}.mine`]);
        const [id, note] = tables[0].columns;
        expect(id).toMatchObject({ name: 'id', isAutoIncrementing: true, isNullable: false, hasDefaultValue: true });
        expect(note).toMatchObject({ name: 'note', isAutoIncrementing: false, dataType: 'text' });
      } finally {
        await db.destroy();
      }
    } finally {
      await admin.query(`drop schema if exists "${mine}" cascade; drop schema if exists "${other}" cascade`);
      await admin.end();
    }
  });

  it('the stock introspector is the one that fails (so the test above can fail)', async () => {
    // Kysely's own dialect on the same race: if this stops failing, Kysely fixed it and our
    // scoped introspector could go.
    const stopChurn = await startChurn();
    const stock = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 2 }) }) });
    let failure: unknown;
    try {
      for (let i = 0; i < 2000 && !failure; i++) {
        await stock.introspection.getTables().catch((err) => {
          failure = err;
        });
      }
    } finally {
      await stopChurn();
      await stock.destroy();
    }
    expect(String(failure)).toMatch(/does not exist/);
  }, 120_000);
});
