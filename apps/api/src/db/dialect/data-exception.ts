/**
 * True for PostgreSQL's data exceptions (SQLSTATE class 22): a value the database cannot
 * take — a number out of an integer column's range, text with a NUL byte, a malformed
 * number or date. They come from what a client sent, so they answer 400, not 500. (SQLite
 * takes such values as they are; the validation in front keeps them out in the first place.)
 */
export function isDataException(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
}
