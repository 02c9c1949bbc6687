import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { Dialect } from '../database.ts';

// Full-text search is the one part of the catalogue that each database does its own way
// (docs/decisions/0002, 0006). Both index the same words: product_search holds them already
// normalised by packages/shared searchText() (lower case, letters and digits only), so the
// two engines never disagree about where a word starts or ends:
// - SQLite: an FTS5 table over product_search (external content), unicode61 tokenizer
//   with combining marks as word characters (migration 0024);
// - PostgreSQL: a generated tsvector column with the 'simple' configuration (no stemming,
//   no stop words) and a GIN index.
// Every search word must appear, as a word or the start of one ("sof" finds "sofas").

/**
 * True for rows of product_search (under `alias`) whose words contain every one of `words`
 * as a prefix. `words` must come from searchWords(): letters and digits only, so nothing in
 * them can be read as query syntax by either engine; they are passed as parameters anyway.
 */
export function matchesAllWords(dialect: Dialect, alias: string, words: readonly string[]): Expression<SqlBool> {
  if (!words.length) return sql<SqlBool>`1 = 1`;
  // Letters, digits and the marks inside a word (Bangla vowel signs: migration 0024).
  if (words.some((w) => !/^[\p{L}\p{M}\p{N}]+$/u.test(w))) throw new Error('search words must be letters and digits only');
  if (dialect === 'postgres') {
    const query = words.map((w) => `${w}:*`).join(' & ');
    return sql<SqlBool>`${sql.ref(`${alias}.document`)} @@ to_tsquery('simple', ${query})`;
  }
  const query = words.map((w) => `"${w}"*`).join(' AND ');
  return sql<SqlBool>`${sql.ref(`${alias}.product_id`)} in (select rowid from product_search_fts where product_search_fts match ${query})`;
}

/**
 * After product_search was rewritten: SQLite's FTS5 table re-reads it (external content);
 * PostgreSQL's tsvector column is generated with each row and needs nothing.
 */
export async function refreshFullTextIndex(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') await sql`insert into product_search_fts(product_search_fts) values ('rebuild')`.execute(db);
}
