/**
 * True when a database error is a unique-constraint violation: SQLite's
 * SQLITE_CONSTRAINT_UNIQUE (or PRIMARYKEY), PostgreSQL's SQLSTATE 23505. Lets a service
 * turn the race between "is it taken?" and the insert into the same 409 as the check.
 */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** The constraint or column named in a unique violation's message, for telling which field clashed. */
export function violatedConstraint(err: unknown): string {
  const e = err as { constraint?: string; message?: string } | null;
  return `${e?.constraint ?? ''} ${e?.message ?? ''}`;
}
