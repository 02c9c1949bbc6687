import { randomBytes } from 'node:crypto';
import { ROLE_PERMISSIONS, type TPermission, type TStaffRole } from '@storefront/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type TestCustomer, uniqueIp } from './helpers/accounts.ts';
import { expectApiError } from './helpers/assertions.ts';
import { adminCookie, signedInStaff, STAFF_PASSWORD, type TestStaff } from './helpers/staff.ts';
import { type ApiResponse, startTestApp, type TestApp } from './helpers/test-app.ts';

// The back office's role matrix: every /api/admin operation of the OpenAPI document, called
// by a guest, a forged staff cookie, a signed-in customer, staff of each role, and an owner
// whose two-factor sign-in was reset (who may only use the routes about their own account
// until they enrol again). Guests and customers get 401; a role gets 403 exactly where
// ROLE_PERMISSIONS denies the route's permission, and gets through where it allows it.
// Refusals carry the one error shape and none of the shop's data, and write nothing.
//
// The permission each route needs is stated below, one row per operation: an /api/admin
// operation the document has and this table lacks fails the first test, so a new route
// cannot ship without someone deciding who may call it. The table is checked against the
// running app by the answers themselves (a route needing more or less than the table says
// answers 403 where the row expects it through, or the reverse).

type Caller = 'guest' | 'forged' | 'customer' | TStaffRole | 'unenrolledOwner';
const STAFF_CALLERS: (TStaffRole | 'unenrolledOwner')[] = ['owner', 'manager', 'staff', 'read_only', 'unenrolledOwner'];
const CALLERS: Caller[] = ['guest', 'forged', 'customer', ...STAFF_CALLERS];

interface Call {
  method: string;
  path: string;
  json?: unknown;
}

interface Row {
  /** "METHOD /path" as in the OpenAPI document. */
  op: string;
  permission: TPermission | 'public';
  /** The request; made anew for each caller (a fresh email where one is created). */
  call: (who: Caller) => Call;
  /** What a caller the route lets through may get: the route's own answer, never 401/403. */
  through: number[];
  /** Each staff caller gets a session of its own for this row (the row ends it). */
  ownSession?: boolean;
  check?: (res: ApiResponse, who: Caller) => void | Promise<void>;
}

let t: TestApp;
let customer: TestCustomer;
const staff = {} as Record<TStaffRole | 'unenrolledOwner', TestStaff>;
/** Someone whose account the staff rows point at; nobody but this file's owner changes it. */
let target: { id: number; email: string; version: number };
let product: any;
let skuId: number;
let branchId: number;

beforeAll(async () => {
  t = await startTestApp({ config: { trustProxy: true } });
  customer = await signUp(t);
  for (const role of ['owner', 'manager', 'staff', 'read_only'] as const) staff[role] = await signedInStaff(t, role);

  // An owner whose two-factor was reset by another owner: their sessions end, and signing in
  // with the password alone opens only their own account until they set it up again.
  const reset = await signedInStaff(t, 'owner');
  const list = await t.api('/api/admin/staff', { headers: staff.owner.headers });
  const version = list.body.items.find((s: any) => s.id === reset.id).version;
  const patched = await t.api(`/api/admin/staff/${reset.id}`, { method: 'PATCH', json: { resetTwoFactor: true, version }, headers: staff.owner.headers });
  expect(patched.status, patched.text).toBe(200);
  const signIn = await t.api('/api/admin/session', {
    method: 'POST',
    json: { email: reset.email, password: STAFF_PASSWORD },
    headers: { 'x-forwarded-for': uniqueIp() },
  });
  expect(signIn.status, signIn.text).toBe(200);
  expect(signIn.body.mustEnrolTwoFactor).toBe(true);
  staff.unenrolledOwner = { ...reset, headers: { cookie: adminCookie(signIn.headers.get('set-cookie')) } };

  const made = await t.api('/api/admin/staff', {
    method: 'POST',
    json: { email: `target-${randomBytes(4).toString('hex')}@shop.test`, fullName: 'Target Person', role: 'staff', password: STAFF_PASSWORD },
    headers: staff.owner.headers,
  });
  expect(made.status, made.text).toBe(201);
  target = made.body;

  const products = await t.api('/api/admin/products?size=1&sort=id&dir=asc', { headers: staff.owner.headers });
  expect(products.status, products.text).toBe(200);
  product = (await t.api(`/api/admin/products/${products.body.items[0].id}`, { headers: staff.owner.headers })).body;
  skuId = product.skus[0].id;
  const reference = await t.api('/api/admin/reference', { headers: staff.owner.headers });
  branchId = reference.body.branches[0].id;
});
afterAll(() => t?.close());

const fresh = () => randomBytes(4).toString('hex');

/** The product as the editor sends it back. */
function productInput(p: any, opts: { slug: string; codeSuffix?: string; keepSkuIds?: boolean }) {
  return {
    title: p.title,
    slug: opts.slug,
    modelCode: null,
    description: p.description,
    kind: p.kind,
    categoryIds: p.categoryIds,
    primaryCategoryId: p.primaryCategoryId,
    isNewArrival: p.isNewArrival,
    status: 'draft',
    images: p.images,
    skus: p.skus.map((s: any) => ({
      ...(opts.keepSkuIds ? { id: s.id } : {}),
      code: opts.codeSuffix ? `${s.code}-${opts.codeSuffix}` : s.code,
      salesPrice: s.salesPrice,
      discountedSalesPrice: s.discountedSalesPrice,
      attributes: s.attributes,
      lowStockThreshold: s.lowStockThreshold,
    })),
  };
}

// A code that is never six digits: no authenticator code can match it by chance.
const NOT_A_CODE = 'abcdef';

const ROWS: Row[] = [
  // Signing in and one's own account
  {
    op: 'POST /api/admin/session',
    permission: 'public',
    // A new unknown email each time, so the per-account limit never answers instead.
    call: () => ({ method: 'POST', path: '/api/admin/session', json: { email: `nobody-${fresh()}@shop.test`, password: 'not the password at all' } }),
    through: [401],
    check: (res) => {
      expectApiError(res, 401, 'invalid_credentials');
      expect(res.headers.get('set-cookie')).toBeNull();
    },
  },
  {
    op: 'GET /api/admin/session',
    permission: 'self',
    call: () => ({ method: 'GET', path: '/api/admin/session' }),
    through: [200],
    check: (res, who) => {
      if (res.status !== 200) return;
      expect(res.body.staff.email).toBe(staff[who as TStaffRole].email);
      expect(res.body.mustEnrolTwoFactor).toBe(who === 'unenrolledOwner');
    },
  },
  {
    op: 'DELETE /api/admin/session',
    permission: 'self',
    call: () => ({ method: 'DELETE', path: '/api/admin/session' }),
    through: [204],
    ownSession: true,
  },
  {
    op: 'POST /api/admin/two-factor/setup',
    permission: 'self',
    call: () => ({ method: 'POST', path: '/api/admin/two-factor/setup' }),
    // 409 for an account whose two-factor is on already.
    through: [200, 409],
    check: (res, who) => {
      if (who === 'owner') expectApiError(res, 409, 'two_factor_on');
      if (who === 'unenrolledOwner') expect(res.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    },
  },
  {
    op: 'POST /api/admin/two-factor/enable',
    permission: 'self',
    call: () => ({ method: 'POST', path: '/api/admin/two-factor/enable', json: { code: NOT_A_CODE } }),
    // A wrong code (400), or nothing to confirm (409).
    through: [400, 409],
  },
  {
    op: 'POST /api/admin/two-factor/disable',
    permission: 'self',
    call: () => ({ method: 'POST', path: '/api/admin/two-factor/disable', json: { code: NOT_A_CODE } }),
    // Owners keep two-factor (409); for others without it there is nothing to turn off.
    through: [204, 409],
    check: (res, who) => {
      if (who === 'owner' || who === 'unenrolledOwner') expectApiError(res, 409);
    },
  },
  // Staff accounts and the audit log
  {
    op: 'GET /api/admin/staff',
    permission: 'staff.manage',
    call: () => ({ method: 'GET', path: '/api/admin/staff' }),
    through: [200],
    check: (res) => {
      if (res.status === 200) expect(res.body.items.map((s: any) => s.email)).toContain(target.email);
    },
  },
  {
    op: 'POST /api/admin/staff',
    permission: 'staff.manage',
    call: () => ({
      method: 'POST',
      path: '/api/admin/staff',
      json: { email: `new-${fresh()}@shop.test`, fullName: 'New Person', role: 'read_only', password: STAFF_PASSWORD },
    }),
    through: [201],
  },
  {
    op: 'POST /api/admin/staff/invites',
    permission: 'staff.manage',
    call: () => ({
      method: 'POST',
      path: '/api/admin/staff/invites',
      json: { email: `invited-${fresh()}@shop.test`, fullName: 'Invited Person', role: 'read_only' },
    }),
    through: [201],
  },
  {
    op: 'POST /api/admin/staff/{id}/invite',
    permission: 'staff.manage',
    call: () => ({ method: 'POST', path: '/api/admin/staff/999999/invite' }),
    through: [404],
  },
  {
    // A link nobody was sent: refused for whoever calls, signed in or not.
    op: 'POST /api/admin/invite',
    permission: 'public',
    call: () => ({ method: 'POST', path: '/api/admin/invite', json: { token: 'x'.repeat(43), password: 'a long enough password' } }),
    through: [400],
    check: (res) => expectApiError(res, 400, 'invalid_token'),
  },
  {
    op: 'PATCH /api/admin/staff/{id}',
    permission: 'staff.manage',
    // A version long past: the owner gets as far as the account, which is left as it is.
    call: () => ({ method: 'PATCH', path: `/api/admin/staff/${target.id}`, json: { role: 'manager', version: target.version + 1000 } }),
    through: [409],
    check: (res) => {
      if (res.status === 409) expectApiError(res, 409, 'stale_version');
    },
  },
  {
    op: 'GET /api/admin/audit',
    permission: 'audit.read',
    call: () => ({ method: 'GET', path: '/api/admin/audit?entity=staff' }),
    through: [200],
    check: (res) => {
      if (res.status === 200) expect(res.body.items.map((e: any) => e.entityId)).toContain(String(target.id));
    },
  },
  // The catalogue
  {
    op: 'GET /api/admin/reference',
    permission: 'catalogue.read',
    call: () => ({ method: 'GET', path: '/api/admin/reference' }),
    through: [200],
    check: (res) => {
      if (res.status === 200) expect(res.body.branches.map((b: any) => b.id)).toContain(branchId);
    },
  },
  {
    op: 'GET /api/admin/products',
    permission: 'catalogue.read',
    call: () => ({ method: 'GET', path: '/api/admin/products?size=5&sort=id&dir=asc' }),
    through: [200],
    check: (res) => {
      if (res.status === 200) expect(res.body.items[0].id).toBe(product.id);
    },
  },
  {
    op: 'GET /api/admin/products/{id}',
    permission: 'catalogue.read',
    call: () => ({ method: 'GET', path: `/api/admin/products/${product.id}` }),
    through: [200],
    check: (res) => {
      if (res.status === 200) expect(res.body.title).toBe(product.title);
    },
  },
  {
    op: 'POST /api/admin/products',
    permission: 'catalogue.write',
    call: () => {
      const suffix = fresh();
      return { method: 'POST', path: '/api/admin/products', json: productInput(product, { slug: `${product.slug}-authz-${suffix}`, codeSuffix: suffix }) };
    },
    through: [201],
  },
  {
    op: 'PUT /api/admin/products/{id}',
    permission: 'catalogue.write',
    // A stale version: through authorization to the product, which stays as everyone else reads it.
    call: () => ({
      method: 'PUT',
      path: `/api/admin/products/${product.id}`,
      json: { ...productInput(product, { slug: product.slug, keepSkuIds: true }), title: 'Changed by the matrix', version: product.version + 1000 },
    }),
    through: [409],
    check: (res) => {
      if (res.status === 409) expectApiError(res, 409, 'stale_version');
    },
  },
  {
    op: 'POST /api/admin/products/{id}/archive',
    permission: 'catalogue.write',
    call: () => ({ method: 'POST', path: `/api/admin/products/${product.id}/archive`, json: { version: product.version + 1000 } }),
    through: [409],
  },
  {
    op: 'POST /api/admin/products/{id}/restore',
    permission: 'catalogue.write',
    call: () => ({ method: 'POST', path: `/api/admin/products/${product.id}/restore`, json: { version: product.version + 1000 } }),
    through: [409],
  },
  {
    op: 'POST /api/admin/products/{id}/duplicate',
    permission: 'catalogue.write',
    call: () => ({ method: 'POST', path: `/api/admin/products/${product.id}/duplicate` }),
    through: [201],
    check: (res) => {
      if (res.status === 201) expect(res.body).toMatchObject({ status: 'draft', title: expect.stringContaining(product.title) });
    },
  },
  {
    op: 'POST /api/admin/stock/adjustments',
    permission: 'stock.write',
    call: () => ({ method: 'POST', path: '/api/admin/stock/adjustments', json: { skuId, branchId, reason: 'received', delta: 1, note: 'role matrix' } }),
    through: [201],
  },
  {
    op: 'POST /api/admin/prices/preview',
    permission: 'prices.write',
    call: () => ({ method: 'POST', path: '/api/admin/prices/preview', json: { productIds: [product.id], kind: 'percent', value: 5 } }),
    through: [200],
  },
  {
    // A count that cannot match: an allowed caller gets the 409, and no price changes.
    op: 'POST /api/admin/prices/apply',
    permission: 'prices.write',
    call: () => ({ method: 'POST', path: '/api/admin/prices/apply', json: { productIds: [product.id], kind: 'percent', value: 5, expectedSkus: -1 } }),
    through: [409],
  },
  {
    op: 'GET /api/admin/products/export',
    permission: 'catalogue.read',
    call: () => ({ method: 'GET', path: '/api/admin/products/export' }),
    through: [200],
  },
  {
    // A JSON body is no CSV file: an allowed caller gets the import's report ("empty").
    op: 'POST /api/admin/imports',
    permission: 'catalogue.write',
    call: () => ({ method: 'POST', path: '/api/admin/imports', json: {} }),
    through: [201],
  },
  {
    op: 'GET /api/admin/imports/{id}',
    permission: 'catalogue.read',
    call: () => ({ method: 'GET', path: '/api/admin/imports/999999' }),
    through: [404],
  },
  {
    op: 'POST /api/admin/imports/{id}/apply',
    permission: 'catalogue.write',
    call: () => ({ method: 'POST', path: '/api/admin/imports/999999/apply' }),
    through: [404],
  },
  {
    op: 'GET /api/admin/categories',
    permission: 'catalogue.read',
    call: () => ({ method: 'GET', path: '/api/admin/categories' }),
    through: [200],
  },
  {
    // A slug that is not one: an allowed caller gets the 400, and nothing is made.
    op: 'POST /api/admin/categories',
    permission: 'catalogue.write',
    call: () => ({ method: 'POST', path: '/api/admin/categories', json: { name: 'Matrix', slug: 'Not A Slug' } }),
    through: [400],
  },
  {
    op: 'PUT /api/admin/categories/{id}',
    permission: 'catalogue.write',
    call: () => ({ method: 'PUT', path: '/api/admin/categories/999999', json: { name: 'Matrix', slug: 'matrix', version: 1 } }),
    through: [404],
  },
  {
    op: 'POST /api/admin/categories/{id}/move',
    permission: 'catalogue.write',
    call: () => ({ method: 'POST', path: '/api/admin/categories/999999/move', json: { direction: 'up', version: 1 } }),
    through: [404],
  },
  {
    op: 'DELETE /api/admin/categories/{id}',
    permission: 'catalogue.write',
    call: () => ({ method: 'DELETE', path: '/api/admin/categories/999999' }),
    through: [404],
  },
  {
    op: 'GET /api/admin/attributes',
    permission: 'catalogue.read',
    call: () => ({ method: 'GET', path: '/api/admin/attributes' }),
    through: [200],
  },
  {
    op: 'PUT /api/admin/attributes/{id}',
    permission: 'catalogue.write',
    call: () => ({ method: 'PUT', path: '/api/admin/attributes/999999', json: { label: 'Matrix', version: 1 } }),
    through: [404],
  },
  {
    op: 'POST /api/admin/attributes/{id}/values/rename',
    permission: 'catalogue.write',
    call: () => ({ method: 'POST', path: '/api/admin/attributes/999999/values/rename', json: { value: 'x', displayLabel: 'X' } }),
    through: [404],
  },
  {
    op: 'GET /api/admin/stock/low',
    permission: 'catalogue.read',
    call: () => ({ method: 'GET', path: '/api/admin/stock/low?size=5' }),
    through: [200],
  },
  {
    op: 'GET /api/admin/skus/{id}/movements',
    permission: 'catalogue.read',
    call: () => ({ method: 'GET', path: `/api/admin/skus/${skuId}/movements` }),
    through: [200],
  },
  // Orders and bookings (docs/decisions/0032): reading and fulfilling for staff, money out for
  // managers and owners. Writes name an order that does not exist: an allowed caller gets the
  // 404 (the permission is checked first), and no order changes.
  {
    op: 'GET /api/admin/orders',
    permission: 'orders.read',
    call: () => ({ method: 'GET', path: '/api/admin/orders?size=5' }),
    through: [200],
  },
  {
    op: 'GET /api/admin/orders/export',
    permission: 'orders.read',
    call: () => ({ method: 'GET', path: '/api/admin/orders/export?kind=booking' }),
    through: [200],
  },
  {
    op: 'GET /api/admin/orders/{id}',
    permission: 'orders.read',
    call: () => ({ method: 'GET', path: '/api/admin/orders/999999' }),
    through: [404],
  },
  {
    op: 'GET /api/admin/orders/{id}/document',
    permission: 'orders.read',
    call: () => ({ method: 'GET', path: '/api/admin/orders/999999/document' }),
    through: [404],
  },
  {
    op: 'POST /api/admin/orders/{id}/actions',
    permission: 'orders.write',
    call: () => ({ method: 'POST', path: '/api/admin/orders/999999/actions', json: { action: 'confirm' } }),
    through: [404],
  },
  {
    op: 'POST /api/admin/orders/{id}/cash',
    permission: 'orders.write',
    call: () => ({ method: 'POST', path: '/api/admin/orders/999999/cash', json: { amount: 1000 } }),
    through: [404],
  },
  {
    op: 'POST /api/admin/orders/{id}/proofs/{proofId}',
    permission: 'orders.write',
    call: () => ({ method: 'POST', path: '/api/admin/orders/999999/proofs/1', json: { decision: 'accept' } }),
    through: [404],
  },
  {
    op: 'POST /api/admin/orders/{id}/notes',
    permission: 'orders.write',
    call: () => ({ method: 'POST', path: '/api/admin/orders/999999/notes', json: { body: 'role matrix' } }),
    through: [404],
  },
  {
    op: 'POST /api/admin/orders/{id}/refunds',
    permission: 'refunds.write',
    call: (who) => ({
      method: 'POST',
      path: '/api/admin/orders/999999/refunds',
      json: { idempotencyKey: `matrix-${who}-${fresh()}`, method: 'cash', amount: 100, reason: 'x', reference: 'R' },
    }),
    through: [404],
  },
  {
    op: 'POST /api/admin/orders/{id}/refunds/{refundId}/refresh',
    permission: 'refunds.write',
    call: () => ({ method: 'POST', path: '/api/admin/orders/999999/refunds/1/refresh' }),
    through: [404],
  },
  // Courier consignments (docs/decisions/0040): booked by those who fulfil orders, read with
  // the orders. No courier is set up in this app, so an allowed caller booking gets the 409
  // `courier_not_configured` (and nothing is sent anywhere); reading names no order.
  {
    op: 'POST /api/admin/orders/{id}/consignment',
    permission: 'orders.write',
    call: () => ({ method: 'POST', path: '/api/admin/orders/999999/consignment', json: { courier: 'steadfast' } }),
    through: [409],
  },
  {
    op: 'GET /api/admin/orders/{id}/consignment',
    permission: 'orders.read',
    call: () => ({ method: 'GET', path: '/api/admin/orders/999999/consignment' }),
    through: [404],
  },
  {
    op: 'POST /api/admin/consignments/bulk',
    permission: 'orders.write',
    call: () => ({ method: 'POST', path: '/api/admin/consignments/bulk', json: { courier: 'steadfast', orderIds: [999999] } }),
    through: [409],
  },
  {
    op: 'GET /api/admin/couriers',
    permission: 'orders.read',
    call: () => ({ method: 'GET', path: '/api/admin/couriers' }),
    through: [200],
  },
  // Pathao's places for the booking form, read with the orders; Pathao is not set up here (409).
  {
    op: 'GET /api/admin/couriers/pathao/cities',
    permission: 'orders.read',
    call: () => ({ method: 'GET', path: '/api/admin/couriers/pathao/cities' }),
    through: [409],
  },
  {
    op: 'GET /api/admin/couriers/pathao/cities/{cityId}/zones',
    permission: 'orders.read',
    call: () => ({ method: 'GET', path: '/api/admin/couriers/pathao/cities/1/zones' }),
    through: [409],
  },
  {
    op: 'GET /api/admin/couriers/pathao/zones/{zoneId}/areas',
    permission: 'orders.read',
    call: () => ({ method: 'GET', path: '/api/admin/couriers/pathao/zones/52/areas' }),
    through: [409],
  },
  // Cash-on-delivery reconciliation (docs/decisions/0043): read with the money figures, recorded
  // by those who may refund. A report without parcels (422) and a line naming no parcel (400)
  // are refused after the permission check, and nothing is recorded.
  {
    op: 'GET /api/admin/cod/summary',
    permission: 'reports.read',
    call: () => ({ method: 'GET', path: '/api/admin/cod/summary' }),
    through: [200],
  },
  {
    op: 'GET /api/admin/cod/payouts',
    permission: 'reports.read',
    call: () => ({ method: 'GET', path: '/api/admin/cod/payouts?courier=steadfast' }),
    through: [200],
  },
  {
    op: 'POST /api/admin/cod/imports',
    permission: 'refunds.write',
    call: () => ({
      method: 'POST',
      path: '/api/admin/cod/imports',
      json: { courier: 'steadfast', reference: `MATRIX-${fresh()}`, paidOn: '2026-11-28', csv: 'consignment_id,collected,delivery_charge,cod_charge\n' },
    }),
    through: [422],
  },
  {
    op: 'POST /api/admin/cod/payouts',
    permission: 'refunds.write',
    call: () => ({
      method: 'POST',
      path: '/api/admin/cod/payouts',
      json: { courier: 'steadfast', reference: `MATRIX-${fresh()}`, paidOn: '2026-11-28', lines: [{ collected: 100, deliveryCharge: 0, codCharge: 0 }] },
    }),
    through: [400],
  },
  // Delivery zones (docs/decisions/0033): read with the orders, changed by managers and owners.
  {
    op: 'GET /api/admin/delivery/zones',
    permission: 'orders.read',
    call: () => ({ method: 'GET', path: '/api/admin/delivery/zones' }),
    through: [200],
  },
  {
    // A zone that breaks a rule (a negative fee): an allowed caller gets the 400, nothing is added.
    op: 'POST /api/admin/delivery/zones',
    permission: 'content.write',
    call: () => ({
      method: 'POST',
      path: '/api/admin/delivery/zones',
      json: { name: 'Matrix', districts: [], fee: -1, freeFrom: null, etaMinDays: 1, etaMaxDays: 2 },
    }),
    through: [400],
  },
  {
    op: 'PUT /api/admin/delivery/zones/{id}',
    permission: 'content.write',
    call: () => ({
      method: 'PUT',
      path: '/api/admin/delivery/zones/999999',
      json: { name: 'Matrix', districts: [], fee: 100, freeFrom: null, etaMinDays: 1, etaMaxDays: 2 },
    }),
    through: [404],
  },
  {
    op: 'DELETE /api/admin/delivery/zones/{id}',
    permission: 'content.write',
    call: () => ({ method: 'DELETE', path: '/api/admin/delivery/zones/999999' }),
    through: [404],
  },
  // The dashboard (docs/decisions/0032): revenue figures, not for staff
  {
    op: 'GET /api/admin/dashboard',
    permission: 'reports.read',
    call: () => ({ method: 'GET', path: '/api/admin/dashboard?days=30' }),
    through: [200],
    check: (res) => {
      if (res.status === 200) expect(res.body.series).toHaveLength(30);
    },
  },
  // Customers (docs/decisions/0032)
  {
    op: 'GET /api/admin/customers',
    permission: 'orders.read',
    call: () => ({ method: 'GET', path: `/api/admin/customers?q=${encodeURIComponent(customer.email)}` }),
    through: [200],
    check: (res) => {
      if (res.status === 200) expect(res.body.items.map((c: any) => c.userId)).toEqual([customer.userId]);
    },
  },
  {
    op: 'GET /api/admin/customers/{id}',
    permission: 'orders.read',
    call: () => ({ method: 'GET', path: '/api/admin/customers/999999' }),
    through: [404],
  },
  {
    // An id that is nobody's: an allowed caller gets the 404, and nobody is blocked.
    op: 'PATCH /api/admin/customers/{id}',
    permission: 'customers.manage',
    call: () => ({ method: 'PATCH', path: '/api/admin/customers/999999', json: { blocked: true, reason: 'role matrix' } }),
    through: [404],
  },
  {
    op: 'POST /api/admin/customers/{id}/password-reset',
    permission: 'customers.manage',
    call: () => ({ method: 'POST', path: '/api/admin/customers/999999/password-reset' }),
    through: [404],
  },
  // — promotions rows —
  // Global discounts and coupons (docs/decisions/0034): read with the catalogue, changed by
  // managers and owners; a coupon's uses name customers and orders.
  {
    op: 'GET /api/admin/promotions/discounts',
    permission: 'catalogue.read',
    call: () => ({ method: 'GET', path: '/api/admin/promotions/discounts' }),
    through: [200],
  },
  {
    op: 'GET /api/admin/promotions/discounts/{id}',
    permission: 'catalogue.read',
    call: () => ({ method: 'GET', path: '/api/admin/promotions/discounts/999999' }),
    through: [404],
  },
  {
    // A preview writes nothing; an allowed caller gets the product's prices.
    op: 'POST /api/admin/promotions/discounts/preview',
    permission: 'catalogue.read',
    call: () => ({
      method: 'POST',
      path: '/api/admin/promotions/discounts/preview',
      json: { title: 'Matrix', type: 'FIXED_PRODUCT', discountType: 'PERCENTAGE', value: 10, items: [{ productId: product.id, skuCode: null }] },
    }),
    through: [200],
  },
  {
    // A discount that breaks a rule (0%): an allowed caller gets the 400, nothing is added.
    op: 'POST /api/admin/promotions/discounts',
    permission: 'promotions.write',
    call: () => ({
      method: 'POST',
      path: '/api/admin/promotions/discounts',
      json: { title: 'Matrix', type: 'FIXED_PRODUCT', discountType: 'PERCENTAGE', value: 0, items: [{ productId: product.id, skuCode: null }] },
    }),
    through: [400],
  },
  {
    op: 'PUT /api/admin/promotions/discounts/{id}',
    permission: 'promotions.write',
    call: () => ({
      method: 'PUT',
      path: '/api/admin/promotions/discounts/999999',
      json: { title: 'Matrix', type: 'FIXED_PRODUCT', discountType: 'PERCENTAGE', value: 10, items: [{ productId: product.id, skuCode: null }], version: 1 },
    }),
    through: [404],
  },
  {
    op: 'PATCH /api/admin/promotions/discounts/{id}',
    permission: 'promotions.write',
    call: () => ({ method: 'PATCH', path: '/api/admin/promotions/discounts/999999', json: { active: true, version: 1 } }),
    through: [404],
  },
  {
    op: 'DELETE /api/admin/promotions/discounts/{id}',
    permission: 'promotions.write',
    call: () => ({ method: 'DELETE', path: '/api/admin/promotions/discounts/999999?version=1' }),
    through: [404],
  },
  {
    op: 'GET /api/admin/promotions/coupons',
    permission: 'catalogue.read',
    call: () => ({ method: 'GET', path: '/api/admin/promotions/coupons' }),
    through: [200],
  },
  {
    op: 'GET /api/admin/promotions/coupons/{id}',
    permission: 'catalogue.read',
    call: () => ({ method: 'GET', path: '/api/admin/promotions/coupons/999999' }),
    through: [404],
  },
  {
    op: 'GET /api/admin/promotions/coupons/{id}/usages',
    permission: 'orders.read',
    call: () => ({ method: 'GET', path: '/api/admin/promotions/coupons/999999/usages' }),
    through: [404],
  },
  {
    // A coupon that breaks a rule (a negative amount): an allowed caller gets the 400.
    op: 'POST /api/admin/promotions/coupons',
    permission: 'promotions.write',
    call: () => ({ method: 'POST', path: '/api/admin/promotions/coupons', json: { code: 'MATRIX1', title: 'Matrix', discountType: 'AMOUNT', value: -100 } }),
    through: [400],
  },
  {
    op: 'PUT /api/admin/promotions/coupons/{id}',
    permission: 'promotions.write',
    call: () => ({
      method: 'PUT',
      path: '/api/admin/promotions/coupons/999999',
      json: { code: 'MATRIX1', title: 'Matrix', discountType: 'AMOUNT', value: 100, version: 1 },
    }),
    through: [404],
  },
  {
    op: 'PATCH /api/admin/promotions/coupons/{id}',
    permission: 'promotions.write',
    call: () => ({ method: 'PATCH', path: '/api/admin/promotions/coupons/999999', json: { active: false, version: 1 } }),
    through: [404],
  },
  // — content rows —
  // Content, pages and showrooms (docs/decisions/0035): read by anyone who reads the catalogue, changed by managers and owners.
  {
    op: 'GET /api/admin/content',
    permission: 'catalogue.read',
    call: () => ({ method: 'GET', path: '/api/admin/content?type=page' }),
    through: [200],
    check: (res) => {
      if (res.status === 200) expect(res.body.items.map((i: any) => i.slug)).toContain('about');
    },
  },
  {
    op: 'GET /api/admin/content/{id}',
    permission: 'catalogue.read',
    call: () => ({ method: 'GET', path: '/api/admin/content/999999' }),
    through: [404],
  },
  {
    // A slide whose picture is not the shop's: an allowed caller gets the 400, nothing is added.
    op: 'POST /api/admin/content',
    permission: 'content.write',
    call: () => ({
      method: 'POST',
      path: '/api/admin/content',
      json: { type: 'slider', title: 'Matrix', body: '', fields: { image: 'https://elsewhere.example/x.png' }, active: true },
    }),
    through: [400],
  },
  {
    op: 'PUT /api/admin/content/{id}',
    permission: 'content.write',
    call: () => ({
      method: 'PUT',
      path: '/api/admin/content/999999',
      json: { type: 'slider', title: 'Matrix', body: '', fields: { image: '/media/x.svg' }, active: true },
    }),
    through: [404],
  },
  {
    op: 'DELETE /api/admin/content/{id}',
    permission: 'content.write',
    call: () => ({ method: 'DELETE', path: '/api/admin/content/999999' }),
    through: [404],
  },
  {
    // An order that names an item that is not there: refused, nothing moves.
    op: 'POST /api/admin/content/order',
    permission: 'content.write',
    call: () => ({ method: 'POST', path: '/api/admin/content/order', json: { type: 'slider', ids: [999999] } }),
    through: [400],
  },
  {
    op: 'GET /api/admin/branches',
    permission: 'catalogue.read',
    call: () => ({ method: 'GET', path: '/api/admin/branches' }),
    through: [200],
    check: (res) => {
      if (res.status === 200) expect(res.body.items.map((b: any) => b.id)).toContain(branchId);
    },
  },
  {
    // A pin outside Bangladesh: an allowed caller gets the 400, nothing is added.
    op: 'POST /api/admin/branches',
    permission: 'content.write',
    call: () => ({
      method: 'POST',
      path: '/api/admin/branches',
      json: { name: 'Matrix', kind: 'outlet', address: 'x', city: 'x', phone: '', hours: '', latitude: 51.5, longitude: 90 },
    }),
    through: [400],
  },
  {
    op: 'PUT /api/admin/branches/{id}',
    permission: 'content.write',
    call: () => ({
      method: 'PUT',
      path: '/api/admin/branches/999999',
      json: { name: 'Matrix', kind: 'outlet', address: 'x', city: 'x', phone: '', hours: '', latitude: 23.7, longitude: 90.4 },
    }),
    through: [404],
  },
  {
    op: 'DELETE /api/admin/branches/{id}',
    permission: 'content.write',
    call: () => ({ method: 'DELETE', path: '/api/admin/branches/999999' }),
    through: [404],
  },
  // — inbox and mail rows —
  // Subscribers, messages and mail (docs/decisions/0036): read with the customers, changed by
  // those who manage customers; the outbox (reset and order links) is the owners'.
  {
    op: 'GET /api/admin/subscribers',
    permission: 'orders.read',
    call: () => ({ method: 'GET', path: '/api/admin/subscribers?q=nobody-subscribed-this' }),
    through: [200],
  },
  {
    op: 'GET /api/admin/subscribers/export',
    permission: 'orders.read',
    call: () => ({ method: 'GET', path: '/api/admin/subscribers/export?q=nobody-subscribed-this' }),
    through: [200],
  },
  {
    op: 'POST /api/admin/subscribers/{id}/unsubscribe',
    permission: 'customers.manage',
    call: () => ({ method: 'POST', path: '/api/admin/subscribers/999999/unsubscribe' }),
    through: [404],
  },
  {
    op: 'GET /api/admin/messages',
    permission: 'orders.read',
    call: () => ({ method: 'GET', path: '/api/admin/messages?state=new' }),
    through: [200],
  },
  {
    op: 'GET /api/admin/messages/{id}',
    permission: 'orders.read',
    call: () => ({ method: 'GET', path: '/api/admin/messages/999999' }),
    through: [404],
  },
  {
    // A message that is nobody's: an allowed caller gets the 404, and no mail is written.
    op: 'POST /api/admin/messages/{id}/replies',
    permission: 'customers.manage',
    call: () => ({ method: 'POST', path: '/api/admin/messages/999999/replies', json: { body: 'role matrix' } }),
    through: [404],
  },
  {
    op: 'GET /api/admin/mail/status',
    permission: 'staff.manage',
    call: () => ({ method: 'GET', path: '/api/admin/mail/status' }),
    through: [200],
  },
  {
    op: 'GET /api/admin/mail',
    permission: 'staff.manage',
    call: () => ({ method: 'GET', path: '/api/admin/mail?state=failed' }),
    through: [200],
  },
  {
    op: 'GET /api/admin/mail/{id}',
    permission: 'staff.manage',
    call: () => ({ method: 'GET', path: '/api/admin/mail/999999' }),
    through: [404],
  },
  {
    op: 'POST /api/admin/mail/{id}/retry',
    permission: 'staff.manage',
    call: () => ({ method: 'POST', path: '/api/admin/mail/999999/retry' }),
    through: [404],
  },
  {
    // Not an address: an allowed caller gets the 400, and nothing is sent.
    op: 'POST /api/admin/mail/test',
    permission: 'staff.manage',
    call: () => ({ method: 'POST', path: '/api/admin/mail/test', json: { to: 'not-an-address' } }),
    through: [400],
  },
  // — settings and currencies rows —
  // The shop's settings and currencies (docs/decisions/0037): every role reads them, managers
  // and owners change them. Each change is refused by its own rules, so nothing is written.
  { op: 'GET /api/admin/settings', permission: 'catalogue.read', call: () => ({ method: 'GET', path: '/api/admin/settings' }), through: [200] },
  ...(
    [
      ['brand', { name: 'Matrix', tagline: '', logo: '', colour: '#ff0000', version: 1 }],
      ['contact', { hotline: '16770', hotlineInternational: '', address: 'Dhaka', supportEmail: 'not-an-email', orderEmail: '', version: 1 }],
      ['social', { facebook: 'javascript:alert(1)', instagram: '', youtube: '', linkedin: '', version: 1 }],
      ['company', { tin: 'TIN 1', bin: '', tradeLicence: '', version: 1 }],
      ['payments', { logos: ['paypal'], sslLogo: true, version: 1 }],
    ] as const
  ).map(
    ([group, json]): Row => ({
      op: `PUT /api/admin/settings/${group}`,
      permission: 'content.write',
      call: () => ({ method: 'PUT', path: `/api/admin/settings/${group}`, json }),
      through: [400],
    }),
  ),
  { op: 'GET /api/admin/currencies', permission: 'catalogue.read', call: () => ({ method: 'GET', path: '/api/admin/currencies' }), through: [200] },
  {
    // A code the shop already has: an allowed caller gets the 409, nothing is added.
    op: 'POST /api/admin/currencies',
    permission: 'content.write',
    call: () => ({ method: 'POST', path: '/api/admin/currencies', json: { code: 'USD', country: 'united states', rate: 120, numCode: '+1' } }),
    through: [409],
  },
  {
    op: 'PATCH /api/admin/currencies/{code}',
    permission: 'content.write',
    call: () => ({ method: 'PATCH', path: '/api/admin/currencies/XYZ', json: { rate: 2, version: 1 } }),
    through: [404],
  },
];

// ---- running a row -------------------------------------------------------------------------------

const FORGED = `admin_sid=${randomBytes(32).toString('base64url')}`;

function headersOf(who: Caller, own?: Record<string, string>): Record<string, string> {
  const ip = { 'x-forwarded-for': uniqueIp() };
  if (who === 'guest') return ip;
  if (who === 'forged') return { ...ip, cookie: FORGED };
  // Both ways a customer's session travels: the header API clients send and the web's cookie.
  if (who === 'customer') return { ...ip, 'x-auth-token': customer.token, cookie: `sid=${customer.token}` };
  return { ...ip, ...(own ?? staff[who].headers) };
}

function mayPass(row: Row, who: Caller): boolean {
  if (row.permission === 'public') return true;
  if (who === 'guest' || who === 'forged' || who === 'customer') return false;
  if (who === 'unenrolledOwner') return row.permission === 'self';
  return ROLE_PERMISSIONS[who].includes(row.permission);
}

/** Rows every back-office write adds to: a refused request must add none. */
async function writes() {
  const k = t.db.kysely;
  const count = async (table: 'audit_log' | 'products' | 'staff' | 'stock_movements') =>
    Number(
      (
        await k
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { audit: await count('audit_log'), products: await count('products'), staff: await count('staff'), movements: await count('stock_movements') };
}

/** What a refused caller must never see. */
function secrets(): string[] {
  return [product.title, product.slug, product.skus[0].code, target.email, ...STAFF_CALLERS.map((r) => staff[r].email)];
}

async function runRow(row: Row) {
  for (const who of CALLERS) {
    const staffMember = who === 'guest' || who === 'forged' || who === 'customer' ? null : staff[who];
    let own: Record<string, string> | undefined;
    if (row.ownSession && staffMember) {
      const s = await t.app.staff.createSession(staffMember.id, { ip: 'test', userAgent: 'admin-authz' });
      own = { cookie: `admin_sid=${s.token}` };
    }
    const before = await writes();
    const c = row.call(who);
    const res = await t.api(c.path, { method: c.method, json: c.json, headers: headersOf(who, own) });
    const label = `${row.op} as ${who}: ${res.status} ${res.text.slice(0, 200)}`;
    if (mayPass(row, who)) {
      expect(row.through, label).toContain(res.status);
    } else {
      const code =
        who === 'guest' || who === 'forged' || who === 'customer' ? 'unauthorized' : who === 'unenrolledOwner' ? 'two_factor_enrolment_required' : 'forbidden';
      expectApiError(res, code === 'unauthorized' ? 401 : 403, code);
      for (const s of secrets()) expect(res.text, `${label} carries the shop's data`).not.toContain(s);
      expect(res.headers.get('set-cookie'), label).toBeNull();
      expect(await writes(), `${label} wrote something`).toEqual(before);
    }
    await row.check?.(res, who);
    if (own && mayPass(row, who)) {
      // Signed out: that session is over, the member's other session is not.
      expect((await t.api('/api/admin/session', { headers: own })).status, label).toBe(401);
      expect((await t.api('/api/admin/session', { headers: headersOf(who) })).status, label).toBe(200);
    }
  }
}

describe('the back office role matrix', () => {
  it('every /api/admin operation of the OpenAPI document has a row, and every row an operation', async () => {
    const doc = (await t.api('/api/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const ops = Object.entries(doc.paths)
      .filter(([p]) => p.startsWith('/api/admin'))
      .flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`));
    const rows = ROWS.map((r) => r.op);
    expect(
      ops.filter((op) => !rows.includes(op)),
      'back office operations without a row in admin-authz.test.ts (add one with the permission the route needs)',
    ).toEqual([]);
    expect(
      rows.filter((op) => !ops.includes(op)),
      'rows for operations the document no longer has',
    ).toEqual([]);
    expect(new Set(rows).size).toBe(rows.length);
  });

  for (const row of ROWS) {
    const roles = STAFF_CALLERS.filter((who) => mayPass(row, who)).join(', ');
    it(`${row.op} (${row.permission}): ${row.permission === 'public' ? 'the same 401 for bad credentials whoever asks' : `only ${roles} get through`}`, () =>
      runRow(row));
  }

  it('refuses a caller without a staff session before it looks at the request (401, not a validation answer)', async () => {
    // A malformed id or body must not tell a guest or a customer anything about the route:
    // the session is checked first.
    // (plugins/admin-auth.ts checks in preValidation, before Fastify validates the input.)
    const probes: Call[] = [
      { method: 'GET', path: '/api/admin/products/not-a-number' },
      { method: 'POST', path: '/api/admin/products', json: {} },
      { method: 'PATCH', path: `/api/admin/staff/${target.id}`, json: { role: 'emperor' } },
      { method: 'GET', path: '/api/admin/audit?size=100000' },
    ];
    for (const who of ['guest', 'customer'] as const) {
      for (const p of probes) {
        const res = await t.api(p.path, { method: p.method, json: p.json, headers: headersOf(who) });
        expectApiError(res, 401, 'unauthorized');
      }
    }
  });
});

describe('the back office in the OpenAPI document', () => {
  it('tags every /api/admin operation admin and declares the staff cookie on all but signing in and accepting an invitation', async () => {
    const doc = (await t.api('/api/openapi.json')).body as { paths: Record<string, Record<string, any>>; components: any };
    expect(doc.components.securitySchemes.adminSession).toEqual({ type: 'apiKey', in: 'cookie', name: 'admin_sid' });
    const admin = Object.entries(doc.paths)
      .filter(([p]) => p.startsWith('/api/admin'))
      .flatMap(([p, item]) => Object.entries(item).map(([m, op]) => [`${m.toUpperCase()} ${p}`, op] as const));
    expect(admin.length).toBeGreaterThan(0);
    for (const [key, op] of admin) {
      expect(op.tags, key).toContain('admin');
      const schemes = (op.security ?? []).flatMap((s: Record<string, unknown>) => Object.keys(s));
      // Signing in, and choosing a password with an invitation's link, come before any session.
      if (key === 'POST /api/admin/session' || key === 'POST /api/admin/invite') expect(schemes, key).not.toContain('adminSession');
      else expect(schemes, key).toContain('adminSession');
    }
  });

  it('answers an unknown /api/admin path with a 404 in the one error shape, signed in or not', async () => {
    for (const headers of [headersOf('guest'), headersOf('owner')]) {
      expectApiError(await t.api('/api/admin/no-such-thing', { headers }), 404, 'not_found');
      expectApiError(await t.api('/api/admin/products/1/no-such-thing', { method: 'POST', json: {}, headers }), 404, 'not_found');
      expectApiError(await t.api('/api/admin/reference', { method: 'DELETE', headers }), 404, 'not_found');
    }
  });
});
