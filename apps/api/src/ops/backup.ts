import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import SqliteDatabase from 'better-sqlite3';

// Online backups of a SQLite shop, and putting one back (docs/decisions/0027). A backup is
// a folder: storefront.db (a consistent copy made with SQLite's online backup API while the
// shop serves), files/ (the uploaded files) and manifest.json (sizes and SHA-256 of each).
// PostgreSQL shops use pg_dump / pg_restore for the database (README, docs/deployment.md).

export const MANIFEST = 'manifest.json';
export const DB_NAME = 'storefront.db';
export const FILES_DIR = 'files';

export interface ManifestEntry {
  path: string;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  format: 1;
  /** When the database copy was taken (ISO 8601). */
  createdAt: string;
  database: ManifestEntry & { integrityCheck: 'ok'; orders: number };
  files: ManifestEntry[];
}

export interface BackupResult {
  dir: string;
  manifest: Manifest;
  ms: number;
}

/** A folder name that sorts by time and is valid on every file system: 2026-11-23T10-15-30.123Z. */
export function backupName(at: Date): string {
  return at.toISOString().replace(/:/g, '-');
}

const BACKUP_NAME = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z$/;

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

/** Every regular file under `root`, relative to it with / separators, skipping half-written `*.tmp`. */
async function listFiles(root: string): Promise<string[]> {
  let entries: fs.Dirent[];
  try {
    entries = await fsp.readdir(root, { recursive: true, withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return entries
    .filter((d) => d.isFile() && !d.name.endsWith('.tmp'))
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)).split(path.sep).join('/'))
    .sort();
}

/** Copies the tree of files; a file removed while we copy (a finished multipart part) is skipped. */
async function copyFiles(from: string, to: string): Promise<ManifestEntry[]> {
  const out: ManifestEntry[] = [];
  for (const rel of await listFiles(from)) {
    const src = path.join(from, ...rel.split('/'));
    const dst = path.join(to, ...rel.split('/'));
    await fsp.mkdir(path.dirname(dst), { recursive: true });
    try {
      // Uploaded files are written once under a new name and never changed (files are
      // renamed into place, local-disk.storage.ts), so a plain copy of each is consistent.
      await fsp.copyFile(src, dst);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    out.push({ path: `${FILES_DIR}/${rel}`, bytes: (await fsp.stat(dst)).size, sha256: await sha256Of(dst) });
  }
  return out;
}

/** Opens a SQLite file and runs integrity_check; the first problem, or 'ok'. */
export function integrityCheck(file: string): string {
  const db = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db.pragma('integrity_check') as { integrity_check: string }[];
    return rows.length === 1 && rows[0].integrity_check === 'ok' ? 'ok' : rows.map((r) => r.integrity_check).join('; ');
  } finally {
    db.close();
  }
}

/**
 * Backs up the database `dbFile` and the folder `filesDir` into a new folder under
 * `outRoot`, while the shop goes on serving.
 *
 * - The database goes first, with SQLite's online backup API in a single step: one read
 *   transaction, so the copy is the database as of one commit. In WAL mode a reader does
 *   not block the shop's writers (it only holds back checkpoints for the seconds it takes).
 *   Copied in many small steps instead, a write from the shop would restart it.
 * - Then the files: every file the copied database refers to was renamed into place before
 *   its row was committed, so it is there; files uploaded later are extra, and harmless.
 * - The backup is written under `<name>.partial` and renamed when complete: a folder with a
 *   timestamp name is always a whole backup.
 */
export async function backupSqlite(opts: { dbFile: string; filesDir: string; outRoot: string; now?: Date }): Promise<BackupResult> {
  const started = Date.now();
  if (!fs.existsSync(opts.dbFile)) throw new Error(`no database at ${opts.dbFile}`);
  await fsp.mkdir(opts.outRoot, { recursive: true });
  const createdAt = opts.now ?? new Date();
  const dir = path.join(opts.outRoot, backupName(createdAt));
  const partial = `${dir}.partial`;
  if (fs.existsSync(dir)) throw new Error(`${dir} exists already`);
  await fsp.rm(partial, { recursive: true, force: true });
  await fsp.mkdir(partial);
  try {
    const copy = path.join(partial, DB_NAME);
    // Not opened read-only: a read-only connection to a WAL database fails when the shop is
    // stopped and no -shm file is there. It writes nothing.
    const src = new SqliteDatabase(opts.dbFile, { fileMustExist: true });
    src.pragma('busy_timeout = 10000');
    try {
      // The first step only measures; the callback then asks for every page in the next.
      await src.backup(copy, { progress: () => 0x7fffffff });
    } finally {
      src.close();
    }
    // One self-contained file (no -wal beside it), checked before it counts as a backup.
    const dst = new SqliteDatabase(copy);
    let orders: number;
    try {
      dst.pragma('journal_mode = DELETE');
      orders = Number((dst.prepare('select count(*) as n from sales').get() as { n: number }).n);
    } finally {
      dst.close();
    }
    const check = integrityCheck(copy);
    if (check !== 'ok') throw new Error(`the copy failed integrity_check: ${check}`);
    const database = { path: DB_NAME, bytes: (await fsp.stat(copy)).size, sha256: await sha256Of(copy), integrityCheck: 'ok' as const, orders };
    const files = await copyFiles(opts.filesDir, path.join(partial, FILES_DIR));
    const manifest: Manifest = { format: 1, createdAt: createdAt.toISOString(), database, files };
    await fsp.writeFile(path.join(partial, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    await fsp.rename(partial, dir);
    return { dir, manifest, ms: Date.now() - started };
  } catch (err) {
    await fsp.rm(partial, { recursive: true, force: true });
    throw err;
  }
}

/** Removes all but the newest `keep` complete backups under `outRoot`; returns the removed folders. */
export async function pruneBackups(outRoot: string, keep: number): Promise<string[]> {
  const names = (await fsp.readdir(outRoot)).filter((n) => BACKUP_NAME.test(n) && fs.existsSync(path.join(outRoot, n, MANIFEST))).sort();
  const old = names.slice(0, Math.max(0, names.length - keep));
  for (const n of old) await fsp.rm(path.join(outRoot, n), { recursive: true, force: true });
  return old.map((n) => path.join(outRoot, n));
}

/** Reads a backup's manifest and checks every file in it against its size and SHA-256. */
export async function verifyBackup(dir: string): Promise<Manifest> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await fsp.readFile(path.join(dir, MANIFEST), 'utf8')) as Manifest;
  } catch {
    throw new Error(`${dir} is not a backup (no readable ${MANIFEST})`);
  }
  if (manifest.format !== 1 || manifest.database?.path !== DB_NAME) throw new Error(`${dir}: unknown backup format`);
  for (const entry of [manifest.database, ...manifest.files]) {
    if (entry.path.split('/').includes('..')) throw new Error(`${dir}: a path climbs out of the backup: ${entry.path}`);
    const file = path.join(dir, ...entry.path.split('/'));
    let bytes: number;
    try {
      bytes = (await fsp.stat(file)).size;
    } catch {
      throw new Error(`${dir} is damaged: ${entry.path} is missing`);
    }
    if (bytes !== entry.bytes || (await sha256Of(file)) !== entry.sha256) throw new Error(`${dir} is damaged: ${entry.path} differs from the manifest`);
  }
  return manifest;
}

function isEmpty(target: string): boolean {
  try {
    return fs.readdirSync(target).length === 0;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw err;
  }
}

export class RestoreRefused extends Error {}

/**
 * Puts a backup back: the database at `dbFile`, the files under `filesDir`. The shop must
 * be stopped. Refuses a damaged backup, and a target that holds data unless `force`; with
 * `force` what was there is moved aside into `<dbFile's folder>/replaced-<time>/`, never
 * deleted.
 */
export async function restoreSqlite(opts: {
  from: string;
  dbFile: string;
  filesDir: string;
  force?: boolean;
  dataDir?: string;
}): Promise<{ manifest: Manifest; movedAside: string | null }> {
  const manifest = await verifyBackup(opts.from);
  const dbParts = [opts.dbFile, `${opts.dbFile}-wal`, `${opts.dbFile}-shm`];
  const occupied = dbParts.some((f) => fs.existsSync(f)) || !isEmpty(opts.filesDir);
  // A folder named with --to must be empty: it may hold data we do not know about.
  const notEmpty = opts.dataDir && !isEmpty(opts.dataDir) ? opts.dataDir : occupied ? `${opts.dbFile}, ${opts.filesDir}` : null;
  if (notEmpty && !opts.force)
    throw new RestoreRefused(
      `the target is not empty (${notEmpty}): stop the shop and add --force to replace its database and files (they are moved aside, not deleted)`,
    );

  const dataDir = path.dirname(opts.dbFile);
  await fsp.mkdir(dataDir, { recursive: true });
  let movedAside: string | null = null;
  if (occupied) {
    movedAside = path.join(dataDir, `replaced-${backupName(new Date())}`);
    await fsp.mkdir(movedAside);
    for (const f of dbParts) if (fs.existsSync(f)) await fsp.rename(f, path.join(movedAside, path.basename(f)));
    if (fs.existsSync(opts.filesDir)) await fsp.rename(opts.filesDir, path.join(movedAside, FILES_DIR));
  }

  // Files first, the database last: a shop started on a half-restored folder finds no database.
  const filesPartial = `${opts.filesDir}.restoring`;
  await fsp.rm(filesPartial, { recursive: true, force: true });
  await fsp.mkdir(filesPartial, { recursive: true });
  for (const entry of manifest.files) {
    const rel = entry.path.split('/').slice(1);
    const dst = path.join(filesPartial, ...rel);
    await fsp.mkdir(path.dirname(dst), { recursive: true });
    await fsp.copyFile(path.join(opts.from, ...entry.path.split('/')), dst);
  }
  await fsp.rm(opts.filesDir, { recursive: true, force: true });
  await fsp.rename(filesPartial, opts.filesDir);

  const dbPartial = `${opts.dbFile}.restoring`;
  await fsp.copyFile(path.join(opts.from, DB_NAME), dbPartial);
  const check = integrityCheck(dbPartial);
  if (check !== 'ok') {
    await fsp.rm(dbPartial, { force: true });
    throw new Error(`the restored database failed integrity_check: ${check}`);
  }
  await fsp.rename(dbPartial, opts.dbFile);
  return { manifest, movedAside };
}
