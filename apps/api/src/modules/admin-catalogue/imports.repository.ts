import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { timeSlices, yieldToEventLoop } from '../../lib/time-slices.ts';

// The files of catalogue imports (docs/decisions/0051): kept as their bytes in parts of
// 256 KB, each written in a statement and a commit of its own. SQLite runs a statement, and
// syncs a commit to disk, without leaving the event loop: one 10 MB row held every request
// for 60 to 250 ms, and one commit of 10 MB for about 100 ms.

type Db = Kysely<Database>;
const PART_BYTES = 256 * 1024;

/** Keeps an import's file, a part at a time. */
export async function saveImportFile(db: Db, importId: number, bytes: Uint8Array): Promise<void> {
  for (let part = 0; part * PART_BYTES < bytes.length; part++) {
    if (part) await yieldToEventLoop();
    const slice = bytes.subarray(part * PART_BYTES, (part + 1) * PART_BYTES);
    await db.insertInto('catalogue_import_parts').values({ import_id: importId, part, bytes: slice }).execute();
  }
}

/** An import's file as it was uploaded (empty once it is no longer kept). */
export async function readImportFile(db: Db, importId: number): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  const pause = timeSlices();
  for (let part = 0; ; part++) {
    await pause();
    const row = await db.selectFrom('catalogue_import_parts').select('bytes').where('import_id', '=', importId).where('part', '=', part).executeTakeFirst();
    if (!row) break;
    parts.push(row.bytes);
  }
  return Buffer.concat(parts);
}

export async function dropImportFile(db: Db, importId: number): Promise<void> {
  await db.deleteFrom('catalogue_import_parts').where('import_id', '=', importId).execute();
}

/**
 * Deletes the catalogue imports last changed before `beforeIso` with their files, whatever
 * their status: one still "applying" that long after is one whose process stopped, its
 * transaction undone. Answers how many went.
 */
export async function deleteImportsBefore(db: Db, beforeIso: string): Promise<number> {
  const old = db.selectFrom('catalogue_imports').select('id').where('updated_at', '<', beforeIso);
  await db.deleteFrom('catalogue_import_parts').where('import_id', 'in', old).execute();
  const r = await db.deleteFrom('catalogue_imports').where('updated_at', '<', beforeIso).executeTakeFirst();
  return Number(r.numDeletedRows);
}
