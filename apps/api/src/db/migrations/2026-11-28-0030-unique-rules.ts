import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the app.
//
// Every "at most one" rule of the shop held by the database itself (docs/decisions/0052):
// a check in a service, then an insert, lets two requests at once both pass the check on
// PostgreSQL (READ COMMITTED, several processes). Each rule below gets a unique index; rows
// that such races already doubled are settled first, the same way on every database:
//
// - Delivery zones (docs/decisions/0033): a district belongs to one zone, and one zone is
//   for every other district. The districts move into a table of their own, keyed by the
//   district. A district named by several zones stays with the one that priced it (the
//   first in the zones' order, sort_order then id: the storefront's zoneFor takes the first
//   that names it); the later zones lose it. A zone left with no district of its own, and
//   every zone for every other district but the first, never priced anything: removed.
// - Saved addresses (spec §5): one copy of an address per customer (the same name, phone,
//   division, district, area and address line): the oldest copy is kept, with the default
//   mark if a copy had it. One default per customer: the one changed last keeps the mark
//   (the one the address book lists first).
// - Staff invitations (docs/decisions/0031): one live link per member: the newest stays,
//   older live ones count as used from the moment the newest was made.

type Zone = { id: number; districts: string; sort_order: number };

function districtsOf(text: string): string[] {
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  // ---- delivery zones
  await db.schema
    .createTable('delivery_zone_districts')
    .addColumn('district', 'text', (c) => c.primaryKey())
    .addColumn('zone_id', 'integer', (c) => c.notNull().references('delivery_zones.id').onDelete('cascade'))
    .execute();
  await db.schema.createIndex('delivery_zone_districts_zone_idx').on('delivery_zone_districts').column('zone_id').execute();

  const zones: Zone[] = await db.selectFrom('delivery_zones').select(['id', 'districts', 'sort_order']).orderBy('sort_order').orderBy('id').execute();
  const claimed = new Set<string>();
  let everywhereElse = false;
  for (const z of zones) {
    const named = [...new Set(districtsOf(z.districts))];
    const own = named.filter((d) => !claimed.has(d));
    const gone = named.length ? own.length === 0 : everywhereElse;
    if (!named.length) everywhereElse = true;
    if (gone) {
      await db.deleteFrom('delivery_zones').where('id', '=', z.id).execute();
      continue;
    }
    if (own.length !== named.length || named.length !== districtsOf(z.districts).length) {
      await db
        .updateTable('delivery_zones')
        .set({ districts: JSON.stringify(own), version: sql`version + 1` })
        .where('id', '=', z.id)
        .execute();
    }
    for (const d of own) claimed.add(d);
    if (own.length)
      await db
        .insertInto('delivery_zone_districts')
        .values(own.map((district) => ({ district, zone_id: z.id })))
        .execute();
  }
  // The zone for every other district is the one whose list is empty: one such row at most.
  await sql`create unique index delivery_zones_everywhere_else_uq on delivery_zones (districts) where districts = '[]'`.execute(db);

  // ---- saved addresses
  const same = ['customer_id', 'full_name', 'phone', 'division', 'district', 'area', 'address_line'] as const;
  const copies = await db
    .selectFrom('addresses')
    .select([...same, (eb) => eb.fn.min('id').as('keep'), (eb) => eb.fn.max('is_default').as('marked')])
    .groupBy([...same])
    .having((eb) => eb.fn.countAll(), '>', 1)
    .execute();
  for (const g of copies) {
    let q = db.deleteFrom('addresses').where('id', '<>', g.keep);
    for (const col of same) q = q.where(col, '=', g[col]);
    await q.execute();
    if (Number(g.marked) === 1) await db.updateTable('addresses').set({ is_default: 1 }).where('id', '=', g.keep).execute();
  }
  const twoDefaults = await db
    .selectFrom('addresses')
    .select('customer_id')
    .where('is_default', '=', 1)
    .groupBy('customer_id')
    .having((eb) => eb.fn.countAll(), '>', 1)
    .execute();
  for (const { customer_id } of twoDefaults) {
    const last = await db
      .selectFrom('addresses')
      .select('id')
      .where('customer_id', '=', customer_id)
      .where('is_default', '=', 1)
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    await db.updateTable('addresses').set({ is_default: 0 }).where('customer_id', '=', customer_id).where('id', '<>', last.id).execute();
  }
  await db.schema
    .createIndex('addresses_same_uq')
    .on('addresses')
    .columns([...same])
    .unique()
    .execute();
  await sql`create unique index addresses_default_uq on addresses (customer_id) where is_default = 1`.execute(db);

  // ---- staff invitations
  const live = await db
    .selectFrom('staff_invites')
    .select(['staff_id', (eb) => eb.fn.max('id').as('keep')])
    .where('used_at', 'is', null)
    .groupBy('staff_id')
    .having((eb) => eb.fn.countAll(), '>', 1)
    .execute();
  for (const { staff_id, keep } of live) {
    const newest = await db.selectFrom('staff_invites').select('created_at').where('id', '=', keep).executeTakeFirstOrThrow();
    await db
      .updateTable('staff_invites')
      .set({ used_at: newest.created_at })
      .where('staff_id', '=', staff_id)
      .where('used_at', 'is', null)
      .where('id', '<>', keep)
      .execute();
  }
  await sql`create unique index staff_invites_live_uq on staff_invites (staff_id) where used_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists staff_invites_live_uq`.execute(db);
  await sql`drop index if exists addresses_default_uq`.execute(db);
  await db.schema.dropIndex('addresses_same_uq').ifExists().execute();
  await sql`drop index if exists delivery_zones_everywhere_else_uq`.execute(db);
  await db.schema.dropTable('delivery_zone_districts').execute();
}
