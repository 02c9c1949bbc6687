import { type Kysely, PostgresAdapter } from 'kysely';

// Uploaded files: the stored files, unfinished multipart uploads with the parts
// received so far, and URL import tasks. Kept in the database (not in process memory) so
// that several server processes on one PostgreSQL database can each take a part, a status
// poll or a completion.

export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (c: any) => (isPg ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('files')
    .addColumn('id', isPg ? 'serial' : 'integer', id)
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    // Chosen by the server; no part of a client's file name ever reaches the storage.
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    // Decided from the bytes, never from the name or the client's Content-Type.
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('is_image', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    // 'direct', 'multipart' or 'url'
    .addColumn('source', 'text', (c) => c.notNull())
    // No foreign key: customers belong to the accounts migration; a guest's file has none.
    .addColumn('owner_customer_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('files_owner_idx').on('files').columns(['owner_customer_id', 'created_at']).execute();

  await db.schema
    .createTable('file_uploads')
    .addColumn('id', isPg ? 'serial' : 'integer', id)
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('owner_customer_id', 'integer')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('upload_type', 'text', (c) => c.notNull())
    .addColumn('part_size', 'integer', (c) => c.notNull())
    .addColumn('part_count', 'integer', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    // The storage's own id for the multipart upload (an S3 UploadId, or the local folder).
    .addColumn('storage_upload_id', 'text', (c) => c.notNull())
    // open → completing → complete; an expired open upload is removed with its parts.
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('file_uuid', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('file_uploads_expiry_idx').on('file_uploads').columns(['status', 'expires_at']).execute();

  await db.schema
    .createTable('file_upload_parts')
    .addColumn('upload_id', 'integer', (c) => c.notNull().references('file_uploads.id').onDelete('cascade'))
    .addColumn('part_number', 'integer', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('etag', 'text', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('file_upload_parts_pk', ['upload_id', 'part_number'])
    .execute();

  await db.schema
    .createTable('file_imports')
    .addColumn('id', isPg ? 'serial' : 'integer', id)
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('owner_customer_id', 'integer')
    .addColumn('source_url', 'text', (c) => c.notNull())
    .addColumn('upload_type', 'text', (c) => c.notNull())
    // waiting → progress → success | error (spec §4)
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('done_bytes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_bytes', 'integer')
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('file_uuid', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('file_imports_created_idx').on('file_imports').columns(['created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('file_imports').execute();
  await db.schema.dropTable('file_upload_parts').execute();
  await db.schema.dropTable('file_uploads').execute();
  await db.schema.dropTable('files').execute();
}
