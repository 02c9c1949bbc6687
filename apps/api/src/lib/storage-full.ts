/**
 * Where a write failed for want of room, or null when the error is something else
 * (docs/decisions/0053): the database (SQLite's SQLITE_FULL, "database or disk is full";
 * PostgreSQL's disk_full, SQLSTATE 53100) or the uploaded files (a write refused with
 * ENOSPC, no space left on the device, or EDQUOT, the disk quota used up). The error itself,
 * or the one it wraps (a stream's pipeline passes the write's error on as its cause).
 */
export function storageFullOf(err: unknown): 'database' | 'files' | null {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === 'SQLITE_FULL' || code === '53100') return 'database';
    if (code === 'ENOSPC' || code === 'EDQUOT') return 'files';
  }
  return null;
}
