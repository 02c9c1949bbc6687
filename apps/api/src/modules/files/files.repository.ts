import { type Insertable, type Kysely, type Selectable, type Updateable, sql } from 'kysely';
import type { Database, FileImportsTable, FileQuotaHoldsTable, FilesTable, FileUploadsTable } from '../../db/schema.ts';

// Every query of the files module: stored files, multipart uploads, URL import tasks, and
// the quota holds and sums of docs/decisions/0024.

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
  return db.selectFrom('file_upload_parts').select(['part_number', 'size', 'etag']).where('upload_id', '=', uploadId).orderBy('part_number').execute();
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
  const res = await db
    .updateTable('file_uploads')
    .set({ ...extra, status: to })
    .where('id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst();
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

// ---- quotas (docs/decisions/0024) -----------------------------------------------------------

/** Whose usage to sum: one customer, the guests of one address, or all guests. */
export type UsageScope = { customerId: number } | { guestAddress: string } | { allGuests: true };

function scopeSql(scope: UsageScope) {
  if ('customerId' in scope) return sql`owner_customer_id = ${scope.customerId}`;
  if ('guestAddress' in scope) return sql`owner_customer_id is null and owner_address = ${scope.guestAddress}`;
  return sql`owner_customer_id is null`;
}

function usageSql(scope: UsageScope, nowIso: string) {
  const where = scopeSql(scope);
  // Stored files, unfinished multipart uploads at their declared size (a completing upload
  // and its new file both count for a moment: too much, never too little), and live holds.
  return sql<number>`(
    (select coalesce(sum(size), 0) from files where ${where})
    + (select coalesce(sum(size), 0) from file_uploads where status <> 'complete' and ${where})
    + (select coalesce(sum(bytes), 0) from file_quota_holds where expires_at > ${nowIso} and ${where}))`;
}

/**
 * Bytes used by each scope, read in ONE statement: on PostgreSQL one statement sees one
 * snapshot, so a file stored and its hold released by another transaction in between are
 * never both missed (which separate statements could do).
 */
export async function usedBytes(db: Db, scopes: UsageScope[], nowIso: string): Promise<number[]> {
  const cols = scopes.map((scope, i) => sql`${usageSql(scope, nowIso)} as ${sql.ref(`u${i}`)}`);
  const { rows } = await sql<Record<string, number | string>>`select ${sql.join(cols)}`.execute(db);
  return scopes.map((_, i) => Number(rows[0]![`u${i}`]));
}

export async function insertHold(db: Db, row: Insertable<FileQuotaHoldsTable>): Promise<number> {
  const { id } = await db.insertInto('file_quota_holds').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(id);
}

export async function deleteHold(db: Db, id: number) {
  await db.deleteFrom('file_quota_holds').where('id', '=', id).execute();
}

export async function shrinkHold(db: Db, id: number, bytes: number) {
  await db.updateTable('file_quota_holds').set({ bytes }).where('id', '=', id).where('bytes', '>', bytes).execute();
}

export async function deleteExpiredHolds(db: Db, nowIso: string) {
  await db.deleteFrom('file_quota_holds').where('expires_at', '<=', nowIso).execute();
}

/**
 * Deletes up to `limit` guest files uploaded before `beforeIso` that nothing refers to (a
 * booking's payment proof, a profile picture, a product picture uploaded in the back office) and answers what was deleted, so the caller
 * removes exactly those bytes. The delete is the claim: when several processes sweep at
 * once, each row is deleted, and returned, by one of them only.
 */
export function claimUnreferencedGuestFiles(db: Db, beforeIso: string, limit: number) {
  return db
    .deleteFrom('files')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('files as f')
        .select('f.id')
        .where('f.owner_customer_id', 'is', null)
        .where('f.created_at', '<', beforeIso)
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('sale_attachments as a').select('a.id').whereRef('a.file_uuid', '=', 'f.uuid'))))
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('customers as c').select('c.id').whereRef('c.image_file_uuid', '=', 'f.uuid'))))
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('product_images as pi').select('pi.id').whereRef('pi.file_uuid', '=', 'f.uuid'))))
        // The shop's logo (brand.logo, docs/decisions/0037) is a path holding the file's uuid.
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('kvps as k').select('k.key').where('k.key', '=', 'brand.logo').where(sql<boolean>`k.value like '/files/' || f.uuid || '/%'`))),
        )
        .orderBy('f.created_at')
        .limit(limit),
    )
    .returning(['uuid', 'storage_key', 'size'])
    .execute();
}
