import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quoteCart } from '../src/modules/pricing/quote.service.ts';
import { signUp } from './helpers/accounts.ts';
import { expectApiError } from './helpers/assertions.ts';
import {
  ADDRESS,
  checkout,
  checkoutBody,
  countRows,
  deliveryFeeFor,
  guestContact,
  plainSkus,
  saleRow,
  setStock,
  stockOf,
  type TestSku,
} from './helpers/checkout.ts';
import { pngBytes, uploadForm } from './helpers/files.ts';
import { addCoupon } from './helpers/pricing-fixtures.ts';
import { startTestApp, TEST_API_KEY, type TestApp } from './helpers/test-app.ts';

// POST /api/checkouts and the sales endpoints: the server prices, one transaction writes,
// and only the owner sees an order.

let t: TestApp;
let skus: TestSku[];

beforeAll(async () => {
  t = await startTestApp({ config: { trustProxy: true } });
  t.app.config.publicUrl = t.baseUrl;
  skus = await plainSkus(t.db.kysely, 12, 40);
  for (const s of skus) await setStock(t.db.kysely, s.id, [5]);
});
afterAll(() => t?.close());

const written = async () => ({
  sales: await countRows(t.db.kysely, 'sales'),
  lines: await countRows(t.db.kysely, 'sale_lines'),
  reservations: await countRows(t.db.kysely, 'stock_reservations'),
  usages: await countRows(t.db.kysely, 'coupon_usages'),
});

describe('placing an order', () => {
  it('charges what the server quotes, whatever prices, totals or currency the body claims', async () => {
    const [a, b] = skus;
    const items = [
      { skuCode: a.code, quantity: 2 },
      { skuCode: b.code, quantity: 1 },
    ];
    const quote = await quoteCart(t.db.kysely, { lines: items, customerId: null });
    const fee = await deliveryFeeFor(t, 'Dhaka', quote.totals.total);
    const expected = quote.totals.total + fee;

    const honest = await checkout(t, checkoutBody(items));
    expect(honest.status, honest.text).toBe(201);
    expect(honest.body.sale.total).toBe(expected);
    expect(honest.body.sale.currency).toBe('BDT');

    const tampered = await checkout(
      t,
      checkoutBody(
        items.map((i) => ({ ...i, price: 1, salesPrice: 1, unitPrice: 1, subTotal: 1, discount: 999_999 })),
        { total: 100, subTotal: 100, discount: 5_000_000, couponAmount: 9_999_999, currency: 'USD', deliveryFee: 0, amount: 1 },
      ),
    );
    expect(tampered.status, tampered.text).toBe(201);
    const sale = tampered.body.sale;
    expect(sale.total).toBe(expected);
    expect(sale.currency).toBe('BDT');
    expect(sale.deliveryFee).toBe(fee);
    expect(sale.lines.map((l: { lineTotal: number }) => l.lineTotal)).toEqual(quote.lines.map((l) => l.subTotal));
    expect(sale.lines.map((l: { unitPrice: number }) => l.unitPrice)).toEqual(quote.lines.map((l) => l.salesPrice));
    const row = await saleRow(t.db.kysely, tampered.body.invoiceId);
    expect(Number(row.total)).toBe(expected);
    expect(row.currency).toBe('BDT');
  });

  for (const [label, quantity] of [
    ['negative', -1],
    ['zero', 0],
    ['fractional', 1.5],
    ['huge', 100],
    ['text', '2'],
  ] as const) {
    it(`refuses a ${label} quantity with 400 and writes nothing`, async () => {
      const before = await written();
      const stock = await stockOf(t.db.kysely, skus[2].id);
      const res = await checkout(t, checkoutBody([{ skuCode: skus[2].code, quantity }]));
      expectApiError(res, 400, 'validation_error');
      expect(await written()).toEqual(before);
      expect(await stockOf(t.db.kysely, skus[2].id)).toBe(stock);
    });
  }

  it('refuses lines of one sku that add up to more than a line may hold', async () => {
    const res = await checkout(
      t,
      checkoutBody([
        { skuCode: skus[2].code, quantity: 60 },
        { skuCode: skus[2].code, quantity: 60 },
      ]),
    );
    expectApiError(res, 400);
  });

  it('answers 409 naming an unknown sku, and writes nothing', async () => {
    const before = await written();
    const res = await checkout(
      t,
      checkoutBody([
        { skuCode: skus[2].code, quantity: 1 },
        { skuCode: 'NO-SUCH-SKU', quantity: 1 },
      ]),
    );
    expectApiError(res, 409, 'items_unavailable');
    expect(res.body.error.message).toContain('NO-SUCH-SKU');
    expect(res.body.error.fields).toEqual({ 'items.1.skuCode': 'This item is no longer sold' });
    expect(await written()).toEqual(before);
  });

  it('answers 409 naming the short lines when stock is short, and writes nothing', async () => {
    const [x, y, z] = skus.slice(3, 6);
    await setStock(t.db.kysely, x.id, [1]);
    await setStock(t.db.kysely, y.id, [0]);
    await setStock(t.db.kysely, z.id, [4]);
    const before = await written();
    const res = await checkout(
      t,
      checkoutBody([
        { skuCode: z.code, quantity: 1 },
        { skuCode: x.code, quantity: 2 },
        { skuCode: y.code, quantity: 1 },
      ]),
    );
    expectApiError(res, 409, 'out_of_stock');
    expect(res.body.error.fields).toEqual({ 'items.1.quantity': 'Only 1 left in stock', 'items.2.quantity': 'Out of stock' });
    expect(res.body.error.message).toContain(x.code);
    expect(res.body.error.message).toContain(y.code);
    expect(await written()).toEqual(before);
    expect(await stockOf(t.db.kysely, x.id)).toBe(1);
    expect(await stockOf(t.db.kysely, z.id)).toBe(4);
  });

  it('reserves stock from branches in a fixed order and records where it came from', async () => {
    const s = skus[6];
    await setStock(t.db.kysely, s.id, [1, 0, 2, 3]);
    const res = await checkout(t, checkoutBody([{ skuCode: s.code, quantity: 3 }]));
    expect(res.status, res.text).toBe(201);
    const branches = await t.db.kysely.selectFrom('branches').select('id').orderBy('sort_order').orderBy('id').execute();
    const reservations = await t.db.kysely.selectFrom('stock_reservations').select(['branch_id', 'quantity']).where('sale_id', '=', res.body.saleId).execute();
    // The fourth branch has all three: one branch before a split.
    expect(reservations).toEqual([{ branch_id: branches[3].id, quantity: 3 }]);
    expect((await saleRow(t.db.kysely, res.body.invoiceId)).branch_id).toBe(branches[3].id);
    expect(await stockOf(t.db.kysely, s.id)).toBe(3);
  });

  it("collects from a showroom without a delivery fee, preferring that showroom's stock", async () => {
    const s = skus[7];
    await setStock(t.db.kysely, s.id, [4, 4]);
    const branches = await t.db.kysely.selectFrom('branches').select('id').orderBy('sort_order').orderBy('id').execute();
    const res = await checkout(t, {
      items: [{ skuCode: s.code, quantity: 1 }],
      paymentMethod: 'cod',
      deliveryMethod: 'showroom_pickup',
      pickupBranchId: branches[1].id,
      contact: guestContact(),
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.sale.deliveryFee).toBe(0);
    expect(res.body.sale.pickupBranch.id).toBe(branches[1].id);
    expect(res.body.sale.deliveryAddress).toBeNull();
    const r = await t.db.kysely.selectFrom('stock_reservations').select('branch_id').where('sale_id', '=', res.body.saleId).executeTakeFirstOrThrow();
    expect(r.branch_id).toBe(branches[1].id);
  });

  it('asks a guest for contact details and an address, field by field', async () => {
    const noContact = await checkout(t, {
      items: [{ skuCode: skus[8].code, quantity: 1 }],
      paymentMethod: 'cod',
      deliveryMethod: 'home_delivery',
      address: ADDRESS,
    });
    expectApiError(noContact, 400);
    expect(Object.keys(noContact.body.error.fields)).toEqual(['contact.name', 'contact.mobile', 'contact.email']);
    const badContact = await checkout(t, checkoutBody([{ skuCode: skus[8].code, quantity: 1 }], { contact: { name: ' ', mobile: '123', email: 'nope' } }));
    expectApiError(badContact, 400, 'validation_error');
    expect(Object.keys(badContact.body.error.fields)).toEqual(['contact.name', 'contact.mobile', 'contact.email']);
    const noAddress = await checkout(t, {
      items: [{ skuCode: skus[8].code, quantity: 1 }],
      paymentMethod: 'cod',
      deliveryMethod: 'home_delivery',
      contact: guestContact(),
    });
    expectApiError(noAddress, 400);
    expect(noAddress.body.error.fields).toHaveProperty('address');
    const savedAsGuest = await checkout(t, checkoutBody([{ skuCode: skus[8].code, quantity: 1 }], { addressId: 1, address: undefined }));
    expectApiError(savedAsGuest, 400);
  });
});

describe('coupons at checkout', () => {
  it("takes the coupon off the total and records its use in the order's transaction", async () => {
    await addCoupon(t.db.kysely, { code: 'CHECKOUT500', value: 50_000 });
    const items = [{ skuCode: skus[9].code, quantity: 1 }];
    const quote = await quoteCart(t.db.kysely, { lines: items, customerId: null, couponCode: 'CHECKOUT500' });
    const res = await checkout(t, checkoutBody(items, { couponCode: ' checkout500 ' }));
    expect(res.status, res.text).toBe(201);
    expect(res.body.sale.couponCode).toBe('CHECKOUT500');
    expect(res.body.sale.couponAmount).toBe(50_000);
    expect(res.body.sale.total).toBe(quote.totals.total + (await deliveryFeeFor(t, 'Dhaka', quote.totals.total)));
    const use = await t.db.kysely.selectFrom('coupon_usages').selectAll().where('order_ref', '=', res.body.invoiceId).executeTakeFirstOrThrow();
    expect(Number(use.amount)).toBe(50_000);
  });

  it('refuses an order whose coupon does not apply, and writes nothing', async () => {
    await addCoupon(t.db.kysely, { code: 'BIGSPEND', value: 10_000, minimumOrder: 1_000_000_000 });
    const before = await written();
    const res = await checkout(t, checkoutBody([{ skuCode: skus[9].code, quantity: 1 }], { couponCode: 'BIGSPEND' }));
    expectApiError(res, 409, 'coupon_not_applicable');
    expect(res.body.error.fields.couponCode).toMatch(/Spend at least/);
    const unknown = await checkout(t, checkoutBody([{ skuCode: skus[9].code, quantity: 1 }], { couponCode: 'NOPE-NOPE' }));
    expectApiError(unknown, 409, 'coupon_not_applicable');
    expect(await written()).toEqual(before);
  });
});

describe('who sees an order', () => {
  it("shows a guest's order to the guest holding its token, and to nobody else", async () => {
    const res = await checkout(t, checkoutBody([{ skuCode: skus[10].code, quantity: 1 }]));
    expect(res.status, res.text).toBe(201);
    const { invoiceId, saleId, accessToken } = res.body;
    expect(accessToken).toMatch(/^[\w-]{32}$/);
    const cookie = /order_access=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
    expect(cookie).toBeTruthy();
    expect(res.headers.get('set-cookie')).toMatch(/HttpOnly/i);

    const byHeader = await t.api(`/api/sales?id=${saleId}`, { headers: { 'x-order-token': accessToken } });
    expect(byHeader.status).toBe(200);
    expect(byHeader.body.invoiceId).toBe(invoiceId);
    expect(byHeader.body.history[0].note).toMatch(/cash on delivery/);
    const byCookie = await t.api(`/api/sales?invoiceId=${invoiceId}`, { headers: { cookie: `order_access=${cookie}` } });
    expect(byCookie.status).toBe(200);
    const list = await t.api('/api/sales', { method: 'POST', json: {}, headers: { cookie: `order_access=${cookie}` } });
    expect(list.body.list.map((s: { invoiceId: string }) => s.invoiceId)).toEqual([invoiceId]);

    expectApiError(await t.api(`/api/sales?id=${saleId}`), 404, 'not_found');
    expectApiError(await t.api(`/api/sales?id=${saleId}`, { headers: { 'x-order-token': 'x'.repeat(32) } }), 404);
    const stranger = await signUp(t);
    expectApiError(await t.api(`/api/sales?id=${saleId}`, { headers: stranger.auth }), 404);
    expectApiError(await t.api(`/api/qrs?invoiceId=${invoiceId}`, { headers: stranger.auth }), 404);
    expectApiError(await t.api(`/api/sales?id=${saleId}`, { method: 'PATCH', json: {}, headers: stranger.auth }), 404);
    expect((await t.api('/api/sales', { method: 'POST', json: {}, headers: stranger.auth })).body.list).toEqual([]);
  });

  it('answers the order it placed as reading it back does, without reading it back', async () => {
    // The sale, its lines, history and payments are answered from what the checkout wrote.
    const seen: string[] = [];
    const stop = t.db.observe((sql) => seen.push(sql));
    let res: Awaited<ReturnType<typeof checkout>>;
    try {
      res = await checkout(t, checkoutBody([{ skuCode: skus[9].code, quantity: 1 }]));
    } finally {
      stop();
    }
    expect(res.status, res.text).toBe(201);
    const lastWrite = seen.findLastIndex((q) => /^\s*(insert|update|delete)\b/i.test(q) && !/checkout_counts|rate_limit/i.test(q));
    const readsAfter = seen.slice(lastWrite + 1).filter((q) => /\bfrom\s+"(sales|sale_lines|sale_status_history|payments|sale_attachments)"/i.test(q));
    expect(readsAfter, readsAfter.join('\n')).toEqual([]);

    const read = await t.api(`/api/sales?id=${res.body.saleId}`, { headers: { 'x-order-token': res.body.accessToken } });
    expect(read.status).toBe(200);
    expect(res.body.sale).toEqual(read.body);
  });

  it("answers 404 for another customer's sale, on every sales endpoint", async () => {
    const owner = await signUp(t);
    const other = await signUp(t);
    const res = await checkout(
      t,
      { items: [{ skuCode: skus[11].code, quantity: 1 }], paymentMethod: 'later', deliveryMethod: 'home_delivery', address: ADDRESS },
      owner.auth,
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body.accessToken).toBeNull();
    const { saleId, invoiceId } = res.body;
    expect((await t.api(`/api/sales?id=${saleId}`, { headers: owner.auth })).status).toBe(200);
    expectApiError(await t.api(`/api/sales?id=${saleId}`, { headers: other.auth }), 404, 'not_found');
    expectApiError(await t.api(`/api/sales?invoiceId=${invoiceId}`, { headers: other.auth }), 404);
    expectApiError(await t.api(`/api/sales?id=${saleId}`, { method: 'PATCH', json: {}, headers: other.auth }), 404);
    expectApiError(
      await t.api('/api/sales/payments/attachments', {
        method: 'PATCH',
        json: { id: saleId, fileUuid: '00000000-0000-4000-8000-000000000000' },
        headers: other.auth,
      }),
      404,
    );
    expectApiError(await t.api(`/api/checkouts/payments?invoiceId=${invoiceId}`, { method: 'POST', headers: other.auth }), 404);
    expectApiError(await t.api(`/api/checkouts/cancel?invoiceId=${invoiceId}`, { method: 'PATCH', json: {}, headers: other.auth }), 404);
    // A guest token never opens a customer's sale.
    expectApiError(await t.api(`/api/sales?id=${saleId}`, { headers: { 'x-order-token': 'whatever-token-of-32-characters' } }), 404);
    expect((await t.api(`/api/sales?id=${saleId}`, { method: 'PATCH', json: {}, headers: owner.auth })).status).toBe(200);
  });
});

describe("a customer's orders and bookings", () => {
  it('orders to a saved address, lists all or bookings only, and cancels a booking, releasing its stock', async () => {
    const c = await signUp(t);
    const address = await t.api('/api/addresses', { method: 'POST', json: { ...ADDRESS, district: 'Gazipur', label: 'Home' }, headers: c.auth });
    expect(address.status, address.text).toBe(201);
    const [s1, s2] = await plainSkus(t.db.kysely, 2, 80);
    await setStock(t.db.kysely, s1.id, [3]);
    await setStock(t.db.kysely, s2.id, [3]);

    const order = await checkout(
      t,
      { items: [{ skuCode: s1.code, quantity: 1 }], paymentMethod: 'cod', deliveryMethod: 'home_delivery', addressId: address.body.id },
      c.auth,
    );
    expect(order.status, order.text).toBe(201);
    // Gazipur is in the zone of Dhaka's suburbs.
    expect(order.body.sale.deliveryFee).toBe(100_000);
    expect(order.body.sale.deliveryAddress.district).toBe('Gazipur');
    expect(order.body.sale.contact.email).toBe(c.email);
    expect(order.body.redirectTo).toBe(`/payments/response/success?invoiceId=${order.body.invoiceId}`);

    const booking = await checkout(
      t,
      { items: [{ skuCode: s2.code, quantity: 2 }], paymentMethod: 'later', deliveryMethod: 'home_delivery', addressId: address.body.id },
      c.auth,
    );
    expect(booking.status, booking.text).toBe(201);
    expect(booking.body.sale).toMatchObject({ kind: 'booking', status: 'booked', paymentStatus: 'unpaid', canCancel: true, canUploadProof: true });
    expect(booking.body.redirectTo).toBe(`/payments/response/later?invoiceId=${booking.body.invoiceId}`);
    expect(await stockOf(t.db.kysely, s2.id)).toBe(1);

    const all = await t.api('/api/sales', { method: 'POST', json: { fetchCount: true }, headers: c.auth });
    expect(all.body.list.map((s: { invoiceId: string }) => s.invoiceId)).toEqual([booking.body.invoiceId, order.body.invoiceId]);
    expect(all.body.count).toBe(2);
    const bookings = await t.api('/api/sales', { method: 'POST', json: { textParams: [{ field: 'kind', value: 'booking' }] }, headers: c.auth });
    expect(bookings.body.list.map((s: { invoiceId: string }) => s.invoiceId)).toEqual([booking.body.invoiceId]);
    expectApiError(await t.api('/api/sales', { method: 'POST', json: { textParams: [{ field: 'customer_id', value: 1 }] }, headers: c.auth }), 400);

    const cancelled = await t.api(`/api/sales?id=${booking.body.saleId}`, {
      method: 'PATCH',
      json: { status: 'CANCELLED', reason: 'Changed my mind' },
      headers: c.auth,
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', canCancel: false });
    expect(cancelled.body.history.at(-1).note).toMatch(/Changed my mind; 2 items returned to stock/);
    expect(await stockOf(t.db.kysely, s2.id)).toBe(3);
    // Again: nothing changes, the stock is not returned twice.
    const again = await t.api(`/api/sales?id=${booking.body.saleId}`, { method: 'PATCH', json: {}, headers: c.auth });
    expect(again.status).toBe(200);
    expect(await stockOf(t.db.kysely, s2.id)).toBe(3);
    expect(again.body.history).toHaveLength(cancelled.body.history.length);
  });

  it('refuses to cancel a booking once it is fulfilled', async () => {
    const c = await signUp(t);
    const [s] = await plainSkus(t.db.kysely, 1, 90);
    await setStock(t.db.kysely, s.id, [2]);
    const booking = await checkout(
      t,
      { items: [{ skuCode: s.code, quantity: 1 }], paymentMethod: 'later', deliveryMethod: 'home_delivery', address: ADDRESS },
      c.auth,
    );
    await t.db.kysely.updateTable('sales').set({ status: 'fulfilled', fulfilled_at: new Date().toISOString() }).where('id', '=', booking.body.saleId).execute();
    expectApiError(await t.api(`/api/sales?id=${booking.body.saleId}`, { method: 'PATCH', json: {}, headers: c.auth }), 409, 'already_fulfilled');
    expect(await stockOf(t.db.kysely, s.id)).toBe(1);
  });

  it('attaches a payment proof uploaded through /api/files to a booking', async () => {
    const c = await signUp(t);
    const [s] = await plainSkus(t.db.kysely, 1, 95);
    await setStock(t.db.kysely, s.id, [2]);
    const booking = await checkout(
      t,
      { items: [{ skuCode: s.code, quantity: 1 }], paymentMethod: 'later', deliveryMethod: 'home_delivery', address: ADDRESS },
      c.auth,
    );
    const upload = await fetch(`${t.baseUrl}/api/files`, {
      method: 'POST',
      headers: { 'x-api-key': TEST_API_KEY, ...c.auth },
      body: uploadForm({ bytes: pngBytes(20, 10), name: 'deposit-slip.png', contentType: 'image/png' }),
    });
    const file = (await upload.json()) as { uuid: string };
    expect(upload.status).toBe(200);
    const res = await t.api('/api/sales/payments/attachments', {
      method: 'PATCH',
      json: { id: booking.body.saleId, fileUuid: file.uuid, note: 'Bank deposit, DBBL' },
      headers: c.auth,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.paymentStatus).toBe('proof_submitted');
    expect(res.body.attachments).toEqual([
      expect.objectContaining({ fileUuid: file.uuid, kind: 'payment_proof', note: 'Bank deposit, DBBL', mimeType: 'image/png' }),
    ]);
    expect(res.body.attachments[0].url).toMatch(new RegExp(`/files/${file.uuid}/`));
    // Someone else's file is not accepted.
    const other = await signUp(t);
    const theirs = await fetch(`${t.baseUrl}/api/files`, {
      method: 'POST',
      headers: { 'x-api-key': TEST_API_KEY, ...other.auth },
      body: uploadForm({ bytes: pngBytes(8, 8), name: 'x.png', contentType: 'image/png' }),
    });
    const theirFile = (await theirs.json()) as { uuid: string };
    expectApiError(
      await t.api('/api/sales/payments/attachments', { method: 'PATCH', json: { id: booking.body.saleId, fileUuid: theirFile.uuid }, headers: c.auth }),
      400,
    );
  });

  it('draws a QR code of the invoice for its owner, as SVG or PNG', async () => {
    const c = await signUp(t);
    const [s] = await plainSkus(t.db.kysely, 1, 99);
    await setStock(t.db.kysely, s.id, [2]);
    const order = await checkout(
      t,
      { items: [{ skuCode: s.code, quantity: 1 }], paymentMethod: 'later', deliveryMethod: 'home_delivery', address: ADDRESS },
      c.auth,
    );
    const svg = await t.api(`/api/qrs?invoiceId=${order.body.invoiceId}`, { headers: c.auth });
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(svg.text).toMatch(/^<svg/);
    const png = await fetch(`${t.baseUrl}/api/qrs?invoiceId=${order.body.invoiceId}&format=png&size=128`, {
      headers: { 'x-api-key': TEST_API_KEY, ...c.auth },
    });
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await png.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
  });

  it('queues an order confirmation mail to the contact address', async () => {
    const contact = guestContact();
    const res = await checkout(t, checkoutBody([{ skuCode: skus[0].code, quantity: 1 }], { contact }));
    expect(res.status).toBe(201);
    const mail = await t.db.kysely.selectFrom('mail_outbox').selectAll().where('to_address', '=', contact.email).executeTakeFirstOrThrow();
    expect(mail.subject).toBe(`Order ${res.body.invoiceId} — confirmed`);
    expect(mail.text_body).toContain(res.body.invoiceId);
    expect(mail.text_body).toContain('Total (BDT)');
  });
});

describe('the API description', () => {
  it('lists every checkout and sales endpoint of spec §7 in the OpenAPI document', async () => {
    const doc = (await t.api('/api/openapi.json', { apiKey: null })).body;
    expect(doc.paths['/api/checkouts']).toHaveProperty('post');
    for (const p of ['/api/checkouts/confirm', '/api/checkouts/cancel', '/api/checkouts/failure', '/api/sales/payments/attachments'])
      expect(doc.paths[p]).toHaveProperty('patch');
    expect(Object.keys(doc.paths['/api/sales']).sort()).toEqual(['get', 'patch', 'post']);
    expect(doc.paths['/api/qrs']).toHaveProperty('get');
    expect(JSON.stringify(doc.paths['/api/checkouts'].post.requestBody)).toContain('paymentMethod');
    // The gateway-facing routes are not part of the shop's API.
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/payments/'))).toBe(false);
  });
});
