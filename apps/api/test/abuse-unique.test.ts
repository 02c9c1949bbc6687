import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, uniqueEmail, uniqueIp, uniqueMobile } from './helpers/accounts.ts';
import { expectApiError } from './helpers/assertions.ts';
import { ADDRESS } from './helpers/checkout.ts';
import { signedInStaff, STAFF_PASSWORD, type TestStaff } from './helpers/staff.ts';
import { type ApiResponse, startTestApp, type TestApp } from './helpers/test-app.ts';

// Every "at most one" rule of the shop, raced (docs/decisions/0052): ten identical (or
// near-identical: the same unique value, other fields changed) requests at once, through
// the API. Exactly one is made; the others are answered 409 in the one error shape, naming
// the field (never a 500); and the database holds one row. A check in a service passes for
// every request of such a burst on PostgreSQL (READ COMMITTED): only the database's unique
// index makes the answer right, and the service must turn its refusal into the 409.
//
// Rules whose repeat is not an error (a saved address, an invitation sent again, a
// wishlist item) answer every request of the burst with success, and still make one row.

const N = 10;

let t: TestApp;
let owner: TestStaff;

beforeAll(async () => {
  t = await startTestApp({ config: { trustProxy: true } });
  owner = await signedInStaff(t, 'owner', { ip: uniqueIp() });
});
afterAll(() => t?.close());

const asOwner = (method: string, path: string, json?: unknown) => t.api(path, { method, json, headers: { ...owner.headers, 'x-forwarded-for': uniqueIp() } });

/** N requests at once, the i-th made by `send(i)`. */
const burst = (send: (i: number) => Promise<ApiResponse>) => Promise.all(Array.from({ length: N }, (_, i) => send(i)));

/** Exactly one answered `made`; every other answer a 409 `code` naming `field`. */
function oneMade(answers: ApiResponse[], made: number, code: string, field: string): ApiResponse {
  const statuses = answers.map((a) => a.status);
  expect(
    statuses.filter((s) => s >= 500),
    `no 5xx among ${statuses.join(', ')}: ${answers.find((a) => a.status >= 500)?.text}`,
  ).toEqual([]);
  const winners = answers.filter((a) => a.status === made);
  expect(winners.length, `one ${made} among ${statuses.join(', ')}`).toBe(1);
  for (const a of answers.filter((x) => x !== winners[0])) {
    expectApiError(a, 409, code);
    expect(Object.keys(a.body.error.fields ?? {}), a.text).toContain(field);
  }
  return winners[0];
}

const count = async (q: Promise<{ n: unknown } | undefined>) => Number((await q)?.n ?? 0);

describe('a content item’s slug, one per kind', () => {
  it('ten articles with one slug at once make one article; nine are told the slug is taken', async () => {
    const answers = await burst((i) =>
      asOwner('POST', '/api/admin/content', {
        type: 'article',
        title: `Oiling a teak bench ${i}`,
        slug: 'oiling-a-teak-bench',
        body: `Oil it twice a year (${i}).`,
        fields: {},
        active: true,
      }),
    );
    oneMade(answers, 201, 'duplicate_slug', 'slug');
    const n = await count(
      t.db.kysely
        .selectFrom('cms_content')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('type', '=', 'article')
        .where('slug', '=', 'oiling-a-teak-bench')
        .executeTakeFirst(),
    );
    expect(n).toBe(1);
  });
});

const zoneBody = (name: string, districts: string[]) => ({ name, districts, fee: 120_000, freeFrom: null, etaMinDays: 2, etaMaxDays: 5, sortOrder: 1 });
const zonesNaming = async (district: string) =>
  (await t.db.kysely.selectFrom('delivery_zones').select('districts').execute()).filter((z) => (JSON.parse(z.districts) as string[]).includes(district)).length;

describe('a district’s delivery zone, one per district', () => {
  it('ten zones for one district at once make one zone; nine are told the district is taken', async () => {
    const answers = await burst((i) => asOwner('POST', '/api/admin/delivery/zones', zoneBody(`Sylhet city ${i}`, ['Sylhet'])));
    oneMade(answers, 201, 'district_taken', 'districts');
    expect(await zonesNaming('Sylhet')).toBe(1);
  });

  it('ten changes giving one district to ten zones at once leave it in one zone', async () => {
    const own = ['Rangamati', 'Khagrachhari', "Cox's Bazar", 'Feni', 'Noakhali', 'Lakshmipur', 'Chandpur', 'Cumilla', 'Brahmanbaria', 'Moulvibazar'];
    const made: ApiResponse[] = [];
    for (let i = 0; i < N; i++) made.push(await asOwner('POST', '/api/admin/delivery/zones', zoneBody(`Hill zone ${i}`, [own[i]])));
    for (const m of made) expect(m.status, m.text).toBe(201);
    const answers = await burst((i) =>
      asOwner('PUT', `/api/admin/delivery/zones/${made[i].body.id}`, {
        ...zoneBody(made[i].body.name, [...made[i].body.districts, 'Bandarban']),
        version: made[i].body.version,
      }),
    );
    oneMade(answers, 200, 'district_taken', 'districts');
    expect(await zonesNaming('Bandarban')).toBe(1);
  });
});

describe('the zone for every other district, one', () => {
  it('ten zones for every other district at once make one', async () => {
    // The shop's own such zone names a district first, so that there is none.
    const zones = (await asOwner('GET', '/api/admin/delivery/zones')).body.items as any[];
    const rest = zones.find((z) => z.districts.length === 0);
    const named = await asOwner('PUT', `/api/admin/delivery/zones/${rest.id}`, { ...zoneBody(rest.name, ['Jamalpur']), version: rest.version });
    expect(named.status, named.text).toBe(200);
    const answers = await burst((i) => asOwner('POST', '/api/admin/delivery/zones', zoneBody(`Everywhere else ${i}`, [])));
    oneMade(answers, 201, 'district_taken', 'districts');
    expect(
      await count(
        t.db.kysely
          .selectFrom('delivery_zones')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('districts', '=', '[]')
          .executeTakeFirst(),
      ),
    ).toBe(1);
  });
});

const addressesOf = (customerId: number) => t.db.kysely.selectFrom('addresses').select(['id', 'is_default']).where('customer_id', '=', customerId).execute();
const customerId = async (email: string) =>
  (await t.db.kysely.selectFrom('customers').select('id').where('email_key', '=', email.toLowerCase()).executeTakeFirstOrThrow()).id;

describe('a saved address, once per customer', () => {
  it('ten saves of one address at once keep one, and every save answers it', async () => {
    const c = await signUp(t);
    const answers = await burst(() => t.api('/api/addresses', { method: 'POST', json: { ...ADDRESS, label: 'Home' }, headers: c.auth }));
    for (const a of answers) expect([200, 201], a.text).toContain(a.status);
    expect(answers.filter((a) => a.status === 201).length).toBe(1);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(await addressesOf(await customerId(c.email))).toHaveLength(1);
  });

  it('changing an address into another saved one is refused with 409 on the address', async () => {
    const c = await signUp(t);
    const home = await t.api('/api/addresses', { method: 'POST', json: ADDRESS, headers: c.auth });
    const work = await t.api('/api/addresses', { method: 'POST', json: { ...ADDRESS, addressLine: 'Level 4, Road 11' }, headers: c.auth });
    expect([home.status, work.status]).toEqual([201, 201]);
    const clash = await t.api(`/api/addresses/${work.body.id}`, { method: 'PUT', json: ADDRESS, headers: c.auth });
    expectApiError(clash, 409, 'duplicate_address');
    expect(clash.body.error.fields).toHaveProperty('addressLine');
  });
});

describe('a customer’s default address, one', () => {
  it('ten first addresses at once make one of them the default', async () => {
    const c = await signUp(t);
    const answers = await burst((i) =>
      t.api('/api/addresses', { method: 'POST', json: { ...ADDRESS, addressLine: `House ${i + 1}, Road 10` }, headers: c.auth }),
    );
    for (const a of answers) expect(a.status, a.text).toBe(201);
    const rows = await addressesOf(await customerId(c.email));
    expect(rows).toHaveLength(N);
    expect(rows.filter((r) => Number(r.is_default) === 1)).toHaveLength(1);
  });

  it('ten addresses made the default at once leave one default', async () => {
    const c = await signUp(t);
    const ids: number[] = [];
    for (let i = 0; i < N; i++)
      ids.push((await t.api('/api/addresses', { method: 'POST', json: { ...ADDRESS, area: `Banani ${i}` }, headers: c.auth })).body.id);
    const answers = await burst((i) =>
      t.api(`/api/addresses/${ids[i]}`, { method: 'PUT', json: { ...ADDRESS, area: `Banani ${i}`, isDefault: true }, headers: c.auth }),
    );
    for (const a of answers) expect(a.status, a.text).toBe(200);
    expect((await addressesOf(await customerId(c.email))).filter((r) => Number(r.is_default) === 1)).toHaveLength(1);
  });
});

describe('a staff member’s live invitation, one', () => {
  it('ten sends of a new link at once leave one link that works', async () => {
    const invited = await asOwner('POST', '/api/admin/staff/invites', { email: uniqueEmail('invited'), fullName: 'Invited Member', role: 'manager' });
    expect(invited.status, invited.text).toBe(201);
    const answers = await burst(() => asOwner('POST', `/api/admin/staff/${invited.body.id}/invite`));
    for (const a of answers) expect(a.status, a.text).toBe(200);
    const live = await count(
      t.db.kysely
        .selectFrom('staff_invites')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('staff_id', '=', invited.body.id)
        .where('used_at', 'is', null)
        .executeTakeFirst(),
    );
    expect(live).toBe(1);
  });
});

// Rules the database held already: raced all the same, so that they stay held.

async function productBase(tag: string) {
  const ref = (await asOwner('GET', '/api/admin/reference')).body;
  const leaf = ref.categories.find((c: any) => c.depth === 2);
  return (i: number, same: { slug?: boolean; modelCode?: boolean; sku?: boolean }) => ({
    title: `Race ${tag} chair ${i}`,
    slug: same.slug ? `race-${tag}-chair` : `race-${tag}-chair-${i}`,
    modelCode: same.modelCode ? `RACE-${tag}` : `RACE-${tag}-${i}`,
    description: 'A chair.',
    categoryIds: [leaf.id],
    primaryCategoryId: leaf.id,
    status: 'draft',
    skus: [{ code: same.sku ? `RACE-${tag}-SKU` : `RACE-${tag}-SKU-${i}`, salesPrice: 1_000_000, discountedSalesPrice: null }],
  });
}
const products = (column: 'slug' | 'model_code', value: string) =>
  count(
    t.db.kysely
      .selectFrom('products')
      .select((eb) => eb.fn.countAll().as('n'))
      .where(column, '=', value)
      .executeTakeFirst(),
  );

describe('a product’s address (slug), one product', () => {
  it('ten products with one slug at once make one', async () => {
    const body = await productBase('slug');
    oneMade(await burst((i) => asOwner('POST', '/api/admin/products', body(i, { slug: true }))), 201, 'duplicate_slug', 'slug');
    expect(await products('slug', 'race-slug-chair')).toBe(1);
  });
});

describe('a product’s model code, one product', () => {
  it('ten products with one model code at once make one', async () => {
    const body = await productBase('model');
    oneMade(await burst((i) => asOwner('POST', '/api/admin/products', body(i, { modelCode: true }))), 201, 'duplicate_model_code', 'modelCode');
    expect(await products('model_code', 'RACE-model')).toBe(1);
  });
});

describe('a sku code, one sku', () => {
  it('ten products with one sku code at once make one', async () => {
    const body = await productBase('sku');
    const answers = await burst((i) => asOwner('POST', '/api/admin/products', body(i, { sku: true })));
    // The check names the sku's own field; the index, the list of skus.
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 201)) {
      expectApiError(a, 409, 'duplicate_sku_code');
      expect(
        Object.keys(a.body.error.fields ?? {}).some((f) => f.startsWith('skus')),
        a.text,
      ).toBe(true);
    }
    expect(
      await count(
        t.db.kysely
          .selectFrom('skus')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('code', '=', 'RACE-sku-SKU')
          .executeTakeFirst(),
      ),
    ).toBe(1);
  });
});

describe('a category’s slug, one category', () => {
  it('ten categories with one slug at once make one', async () => {
    oneMade(await burst((i) => asOwner('POST', '/api/admin/categories', { name: `Verandah ${i}`, slug: 'verandah' })), 201, 'duplicate_slug', 'slug');
    expect(
      await count(
        t.db.kysely
          .selectFrom('categories')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('slug', '=', 'verandah')
          .executeTakeFirst(),
      ),
    ).toBe(1);
  });
});

describe('a coupon code, one coupon whatever its case', () => {
  it('ten coupons with one code in two cases at once make one', async () => {
    const answers = await burst((i) =>
      asOwner('POST', '/api/admin/promotions/coupons', {
        code: i % 2 ? 'race10' : 'RACE10',
        title: `10% off (${i})`,
        discountType: 'PERCENTAGE',
        value: 10,
        maxAmount: 100_000,
      }),
    );
    oneMade(answers, 201, 'code_taken', 'code');
    const codes = await t.db.kysely.selectFrom('coupons').select('code').execute();
    expect(codes.filter((c) => c.code.toUpperCase() === 'RACE10')).toHaveLength(1);
  });
});

describe('a display currency, one per code', () => {
  it('ten currencies with one code at once make one', async () => {
    oneMade(
      await burst((i) => asOwner('POST', '/api/admin/currencies', { code: 'OMR', country: 'Oman', rate: 310 + i, numCode: '+968' })),
      201,
      'duplicate_code',
      'code',
    );
    expect(
      await count(
        t.db.kysely
          .selectFrom('currencies')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('code', '=', 'OMR')
          .executeTakeFirst(),
      ),
    ).toBe(1);
  });
});

const staffWith = (email: string) =>
  count(
    t.db.kysely
      .selectFrom('staff')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('email_key', '=', email.toLowerCase())
      .executeTakeFirst(),
  );

describe('a staff member’s email, one account', () => {
  it('ten accounts with one email at once make one', async () => {
    const email = uniqueEmail('member');
    const answers = await burst((i) => asOwner('POST', '/api/admin/staff', { email, fullName: `Member ${i}`, role: 'staff', password: STAFF_PASSWORD }));
    oneMade(answers, 201, 'duplicate_email', 'email');
    expect(await staffWith(email)).toBe(1);
  });

  it('ten invitations of one email at once make one account', async () => {
    const email = uniqueEmail('invitee');
    const answers = await burst((i) => asOwner('POST', '/api/admin/staff/invites', { email, fullName: `Invitee ${i}`, role: 'staff' }));
    oneMade(answers, 201, 'duplicate_email', 'email');
    expect(await staffWith(email)).toBe(1);
  });
});

const signUpAs = (json: Record<string, unknown>) => t.api('/api/signup', { method: 'POST', json, headers: { 'x-forwarded-for': uniqueIp() } });
const shopper = (patch: Record<string, unknown>) => ({
  source: 'DEFAULT',
  type: 'DEFAULT',
  fullName: 'Rahim Uddin',
  email: uniqueEmail(),
  mobile: uniqueMobile(),
  password: 'secret-pass',
  ...patch,
});

describe('a customer’s email and mobile, one account each', () => {
  it('ten sign-ups with one email at once make one account', async () => {
    const email = uniqueEmail();
    oneMade(await burst(() => signUpAs(shopper({ email }))), 201, 'duplicate_email', 'email');
    expect(
      await count(
        t.db.kysely
          .selectFrom('customers')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('email_key', '=', email)
          .executeTakeFirst(),
      ),
    ).toBe(1);
  });

  it('ten sign-ups with one mobile at once make one account', async () => {
    const mobile = uniqueMobile();
    const answers = await burst(() => signUpAs(shopper({ mobile })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 201)) {
      expectApiError(a, 409);
      expect(a.body.error.fields).toHaveProperty('mobile');
    }
    expect(
      await count(
        t.db.kysely
          .selectFrom('customers')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('mobile', 'like', `%${mobile.slice(1)}`)
          .executeTakeFirst(),
      ),
    ).toBe(1);
  });
});

describe('a newsletter subscription, one per address', () => {
  it('ten subscriptions of one address in several cases at once make one', async () => {
    const email = uniqueEmail('reader');
    const answers = await burst((i) =>
      t.api('/api/emails/subscriptions', { method: 'POST', json: { userId: '', email: i % 2 ? email.toUpperCase() : email, extras: { offer: '', type: '' } } }),
    );
    oneMade(answers, 201, answers.find((a) => a.status === 409)?.body.error.code ?? 'already_subscribed', 'email');
    expect(
      await count(
        t.db.kysely
          .selectFrom('email_subscriptions')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('email_key', '=', email)
          .executeTakeFirst(),
      ),
    ).toBe(1);
  });
});

describe('a courier’s payout reference, recorded once', () => {
  it('ten payouts with one reference at once record one', async () => {
    const answers = await burst((i) =>
      asOwner('POST', '/api/admin/cod/payouts', {
        courier: 'steadfast',
        paidOn: '2026-11-29',
        reference: i % 2 ? 'race-pay-1' : 'RACE-PAY-1',
        lines: [{ consignmentId: `RACE-${i}`, trackingCode: '', invoice: '', collected: 100_000, deliveryCharge: 0, codCharge: 0 }],
      }),
    );
    oneMade(answers, 201, 'payout_recorded', 'reference');
    const refs = await t.db.kysely.selectFrom('courier_payouts').select('reference').execute();
    expect(refs.filter((r) => r.reference.toUpperCase() === 'RACE-PAY-1')).toHaveLength(1);
  });
});

describe('a wishlist item, once', () => {
  it('ten adds of one item at once keep one', async () => {
    const c = await signUp(t);
    const sku = await t.db.kysely.selectFrom('skus').select(['code', 'product_id']).orderBy('id').limit(1).executeTakeFirstOrThrow();
    const answers = await burst(() =>
      t.api('/api/wishlists/items', { method: 'POST', json: { itemId: sku.product_id, skuCode: sku.code, action: 'add' }, headers: c.auth }),
    );
    for (const a of answers) expect(a.status, a.text).toBeLessThan(300);
    const id = await customerId(c.email);
    expect(
      await count(
        t.db.kysely
          .selectFrom('wishlist_items')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('customer_id', '=', id)
          .executeTakeFirst(),
      ),
    ).toBe(1);
  });
});

// A database that earlier races already doubled: migration 0030 settles what they made
// before it adds each index, the same way on both databases (docs/decisions/0052).
describe('a database the races already doubled, migrated', () => {
  it('keeps each district with the zone that priced it, one copy of an address, one default and one live link', async () => {
    const migration = await import('../src/db/migrations/2026-11-28-0030-unique-rules.ts');
    const k = t.db.kysely;
    await migration.down(k);
    const now = new Date().toISOString();
    const zone = async (name: string, districts: string[], sort_order: number) =>
      (
        await k
          .insertInto('delivery_zones')
          .values({ name, districts: JSON.stringify(districts), fee: 100_000, free_from: null, eta_min_days: 1, eta_max_days: 2, sort_order, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const first = await zone('Rangpur first', ['Rangpur'], 500);
    const second = await zone('Rangpur and Dinajpur', ['Rangpur', 'Dinajpur'], 501);
    const third = await zone('Rangpur again', ['Rangpur'], 502);
    const elsewhere = await zone('Everywhere else again', [], 503);

    const c = await signUp(t);
    const id = await customerId(c.email);
    const address = async (area: string, isDefault: number, updated: string) =>
      (
        await k
          .insertInto('addresses')
          .values({
            customer_id: id,
            full_name: 'Karim Ahmed',
            phone: '+8801711111111',
            division: 'Dhaka',
            district: 'Dhaka',
            area,
            address_line: 'House 5',
            label: null,
            is_default: isDefault,
            created_at: updated,
            updated_at: updated,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const oldest = await address('Gulshan 2', 0, '2026-11-01T00:00:00.000Z');
    await address('Gulshan 2', 0, '2026-11-02T00:00:00.000Z');
    await address('Gulshan 2', 1, '2026-11-03T00:00:00.000Z');
    const changedLast = await address('Banani', 1, '2026-11-04T00:00:00.000Z');

    const invited = await asOwner('POST', '/api/admin/staff/invites', { email: uniqueEmail('doubled'), fullName: 'Doubled Link', role: 'staff' });
    const link = (n: number) => ({
      staff_id: invited.body.id,
      token_hash: `doubled-${invited.body.id}-${n}`,
      created_at: `2026-11-2${n}T00:00:00.000Z`,
      expires_at: '2099-01-01T00:00:00.000Z',
      used_at: null,
    });
    await k
      .insertInto('staff_invites')
      .values([link(1), link(2)])
      .execute();

    await migration.up(k);

    const zones = await k.selectFrom('delivery_zones').select(['id', 'districts']).where('id', 'in', [first, second, third, elsewhere]).orderBy('id').execute();
    expect(zones.map((z) => [z.id, JSON.parse(z.districts)])).toEqual([
      [first, ['Rangpur']],
      [second, ['Dinajpur']],
    ]);
    const owners = await k.selectFrom('delivery_zone_districts').selectAll().where('district', 'in', ['Rangpur', 'Dinajpur']).orderBy('district').execute();
    expect(owners).toEqual([
      { district: 'Dinajpur', zone_id: second },
      { district: 'Rangpur', zone_id: first },
    ]);
    expect(
      await count(
        k
          .selectFrom('delivery_zones')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('districts', '=', '[]')
          .executeTakeFirst(),
      ),
    ).toBe(1);

    const rows = await k.selectFrom('addresses').select(['id', 'is_default']).where('customer_id', '=', id).orderBy('id').execute();
    expect(rows.map((r) => [r.id, Number(r.is_default)])).toEqual([
      [oldest, 0],
      [changedLast, 1],
    ]);

    const live = await k.selectFrom('staff_invites').select(['token_hash']).where('staff_id', '=', invited.body.id).where('used_at', 'is', null).execute();
    expect(live.map((l) => l.token_hash)).toEqual([`doubled-${invited.body.id}-2`]);

    // The indexes are there: a second default, a second live link, a district twice are refused.
    await expect(k.updateTable('addresses').set({ is_default: 1 }).where('id', '=', oldest).execute()).rejects.toThrow();
    await expect(k.insertInto('staff_invites').values(link(3)).execute()).rejects.toThrow();
    await expect(k.insertInto('delivery_zone_districts').values({ district: 'Rangpur', zone_id: second }).execute()).rejects.toThrow();
  });
});
