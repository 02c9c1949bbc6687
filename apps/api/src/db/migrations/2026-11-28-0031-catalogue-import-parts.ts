import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: this file imports nothing from the app.
//
// The file of a catalogue import is kept as its bytes in parts (256 KB each)
// (docs/decisions/0051): SQLite writes a row without leaving the event loop, and writing a
// 10 MB text in one row held every request for a tenth of a second or more. The files kept
// so far become one part each.

export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('catalogue_import_parts')
    .addColumn('import_id', 'integer', (c) => c.notNull().references('catalogue_imports.id').onDelete('cascade'))
    .addColumn('part', 'integer', (c) => c.notNull())
    .addColumn('bytes', isPg ? 'bytea' : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('catalogue_import_parts_pk', ['import_id', 'part'])
    .execute();
  await sql`insert into catalogue_import_parts (import_id, part, bytes)
            select id, 0, ${isPg ? sql`convert_to(file_text, 'UTF8')` : sql`cast(file_text as blob)`}
              from catalogue_imports where file_text <> ''`.execute(db);
  await db.schema.alterTable('catalogue_imports').dropColumn('file_text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .alterTable('catalogue_imports')
    .addColumn('file_text', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  // A file of one part comes back; one of several does not (applying its import then finds
  // an empty file and refuses it).
  await sql`update catalogue_imports set file_text = (
              select ${isPg ? sql`convert_from(bytes, 'UTF8')` : sql`cast(bytes as text)`}
                from catalogue_import_parts p where p.import_id = catalogue_imports.id and p.part = 0)
            where id in (select import_id from catalogue_import_parts group by import_id having count(*) = 1)`.execute(db);
  await db.schema.dropTable('catalogue_import_parts').execute();
}
