import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The secret `name` of this installation, generated (32 random bytes) the first time it is
 * asked for and kept in the database, so that it differs from every other shop's and every
 * process on the database uses the same one: of processes starting at once, the first
 * insert wins and all read what it wrote.
 */
export async function installationSecret(db: Kysely<Database>, name: string): Promise<string> {
  await db
    .insertInto('installation_secrets')
    .values({ name, value: randomBytes(32).toString('base64url'), created_at: new Date().toISOString() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('installation_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}
