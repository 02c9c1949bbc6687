/**
 * True when an error means the database cannot be reached or cannot serve right now, as
 * opposed to a bug or a bad query: the shopper gets a 503 "try again in a moment" instead
 * of a 500, and the process carries on (the pool replaces broken connections by itself).
 *   PostgreSQL: a connection refused, reset or timed out; the server shutting down or
 *   starting (57P01–57P03); connection exceptions (class 08); too many connections (53300).
 *   SQLite: the file locked by another process beyond busy_timeout (SQLITE_BUSY).
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN'].includes(code)) return true;
  if (/^(08|57P0[1-3]$|53300$)/.test(code)) return true;
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT' || code === 'SQLITE_LOCKED') return true;
  const message = typeof e?.message === 'string' ? e.message : '';
  // node-postgres says these in words, without a code.
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Connection refused/i.test(
    message,
  );
}
