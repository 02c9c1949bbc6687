import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import type { CurrenciesTable, Database } from '../../db/schema.ts';

// Every query of the shop's settings and currencies in the back office (docs/decisions/0037).

type Q = Kysely<Database> | Transaction<Database>;

export function kvpsByPrefix(db: Q, prefixes: string[]) {
  return db
    .selectFrom('kvps')
    .select(['key', 'value'])
    .where((eb) => eb.or(prefixes.map((p) => eb('key', 'like', `${p}.%`))))
    .execute();
}

/** Writes each key, adding the ones the shop never had. */
export async function putKvps(db: Q, values: Record<string, string>): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    await db
      .insertInto('kvps')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }
}

export function settingsGroups(db: Q) {
  return db.selectFrom('settings_groups').selectAll().execute();
}

export function settingsGroup(db: Q, name: string) {
  return db.selectFrom('settings_groups').selectAll().where('name', '=', name).executeTakeFirst();
}

/** Moves the group to the next version; false when someone else did first. */
export async function bumpGroup(db: Q, name: string, from: number, by: string, at: string): Promise<boolean> {
  const res = await db
    .updateTable('settings_groups')
    .set({ version: from + 1, updated_at: at, updated_by: by })
    .where('name', '=', name)
    .where('version', '=', from)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export function allCurrencies(db: Q) {
  return db.selectFrom('currencies').selectAll().orderBy('sort_order').orderBy('code').execute();
}

export function currencyByCode(db: Q, code: string) {
  return db.selectFrom('currencies').selectAll().where('code', '=', code).executeTakeFirst();
}

export async function nextCurrencyOrder(db: Q): Promise<number> {
  const r = await db
    .selectFrom('currencies')
    .select((eb) => eb.fn.max('sort_order').as('m'))
    .executeTakeFirst();
  return Number(r?.m ?? -1) + 1;
}

export function insertCurrency(db: Q, row: Insertable<CurrenciesTable>) {
  return db.insertInto('currencies').values(row).returningAll().executeTakeFirstOrThrow();
}

export function updateCurrency(db: Q, code: string, from: number, set: Updateable<CurrenciesTable>) {
  return db
    .updateTable('currencies')
    .set({ ...set, version: from + 1 })
    .where('code', '=', code)
    .where('version', '=', from)
    .returningAll()
    .executeTakeFirst();
}
