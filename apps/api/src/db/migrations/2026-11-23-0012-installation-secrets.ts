import type { Kysely } from 'kysely';

// Secrets of this installation that nobody configured, such as the key that signs the
// sandbox gateway's notifications when PAYMENT_SANDBOX_SECRET is unset: generated at the
// first start and kept here, so that every process on the database uses the same one
// (the first to insert a name wins; the others read it).
//
// Also, emails are now compared with their domain in its ASCII (IDNA) form
// (bücher.example is xn--bcher-kva.example): stored comparison keys with an
// internationalised domain are rewritten to that form, or their owners could no longer
// sign in or reset their password. Frozen in time: this file imports nothing from the app,
// so the mapping is written out here as packages/shared/src/email.ts had it on that day.

const IDN_DOMAIN = /^[\p{L}\p{M}\p{N}.\u3002\uff0e\uff61-]+$/u;

function asciiEmailKey(key: string): string {
  const at = key.lastIndexOf('@');
  if (at < 0) return key;
  const domain = key.slice(at + 1);
  if (/^[\x00-\x7f]*$/.test(domain) || !IDN_DOMAIN.test(domain)) return key;
  try {
    return `${key.slice(0, at + 1)}${new URL(`http://${domain}/`).hostname}`;
  } catch {
    return key;
  }
}

async function rekey(db: Kysely<any>, table: 'customers' | 'email_subscriptions'): Promise<void> {
  let after = 0;
  for (;;) {
    const rows: { id: number; email_key: string }[] = await db
      .selectFrom(table)
      .select(['id', 'email_key'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(1000)
      .execute();
    if (!rows.length) return;
    after = rows[rows.length - 1].id;
    for (const row of rows) {
      const key = asciiEmailKey(row.email_key);
      if (key === row.email_key) continue;
      // Both forms already have a row (what this change prevents from now on): the row
      // under the ASCII form keeps it, and this one keeps its old key.
      const taken = await db.selectFrom(table).select('id').where('email_key', '=', key).executeTakeFirst();
      if (!taken) await db.updateTable(table).set({ email_key: key }).where('id', '=', row.id).execute();
    }
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('installation_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await rekey(db, 'customers');
  await rekey(db, 'email_subscriptions');
}

export async function down(db: Kysely<any>): Promise<void> {
  // The rewritten keys stay: they are what the app compares from now on.
  await db.schema.dropTable('installation_secrets').execute();
}
