import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectApiError } from './helpers/assertions.ts';
import { addDiscount, categoryId, pctOffWholeTaka, removeAllDiscounts, type SkuRow, skusIn, stockUp } from './helpers/pricing-fixtures.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const db = () => t.db.kysely;
const search = (body: unknown) => t.api('/api/global/discounts/search', { method: 'POST', json: body });
const quote = (body: unknown) => t.api('/api/carts/quote', { method: 'POST', json: body });

describe('POST /api/global/discounts/search', () => {
  it('lists the demo discounts with the fields of spec §3, valid and not', async () => {
    const res = await search({ page: 1, size: 100 });
    expect(res.status).toBe(200);
    expect(res.body.nextPageToken).toBe('');
    const list = res.body.list;
    expect(list.length).toBeGreaterThanOrEqual(5);
    for (const d of list) {
      expect(Object.keys(d).sort()).toEqual([
        'categories',
        'coveredCategoryIds',
        'discountType',
        'endsAt',
        'id',
        'items',
        'startsAt',
        'title',
        'type',
        'valid',
        'value',
      ]);
      expect(['FIXED_CATEGORY', 'FIXED_PRODUCT']).toContain(d.type);
      expect(['PERCENTAGE', 'AMOUNT']).toContain(d.discountType);
      expect(Number.isInteger(d.value)).toBe(true);
      if (d.type === 'FIXED_PRODUCT') expect(d.items.length).toBeGreaterThan(0);
      else expect(d.categories.length).toBeGreaterThan(0);
    }
    expect(list.find((d: any) => /ended/.test(d.title)).valid).toBe(false);
    expect(list.find((d: any) => /paused/.test(d.title)).valid).toBe(false);
    expect(list.find((d: any) => /Sofa Season/.test(d.title)).valid).toBe(true);
  });

  it('a category discount covers the category and every descendant', async () => {
    const sofas = await categoryId(db(), 'sofas');
    const leaves = await Promise.all(['three-seater-sofas', 'l-shaped-sofas', 'sofa-beds'].map((s) => categoryId(db(), s)));
    const res = await search({ textParams: [{ field: 'title', value: 'Sofa Season', matchType: 'CONTAINS' }] });
    expect(res.body.list).toHaveLength(1);
    const d = res.body.list[0];
    expect(d.categories).toEqual([{ categoryId: sofas }]);
    expect(d.coveredCategoryIds.sort()).toEqual([sofas, ...leaves].sort());
  });

  it('uses the spec page size of 100 when none is given, and pages to the end with nextPageToken', async () => {
    const all = (await search({})).body.list;
    const seen: number[] = [];
    let page = 1;
    for (;;) {
      const res = await search({ page, size: 2, sortParams: [{ field: 'id', type: 'ASC' }] });
      expect(res.status).toBe(200);
      expect(res.body.list.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.list.map((d: any) => d.id));
      if (res.body.nextPageToken === '') break;
      page = Number(res.body.nextPageToken);
      expect(page).toBeGreaterThan(1);
    }
    expect(seen).toEqual(all.map((d: any) => d.id).sort((a: number, b: number) => a - b));
  });

  it('filters on valid and type, and counts with fetchCount', async () => {
    const valid = await search({ fetchCount: true, textParams: [{ field: 'valid', value: true }] });
    expect(valid.status).toBe(200);
    expect(valid.body.list.every((d: any) => d.valid)).toBe(true);
    expect(valid.body.count).toBe(valid.body.list.length);
    const invalid = await search({ textParams: [{ field: 'valid', value: 'false' }] });
    expect(invalid.body.list.length).toBeGreaterThanOrEqual(2);
    expect(invalid.body.list.every((d: any) => !d.valid)).toBe(true);
    const products = await search({ textParams: [{ field: 'type', value: 'FIXED_PRODUCT' }] });
    expect(products.body.list.length).toBeGreaterThan(0);
    expect(products.body.list.every((d: any) => d.type === 'FIXED_PRODUCT')).toBe(true);
  });

  it('a discount is valid only inside its window', async () => {
    const future = await addDiscount(db(), {
      title: 'starts tomorrow',
      type: 'FIXED_CATEGORY',
      discountType: 'PERCENTAGE',
      value: 5,
      categories: [await categoryId(db(), 'dining')],
      startsAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const res = await search({ textParams: [{ field: 'id', value: future }] });
    expect(res.body.list[0]).toMatchObject({ id: future, valid: false });
  });

  it('refuses a bad search body with a 400 in the one error shape', async () => {
    expectApiError(await search({ size: 0 }), 400, 'validation_error');
    expectApiError(await search({ size: 101 }), 400, 'validation_error');
    expectApiError(await search({ page: -1 }), 400, 'validation_error');
    expectApiError(await search({ textParams: [{ field: 'secret', value: 1 }] }), 400, 'bad_request');
    expectApiError(await search({ sortParams: [{ field: 'nope' }] }), 400, 'bad_request');
    expectApiError(await t.api('/api/global/discounts/search', { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } }), 400);
  });

  it('needs the API key', async () => {
    expectApiError(await t.api('/api/global/discounts/search', { method: 'POST', json: {}, apiKey: null }), 401);
  });
});

describe('POST /api/carts/quote prices a cart from the database alone', () => {
  let plain: SkuRow; // a three-seater sofa sku without a sale price of its own
  let other: SkuRow; // a coffee table sku without a sale price of its own

  beforeAll(async () => {
    await removeAllDiscounts(db());
    plain = (await skusIn(db(), 'three-seater-sofas')).find((s) => s.discounted_sales_price === null)!;
    other = (await skusIn(db(), 'coffee-tables')).find((s) => s.discounted_sales_price === null)!;
    expect(plain && other).toBeTruthy();
    await stockUp(db(), plain.sku_id);
    await stockUp(db(), other.sku_id);
  });

  it('without discounts every line costs its list price', async () => {
    const res = await quote({
      lines: [
        { skuCode: plain.code, quantity: 2 },
        { skuCode: other.code, quantity: 1 },
      ],
    });
    expect(res.status).toBe(200);
    const [a, b] = res.body.lines;
    expect(a).toMatchObject({
      skuCode: plain.code,
      quantity: 2,
      status: 'ok',
      salesPrice: plain.sales_price,
      unitPrice: plain.sales_price,
      saving: 0,
      subTotal: plain.sales_price * 2,
    });
    expect(a.product).toMatchObject({ id: plain.product_id });
    expect(a.product.categoryIds).toContain(await categoryId(db(), 'living-room'));
    expect(a.sku.label).toMatch(/\S/);
    expect(b.unitPrice).toBe(other.sales_price);
    const total = plain.sales_price * 2 + other.sales_price;
    expect(res.body.totals).toEqual({ quantity: 3, subTotal: total, discount: 0, couponAmount: 0, total });
    expect(res.body.currency).toBe('BDT');
    expect(res.body.coupon).toBeNull();
  });

  it('a discount on an ancestor category reaches the product, rounded down to the whole taka', async () => {
    const id = await addDiscount(db(), { type: 'FIXED_CATEGORY', discountType: 'PERCENTAGE', value: 15, categories: [await categoryId(db(), 'living-room')] });
    try {
      const res = await quote({ lines: [{ skuCode: plain.code, quantity: 1 }] });
      const saving = pctOffWholeTaka(plain.sales_price, 15);
      expect(res.body.lines[0]).toMatchObject({ unitPrice: plain.sales_price - saving, saving, discountId: id });
      expect(saving % 100).toBe(0);
      expect(res.body.totals).toMatchObject({ subTotal: plain.sales_price, discount: saving, total: plain.sales_price - saving });
    } finally {
      await removeAllDiscounts(db());
    }
  });

  it('of overlapping discounts the largest saving wins, without stacking', async () => {
    await addDiscount(db(), { type: 'FIXED_CATEGORY', discountType: 'PERCENTAGE', value: 10, categories: [await categoryId(db(), 'sofas')] });
    const big = await addDiscount(db(), { type: 'FIXED_PRODUCT', discountType: 'PERCENTAGE', value: 30, items: [{ productId: plain.product_id }] });
    await addDiscount(db(), { type: 'FIXED_PRODUCT', discountType: 'AMOUNT', value: 100, items: [{ productId: plain.product_id, skuCode: plain.code }] });
    try {
      const res = await quote({ lines: [{ skuCode: plain.code, quantity: 3 }] });
      const saving = pctOffWholeTaka(plain.sales_price, 30);
      expect(res.body.lines[0]).toMatchObject({ unitPrice: plain.sales_price - saving, discountId: big, subTotal: (plain.sales_price - saving) * 3 });
      expect(res.body.totals.discount).toBe(saving * 3);
    } finally {
      await removeAllDiscounts(db());
    }
  });

  it('a 100% discount makes the line free and an amount above the price never goes below zero', async () => {
    await addDiscount(db(), { type: 'FIXED_PRODUCT', discountType: 'PERCENTAGE', value: 100, items: [{ productId: plain.product_id }] });
    await addDiscount(db(), { type: 'FIXED_PRODUCT', discountType: 'AMOUNT', value: other.sales_price * 10, items: [{ productId: other.product_id }] });
    try {
      const res = await quote({
        lines: [
          { skuCode: plain.code, quantity: 1 },
          { skuCode: other.code, quantity: 2 },
        ],
      });
      expect(res.body.lines.map((l: any) => l.unitPrice)).toEqual([0, 0]);
      expect(res.body.totals).toMatchObject({ total: 0, discount: plain.sales_price + other.sales_price * 2 });
    } finally {
      await removeAllDiscounts(db());
    }
  });

  it('ignores discounts that are switched off, ended or not started', async () => {
    const cat = await categoryId(db(), 'living-room');
    const hour = 3_600_000;
    await addDiscount(db(), { type: 'FIXED_CATEGORY', discountType: 'PERCENTAGE', value: 50, categories: [cat], active: false });
    await addDiscount(db(), {
      type: 'FIXED_CATEGORY',
      discountType: 'PERCENTAGE',
      value: 50,
      categories: [cat],
      endsAt: new Date(Date.now() - hour).toISOString(),
    });
    await addDiscount(db(), {
      type: 'FIXED_CATEGORY',
      discountType: 'PERCENTAGE',
      value: 50,
      categories: [cat],
      startsAt: new Date(Date.now() + hour).toISOString(),
    });
    try {
      const res = await quote({ lines: [{ skuCode: plain.code, quantity: 1 }] });
      expect(res.body.lines[0].saving).toBe(0);
    } finally {
      await removeAllDiscounts(db());
    }
  });

  it('never trusts a price, total or discount sent in the body', async () => {
    const honest = await quote({ lines: [{ skuCode: plain.code, quantity: 2 }] });
    const tampered = await quote({
      lines: [{ skuCode: plain.code, quantity: 2, salesPrice: 1, unitPrice: 1, subTotal: 2, price: 1, discountedSalesPrice: 1 }],
      totals: { total: 2, subTotal: 2, discount: 0 },
      couponAmount: 999_999,
      discount: 100,
    });
    expect(tampered.status).toBe(200);
    expect(tampered.body).toEqual(honest.body);
    expect(tampered.body.totals.total).toBe(plain.sales_price * 2);
  });

  it('refuses negative, zero, fractional, huge or non-numeric quantities with a 400', async () => {
    for (const quantity of [-1, 0, 1.5, 100, '2', null]) {
      expectApiError(await quote({ lines: [{ skuCode: plain.code, quantity }] }), 400, 'validation_error');
    }
  });

  it('refuses malformed sku codes, missing lines and more than 50 lines', async () => {
    expectApiError(await quote({ lines: [{ skuCode: 'A:1,B', quantity: 1 }] }), 400, 'validation_error');
    expectApiError(await quote({ lines: [{ skuCode: '', quantity: 1 }] }), 400, 'validation_error');
    expectApiError(await quote({}), 400, 'validation_error');
    expectApiError(await quote({ lines: Array.from({ length: 51 }, (_, i) => ({ skuCode: `S-${i}`, quantity: 1 })) }), 400, 'validation_error');
  });

  it('reports an unknown sku as unavailable and leaves it out of the totals', async () => {
    const res = await quote({
      lines: [
        { skuCode: 'NO-SUCH-SKU', quantity: 3 },
        { skuCode: other.code, quantity: 1 },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.lines[0]).toMatchObject({ skuCode: 'NO-SUCH-SKU', status: 'unavailable', product: null, sku: null, subTotal: 0 });
    expect(res.body.totals).toMatchObject({ quantity: 1, total: other.sales_price });
  });

  it('merges lines for the same sku', async () => {
    const res = await quote({
      lines: [
        { skuCode: other.code, quantity: 2 },
        { skuCode: other.code, quantity: 3 },
      ],
    });
    expect(res.body.lines).toHaveLength(1);
    expect(res.body.lines[0].quantity).toBe(5);
  });

  it('says when a sku is out of stock or short of the quantity asked', async () => {
    await stockUp(db(), other.sku_id, 2);
    try {
      const short = await quote({ lines: [{ skuCode: other.code, quantity: 3 }] });
      expect(short.body.lines[0]).toMatchObject({ status: 'insufficient_stock', availableQuantity: 2 });
      const enough = await quote({ lines: [{ skuCode: other.code, quantity: 2 }] });
      expect(enough.body.lines[0]).toMatchObject({ status: 'ok', availableQuantity: 2 });
      await db().deleteFrom('stocks').where('sku_id', '=', other.sku_id).execute();
      const none = await quote({ lines: [{ skuCode: other.code, quantity: 1 }] });
      expect(none.body.lines[0]).toMatchObject({ status: 'out_of_stock', availableQuantity: 0 });
    } finally {
      await stockUp(db(), other.sku_id);
    }
  });

  it('prices a bundle as one line with sourceType bundle', async () => {
    const bundle = await db()
      .selectFrom('skus')
      .innerJoin('products', 'products.id', 'skus.product_id')
      .where('products.kind', '=', 'bundle')
      .select(['skus.code', 'skus.sales_price'])
      .executeTakeFirstOrThrow();
    const res = await quote({ lines: [{ skuCode: bundle.code, quantity: 1 }] });
    expect(res.body.lines[0]).toMatchObject({ sourceType: 'bundle', salesPrice: bundle.sales_price });
  });

  it('an empty cart is priced at zero', async () => {
    const res = await quote({ lines: [] });
    expect(res.status).toBe(200);
    expect(res.body.totals).toEqual({ quantity: 0, subTotal: 0, discount: 0, couponAmount: 0, total: 0 });
  });
});
