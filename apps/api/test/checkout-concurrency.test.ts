import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type TestCustomer } from './helpers/accounts.ts';
import { ADDRESS, checkout, generousOrderLimits, plainSkus, setStock, stockOf, type TestSku } from './helpers/checkout.ts';
import { addCoupon } from './helpers/pricing-fixtures.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// The shop never sells more than it has, however many shoppers check out at once
// (decisions.md; docs/decisions/0016). Real concurrent HTTP requests against one server:
// on SQLite its transactions queue on the one connection; on PostgreSQL stock rows are
// locked in a fixed order and taken with conditional updates.

const ROUNDS = 20;
const BUYERS = 50;

let t: TestApp;
let buyers: TestCustomer[];
let sku: TestSku;

beforeAll(async () => {
  // Each customer checks out up to 25 times here: the per-customer limits are not what this proves.
  t = await startTestApp({ config: { trustProxy: true, orders: generousOrderLimits() } });
  t.app.config.publicUrl = t.baseUrl;
  buyers = [];
  // Sign-ups a few at a time: the point is the checkouts, not the password hashing.
  for (let i = 0; i < BUYERS; i += 10) buyers.push(...(await Promise.all(Array.from({ length: Math.min(10, BUYERS - i) }, () => signUp(t)))));
  [sku] = await plainSkus(t.db.kysely, 1, 7);
}, 120_000);
afterAll(() => t?.close());

const order = (c: TestCustomer, extra: Record<string, unknown> = {}, code = sku.code) =>
  checkout(t, { items: [{ skuCode: code, quantity: 1 }], paymentMethod: 'cod', deliveryMethod: 'home_delivery', address: ADDRESS, ...extra }, c.auth);

describe('stock under concurrent checkouts', () => {
  it(`sells the last unit exactly once when ${BUYERS} customers check out at the same moment, ${ROUNDS} times over`, async () => {
    const soldBefore = await t.db.kysely.selectFrom('sale_lines').select('id').where('sku_id', '=', sku.id).execute();
    for (let round = 1; round <= ROUNDS; round++) {
      // The last unit sits in a different branch each round.
      const perBranch = [0, 0, 0, 0, 0, 0];
      perBranch[round % perBranch.length] = 1;
      await setStock(t.db.kysely, sku.id, perBranch);
      const answers = await Promise.all(buyers.map((c) => order(c)));
      const statuses = answers.map((a) => a.status);
      const won = answers.filter((a) => a.status === 201);
      expect(won, `round ${round}: ${JSON.stringify(statuses)}`).toHaveLength(1);
      expect(
        statuses.filter((s) => s === 409),
        `round ${round}`,
      ).toHaveLength(BUYERS - 1);
      for (const lost of answers.filter((a) => a.status === 409)) expect(lost.body.error.code).toBe('out_of_stock');
      const rows = await t.db.kysely.selectFrom('stocks').select('quantity').where('sku_id', '=', sku.id).execute();
      expect(rows.every((r) => Number(r.quantity) >= 0)).toBe(true);
      expect(await stockOf(t.db.kysely, sku.id)).toBe(0);
    }
    const sold = await t.db.kysely.selectFrom('sale_lines').select('id').where('sku_id', '=', sku.id).execute();
    expect(sold.length - soldBefore.length).toBe(ROUNDS);
    const reserved = await t.db.kysely
      .selectFrom('stock_reservations')
      .select((eb) => eb.fn.sum<number>('quantity').as('q'))
      .where('sku_id', '=', sku.id)
      .executeTakeFirst();
    expect(Number(reserved?.q)).toBe(ROUNDS);
  }, 240_000);

  it('splits nothing it does not have: two units over two branches, three buyers of two each', async () => {
    const [s] = await plainSkus(t.db.kysely, 1, 11);
    await setStock(t.db.kysely, s.id, [1, 1, 1]);
    const answers = await Promise.all(
      buyers
        .slice(0, 3)
        .map((c) =>
          checkout(t, { items: [{ skuCode: s.code, quantity: 2 }], paymentMethod: 'cod', deliveryMethod: 'home_delivery', address: ADDRESS }, c.auth),
        ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(await stockOf(t.db.kysely, s.id)).toBe(1);
  }, 60_000);
});

describe('coupons under concurrent checkouts', () => {
  it('uses a single-use coupon once when 20 customers race for it, 5 times over', async () => {
    const [s] = await plainSkus(t.db.kysely, 1, 13);
    for (let round = 1; round <= 5; round++) {
      await setStock(t.db.kysely, s.id, [100]);
      const code = `ONCE${round}X`;
      const couponId = await addCoupon(t.db.kysely, { code, value: 10_000, usageLimit: 1 });
      const answers = await Promise.all(buyers.slice(0, 20).map((c) => order(c, { couponCode: code }, s.code)));
      const won = answers.filter((a) => a.status === 201);
      expect(won, JSON.stringify(answers.map((a) => a.status))).toHaveLength(1);
      expect(won[0].body.sale.couponAmount).toBe(10_000);
      for (const lost of answers.filter((a) => a.status !== 201)) {
        expect(lost.status).toBe(409);
        expect(lost.body.error.code).toBe('coupon_not_applicable');
      }
      const uses = await t.db.kysely.selectFrom('coupon_usages').select('order_ref').where('coupon_id', '=', couponId).execute();
      expect(uses).toEqual([{ order_ref: won[0].body.invoiceId }]);
      // Nothing else was sold: the losers wrote nothing, stock included.
      expect(await stockOf(t.db.kysely, s.id)).toBe(99);
    }
  }, 120_000);

  it('keeps a once-per-customer coupon to one use when one customer checks out ten times at once', async () => {
    const [s] = await plainSkus(t.db.kysely, 1, 14);
    await setStock(t.db.kysely, s.id, [50]);
    const couponId = await addCoupon(t.db.kysely, { code: 'ONEEACH', value: 5_000, perCustomerLimit: 1 });
    const answers = await Promise.all(Array.from({ length: 10 }, () => order(buyers[0], { couponCode: 'ONEEACH' }, s.code)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    const uses = await t.db.kysely.selectFrom('coupon_usages').select('id').where('coupon_id', '=', couponId).execute();
    expect(uses).toHaveLength(1);
  }, 60_000);
});
