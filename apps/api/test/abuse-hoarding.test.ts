import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderDeps } from '../src/modules/orders/deps.ts';
import { expireStaleBookings } from '../src/modules/orders/expire-bookings.ts';
import { signUp, uniqueEmail, uniqueIp, uniqueMobile } from './helpers/accounts.ts';
import { expectApiError } from './helpers/assertions.ts';
import { ADDRESS, checkout, countRows, guestContact, plainSkus, saleRow, setStock, stockOf, type TestSku } from './helpers/checkout.ts';
import { pngBytes, uploadForm } from './helpers/files.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// Stock hoarding (docs/decisions/0022): one anonymous client used to hold almost every
// unit in the shop with a burst of bookings and cash-on-delivery orders of 50 lines × 99
// units, held forever. With the shop's DEFAULT settings (nothing is loosened here): caps
// per line and per order, checkouts counted per client address, customer and contact,
// a cap on the units unpaid sales of one client may hold, and bookings that release
// their stock when they are not paid in time.

let t: TestApp;
let skus: TestSku[];
let next = 0;

beforeAll(async () => {
  // Shoppers get client addresses of their own through X-Forwarded-For.
  t = await startTestApp({ config: { trustProxy: true } });
  skus = await plainSkus(t.db.kysely, 120, 300);
}, 60_000);
afterAll(() => t?.close());

async function freshSkus(n: number, stock = 200): Promise<TestSku[]> {
  const out = skus.slice(next, next + n);
  next += n;
  for (const s of out) await setStock(t.db.kysely, s.id, [stock]);
  return out;
}

const order = (
  lines: { sku: TestSku; quantity: number }[],
  opts: { ip: string; method?: 'cod' | 'later' | 'card'; contact?: { name: string; mobile: string; email: string } | null; headers?: Record<string, string> },
) =>
  checkout(
    t,
    {
      items: lines.map((l) => ({ skuCode: l.sku.code, quantity: l.quantity })),
      paymentMethod: opts.method ?? 'cod',
      deliveryMethod: 'home_delivery',
      address: ADDRESS,
      ...(opts.contact === null ? {} : { contact: opts.contact ?? guestContact() }),
    },
    { 'x-forwarded-for': opts.ip, ...opts.headers },
  );

/** The defaults this file relies on, as the README lists them. */
const d = { line: 10, units: 30, perAddress: 20, perCustomer: 10, perContact: 5, hold: 30, holdPerAddress: 60, bookingHours: 48 };

describe('the attack as it came', () => {
  it('an order of 50 lines × 99 units is refused with 400 naming a line, and nothing is written', async () => {
    const lines = await freshSkus(50, 100);
    const before = await countRows(t.db.kysely, 'sales');
    const res = await order(
      lines.map((sku) => ({ sku, quantity: 99 })),
      { ip: uniqueIp(), method: 'later' },
    );
    expectApiError(res, 400, 'quantity_limit');
    expect(res.body.error.fields['items.0.quantity']).toMatch(/at most 10/i);
    expect(res.body.error.message).toContain(lines[0].code);
    expect(await countRows(t.db.kysely, 'sales')).toBe(before);
    expect(await stockOf(t.db.kysely, lines[0].id)).toBe(100);
  });

  it('18 bookings and COD orders sent at once from one client hold at most 60 units; another shopper can still buy', async () => {
    const lines = await freshSkus(3, 40);
    const attacker = uniqueIp();
    const answers = await Promise.all(
      Array.from({ length: 18 }, (_, i) =>
        order(
          lines.map((sku) => ({ sku, quantity: 10 })),
          { ip: attacker, method: i % 2 ? 'cod' : 'later' },
        ),
      ),
    );
    const placed = answers.filter((a) => a.status === 201);
    expect(placed, JSON.stringify(answers.map((a) => a.status))).toHaveLength(2);
    for (const refused of answers.filter((a) => a.status !== 201)) {
      expectApiError(refused, 409, 'unpaid_limit');
      expect(refused.body.error.message).toMatch(/60/);
    }
    const held = (await Promise.all(lines.map((s) => stockOf(t.db.kysely, s.id)))).reduce((n, q) => n + (40 - q), 0);
    expect(held).toBe(d.holdPerAddress);
    // Everybody else still buys what is left.
    const shopper = await order([{ sku: lines[0], quantity: 2 }], { ip: uniqueIp() });
    expect(shopper.status, shopper.text).toBe(201);
    expect(await stockOf(t.db.kysely, lines[0].id)).toBe(40 - 20 - 2);
  });

  it('one after another, the same client is refused past the hold and then past the checkout limit (429 with Retry-After)', async () => {
    const [sku] = await freshSkus(1, 500);
    const attacker = uniqueIp();
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      const res = await order([{ sku, quantity: 1 }], { ip: attacker, method: i % 2 ? 'cod' : 'later' });
      statuses.push(res.status);
      if (res.status === 429) {
        expectApiError(res, 429, 'rate_limited');
        const wait = Number(res.headers.get('retry-after'));
        expect(wait).toBeGreaterThan(60);
        expect(wait).toBeLessThanOrEqual(3600);
      }
    }
    expect(statuses.slice(0, d.perAddress)).toEqual(Array(d.perAddress).fill(201));
    expect(statuses.slice(d.perAddress)).toEqual(Array(25 - d.perAddress).fill(429));
    expect(await stockOf(t.db.kysely, sku.id)).toBe(500 - d.perAddress);
    expect((await order([{ sku, quantity: 1 }], { ip: uniqueIp() })).status).toBe(201);
  });

  it('25 one-unit checkouts sent at once from one client place exactly 20: concurrency does not beat the count', async () => {
    const [sku] = await freshSkus(1, 500);
    const attacker = uniqueIp();
    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => order([{ sku, quantity: 1 }], { ip: attacker, method: i % 2 ? 'cod' : 'later' })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(d.perAddress);
    for (const a of answers.filter((x) => x.status !== 201)) {
      expectApiError(a, 429, 'rate_limited');
      expect(Number(a.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(await stockOf(t.db.kysely, sku.id)).toBe(500 - d.perAddress);
  });
});

describe('caps on one order', () => {
  it(`allows ${d.line} of one item and ${d.units} items in all; one more is a 400 naming the line or the order`, async () => {
    const lines = await freshSkus(4);
    const ip = uniqueIp();
    const tooMany = await order([{ sku: lines[0], quantity: d.line + 1 }], { ip });
    expectApiError(tooMany, 400, 'quantity_limit');
    expect(tooMany.body.error.fields).toEqual({ 'items.0.quantity': `At most ${d.line} of one item per order` });
    // Two lines of one sku count as one line.
    const split = await order(
      [
        { sku: lines[1], quantity: 6 },
        { sku: lines[1], quantity: 6 },
      ],
      { ip },
    );
    expectApiError(split, 400, 'quantity_limit');
    expect(Object.keys(split.body.error.fields)).toEqual(['items.0.quantity']);
    const overOrder = await order(
      [
        { sku: lines[0], quantity: 10 },
        { sku: lines[1], quantity: 10 },
        { sku: lines[2], quantity: 10 },
        { sku: lines[3], quantity: 1 },
      ],
      { ip },
    );
    expectApiError(overOrder, 400, 'quantity_limit');
    expect(overOrder.body.error.message).toMatch(new RegExp(`at most ${d.units} items`, 'i'));
    expect(overOrder.body.error.fields).toEqual({ items: `At most ${d.units} items per order; this order has 31` });
    const atCap = await order(
      lines.slice(0, 3).map((sku) => ({ sku, quantity: 10 })),
      { ip },
    );
    expect(atCap.status, atCap.text).toBe(201);
  });
});

describe('limits per contact and per customer', () => {
  it('one guest email may place 5 checkouts an hour from any address; its holds are capped at 30 units', async () => {
    const [sku] = await freshSkus(1, 500);
    const email = uniqueEmail('hoarder');
    const as = () => ({ name: 'Same Person', mobile: uniqueMobile(), email: email.toUpperCase() });
    for (let i = 0; i < d.perContact; i++) expect((await order([{ sku, quantity: 1 }], { ip: uniqueIp(), contact: as() })).status).toBe(201);
    expectApiError(await order([{ sku, quantity: 1 }], { ip: uniqueIp(), contact: { ...as(), email } }), 429, 'rate_limited');

    const other = uniqueEmail('holder');
    const lines = await freshSkus(3);
    const big = await order(
      lines.map((s) => ({ sku: s, quantity: 10 })),
      { ip: uniqueIp(), method: 'later', contact: { name: 'A', mobile: uniqueMobile(), email: other } },
    );
    expect(big.status, big.text).toBe(201);
    const more = await order([{ sku, quantity: 1 }], { ip: uniqueIp(), contact: { name: 'A', mobile: uniqueMobile(), email: other } });
    expectApiError(more, 409, 'unpaid_limit');
  });

  it('one guest mobile may place 5 checkouts an hour', async () => {
    const [sku] = await freshSkus(1, 500);
    const mobile = uniqueMobile();
    for (let i = 0; i < d.perContact; i++)
      expect((await order([{ sku, quantity: 1 }], { ip: uniqueIp(), contact: { name: 'B', mobile, email: uniqueEmail() } })).status).toBe(201);
    expectApiError(
      await order([{ sku, quantity: 1 }], { ip: uniqueIp(), contact: { name: 'B', mobile: `+88${mobile}`, email: uniqueEmail() } }),
      429,
      'rate_limited',
    );
  });

  it('a signed-in customer may place 10 checkouts an hour, and a stranger using their email does not lock them out', async () => {
    const [sku] = await freshSkus(1, 500);
    const c = await signUp(t);
    // A stranger types the customer's email into five guest checkouts.
    for (let i = 0; i < d.perContact; i++)
      await order([{ sku, quantity: 1 }], { ip: uniqueIp(), contact: { name: 'X', mobile: uniqueMobile(), email: c.email } });
    for (let i = 0; i < d.perCustomer; i++) {
      const res = await order([{ sku, quantity: 1 }], { ip: uniqueIp(), contact: null, headers: { 'x-auth-token': c.token } });
      expect(res.status, res.text).toBe(201);
    }
    expectApiError(await order([{ sku, quantity: 1 }], { ip: uniqueIp(), contact: null, headers: { 'x-auth-token': c.token } }), 429, 'rate_limited');
  });

  it('paying an unpaid card order again counts against the same holds', async () => {
    const lines = await freshSkus(3);
    const ip = uniqueIp();
    const contact = { name: 'D', mobile: uniqueMobile(), email: uniqueEmail() };
    const card = await order([{ sku: lines[0], quantity: 1 }], { ip, method: 'card', contact });
    expect(card.status, card.text).toBe(201);
    const owner = { 'x-order-token': card.body.accessToken, 'x-forwarded-for': ip };
    expect((await t.api(`/api/checkouts/failure?invoiceId=${card.body.invoiceId}`, { method: 'PATCH', json: {}, headers: owner })).status).toBe(200);
    expect(await stockOf(t.db.kysely, lines[0].id)).toBe(200);
    // Meanwhile the same email holds 30 units cash on delivery: one more is over the cap.
    expect(
      (
        await order(
          lines.map((sku) => ({ sku, quantity: 10 })),
          { ip: uniqueIp(), contact: { ...contact, mobile: uniqueMobile() } },
        )
      ).status,
    ).toBe(201);
    expectApiError(await t.api(`/api/checkouts/payments?invoiceId=${card.body.invoiceId}`, { method: 'POST', headers: owner }), 409, 'unpaid_limit');
    expect(await stockOf(t.db.kysely, lines[0].id)).toBe(190);
  });

  it('a refused checkout (out of stock) does not use up the allowance', async () => {
    const [gone] = await freshSkus(1, 0);
    const [sku] = await freshSkus(1, 50);
    const email = uniqueEmail();
    const ip = uniqueIp();
    for (let i = 0; i < 8; i++)
      expectApiError(await order([{ sku: gone, quantity: 1 }], { ip, contact: { name: 'C', mobile: uniqueMobile(), email } }), 409, 'out_of_stock');
    expect((await order([{ sku, quantity: 1 }], { ip, contact: { name: 'C', mobile: uniqueMobile(), email } })).status).toBe(201);
  });
});

describe('bookings that are not paid are released', () => {
  const deps = () => orderDeps(t.app);
  const hoursLater = (h: number) => new Date(Date.now() + h * 3_600_000);

  it(`a booking with no payment proof is cancelled after ${d.bookingHours} hours and its stock comes back; COD orders and paid-proof bookings stay`, async () => {
    const [sku, other] = await freshSkus(2, 20);
    const ip = uniqueIp();
    const booking = await order([{ sku, quantity: 4 }], { ip, method: 'later' });
    expect(booking.status, booking.text).toBe(201);
    const row = await saleRow(t.db.kysely, booking.body.invoiceId);
    const holdFor = new Date(row.hold_until!).getTime() - new Date(row.created_at).getTime();
    expect(holdFor).toBe(d.bookingHours * 3_600_000);
    expect(booking.body.sale.holdUntil).toBe(row.hold_until);

    const cod = await order([{ sku: other, quantity: 2 }], { ip, method: 'cod' });
    const proofed = await order([{ sku: other, quantity: 3 }], { ip, method: 'later' });
    const token = proofed.body.accessToken as string;
    const file = await t.api('/api/files', {
      method: 'POST',
      body: uploadForm({ bytes: pngBytes(), name: 'deposit-slip.png', contentType: 'image/png' }),
      headers: { 'x-forwarded-for': ip },
    });
    expect(file.status, file.text).toBe(200);
    const attach = await t.api('/api/sales/payments/attachments', {
      method: 'PATCH',
      json: { id: proofed.body.saleId, fileUuid: file.body.uuid },
      headers: { 'x-order-token': token, 'x-forwarded-for': ip },
    });
    expect(attach.status, attach.text).toBe(200);
    expect(await stockOf(t.db.kysely, sku.id)).toBe(16);
    expect(await stockOf(t.db.kysely, other.id)).toBe(15);

    // Not yet: an hour before the hold ends nothing changes.
    await expireStaleBookings(deps(), hoursLater(d.bookingHours - 1));
    expect((await saleRow(t.db.kysely, booking.body.invoiceId)).status).toBe('booked');

    // Two processes sweeping at the same moment release the booking once.
    await Promise.all([expireStaleBookings(deps(), hoursLater(d.bookingHours + 1)), expireStaleBookings(deps(), hoursLater(d.bookingHours + 1))]);
    const after = await saleRow(t.db.kysely, booking.body.invoiceId);
    expect(after).toMatchObject({ status: 'cancelled', stock_held: 0 });
    expect(await stockOf(t.db.kysely, sku.id)).toBe(20);
    const view = await t.api(`/api/sales?id=${booking.body.saleId}`, { headers: { 'x-order-token': booking.body.accessToken } });
    expect(view.body.history.at(-1)).toMatchObject({ status: 'cancelled', actor: 'system' });
    expect(view.body.history.at(-1).note).toMatch(/not paid within 48 hours.*4 items returned to stock/i);
    expect(view.body.history.filter((h: { status: string }) => h.status === 'cancelled')).toHaveLength(1);
    // The shopper was told when it was booked until when, and that it was released.
    const mails = await t.db.kysely
      .selectFrom('mail_outbox')
      .select(['subject', 'text_body'])
      .where('subject', 'like', `%${booking.body.invoiceId}%`)
      // The shopper's mails (the shop's order address hears of the booking too).
      .where('to_address', '<>', 'orders@nibash.com.bd')
      .orderBy('id')
      .execute();
    expect(mails.map((m) => m.subject)).toEqual([`Booking ${booking.body.invoiceId} — booked`, `Booking ${booking.body.invoiceId} — released`]);
    expect(mails[0].text_body).toMatch(/held for you until \d{1,2} \w+ \d{4}/);

    // The COD order and the booking with a payment proof keep their stock.
    expect((await saleRow(t.db.kysely, cod.body.invoiceId)).status).toBe('placed');
    expect(await saleRow(t.db.kysely, proofed.body.invoiceId)).toMatchObject({ status: 'booked', payment_status: 'proof_submitted', stock_held: 1 });
    expect(await stockOf(t.db.kysely, other.id)).toBe(15);
  });

  it('a booking a person has confirmed (no hold time) is never released', async () => {
    const [sku] = await freshSkus(1, 10);
    const booking = await order([{ sku, quantity: 1 }], { ip: uniqueIp(), method: 'later' });
    await t.db.kysely.updateTable('sales').set({ hold_until: null }).where('id', '=', booking.body.saleId).execute();
    await expireStaleBookings(deps(), hoursLater(24 * 30));
    expect((await saleRow(t.db.kysely, booking.body.invoiceId)).status).toBe('booked');
    expect(await stockOf(t.db.kysely, sku.id)).toBe(9);
  });

  it('once a hoarder’s bookings are released, their client may book again', async () => {
    const lines = await freshSkus(3, 30);
    const ip = uniqueIp();
    for (let i = 0; i < 2; i++) expect((await order(lines.map((sku) => ({ sku, quantity: 10 })).slice(0, 3), { ip, method: 'later' })).status).toBe(201);
    expectApiError(await order([{ sku: lines[0], quantity: 1 }], { ip, method: 'later' }), 409, 'unpaid_limit');
    await expireStaleBookings(deps(), hoursLater(d.bookingHours + 1));
    expect(await stockOf(t.db.kysely, lines[0].id)).toBe(30);
    expect((await order([{ sku: lines[0], quantity: 1 }], { ip, method: 'later' })).status).toBe(201);
  });
});
