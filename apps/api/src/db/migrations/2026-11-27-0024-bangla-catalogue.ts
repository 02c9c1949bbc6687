import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: this file imports nothing from the app.
//
// The catalogue in Bangla (docs/decisions/0038): each text a shopper reads from the
// catalogue tables may carry a Bangla version, entered in the back office when it exists;
// null means "show the English". Product title and description, category name, and the
// title and body of site content (pages, articles, selling points, slides).
//
// The read side carries the Bangla title of each card (product_search.title_bn) and a model
// code as letters and digits only (model_key: 'DFL2040'), so that 'dfl 2040', 'DFL2040'
// and 'dfl-2040' find DFL-2040 by one index lookup.
//
// SQLite's FTS5 table is made again with vowel signs and other combining marks (Unicode
// M*) as parts of words: its default unicode61 tokenizer cuts সোফা into স and ফ, so ফ
// alone would find every sofa. PostgreSQL's parser keeps সোফা whole (a test checks it).
// The read side is rebuilt at the next start (its state is forgotten), which fills all three.

export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.alterTable('products').addColumn('title_bn', 'text').execute();
  await db.schema.alterTable('products').addColumn('description_bn', 'text').execute();
  await db.schema.alterTable('categories').addColumn('name_bn', 'text').execute();
  await db.schema.alterTable('cms_content').addColumn('title_bn', 'text').execute();
  await db.schema.alterTable('cms_content').addColumn('body_bn', 'text').execute();

  await db.schema.alterTable('product_search').addColumn('title_bn', 'text').execute();
  await db.schema.alterTable('product_search').addColumn('model_key', 'text').execute();
  await db.schema.createIndex('product_search_model_key_idx').on('product_search').column('model_key').execute();

  if (!isPg) {
    await sql`drop table product_search_fts`.execute(db);
    await sql`create virtual table product_search_fts using fts5(
      title_text, model_text, category_text, attribute_text,
      content='product_search', content_rowid='product_id',
      tokenize="unicode61 remove_diacritics 0 categories 'L* N* Co M*'", prefix='1 2 3')`.execute(db);
  }
  await sql`delete from search_index_state`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  if (!isPg) {
    await sql`drop table product_search_fts`.execute(db);
    await sql`create virtual table product_search_fts using fts5(
      title_text, model_text, category_text, attribute_text,
      content='product_search', content_rowid='product_id',
      tokenize='unicode61 remove_diacritics 0', prefix='1 2 3')`.execute(db);
  }
  await db.schema.dropIndex('product_search_model_key_idx').execute();
  await db.schema.alterTable('product_search').dropColumn('model_key').execute();
  await db.schema.alterTable('product_search').dropColumn('title_bn').execute();
  await db.schema.alterTable('cms_content').dropColumn('body_bn').execute();
  await db.schema.alterTable('cms_content').dropColumn('title_bn').execute();
  await db.schema.alterTable('categories').dropColumn('name_bn').execute();
  await db.schema.alterTable('products').dropColumn('description_bn').execute();
  await db.schema.alterTable('products').dropColumn('title_bn').execute();
  await sql`delete from search_index_state`.execute(db);
}
