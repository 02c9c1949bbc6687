import { type Kysely, PostgresAdapter } from 'kysely';

// Frozen in time: this file imports nothing from the app.
//
// Catalogue imports (docs/decisions/0031): a CSV file checked in full before anything is
// written, kept with its report until someone applies it (in one transaction) or drops it.

export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('catalogue_imports')
    .addColumn('id', isPg ? 'serial' : 'integer', (c) => (isPg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('staff_id', 'integer')
    // 'invalid', 'ready', 'applying', 'applied' or 'failed'
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('file_text', 'text', (c) => c.notNull())
    .addColumn('total_rows', 'integer', (c) => c.notNull())
    // JSON: [{ line, column, message }] (the first ones) and their count
    .addColumn('errors', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('error_count', 'integer', (c) => c.notNull().defaultTo(0))
    // JSON: what the file does (after checking) or did (after applying)
    .addColumn('summary', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('catalogue_imports').execute();
}
