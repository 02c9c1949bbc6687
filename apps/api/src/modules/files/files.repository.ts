import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database, FileImportsTable, FilesTable, FileUploadsTable } from '../../db/schema.ts';

// Every query of the files module: stored files, multipart uploads and URL import tasks.

export type FileRow = Selectable<FilesTable>;
export type UploadRow = Selectable<FileUploadsTable>;
export type ImportRow = Selectable<FileImportsTable>;
type Db = Kysely<Database>;

// ---- files ------------------------------------------------------------------------------

export async function insertFile(db: Db, row: Insertable<FilesTable>): Promise<FileRow> {
  await db.insertInto('files').values(row).execute();
  return (await fileByUuid(db, row.uuid))!;
}

export function fileByUuid(db: Db, uuid: string): Promise<FileRow | undefined> {
  return db.selectFrom('files').selectAll().where('uuid', '=', uuid).executeTakeFirst();
}

export function fileByUuidForOwner(db: Db, uuid: string, customerId: number): Promise<FileRow | undefined> {
  return db.selectFrom('files').selectAll().where('uuid', '=', uuid).where('owner_customer_id', '=', customerId).executeTakeFirst();
}

// ---- multipart uploads --------------------------------------------------------------------

export async function insertUpload(db: Db, row: Insertable<FileUploadsTable>): Promise<UploadRow> {
  await db.insertInto('file_uploads').values(row).execute();
  return (await uploadByUuid(db, row.uuid))!;
}

export function uploadByUuid(db: Db, uuid: string): Promise<UploadRow | undefined> {
  return db.selectFrom('file_uploads').selectAll().where('uuid', '=', uuid).executeTakeFirst();
}

export function uploadParts(db: Db, uploadId: number) {
  return db
    .selectFrom('file_upload_parts')
    .select(['part_number', 'size', 'etag'])
    .where('upload_id', '=', uploadId)
    .orderBy('part_number')
    .execute();
}

/** Records a received part; a part sent again replaces the earlier record. */
export async function savePart(db: Db, part: { upload_id: number; part_number: number; size: number; etag: string; received_at: string }) {
  await db
    .insertInto('file_upload_parts')
    .values(part)
    .onConflict((oc) => oc.columns(['upload_id', 'part_number']).doUpdateSet({ size: part.size, etag: part.etag, received_at: part.received_at }))
    .execute();
}

/** Moves an upload from one status to another; false when it was not in `from` (someone else got there first). */
export async function switchUploadStatus(db: Db, id: number, from: string, to: string, extra: Updateable<FileUploadsTable> = {}): Promise<boolean> {
  const res = await db.updateTable('file_uploads').set({ ...extra, status: to }).where('id', '=', id).where('status', '=', from).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function deleteUpload(db: Db, id: number) {
  await db.deleteFrom('file_upload_parts').where('upload_id', '=', id).execute();
  await db.deleteFrom('file_uploads').where('id', '=', id).execute();
}

/** Uploads past their expiry: unfinished ones to clean up, finished ones to forget. */
export function expiredUploads(db: Db, nowIso: string, limit = 100) {
  return db.selectFrom('file_uploads').selectAll().where('expires_at', '<', nowIso).orderBy('expires_at').limit(limit).execute();
}

// ---- URL imports --------------------------------------------------------------------------

export async function insertImport(db: Db, row: Insertable<FileImportsTable>): Promise<ImportRow> {
  await db.insertInto('file_imports').values(row).execute();
  return (await importByToken(db, row.token))!;
}

export function importByToken(db: Db, token: string): Promise<ImportRow | undefined> {
  return db.selectFrom('file_imports').selectAll().where('token', '=', token).executeTakeFirst();
}

export async function updateImport(db: Db, token: string, patch: Updateable<FileImportsTable>) {
  await db.updateTable('file_imports').set(patch).where('token', '=', token).execute();
}

export async function deleteImportsBefore(db: Db, beforeIso: string) {
  await db.deleteFrom('file_imports').where('created_at', '<', beforeIso).execute();
}
