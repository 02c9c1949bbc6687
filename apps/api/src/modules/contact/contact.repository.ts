import type { Insertable, Kysely } from 'kysely';
import type { ContactMessagesTable, Database } from '../../db/schema.ts';

export function insertContactMessage(db: Kysely<Database>, row: Insertable<ContactMessagesTable>) {
  return db.insertInto('contact_messages').values(row).returning(['id', 'created_at']).executeTakeFirstOrThrow();
}

export async function countContactMessagesSince(db: Kysely<Database>, ip: string, sinceIso: string): Promise<number> {
  const r = await db
    .selectFrom('contact_messages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('ip', '=', ip)
    .where('created_at', '>=', sinceIso)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export function setContactOutboxId(db: Kysely<Database>, id: number, outboxId: number) {
  return db.updateTable('contact_messages').set({ mail_outbox_id: outboxId }).where('id', '=', id).execute();
}

export function findSupportEmail(db: Kysely<Database>) {
  return db.selectFrom('kvps').select('value').where('key', '=', 'contact.supportEmail').executeTakeFirst();
}
