import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config.ts';
import { openDb } from '../src/db/database.ts';
import { DB_NAME, type Manifest, MANIFEST } from '../src/ops/backup.ts';
import { checkout, checkoutBody, generousOrderLimits, plainSkus, setStock, type TestSku } from './helpers/checkout.ts';
import { pngBytes, uploadForm } from './helpers/files.ts';
import { startTestApp, type TestApp, testDbKind } from './helpers/test-app.ts';

// SQLite only: `npm run backup` copies a SQLite shop with SQLite's online backup API.
// A PostgreSQL shop is backed up with pg_dump / pg_restore (README, "Backups"), which this
// project does not wrap, so the api-postgres run has nothing to test here and skips it.
//
// The backup is taken by the real command, in a process of its own, while this process
// keeps placing orders against the shop; the restored copy must hold every order that was
// acknowledged before the backup began, and the uploaded files (docs/decisions/0027).

const sqlite = testDbKind() === 'sqlite';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'storefront-backup-'));

let t: TestApp;
let skus: TestSku[];
const uploaded: { uuid: string; sha256: string }[] = [];

beforeAll(async () => {
  if (!sqlite) return;
  // Many checkouts from one address: the per-client order limits (docs/decisions/0022) are lifted.
  t = await startTestApp({ dialect: 'sqlite', config: { orders: generousOrderLimits() } });
  skus = await plainSkus(t.db.kysely, 6, 20);
  for (const s of skus) await setStock(t.db.kysely, s.id, [100_000]);
  for (let i = 0; i < 3; i++) {
    const bytes = pngBytes(20 + i, 10 + i);
    const res = await t.api('/api/files', { method: 'POST', body: uploadForm({ bytes, name: `proof-${i}.png`, contentType: 'image/png' }) });
    expect(res.status, res.text).toBe(200);
    // What is stored is the image encoded again (modules/images): the bytes served.
    const stored = Buffer.from(await (await fetch(`${t.baseUrl}${res.body.cdnUrl}`)).arrayBuffer());
    uploaded.push({ uuid: res.body.uuid, sha256: sha256(stored) });
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Runs an npm script's entry (`npm run backup` / `restore`) as the shell would, with the shop's settings. */
function runOps(script: 'backup' | 'restore', args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  // The compiled commands, as `npm run backup` / `restore` run them (npm test builds first).
  const entry = path.join(REPO_ROOT, `apps/api/dist/${script}-cli.js`);
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete childEnv.DATABASE_URL;
  const child = spawn(process.execPath, [entry, ...args], { cwd: REPO_ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d));
  child.stderr.on('data', (d: Buffer) => (out += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out })));
}

describe.runIf(sqlite)('npm run backup / restore (SQLite)', () => {
  let backupDir: string;
  const ackedBefore: string[] = [];
  let ackedDuring = 0;

  it('takes a consistent backup while checkouts go on', async () => {
    let phase: 'before' | 'during' | 'after' = 'before';
    let failures = 0;
    const buyers = Array.from({ length: 4 }, async (_, b) => {
      for (let i = 0; phase !== 'after'; i++) {
        const sku = skus[(b + i) % skus.length];
        const started = phase;
        const res = await checkout(t, checkoutBody([{ skuCode: sku.code, quantity: 1 }]));
        if (res.status !== 201) {
          failures++;
          continue;
        }
        // Acknowledged before the backup began: the request was also sent before.
        if (started === 'before' && phase === 'before') ackedBefore.push(res.body.invoiceId);
        else if (phase === 'during') ackedDuring++;
      }
    });
    // Some orders first, then the backup while the buyers keep going.
    while (ackedBefore.length < 20) await new Promise((r) => setTimeout(r, 20));
    phase = 'during';
    const run = await runOps('backup', ['--out', path.join(tmp, 'backups')], { SQLITE_FILE: t.db.file!, DATA_DIR: t.app.config.dataDir });
    phase = 'after';
    await Promise.all(buyers);
    expect(run.code, run.out).toBe(0);
    expect(failures).toBe(0);
    // The shop served during the backup (the command's start-up alone takes a while).
    expect(ackedDuring).toBeGreaterThan(0);
    const dirs = fs.readdirSync(path.join(tmp, 'backups'));
    expect(dirs).toHaveLength(1);
    expect(dirs[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z$/);
    backupDir = path.join(tmp, 'backups', dirs[0]);
    expect(run.out).toContain(`backup written to ${backupDir}`);
    console.log(`backup: ${ackedBefore.length} orders acknowledged before it began, ${ackedDuring} while it ran; ${run.out.trim()}`);

    const manifest = JSON.parse(fs.readFileSync(path.join(backupDir, MANIFEST), 'utf8')) as Manifest;
    const db = fs.readFileSync(path.join(backupDir, DB_NAME));
    expect(manifest.database).toMatchObject({ path: DB_NAME, bytes: db.length, sha256: sha256(db), integrityCheck: 'ok' });
    expect(manifest.database.orders).toBeGreaterThanOrEqual(ackedBefore.length);
    expect(manifest.files).toHaveLength(uploaded.length);
    for (const f of manifest.files) expect(sha256(fs.readFileSync(path.join(backupDir, f.path)))).toBe(f.sha256);
  }, 120_000);

  it('restores into a new folder that opens with every order acknowledged before the backup, and the files', async () => {
    const target = path.join(tmp, 'restored');
    const run = await runOps('restore', [backupDir, '--to', target]);
    expect(run.code, run.out).toBe(0);

    const raw = new SqliteDatabase(path.join(target, DB_NAME), { readonly: true });
    try {
      expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(raw.pragma('foreign_key_check')).toEqual([]);
    } finally {
      raw.close();
    }
    // Opened as the shop opens it.
    const db = openDb({ kind: 'sqlite', file: path.join(target, DB_NAME) });
    try {
      const rows = await db.kysely.selectFrom('sales').select(['id', 'invoice_id']).where('invoice_id', 'in', ackedBefore).execute();
      expect(rows.map((r) => r.invoice_id).sort()).toEqual([...ackedBefore].sort());
      const lines = await db.kysely
        .selectFrom('sale_lines')
        .select('sale_id')
        .distinct()
        .where(
          'sale_id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
      expect(lines).toHaveLength(rows.length);
      // Every file the copied database knows is there, byte for byte.
      const files = await db.kysely.selectFrom('files').select(['uuid', 'storage_key']).execute();
      expect(files.map((f) => f.uuid).sort()).toEqual(uploaded.map((u) => u.uuid).sort());
      for (const f of files) {
        const bytes = fs.readFileSync(path.join(target, 'files', ...f.storage_key.split('/')));
        expect(sha256(bytes)).toBe(uploaded.find((u) => u.uuid === f.uuid)!.sha256);
      }
    } finally {
      await db.destroy();
    }
  }, 60_000);

  it('refuses to restore over a folder that is not empty, unless --force, and then moves the old data aside', async () => {
    const target = path.join(tmp, 'restored');
    const refused = await runOps('restore', [backupDir, '--to', target]);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/restore refused: the target is not empty/);
    const forced = await runOps('restore', [backupDir, '--to', target, '--force']);
    expect(forced.code, forced.out).toBe(0);
    const aside = fs.readdirSync(target).filter((n) => n.startsWith('replaced-'));
    expect(aside).toHaveLength(1);
    expect(fs.readdirSync(path.join(target, aside[0])).sort()).toEqual(['files', DB_NAME]);
  }, 60_000);

  it('refuses a damaged backup', async () => {
    const damaged = path.join(tmp, 'damaged');
    fs.cpSync(backupDir, damaged, { recursive: true });
    const manifest = JSON.parse(fs.readFileSync(path.join(damaged, MANIFEST), 'utf8')) as Manifest;
    fs.appendFileSync(path.join(damaged, manifest.files[0].path), 'x');
    const run = await runOps('restore', [damaged, '--to', path.join(tmp, 'never')]);
    expect(run.code).toBe(1);
    expect(run.out).toContain(`is damaged: ${manifest.files[0].path} differs from the manifest`);
    expect(fs.existsSync(path.join(tmp, 'never', DB_NAME))).toBe(false);
  }, 60_000);
});
