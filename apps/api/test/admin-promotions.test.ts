import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from './helpers/accounts.ts';
import { expectApiError } from './helpers/assertions.ts';
import { checkout, checkoutBody, generousOrderLimits } from './helpers/checkout.ts';
import { addDiscount, categoryId, removeAllDiscounts, skusIn, stockUp } from './helpers/pricing-fixtures.ts';
import { signedInStaff, type TestStaff } from './helpers/staff.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// Promotions in the back office (docs/decisions/0034), on both databases: global discounts
// (list by state, create, change, switch, remove, the preview's numbers, and the storefront's
// listing, discounts and cart quote showing a switch at once with the read cache on), and
// coupons (create, change, switch off, codes unique whatever their case, and the usage view
// after real checkouts). Bad input answers the one error shape.

let t: TestApp;
let manager: TestStaff;
let owner: TestStaff;
let readOnly: TestStaff;
let sofas: number;
let beds: number;

const DAY = 86_400_000;
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();

beforeAll(async () => {
  // The read cache kept for a minute: a change must not wait for it to expire.
  t = await startTestApp({ config: { trustProxy: true, readCacheMs: 60_000, orders: generousOrderLimits() } });
  await removeAllDiscounts(t.db.kysely);
  await t.app.checkCatalogueDiscounts();
  manager = await signedInStaff(t, 'manager');
  owner = await signedInStaff(t, 'owner');
  readOnly = await signedInStaff(t, 'read_only');
  sofas = await categoryId(t.db.kysely, 'sofas');
  beds = await categoryId(t.db.kysely, 'sofa-beds');
});
afterAll(() => t?.close());

const call = (method: string, path: string, json?: unknown, who: TestStaff = manager) => t.api(path, { method, json, headers: who.headers });
const D = '/api/admin/promotions/discounts';
const C = '/api/admin/promotions/coupons';

function discount(patch: Record<string, unknown> = {}) {
  return { title: 'Test: 20% off sofas', type: 'FIXED_CATEGORY', discountType: 'PERCENTAGE', value: 20, categoryIds: [sofas], active: false, ...patch };
}
const bodyOf = (d: any, patch: Record<string, unknown> = {}) => ({
  title: d.title,
  type: d.type,
  discountType: d.discountType,
  value: d.value,
  categoryIds: d.categories.map((c: any) => c.id),
  items: d.items.map((i: any) => ({ productId: i.productId, skuCode: i.skuCode })),
  startsAt: d.startsAt,
  endsAt: d.endsAt,
  active: d.active,
  version: d.version,
  ...patch,
});

/** The sofa listing's card for a product, as a shopper gets it. */
async function card(categoryIdOf: number, productId: number) {
  const res = await t.api('/api/v2/items/indices', {
    method: 'POST',
    json: { page: 1, size: 100, textParams: [{ field: 'categoryId', value: categoryIdOf }] },
  });
  expect(res.status, res.text).toBe(200);
  return res.body.list.find((c: any) => c.id === productId);
}
const quote = async (skuCode: string, couponCode?: string) =>
  (await t.api('/api/carts/quote', { method: 'POST', json: { lines: [{ skuCode, quantity: 1 }], ...(couponCode ? { couponCode } : {}) } })).body;
/** Every line of a preview, page by page. */
async function previewAll(body: unknown, who: TestStaff = manager) {
  const lines: any[] = [];
  for (let page = 1; ; page++) {
    const res = await call('POST', `${D}/preview?page=${page}&size=100`, body, who);
    expect(res.status, res.text).toBe(200);
    lines.push(...res.body.items);
    if (lines.length >= res.body.total) return { ...res.body, items: lines };
  }
}
const inForce = async () =>
  (await t.api('/api/global/discounts/search', { method: 'POST', json: { page: 1, size: 100, textParams: [{ field: 'valid', value: true }] } })).body
    .list as any[];

describe('global discounts', () => {
  it('are created, listed by state, changed and removed, each change audited', async () => {
    const made = await call('POST', D, discount({ startsAt: at(2), endsAt: at(9), active: true }));
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ state: 'scheduled', active: true, version: 1, targets: 1, categories: [{ id: sofas, name: 'Sofas' }] });
    const off = await call('POST', D, discount({ title: 'Test: off', type: 'FIXED_PRODUCT', categoryIds: [], items: [{ productId: 1, skuCode: null }] }));
    expect(off.status, off.text).toBe(201);
    expect(off.body).toMatchObject({ state: 'off', items: [{ productId: 1, skuCode: null }] });
    const ended = await call('POST', D, discount({ title: 'Test: ended', startsAt: at(-9), endsAt: at(-2), active: true }));
    expect(ended.body.state).toBe('ended');

    const list = async (q: string) => (await call('GET', `${D}?${q}`, undefined, readOnly)).body;
    expect((await list('state=scheduled')).items.map((d: any) => d.id)).toEqual([made.body.id]);
    expect((await list('state=off')).items.map((d: any) => d.id)).toEqual([off.body.id]);
    expect((await list('state=ended')).items.map((d: any) => d.id)).toEqual([ended.body.id]);
    expect((await list('q=ENDED')).total).toBe(1);
    expect((await list('size=2')).items).toHaveLength(2);

    const changed = await call('PUT', `${D}/${made.body.id}`, bodyOf(made.body, { value: 25, startsAt: null }));
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ value: 25, state: 'in_force', version: 2 });
    // The version read is stale now, for a change, a switch and a removal alike.
    expectApiError(await call('PUT', `${D}/${made.body.id}`, bodyOf(made.body, { value: 30 })), 409, 'stale_version');
    expectApiError(await call('PATCH', `${D}/${made.body.id}`, { active: false, version: 1 }), 409, 'stale_version');
    expectApiError(await call('DELETE', `${D}/${made.body.id}?version=1`), 409, 'stale_version');

    for (const d of [changed.body, off.body, ended.body]) expect((await call('DELETE', `${D}/${d.id}?version=${d.version}`)).status).toBe(204);
    expectApiError(await call('GET', `${D}/${made.body.id}`), 404, 'not_found');
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .select(['action', 'staff_email'])
      .where('entity', '=', 'global_discount')
      .where('entity_id', '=', String(made.body.id))
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['discount_created', 'discount_updated', 'discount_removed']);
    expect(audit[0].staff_email).toBe(manager.email);
  });

  it('refuses bad discounts with the one error shape, on the field at fault, and saves none', async () => {
    const before = (await call('GET', D)).body.total;
    const product = (await skusIn(t.db.kysely, 'three-seater-sofas'))[0];
    // One instant for "ends when it starts": two calls of at(1) may fall a millisecond apart.
    const tomorrow = at(1);
    const cases: [Record<string, unknown>, string][] = [
      [{ value: 0 }, 'value'],
      [{ value: 91 }, 'value'],
      [{ discountType: 'AMOUNT', value: -100 }, 'value'],
      [{ discountType: 'AMOUNT', value: 0 }, 'value'],
      [{ startsAt: at(5), endsAt: at(1) }, 'endsAt'],
      [{ startsAt: tomorrow, endsAt: tomorrow }, 'endsAt'],
      [{ title: '  ' }, 'title'],
      [{ categoryIds: [] }, 'categoryIds'],
      [{ categoryIds: [sofas, 999_999] }, 'categoryIds'],
      [{ type: 'FIXED_PRODUCT', items: [] }, 'items'],
      [{ type: 'FIXED_PRODUCT', items: [{ productId: 999_999, skuCode: null }] }, 'items'],
      [{ type: 'FIXED_PRODUCT', items: [{ productId: product.product_id, skuCode: 'NO-SUCH-SKU' }] }, 'items'],
      [{ startsAt: 'next tuesday' }, 'startsAt'],
    ];
    for (const [patch, field] of cases) {
      for (const res of [await call('POST', D, discount(patch)), await call('POST', `${D}/preview`, discount(patch))]) {
        expectApiError(res, 400);
        expect(Object.keys(res.body.error.fields ?? {}), JSON.stringify(patch)).toContain(field);
      }
    }
    expect((await call('GET', D)).body.total).toBe(before);
    expectApiError(await call('PUT', `${D}/999999`, discount()), 404, 'not_found');
    expectApiError(await call('PATCH', `${D}/999999`, { active: true, version: 1 }), 404, 'not_found');
  });

  it('previews each reached sku with its price now and with the discount, by the storefront’s rule', async () => {
    const [a, b, c] = await skusIn(t.db.kysely, 'sofa-beds');
    const k = t.db.kysely;
    // A price whose 20% is not a whole taka (rounded down to the taka), one with its own larger
    // sale price (which still wins), one plain.
    await k.updateTable('skus').set({ sales_price: 1_234_567, discounted_sales_price: null }).where('id', '=', a.sku_id).execute();
    await k.updateTable('skus').set({ sales_price: 1_000_000, discounted_sales_price: 600_000 }).where('id', '=', b.sku_id).execute();
    await k.updateTable('skus').set({ sales_price: 2_000_000, discounted_sales_price: null }).where('id', '=', c.sku_id).execute();
    // Another discount in force, 10% on the same category: 20% beats it, never stacking.
    await addDiscount(k, { type: 'FIXED_CATEGORY', discountType: 'PERCENTAGE', value: 10, categories: [beds] });

    const res = { body: await previewAll(discount({ categoryIds: [sofas] }), readOnly) };
    const reached = await k
      .selectFrom('skus')
      .innerJoin('products', 'products.id', 'skus.product_id')
      .innerJoin('product_categories', 'product_categories.product_id', 'products.id')
      .where(
        'product_categories.category_id',
        'in',
        (
          await k
            .selectFrom('categories')
            .select('id')
            .where((eb) => eb.or([eb('id', '=', sofas), eb('parent_id', '=', sofas)]))
            .execute()
        ).map((r) => r.id),
      )
      .where('products.status', '=', 'published')
      .select('skus.code')
      .distinct()
      .execute();
    expect(res.body.total).toBe(reached.length);
    const line = (code: string) => res.body.items.find((l: any) => l.skuCode === code);
    expect(line(a.code)).toMatchObject({ salesPrice: 1_234_567, currentPrice: 1_234_567 - 123_400, newPrice: 1_234_567 - 246_900, wins: true });
    expect(line(b.code)).toMatchObject({ salesPrice: 1_000_000, currentPrice: 600_000, newPrice: 600_000, wins: false });
    expect(line(c.code)).toMatchObject({ currentPrice: 1_800_000, newPrice: 1_600_000, wins: true });
    expect(res.body.lowered).toBe(res.body.items.filter((l: any) => l.newPrice < l.currentPrice).length);

    // Paged, with the count over every page.
    const page2 = await call('POST', `${D}/preview?page=2&size=5`, discount());
    expect(page2.body).toMatchObject({ total: res.body.total, page: 2, size: 5 });
    expect(page2.body.items).toEqual(res.body.items.slice(5, 10));

    // One sku of one product only.
    const one = await call(
      'POST',
      `${D}/preview`,
      discount({
        type: 'FIXED_PRODUCT',
        discountType: 'AMOUNT',
        value: 50_000,
        categoryIds: [],
        items: [{ productId: c.product_id, skuCode: c.code.toLowerCase() }],
      }),
    );
    expect(one.status, one.text).toBe(200);
    expect(one.body.items).toEqual([expect.objectContaining({ skuCode: c.code, currentPrice: 1_800_000, newPrice: 1_800_000, wins: false })]);
    // Nothing saved by a preview.
    expect(await k.selectFrom('global_discounts').select('id').where('title', 'like', 'Test: 20%').execute()).toEqual([]);
    await removeAllDiscounts(k);
    await t.app.checkCatalogueDiscounts();
  });

  it('shows on the listing, the storefront’s discounts and the cart quote at once when switched on, and not after it is switched off', async () => {
    const [s] = await skusIn(t.db.kysely, 'three-seater-sofas');
    await t.db.kysely.updateTable('skus').set({ sales_price: 3_000_000, discounted_sales_price: null }).where('id', '=', s.sku_id).execute();
    await stockUp(t.db.kysely, s.sku_id);
    await t.app.reindexCatalogue();
    // Warm every cache with the undiscounted price.
    expect((await card(sofas, s.product_id)).price).toBe(3_000_000);
    expect((await quote(s.code)).totals.total).toBe(3_000_000);

    const made = await call('POST', D, discount());
    expect(made.body.state).toBe('off');
    const preview = { body: await previewAll(discount({ id: made.body.id })) };
    const expected = preview.body.items.find((l: any) => l.skuCode === s.code).newPrice;
    expect(expected).toBe(2_400_000);
    expect((await card(sofas, s.product_id)).price).toBe(3_000_000);

    const on = await call('PATCH', `${D}/${made.body.id}`, { active: true, version: made.body.version });
    expect(on.status, on.text).toBe(200);
    expect(on.body.state).toBe('in_force');
    expect((await card(sofas, s.product_id)).price).toBe(expected);
    expect((await inForce()).map((d) => d.id)).toContain(made.body.id);
    const q = await quote(s.code);
    expect(q.lines[0]).toMatchObject({ unitPrice: expected, discountId: made.body.id });
    expect(q.totals.total).toBe(expected);

    const offAgain = await call('PATCH', `${D}/${made.body.id}`, { active: false, version: on.body.version });
    expect(offAgain.status).toBe(200);
    expect((await card(sofas, s.product_id)).price).toBe(3_000_000);
    expect((await inForce()).map((d) => d.id)).not.toContain(made.body.id);
    expect((await quote(s.code)).totals.total).toBe(3_000_000);
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .select('action')
      .where('entity', '=', 'global_discount')
      .where('entity_id', '=', String(made.body.id))
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['discount_created', 'discount_switched_on', 'discount_switched_off']);
  });
});

describe('coupons', () => {
  const coupon = (patch: Record<string, unknown> = {}) => ({
    code: 'SAVE10',
    title: '10% off',
    discountType: 'PERCENTAGE',
    value: 10,
    maxAmount: 100_000,
    ...patch,
  });

  it('are created, listed, changed and switched off; codes are unique whatever their case', async () => {
    const made = await call('POST', C, coupon({ code: ' save10 ', isPublic: true, usageLimit: 100, perCustomerLimit: 2, minimumOrder: 500_000 }));
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ code: 'SAVE10', state: 'in_force', uses: 0, version: 1, isPublic: true, usageLimit: 100, perCustomerLimit: 2 });

    for (const code of ['SAVE10', 'save10', 'Save10']) {
      const dup = await call('POST', C, coupon({ code }));
      expectApiError(dup, 409, 'code_taken');
      expect(dup.body.error.fields.code).toMatch(/already has this code/);
    }
    const other = await call('POST', C, coupon({ code: 'OTHER-5', discountType: 'AMOUNT', value: 50_000, maxAmount: null }));
    expect(other.status, other.text).toBe(201);
    expectApiError(
      await call('PUT', `${C}/${other.body.id}`, { ...coupon({ code: 'save10', discountType: 'AMOUNT', value: 50_000, maxAmount: null }), version: 1 }),
      409,
      'code_taken',
    );

    const list = (await call('GET', `${C}?q=save`, undefined, readOnly)).body;
    expect(list.items.map((c: any) => c.code)).toEqual(['SAVE10']);

    const changed = await call('PUT', `${C}/${made.body.id}`, { ...coupon({ title: 'Ten off', value: 15 }), version: 1 });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ title: 'Ten off', value: 15, version: 2, isPublic: false, usageLimit: null });
    expectApiError(await call('PUT', `${C}/${made.body.id}`, { ...coupon(), version: 1 }), 409, 'stale_version');
    expectApiError(await call('PATCH', `${C}/${made.body.id}`, { active: false, version: 1 }), 409, 'stale_version');

    const [s] = await skusIn(t.db.kysely, 'armchairs');
    expect((await quote(s.code, 'save10')).coupon).toMatchObject({ applied: true });
    const off = await call('PATCH', `${C}/${made.body.id}`, { active: false, version: 2 });
    expect(off.body).toMatchObject({ active: false, state: 'off' });
    // The next quote no longer takes it.
    expect((await quote(s.code, 'save10')).coupon).toMatchObject({ applied: false, reason: 'unknown' });
    expect((await call('GET', `${C}?state=off`)).body.items.map((c: any) => c.code)).toContain('SAVE10');

    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .select('action')
      .where('entity', '=', 'coupon')
      .where('entity_id', '=', String(made.body.id))
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['coupon_created', 'coupon_updated', 'coupon_switched_off']);
  });

  it('refuses bad coupons with the one error shape, on the field at fault', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ value: 0 }, 'value'],
      [{ value: 95 }, 'value'],
      [{ discountType: 'AMOUNT', value: -5, maxAmount: null }, 'value'],
      [{ discountType: 'AMOUNT', value: 100, maxAmount: 50 }, 'maxAmount'],
      [{ minimumOrder: -1 }, 'minimumOrder'],
      [{ startsAt: at(3), endsAt: at(2) }, 'endsAt'],
      [{ code: 'a' }, 'code'],
      [{ code: 'has space' }, 'code'],
      [{ usageLimit: 0 }, 'usageLimit'],
      [{ title: '' }, 'title'],
    ];
    for (const [patch, field] of cases) {
      const res = await call('POST', C, coupon({ code: 'BADONE', ...patch }));
      expectApiError(res, 400);
      expect(Object.keys(res.body.error.fields ?? {}), JSON.stringify(patch)).toContain(field);
    }
    expect((await call('GET', `${C}?q=BADONE`)).body.total).toBe(0);
    expectApiError(await call('GET', `${C}/999999/usages`), 404, 'not_found');
  });

  it('lists the orders that used a coupon, a guest’s and a customer’s, with the totals', async () => {
    const made = await call('POST', C, coupon({ code: 'USAGE500', title: '৳500 off', discountType: 'AMOUNT', value: 50_000, maxAmount: null }));
    expect(made.status, made.text).toBe(201);
    const [s] = await skusIn(t.db.kysely, 'dining-chairs');
    await stockUp(t.db.kysely, s.sku_id);
    const items = [{ skuCode: s.code, quantity: 2 }];

    const guest = await checkout(t, checkoutBody(items, { couponCode: 'usage500' }));
    expect(guest.status, guest.text).toBe(201);
    expect(guest.body.sale.couponAmount).toBe(50_000);
    const customer = await signUp(t);
    const mine = await checkout(t, checkoutBody(items, { couponCode: 'USAGE500' }), customer.auth);
    expect(mine.status, mine.text).toBe(201);

    const res = await call('GET', `${C}/${made.body.id}/usages`, undefined, readOnly);
    expect(res.status, res.text).toBe(200);
    expect(res.body.totals).toEqual({ uses: 2, amount: 100_000 });
    expect(res.body.items.map((u: any) => [u.invoiceId, u.guest, u.amount])).toEqual([
      [mine.body.invoiceId, false, 50_000],
      [guest.body.invoiceId, true, 50_000],
    ]);
    expect(res.body.items[0].name).toBe(customer.fullName);
    expect(res.body.items[1].name).toBe('Nusrat Jahan');
    expect((await call('GET', `${C}/${made.body.id}`)).body.uses).toBe(2);
    // Staff of every role may read it; nobody but managers and owners may change coupons.
    expectApiError(await call('PATCH', `${C}/${made.body.id}`, { active: false, version: 1 }, readOnly), 403, 'forbidden');
    expect((await call('PATCH', `${C}/${made.body.id}`, { active: false, version: 1 }, owner)).status).toBe(200);
  });
});
