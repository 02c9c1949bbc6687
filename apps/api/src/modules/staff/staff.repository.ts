import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import { forUpdate } from '../../db/dialect/row-locks.ts';
import type { Database } from '../../db/schema.ts';

type Db = Kysely<Database>;

export const STAFF_COLUMNS = [
  'id',
  'email',
  'email_key',
  'full_name',
  'role',
  'password_hash',
  'totp_secret',
  'totp_enabled_at',
  'totp_last_step',
  'disabled_at',
  'version',
  'created_at',
  'updated_at',
  'password_changed_at',
] as const;

export type StaffRow = Awaited<ReturnType<typeof staffById>> & {};

export function staffById(db: Db, id: number) {
  return db.selectFrom('staff').select(STAFF_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** The member's row, locked until the transaction ends (PostgreSQL): one write about them at a time. */
export function lockStaffById(db: Db, dialect: Dialect, id: number) {
  return forUpdate(db.selectFrom('staff').select(STAFF_COLUMNS).where('id', '=', id), dialect).executeTakeFirst();
}

export function staffByEmailKey(db: Db, key: string) {
  return db.selectFrom('staff').select(STAFF_COLUMNS).where('email_key', '=', key).executeTakeFirst();
}

export function listStaff(db: Db) {
  return db.selectFrom('staff').select(STAFF_COLUMNS).orderBy('id').execute();
}

export async function activeOwners(db: Db): Promise<number> {
  const r = await db
    .selectFrom('staff')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('role', '=', 'owner')
    .where('disabled_at', 'is', null)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

export function findLiveSession(db: Db, tokenHash: string, now: string, idleSince: string) {
  return db
    .selectFrom('staff_sessions as s')
    .innerJoin('staff as st', 'st.id', 's.staff_id')
    .select(['s.id', 's.staff_id', 's.last_seen_at'])
    .where('s.token_hash', '=', tokenHash)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', now)
    .where('s.last_seen_at', '>', idleSince)
    .where('st.disabled_at', 'is', null)
    .whereRef('s.created_at', '>=', 'st.password_changed_at')
    .executeTakeFirst();
}
