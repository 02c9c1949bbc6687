import { deliveryCharge, type TDeliveryZone } from '@storefront/shared';
import type { Kysely } from 'kysely';
import { type BkashStandIn, startBkashStandIn } from './bkash-stand-in.ts';
import { type SslcommerzStandIn, startSslcommerzStandIn } from './sslcommerz-stand-in.ts';
import { type AppConfig, loadConfig, type OrdersConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/schema.ts';
import { uniqueEmail, uniqueMobile } from './accounts.ts';
import { type ApiResponse, startTestApp, type TestApp } from './test-app.ts';

// Orders for the checkout and payment tests: demo skus with stock the test controls, a
// valid Bangladeshi address, and the sandbox gateway driven over HTTP as a payer would.

export const ADDRESS = {
  fullName: 'Karim Ahmed',
  phone: '01711111111',
  division: 'Dhaka',
  district: 'Dhaka',
  area: 'Gulshan 2',
  addressLine: 'House 5, Road 10',
};

export function guestContact() {
  return { name: 'Nusrat Jahan', mobile: uniqueMobile(), email: uniqueEmail('guest') };
}

export interface TestSku {
  id: number;
  code: string;
  salesPrice: number;
  discountedSalesPrice: number | null;
}

/** Single (non-bundle) demo skus, with no global discounts in the way. */
export async function plainSkus(db: Kysely<Database>, count: number, offset = 0): Promise<TestSku[]> {
  const rows = await db
    .selectFrom('skus')
    .innerJoin('products', 'products.id', 'skus.product_id')
    .where('products.kind', '=', 'single')
    .select(['skus.id', 'skus.code', 'skus.sales_price', 'skus.discounted_sales_price'])
    .orderBy('skus.id')
    .limit(count)
    .offset(offset)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    code: r.code,
    salesPrice: Number(r.sales_price),
    discountedSalesPrice: r.discounted_sales_price === null ? null : Number(r.discounted_sales_price),
  }));
}

/** Sets a sku's stock: quantities by branch position (first branch, second, …). */
export async function setStock(db: Kysely<Database>, skuId: number, perBranch: number[]) {
  const branches = await db.selectFrom('branches').select('id').orderBy('sort_order').orderBy('id').execute();
  await db.deleteFrom('stocks').where('sku_id', '=', skuId).execute();
  const rows = perBranch.map((q, i) => ({ sku_id: skuId, branch_id: branches[i].id, quantity: q })).filter((r) => r.quantity > 0 || perBranch.length === 1);
  if (rows.length) await db.insertInto('stocks').values(rows).execute();
}

export async function stockOf(db: Kysely<Database>, skuId: number): Promise<number> {
  const r = await db
    .selectFrom('stocks')
    .select((eb) => eb.fn.sum<number>('quantity').as('q'))
    .where('sku_id', '=', skuId)
    .executeTakeFirst();
  return Number(r?.q ?? 0);
}

export async function countRows(
  db: Kysely<Database>,
  table: 'sales' | 'sale_lines' | 'stock_reservations' | 'payments' | 'coupon_usages' | 'sale_status_history' | 'mail_outbox',
) {
  const r = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

export function checkoutBody(items: { skuCode: string; quantity: unknown; [k: string]: unknown }[], extra: Record<string, unknown> = {}) {
  return { items, paymentMethod: 'cod', deliveryMethod: 'home_delivery', address: ADDRESS, contact: guestContact(), ...extra };
}

export function checkout(t: TestApp, body: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> {
  return t.api('/api/checkouts', { method: 'POST', json: body, headers });
}

/** The path and query of an absolute URL, on the test app (its public URL has no port). */
export function onApp(t: TestApp, url: string): string {
  const u = new URL(url, t.baseUrl);
  return `${t.baseUrl}${u.pathname}${u.search}`;
}

/** Reads the hidden fields and the action of the hand-back form a gateway page returns. */
export function handBackForm(html: string): { action: string; fields: Record<string, string> } {
  const action = /<form id="back" method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no hand-back form in ${html.slice(0, 300)}`);
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[m[1]] = decode(m[2]);
  return { action: decode(action), fields };
}

const decode = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/**
 * Plays the payer on the sandbox page: opens it, clicks `action`, and follows the
 * hand-back form to the shop's return URL. Returns where the shop then sends the browser.
 */
export async function paySandbox(t: TestApp, paymentUrl: string, action: 'pay' | 'risky' | 'fail' | 'cancel', cookie?: string) {
  const page = await fetch(onApp(t, paymentUrl));
  const html = await page.text();
  if (page.status !== 200 || !html.includes('TEST PAYMENT')) throw new Error(`sandbox page answered ${page.status}: ${html.slice(0, 200)}`);
  const session = /name="session" value="([^"]+)"/.exec(html)![1];
  const done = await fetch(`${t.baseUrl}/payments/sandbox/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ session, action }),
  });
  const form = handBackForm(await done.text());
  const back = await fetch(onApp(t, form.action), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(form.fields),
    redirect: 'manual',
  });
  return { status: back.status, location: back.headers.get('location') ?? '', fields: form.fields, action: form.action };
}

export async function saleRow(db: Kysely<Database>, invoiceId: string) {
  return db.selectFrom('sales').selectAll().where('invoice_id', '=', invoiceId).executeTakeFirstOrThrow();
}

/**
 * Order limits loosened for a test that legitimately places many orders as one client;
 * the defaults themselves are proven in abuse-hoarding.test.ts (docs/decisions/0022).
 */
export function generousOrderLimits(more: Partial<OrdersConfig> = {}): OrdersConfig {
  const many = 1_000_000;
  return { ...loadConfig({}).orders, perAddress: many, perCustomer: many, perContact: many, holdMaxUnits: many, holdMaxUnitsPerAddress: many, ...more };
}

/**
 * The app for card payments: it trusts X-Forwarded-For (tests give shoppers addresses of
 * their own), and its public URL is its real address, where the gateway sends payers back.
 */
export async function startPaymentsApp(config: Partial<AppConfig> = {}): Promise<TestApp> {
  const t = await startTestApp({ config: { trustProxy: true, ...config } });
  t.app.config.publicUrl = t.baseUrl;
  return t;
}

/** What home delivery to `district` costs for items worth `itemsTotal`, by the shop's own zones (docs/decisions/0033). */
export async function deliveryFeeFor(t: TestApp, district: string, itemsTotal: number): Promise<number> {
  const zones = (await t.api<{ list: TDeliveryZone[] }>('/api/delivery/zones')).body.list;
  return deliveryCharge(zones, 'home_delivery', district, itemsTotal)!.fee;
}

/**
 * The app paying through SSLCommerz, by its public API, against a local stand-in that speaks
 * it; the app's public URL is its real address, where the gateway sends payers back.
 */
export async function startSslcommerzApp(): Promise<{ t: TestApp; gw: SslcommerzStandIn }> {
  const gw = await startSslcommerzStandIn();
  const base = loadConfig({});
  const t = await startPaymentsApp({
    payments: { ...base.payments, provider: 'sslcommerz', sslcommerz: { storeId: gw.storeId, storePassword: gw.storePassword, baseUrl: gw.url } },
  });
  return { t, gw };
}

/**
 * The app offering bKash, by its tokenized checkout, against a local stand-in that speaks it
 * (cards stay on the built-in sandbox); the app's public URL is its real address, where bKash
 * sends payers back.
 */
export async function startBkashApp(config: Partial<AppConfig> = {}): Promise<{ t: TestApp; bkash: BkashStandIn }> {
  const bkash = await startBkashStandIn();
  const base = loadConfig({});
  const c = bkash.credentials;
  const t = await startPaymentsApp({
    payments: { ...base.payments, bkash: { appKey: c.appKey, appSecret: c.appSecret, username: c.username, password: c.password, baseUrl: bkash.url } },
    ...config,
  });
  return { t, bkash };
}
