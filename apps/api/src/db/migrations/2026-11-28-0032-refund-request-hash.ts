import type { Kysely } from 'kysely';

// Frozen in time: this file imports nothing from the app.
//
// A refund's idempotency key names one request (docs/decisions/0032, as checkouts do in
// docs/decisions/0021): the SHA-256 of the request is kept with the refund, so the same key
// sent with another amount, other lines, method or reference is refused rather than
// answered with the first refund. Refunds recorded before have none and are replayed as before.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('refunds').addColumn('request_hash', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('refunds').dropColumn('request_hash').execute();
}
