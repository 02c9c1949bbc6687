import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { DB_NAME, FILES_DIR, RestoreRefused, restoreSqlite } from './backup.ts';

// npm run restore -- <backup folder> [--to <data dir>] [--force]
// Puts a backup made by `npm run backup` back, with the shop stopped (ops/backup.ts,
// docs/decisions/0027). Without --to, into the shop's own DATA_DIR / SQLITE_FILE.

const { values, positionals } = parseArgs({ allowPositionals: true, options: { to: { type: 'string' }, force: { type: 'boolean', default: false } } });

if (positionals.length !== 1) {
  console.error('usage: npm run restore -- <backup folder> [--to <data dir>] [--force]');
  process.exit(2);
}

try {
  let dbFile: string;
  let filesDir: string;
  let dataDir: string | undefined;
  if (values.to) {
    const to = path.resolve(values.to);
    dataDir = to;
    dbFile = path.join(to, DB_NAME);
    filesDir = path.join(to, FILES_DIR);
  } else {
    const config = loadConfig();
    if (config.db.kind !== 'sqlite')
      throw new RestoreRefused('this shop runs on PostgreSQL: restore its database with pg_restore (README, "Backups"), or give --to <data dir>');
    dbFile = config.db.file;
    filesDir = path.join(config.dataDir, FILES_DIR);
  }
  const from = path.resolve(positionals[0]);
  const { manifest, movedAside } = await restoreSqlite({ from, dbFile, filesDir, dataDir, force: values.force });
  if (movedAside) console.log(`what was there is now in ${movedAside}`);
  console.log(
    `restored ${from} (taken ${manifest.createdAt}, ${manifest.database.orders} orders, ${manifest.files.length} files) into ${dbFile} and ${filesDir}`,
  );
} catch (err) {
  console.error(`restore ${err instanceof RestoreRefused ? 'refused' : 'failed'}: ${(err as Error).message}`);
  process.exit(1);
}
