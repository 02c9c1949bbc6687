import type { Kysely } from 'kysely';

// Frozen in time: this file imports nothing from the app.
//
// Access tokens of the providers the shop calls (bKash, Pathao), shared by every API process
// on this database (docs/decisions/0041): one row per provider and account, the tokens sealed
// with a key derived from that account's own secret setting (never stored here), and a short
// lease so that one process at a time asks the provider for a new token.
//
// Also, Pathao consignments (docs/decisions/0040): the courier's own city, zone and area ids
// the parcel was booked to, and the delivery charge the courier quoted, in poisha.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('provider_tokens')
    // 'bkash' or 'pathao'
    .addColumn('provider', 'text', (c) => c.notNull())
    // Which merchant account and environment (several shops may share a database server, not a row).
    .addColumn('account_key', 'text', (c) => c.notNull())
    // Sealed (AES-256-GCM) access and refresh tokens; null once the provider refused the token.
    .addColumn('access_token', 'text')
    .addColumn('refresh_token', 'text')
    // SHA-256 of the access token: a process forgets "the token the provider just refused" only
    // if it is still the stored one, without unsealing it.
    .addColumn('token_hash', 'text')
    // Epoch milliseconds: when it was issued, when to renew it, when the provider stops taking it.
    .addColumn('issued_at', 'bigint')
    .addColumn('refresh_at', 'bigint')
    .addColumn('expires_at', 'bigint')
    // The process renewing the token holds the row until lease_until (epoch ms).
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('provider_tokens_pk', ['provider', 'account_key'])
    .execute();

  await db.schema.alterTable('consignments').addColumn('destination_city_id', 'integer').execute();
  await db.schema.alterTable('consignments').addColumn('destination_zone_id', 'integer').execute();
  await db.schema.alterTable('consignments').addColumn('destination_area_id', 'integer').execute();
  await db.schema.alterTable('consignments').addColumn('delivery_fee', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['delivery_fee', 'destination_area_id', 'destination_zone_id', 'destination_city_id']) {
    await db.schema.alterTable('consignments').dropColumn(column).execute();
  }
  await db.schema.dropTable('provider_tokens').execute();
}
