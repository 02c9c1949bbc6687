import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { type BuildOptions, buildApp } from '../../src/app.ts';
import { type AppConfig, type DbConfig, loadConfig } from '../../src/config.ts';
import { type Db, type Dialect, migrateToLatest, openDb } from '../../src/db/database.ts';
import { seedIfEmpty } from '../../src/db/seed/seed.ts';

// Starts the real app in-process on a real database, one fresh database per test file:
// SQLite in a file of its own temp folder, or PostgreSQL in a schema of its own (vitest
// project api-postgres sets TEST_DB=postgres; DATABASE_URL names the server). Tests talk
// to it over real HTTP, as the browser and the web server do.

export const TEST_API_KEY = 'test-storefront-key';

export interface ApiInit extends Omit<RequestInit, 'body'> {
  /** Sent as a JSON body with content-type application/json. */
  json?: unknown;
  /** A raw body, sent as given (for malformed or oversized bodies). */
  body?: RequestInit['body'];
  /** The x-api-key to send; null sends none. Defaults to the test app's key. */
  apiKey?: string | null;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  /** The parsed JSON body, or the text when the response is not JSON. */
  body: T;
  text: string;
}

export interface TestApp {
  baseUrl: string;
  dialect: Dialect;
  db: Db;
  app: FastifyInstance;
  api<T = any>(urlPath: string, init?: ApiInit): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

export function testDbKind(): Dialect {
  const kind = process.env.TEST_DB ?? 'sqlite';
  if (kind !== 'sqlite' && kind !== 'postgres') throw new Error(`TEST_DB must be sqlite or postgres, not ${kind}`);
  return kind;
}

async function withPgClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database and the way to remove it. */
async function freshDatabase(kind: Dialect): Promise<{ config: DbConfig; drop(): Promise<void> }> {
  if (kind === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storefront-test-'));
    return {
      config: { kind: 'sqlite', file: path.join(dir, 'test.db') },
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('TEST_DB=postgres needs DATABASE_URL (for example postgres://postgres@127.0.0.1:5432/test)');
  // Lower-case letters and digits only: the name goes into search_path unquoted.
  const schema = `test_${randomBytes(6).toString('hex')}`;
  await withPgClient(url, (c) => c.query(`create schema "${schema}"`));
  return {
    config: { kind: 'postgres', url, schema },
    drop: () => withPgClient(url, (c) => c.query(`drop schema if exists "${schema}" cascade`)).then(() => undefined),
  };
}

export interface StartOptions {
  /** Seed the demo shop (320 products). Default true. */
  seed?: boolean;
  /** The database, when a test needs a given one (default: TEST_DB of the vitest project). */
  dialect?: Dialect;
  /** Settings to change from the test defaults, such as { mail: { smtpUrl, from } }. */
  config?: Partial<AppConfig>;
  /** Options of the files plugin (storage, throttles, test-only address exceptions). */
  files?: BuildOptions['files'];
  /**
   * PostgreSQL only: the app's pool connects here instead of DATABASE_URL (a TCP proxy in
   * a fault test). The fresh schema is still made and dropped through DATABASE_URL.
   */
  connectVia?: string;
}

export async function startTestApp(opts: StartOptions = {}): Promise<TestApp> {
  const kind = opts.dialect ?? testDbKind();
  const fresh = await freshDatabase(kind);
  let db: Db | undefined;
  let app: FastifyInstance | undefined;
  // Uploaded files go to a folder of this app's own, never to the repository's data/.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storefront-data-'));
  try {
    db = openDb(fresh.config.kind === 'postgres' && opts.connectVia ? { ...fresh.config, url: opts.connectVia } : fresh.config);
    // Creating the schema again on the app's own pool is harmless and makes sure the
    // connection that migrates sees it.
    await migrateToLatest(db, fresh.config.kind === 'postgres' ? fresh.config.schema : undefined);
    if (opts.seed !== false) await seedIfEmpty(db.kysely, db.dialect);
    // The app's own defaults (so a new setting needs no change here), with nothing taken
    // from this process's environment: no DATABASE_URL, no SMTP_URL, no web build.
    const config: AppConfig = {
      ...loadConfig({ STOREFRONT_API_KEY: TEST_API_KEY, LOG_LEVEL: 'silent', WEB_BUILD_DIR: '', PUBLIC_URL: 'http://127.0.0.1' }),
      host: '127.0.0.1',
      port: 0,
      db: fresh.config,
      webBuildDir: null,
      dataDir,
      // Tests write to the database directly and read at once: no read cache unless a test
      // asks for one (catalogue-cache.test.ts does).
      readCacheMs: 0,
      shellCacheMs: 0,
      ...opts.config,
    };
    app = await buildApp({ config, db, logger: { level: 'silent' }, files: opts.files });
    await app.listen({ host: '127.0.0.1', port: 0 });
  } catch (err) {
    await app?.close().catch(() => {});
    await db?.destroy().catch(() => {});
    await fresh.drop().catch(() => {});
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  const { port } = app.server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;

  const api = async <T = any>(urlPath: string, init: ApiInit = {}): Promise<ApiResponse<T>> => {
    const { json, apiKey = TEST_API_KEY, body, headers: given, ...rest } = init;
    const headers = new Headers(given);
    if (apiKey !== null && !headers.has('x-api-key')) headers.set('x-api-key', apiKey);
    if (!headers.has('accept')) headers.set('accept', 'application/json');
    let payload = body;
    if (json !== undefined) {
      payload = JSON.stringify(json);
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    }
    const res = await fetch(`${baseUrl}${urlPath}`, { ...rest, headers, body: payload });
    const text = await res.text();
    const isJson = (res.headers.get('content-type') ?? '').includes('application/json');
    return { status: res.status, headers: res.headers, body: (isJson && text ? JSON.parse(text) : text) as T, text };
  };

  const started = { app, db };
  let closed = false;
  return {
    baseUrl,
    dialect: db.dialect,
    db,
    app,
    api,
    async close() {
      if (closed) return;
      closed = true;
      try {
        await started.app.close();
        await started.db.destroy();
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
        await fresh.drop();
      }
    },
  };
}
