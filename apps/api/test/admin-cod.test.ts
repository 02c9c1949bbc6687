import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectApiError } from './helpers/assertions.ts';
import { checkout, checkoutBody, generousOrderLimits, plainSkus, saleRow, setStock, type TestSku } from './helpers/checkout.ts';
import { signedInStaff, type TestStaff } from './helpers/staff.ts';
import { type SteadfastDeliveryStatus, type SteadfastStandIn, startSteadfastStandIn } from './helpers/steadfast-stand-in.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// Cash-on-delivery reconciliation (docs/decisions/0043), on both databases. The parcels are
// real: cash-on-delivery orders booked with the Steadfast stand-in through the back office,
// moved along by Steadfast's webhook (delivered, in transit, returned after pickup, and one
// cancelled before pickup and booked again under the invoice's -2). Then the courier's
// payouts: a report imported (matches by id, tracking code and invoice; short-paid; not
// delivered; no such parcel), the same report again (409), reports with bad rows (422, each
// by its line, nothing written), a parcel paid again in a later payout (reported, not
// counted), payouts typed by hand, two payouts recorded at once, and who may do what.

let t: TestApp;
let sf: SteadfastStandIn;
let clerk: TestStaff;
let manager: TestStaff;
let readOnly: TestStaff;
let skus: TestSku[];
let next = 0;

interface Parcel {
  orderId: number;
  invoice: string;
  cod: number;
  cid: string;
  tracking: string;
}
const parcels = {} as Record<'d1' | 'd2' | 'd3' | 'd4' | 'rebooked' | 'raced' | 'transit' | 'returned', Parcel>;

beforeAll(async () => {
  sf = await startSteadfastStandIn();
  t = await startTestApp({
    config: {
      trustProxy: true,
      orders: generousOrderLimits(),
      couriers: {
        steadfast: { apiKey: sf.apiKey, secretKey: sf.secretKey, baseUrl: sf.url, webhookToken: sf.webhookToken, timeoutMs: 5_000 },
        pathao: null,
        pollEveryMs: 3_600_000,
        pollStaleMs: 60_000,
      },
    },
  });
  clerk = await signedInStaff(t, 'staff');
  manager = await signedInStaff(t, 'manager');
  readOnly = await signedInStaff(t, 'read_only');
  skus = await plainSkus(t.db.kysely, 12, 300);

  for (const name of ['d1', 'd2', 'd3', 'd4', 'raced'] as const) parcels[name] = await booked([['pending'], ['delivered']]);
  parcels.transit = await booked([['pending']]);
  parcels.returned = await booked([['pending'], ['cancelled']]);
  // Cancelled before pickup, booked again (Steadfast has the invoice with -2), then delivered.
  const first = await booked([['cancelled']]);
  const again = await book(first.orderId);
  parcels.rebooked = { ...first, cid: again.body.consignmentId, tracking: again.body.trackingCode };
  await courierSays(parcels.rebooked.cid, 'pending');
  await courierSays(parcels.rebooked.cid, 'delivered');
}, 120_000);
afterAll(async () => {
  await t?.close();
  await sf?.close();
});

const book = async (orderId: number) => {
  const r = await t.api(`/api/admin/orders/${orderId}/consignment`, { method: 'POST', json: { courier: 'steadfast' }, headers: clerk.headers });
  expect(r.status, r.text).toBe(201);
  return r;
};

async function courierSays(cid: string, s: SteadfastDeliveryStatus) {
  sf.advance(cid, s);
  const req = sf.webhookRequest(cid);
  const r = await t.api('/api/couriers/steadfast/webhook', { method: 'POST', body: req.body, headers: req.headers, apiKey: null });
  expect(r.status, r.text).toBe(200);
}

/** A packed cash-on-delivery order booked with Steadfast, then moved along by its webhook. */
async function booked(steps: [SteadfastDeliveryStatus][]): Promise<Parcel> {
  const sku = skus[next++];
  await setStock(t.db.kysely, sku.id, [10]);
  const res = await checkout(t, checkoutBody([{ skuCode: sku.code, quantity: 1 }]));
  expect(res.status, res.text).toBe(201);
  const row = await saleRow(t.db.kysely, res.body.invoiceId);
  for (const action of ['confirm', 'pack']) {
    const r = await t.api(`/api/admin/orders/${row.id}/actions`, { method: 'POST', json: { action }, headers: clerk.headers });
    expect(r.status, r.text).toBe(200);
  }
  const r = await book(row.id);
  expect(r.body.codAmount).toBe(Number(row.total));
  for (const [s] of steps) await courierSays(r.body.consignmentId, s);
  return { orderId: row.id, invoice: row.invoice_id, cod: Number(row.total), cid: r.body.consignmentId, tracking: r.body.trackingCode };
}

/** Poisha as the courier's report writes taka: "1,234.50". */
const tk = (poisha: number) => (poisha / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** Poisha as plain taka: "1234.50". */
const plain = (poisha: number) => (poisha / 100).toFixed(2);
const csvRow = (cells: string[]) => cells.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',');

const importReport = (json: Record<string, unknown>, headers = manager.headers) =>
  t.api('/api/admin/cod/imports', { method: 'POST', json: { courier: 'steadfast', paidOn: '2026-11-28', ...json }, headers });
const enter = (json: Record<string, unknown>, headers = manager.headers) =>
  t.api('/api/admin/cod/payouts', { method: 'POST', json: { courier: 'steadfast', paidOn: '2026-11-29', ...json }, headers });
const summary = async () => {
  const r = await t.api('/api/admin/cod/summary', { headers: manager.headers });
  expect(r.status, r.text).toBe(200);
  return r.body;
};

async function counts() {
  const k = t.db.kysely;
  const n = async (table: 'courier_payouts' | 'courier_payout_lines' | 'audit_log') =>
    Number(
      (
        await k
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { payouts: await n('courier_payouts'), lines: await n('courier_payout_lines'), audit: await n('audit_log') };
}

const SHORT = 5_000;
const FEE = 6_000;

describe('before any payout', () => {
  it('owes every delivered cash-on-delivery parcel, and none in transit or returned', async () => {
    const s = await summary();
    const owed = ['d1', 'd2', 'd3', 'd4', 'raced', 'rebooked'] as const;
    expect(s.owed.items.map((i: any) => i.invoice).sort()).toEqual(owed.map((k) => parcels[k].invoice).sort());
    expect(s.owed.count).toBe(owed.length);
    expect(s.owed.total).toBe(owed.reduce((n, k) => n + parcels[k].cod, 0));
    expect(s.owed.items.find((i: any) => i.invoice === parcels.d1.invoice)).toMatchObject({
      orderId: parcels.d1.orderId,
      courier: 'steadfast',
      consignmentId: parcels.d1.cid,
      trackingCode: parcels.d1.tracking,
      status: 'delivered',
      codAmount: parcels.d1.cod,
    });
    expect(s.totals).toMatchObject({ payouts: 0, received: 0, shortPaid: 0, owed: s.owed.total });
    expect(s.shortPaid.count + s.unmatched.count + s.toCheck.count).toBe(0);
  });
});

describe('importing a payment report', () => {
  const reference = 'SF-PAY-1001';

  it('matches each line by consignment id, tracking code or invoice, and records what the courier paid', async () => {
    const { d1, d2, rebooked, transit, returned } = parcels;
    const csv = [
      csvRow(['Consignment ID', 'Tracking Code', 'Invoice', 'Recipient Name', 'COD Amount', 'Delivery Charge', 'COD Charge']),
      csvRow([d1.cid, '', '', 'Karim, Ahmed', tk(d1.cod), '60', '10.50']),
      // By tracking code (lower-cased by a spreadsheet), 50 taka short.
      csvRow(['', d2.tracking.toLowerCase(), '', 'Rahim', tk(d2.cod - SHORT), '60', '0']),
      // By the invoice Steadfast has for the parcel booked again: the order's with -2.
      csvRow(['', '', `${rebooked.invoice}-2`, 'X', `৳${tk(rebooked.cod)}`, '60', '']),
      csvRow([transit.cid, '', '', 'Y', '0', '60', '0']),
      csvRow(['', '', returned.invoice, 'Z', '0.00', '90', '0']),
      csvRow(['99999999', '', '', 'Nobody', '500', '60', '5']),
      ',,,,,,',
    ].join('\r\n');
    const before = await counts();
    const r = await importReport({ reference, csv, note: 'Bank transfer' });
    expect(r.status, r.text).toBe(201);
    expect(r.body.ignoredColumns).toEqual(['Recipient Name']);
    const p = r.body.payout;
    expect(p).toMatchObject({ courier: 'steadfast', reference, paidOn: '2026-11-28', source: 'csv', note: 'Bank transfer', recordedBy: 'Test manager' });
    const byLine = Object.fromEntries(p.lines.map((l: any) => [l.lineNo, l]));
    expect(p.lines.map((l: any) => [l.lineNo, l.outcome, l.counted])).toEqual([
      [2, 'paid', true],
      [3, 'short', true],
      [4, 'paid', true],
      [5, 'not_delivered', false],
      [6, 'not_delivered', false],
      [7, 'unmatched', false],
    ]);
    expect(byLine[2]).toMatchObject({
      given: { consignmentId: d1.cid, trackingCode: null, invoice: null },
      parcel: { orderId: d1.orderId, invoice: d1.invoice, status: 'delivered', codAmount: d1.cod },
      collected: d1.cod,
      deliveryCharge: 6_000,
      codCharge: 1_050,
      net: d1.cod - 7_050,
      difference: 0,
    });
    expect(byLine[3]).toMatchObject({ parcel: { orderId: d2.orderId }, collected: d2.cod - SHORT, difference: SHORT });
    expect(byLine[4].parcel).toMatchObject({ orderId: rebooked.orderId, consignmentId: rebooked.cid });
    expect(byLine[5].parcel).toMatchObject({ orderId: transit.orderId, status: 'in_transit' });
    expect(byLine[6].parcel).toMatchObject({ orderId: returned.orderId, status: 'cancelled' });
    expect(byLine[7]).toMatchObject({ parcel: null, collected: 50_000, net: 50_000 - 6_000 - 500, difference: null });
    const net = p.lines.reduce((n: number, l: any) => n + l.net, 0);
    expect(p.total).toBe(net);
    expect(p.collected).toBe(d1.cod + d2.cod - SHORT + rebooked.cod + 50_000);
    expect(p.counts).toMatchObject({ paid: 2, short: 1, not_delivered: 2, unmatched: 1, already_paid: 0, over: 0 });
    expect(await counts()).toEqual({ payouts: before.payouts + 1, lines: before.lines + 6, audit: before.audit + 1 });
  });

  it('shows what is still owed, what was short-paid, what matched nothing and what to check', async () => {
    const { d2, d3, d4, raced, transit, returned } = parcels;
    const s = await summary();
    expect(s.owed.items.map((i: any) => i.invoice).sort()).toEqual([d3, d4, raced].map((p) => p.invoice).sort());
    expect(s.owed.total).toBe(d3.cod + d4.cod + raced.cod);
    expect(s.shortPaid.count).toBe(1);
    expect(s.shortPaid.total).toBe(SHORT);
    expect(s.shortPaid.items[0]).toMatchObject({ reference, paidOn: '2026-11-28', difference: SHORT, parcel: { invoice: d2.invoice } });
    expect(s.unmatched).toMatchObject({ count: 1, total: 50_000 });
    expect(s.unmatched.items[0].given.consignmentId).toBe('99999999');
    expect(s.toCheck.items.map((l: any) => l.parcel.invoice).sort()).toEqual([transit.invoice, returned.invoice].sort());
    expect(s.totals).toMatchObject({ payouts: 1, deliveryCharges: 6_000 * 5 + 9_000, codCharges: 1_050 + 500, shortPaid: SHORT, owed: s.owed.total });
    expect(s.totals.received).toBe(s.totals.collected - s.totals.deliveryCharges - s.totals.codCharges);
  });

  it('refuses the same payout again (409, whatever its case), and records nothing', async () => {
    const before = await counts();
    const csv = `consignment_id,collected,delivery_charge,cod_charge\n${parcels.d3.cid},${plain(parcels.d3.cod)},60,0\n`;
    for (const ref of [reference, reference.toLowerCase(), ` ${reference} `]) {
      const r = await importReport({ reference: ref, csv });
      expectApiError(r, 409, 'payout_recorded');
      expect(r.body.error.fields.reference).toContain(reference);
    }
    expectApiError(await enter({ reference, lines: [{ consignmentId: parcels.d3.cid, collected: parcels.d3.cod, deliveryCharge: 0, codCharge: 0 }] }), 409);
    expect(await counts()).toEqual(before);
    expect((await summary()).owed.items.map((i: any) => i.invoice)).toContain(parcels.d3.invoice);
  });

  it('refuses a report with bad rows (422, each by its line and column), and records nothing of it', async () => {
    const before = await counts();
    const { d3, d4 } = parcels;
    const csv = [
      'consignment_id,invoice,collected,delivery_charge,cod_charge',
      `${d3.cid},,${plain(d3.cod)},60,0`,
      `${d4.cid},,1200.505,60,0`,
      ',,100,60,0',
      `"${d4.cid}",,100,-60,0`,
      `${d4.cid},,,60,0`,
      `${d4.cid},,12 taka,60,0`,
      `${d4.cid},,1,250.00,60,0`,
    ].join('\n');
    const r = await importReport({ reference: 'SF-PAY-BAD', csv });
    expectApiError(r, 422, 'invalid_report');
    const fields = r.body.error.fields;
    expect(Object.keys(fields).sort()).toEqual(
      ['line.3.collected', 'line.4', 'line.5.delivery_charge', 'line.6.collected', 'line.7.collected', 'line.8'].sort(),
    );
    expect(fields['line.3.collected']).toMatch(/^Line 3, collected: .*more than 2 decimals/);
    expect(fields['line.4']).toMatch(/consignment_id, tracking_code or invoice/);
    expect(fields['line.5.delivery_charge']).toMatch(/below zero/);
    // An amount with a thousands comma, unquoted, would move the columns after it.
    expect(fields['line.8']).toMatch(/6 cells and the header 5: quote amounts/);
    expect(r.body.error.message).toMatch(/6 problems.*nothing was recorded/);
    expect(await counts()).toEqual(before);
    expect((await summary()).owed.items.map((i: any) => i.invoice)).toContain(d3.invoice);
  });

  it('refuses a report without the columns it needs, or with a quote never closed (422)', async () => {
    const before = await counts();
    const missing = await importReport({ reference: 'SF-PAY-COLS', csv: 'recipient,collected\nX,100\n' });
    expectApiError(missing, 422, 'invalid_report');
    expect(Object.keys(missing.body.error.fields)).toEqual(expect.arrayContaining(['line.1', 'line.1.delivery_charge', 'line.1.cod_charge']));
    const broken = await importReport({ reference: 'SF-PAY-QUOTE', csv: `consignment_id,collected,delivery_charge,cod_charge\n"${parcels.d3.cid},100,60,0\n` });
    expectApiError(broken, 422, 'invalid_report');
    const empty = await importReport({ reference: 'SF-PAY-EMPTY', csv: 'consignment_id,collected,delivery_charge,cod_charge\n' });
    expectApiError(empty, 422, 'invalid_report');
    expectApiError(await importReport({ reference: '', csv: 'x' }), 400, 'validation_error');
    expect(await counts()).toEqual(before);
  });

  it('refuses lines whose ids name two parcels, or one parcel twice (422), and records nothing', async () => {
    const before = await counts();
    const { d3, d4 } = parcels;
    const two = await importReport({
      reference: 'SF-PAY-TWO',
      csv: `consignment_id,invoice,collected,delivery_charge,cod_charge\n${d3.cid},${d4.invoice},100,0,0\n`,
    });
    expectApiError(two, 422, 'invalid_lines');
    expect(two.body.error.fields['line.2']).toContain(d4.invoice);
    const twice = await importReport({
      reference: 'SF-PAY-TWICE',
      csv: `consignment_id,tracking_code,collected,delivery_charge,cod_charge\n${d3.cid},,100,0,0\n,${d3.tracking},100,0,0\n`,
    });
    expectApiError(twice, 422, 'invalid_lines');
    expect(twice.body.error.fields['line.3']).toMatch(/same parcel as line 2/);
    expect(await counts()).toEqual(before);
  });
});

describe('later payouts', () => {
  it('reports a parcel an earlier payout settled, and does not count it again', async () => {
    const { d1, d3 } = parcels;
    const csv = `tracking_code,cod_amount,delivery_charge,cod_charge\n${d1.tracking},${plain(d1.cod)},60,0\n${d3.tracking},${plain(d3.cod + 100)},60,0\n`;
    const r = await importReport({ reference: 'SF-PAY-1002', paidOn: '2026-11-30', csv });
    expect(r.status, r.text).toBe(201);
    expect(r.body.payout.lines.map((l: any) => [l.parcel.invoice, l.outcome, l.counted])).toEqual([
      [d1.invoice, 'already_paid', false],
      [d3.invoice, 'over', true],
    ]);
    const s = await summary();
    expect(s.owed.items.map((i: any) => i.invoice)).not.toContain(d3.invoice);
    expect(s.toCheck.items.filter((l: any) => l.reference === 'SF-PAY-1002').map((l: any) => l.outcome)).toEqual(['already_paid', 'over']);
    // d1 is settled by its first line only.
    const settling = await t.db.kysely
      .selectFrom('courier_payout_lines')
      .innerJoin('consignments', 'consignments.id', 'courier_payout_lines.consignment_ref')
      .select('courier_payout_lines.counted')
      .where('consignments.consignment_id', '=', d1.cid)
      .execute();
    expect(settling.map((l) => Number(l.counted)).sort()).toEqual([0, 1]);
  });

  it('records a payout typed by hand, amounts in poisha', async () => {
    const { d4 } = parcels;
    const before = await counts();
    const r = await enter({
      reference: 'CASH-2026-11-29',
      note: 'Paid at the hub',
      lines: [
        { invoice: d4.invoice.toLowerCase(), collected: d4.cod, deliveryCharge: FEE, codCharge: 0 },
        { trackingCode: 'NOPE0000', collected: 10_000, deliveryCharge: 0, codCharge: 0 },
      ],
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ source: 'manual', reference: 'CASH-2026-11-29', paidOn: '2026-11-29', total: d4.cod - FEE + 10_000 });
    expect(r.body.lines.map((l: any) => [l.lineNo, l.outcome])).toEqual([
      [1, 'paid'],
      [2, 'unmatched'],
    ]);
    expect(await counts()).toEqual({ payouts: before.payouts + 1, lines: before.lines + 2, audit: before.audit + 1 });
    const s = await summary();
    expect(s.owed.items.map((i: any) => i.invoice)).toEqual([parcels.raced.invoice]);
    expect(s.unmatched.count).toBe(2);
  });

  it('refuses a line typed by hand without a parcel, or with an amount that is not whole poisha (400)', async () => {
    const before = await counts();
    const none = await enter({ reference: 'CASH-BAD', lines: [{ collected: 100, deliveryCharge: 0, codCharge: 0 }] });
    expectApiError(none, 400, 'validation_error');
    expect(Object.keys(none.body.error.fields)).toEqual(['lines.0.consignmentId']);
    const fraction = await enter({ reference: 'CASH-BAD', lines: [{ consignmentId: parcels.raced.cid, collected: 10.5, deliveryCharge: 0, codCharge: 0 }] });
    expectApiError(fraction, 400, 'validation_error');
    const twice = await enter({
      reference: 'CASH-BAD',
      lines: [
        { consignmentId: parcels.raced.cid, collected: 100, deliveryCharge: 0, codCharge: 0 },
        { trackingCode: parcels.raced.tracking, collected: 100, deliveryCharge: 0, codCharge: 0 },
      ],
    });
    expectApiError(twice, 422, 'invalid_lines');
    expect(twice.body.error.fields['lines.1']).toMatch(/same parcel as parcel 1/);
    expect(await counts()).toEqual(before);
  });

  it('counts a parcel once when two payouts naming it are recorded at the same moment', async () => {
    const { raced } = parcels;
    const csv = `consignment_id,collected,delivery_charge,cod_charge\n${raced.cid},${plain(raced.cod)},60,0\n`;
    const [a, b, c] = await Promise.all([
      importReport({ reference: 'RACE-A', csv }),
      importReport({ reference: 'RACE-B', csv }),
      importReport({ reference: 'RACE-A', csv }),
    ]);
    const created = [a, b, c].filter((r) => r.status === 201);
    expect(created, [a, b, c].map((r) => r.text).join('\n')).toHaveLength(2);
    expect([a, b, c].filter((r) => r.status === 409)).toHaveLength(1);
    expect(created.map((r) => r.body.payout.lines[0].outcome).sort()).toEqual(['already_paid', 'paid']);
    const s = await summary();
    expect(s.owed.count).toBe(0);
    expect(s.owed.total).toBe(0);
  });

  it('lists the payouts, the latest paid first, with their lines', async () => {
    const r = await t.api('/api/admin/cod/payouts?size=50', { headers: readOnly.headers });
    expect(r.status, r.text).toBe(200);
    expect(r.body.total).toBe(5);
    expect(r.body.items.map((p: any) => p.reference).slice(0, 3)).toEqual(['SF-PAY-1002', 'CASH-2026-11-29', expect.stringMatching(/^RACE-/)]);
    const first = r.body.items.find((p: any) => p.reference === 'SF-PAY-1001');
    expect(first.lines).toHaveLength(6);
    const paged = await t.api('/api/admin/cod/payouts?size=2&page=3', { headers: readOnly.headers });
    expect(paged.body).toMatchObject({ total: 5, page: 3, size: 2 });
    expect(paged.body.items).toHaveLength(1);
    const pathao = await t.api('/api/admin/cod/payouts?courier=pathao', { headers: readOnly.headers });
    expect(pathao.body).toMatchObject({ total: 0, items: [] });
  });
});

describe('who may', () => {
  it('lets read-only staff see the figures but not record a payout; staff who fulfil orders see neither', async () => {
    expect((await t.api('/api/admin/cod/summary', { headers: readOnly.headers })).status).toBe(200);
    const csv = `consignment_id,collected,delivery_charge,cod_charge\n${parcels.d3.cid},1,0,0\n`;
    expectApiError(await importReport({ reference: 'NOT-MINE', csv }, readOnly.headers), 403, 'forbidden');
    expectApiError(await importReport({ reference: 'NOT-MINE', csv }, clerk.headers), 403, 'forbidden');
    expectApiError(await t.api('/api/admin/cod/summary', { headers: clerk.headers }), 403, 'forbidden');
    expectApiError(await t.api('/api/admin/cod/summary'), 401, 'unauthorized');
  });
});
