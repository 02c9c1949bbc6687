import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, REPO_ROOT } from '../config.ts';
import { backupSqlite, pruneBackups } from './backup.ts';

// npm run backup [-- --out <folder>] [--keep <n>]
// A consistent copy of the SQLite database and the uploaded files while the shop serves
// (ops/backup.ts, docs/decisions/0027). The same settings as the server say where they are
// (DATA_DIR, SQLITE_FILE); backups go to --out, BACKUP_DIR, or backups/.

const { values } = parseArgs({ options: { out: { type: 'string' }, keep: { type: 'string' } } });

try {
  const config = loadConfig();
  if (config.db.kind !== 'sqlite') {
    console.error('This shop runs on PostgreSQL: back it up with pg_dump (README, "Backups"); copy DATA_DIR/files alongside.');
    process.exit(2);
  }
  const outRoot = path.resolve(REPO_ROOT, values.out ?? process.env.BACKUP_DIR ?? 'backups');
  const { dir, manifest, ms } = await backupSqlite({ dbFile: config.db.file, filesDir: path.join(config.dataDir, 'files'), outRoot });
  const fileBytes = manifest.files.reduce((n, f) => n + f.bytes, 0);
  console.log(
    `backup written to ${dir}: database ${manifest.database.bytes} bytes (${manifest.database.orders} orders, integrity ok), ${manifest.files.length} files (${fileBytes} bytes), ${ms} ms`,
  );
  if (values.keep) {
    const keep = Number(values.keep);
    if (!Number.isInteger(keep) || keep < 1) throw new Error('--keep takes a whole number of backups, at least 1');
    for (const old of await pruneBackups(outRoot, keep)) console.log(`removed old backup ${old}`);
  }
} catch (err) {
  console.error(`backup failed: ${(err as Error).message}`);
  process.exit(1);
}
