import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type TestCustomer, uniqueIp } from './helpers/accounts.ts';
import { ADDRESS, checkout, checkoutBody, plainSkus, setStock } from './helpers/checkout.ts';
import { pngBytes, uploadForm } from './helpers/files.ts';
import { type ApiResponse, startTestApp, type TestApp } from './helpers/test-app.ts';

// The authorization matrix: every endpoint that touches a customer's data, called
// by a guest, by another customer and by the owner. Only the owner gets through; the others
// get what the API defines (401 for a guest where a session is required, 404 — as for
// something that does not exist — for data that is not theirs); nothing the others do
// changes the owner's data, and no answer to them carries the owner's personal data.
//
// Which endpoints are customer data is read from the OpenAPI document: every operation
// tagged customer, sales, checkout or files (or declaring the authToken scheme) must have a
// row below or an exemption with its reason, so a new endpoint fails this test until
// someone decides who may call it. A second net: no operation outside the matrix may
// answer a guest 401 "sign in" while answering a customer.

const CUSTOMER_DATA_TAGS = ['customer', 'sales', 'checkout', 'files'];
/** Customer data under another tag. */
const ALSO_CUSTOMER_DATA = ['GET /api/emails/subscriptions'];

/** Tagged as customer data, but not one customer's data: why each needs no row. */
const EXEMPT: Record<string, string> = {
  'POST /api/signup': 'creates an account; nobody owns anything yet',
  'POST /api/signin/customers': 'opens a session with a password; limits are tested in accounts-sessions.test.ts',
  'POST /api/forgot': 'answers the same whether or not the address has an account (accounts-reset.test.ts)',
  'POST /api/forgot/reset': 'the mailed single-use token is the credential (accounts-reset.test.ts)',
  'POST /api/files': 'creates a file owned by the caller (a guest’s has no owner)',
  'POST /api/files/multipart/start': 'creates an upload owned by the caller',
  'POST /api/files/from-url': 'creates an import task owned by the caller',
  'GET /api/checkouts/payment-methods': 'the shop’s own setting, the same answer for everyone; nobody’s data',
};

type Who = 'guest' | 'other' | 'owner';

interface Ctx {
  owner: TestCustomer;
  other: TestCustomer;
  /** Whose request it is: headers that make it theirs. */
  as(who: Who): Record<string, string>;
  [k: string]: any;
}

interface Call {
  method: string;
  path: string;
  json?: unknown;
  body?: RequestInit['body'];
  headers?: Record<string, string>;
}

interface Row {
  /** "METHOD /path" as in the OpenAPI document. */
  op: string;
  /** Makes what the row needs, owned by ctx.owner. */
  given?: (ctx: Ctx) => Promise<void>;
  /** The request; the same for all three callers unless it depends on who asks. */
  call: (ctx: Ctx, who: Who) => Call;
  /** Statuses each caller may get. */
  expect: Record<Who, number[]>;
  /** The owner's data as the owner (or the database) sees it: must not change when others call. */
  snapshot?: (ctx: Ctx) => Promise<unknown>;
  /** More checks on an answer. */
  check?: (res: ApiResponse, who: Who, ctx: Ctx) => void | Promise<void>;
  /** The owner is a guest who holds the order's access token, not a customer. */
  guestOwner?: boolean;
}

const MB = 1024 * 1024;
let t: TestApp;
let source: http.Server;
let sourceUrl: string;
let skuCursor = 0;

beforeAll(async () => {
  source = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(pngBytes(3, 3)));
  await new Promise<void>((r) => source.listen(0, '127.0.0.1', () => r()));
  const port = (source.address() as AddressInfo).port;
  sourceUrl = `http://127.0.0.1:${port}/pic.png`;
  t = await startTestApp({ config: { trustProxy: true }, files: { testOnlyAllowAddresses: [`127.0.0.1:${port}`] } });
});
afterAll(async () => {
  await t?.close();
  await new Promise((r) => source?.close(r));
});

// ---- what a row can be given -------------------------------------------------------------------

async function ok(res: Promise<ApiResponse> | ApiResponse, what: string): Promise<ApiResponse> {
  const r = await res;
  if (r.status >= 300) throw new Error(`${what} failed: ${r.status} ${r.text.slice(0, 300)}`);
  return r;
}

async function freshSku() {
  const [sku] = await plainSkus(t.db.kysely, 1, 20 + (skuCursor++ % 150));
  await setStock(t.db.kysely, sku.id, [50]);
  return sku;
}

const given = {
  async address(ctx: Ctx) {
    ctx.address = (
      await ok(
        t.api('/api/addresses', { method: 'POST', json: { ...ADDRESS, addressLine: ctx.secretLine, label: 'Home' }, headers: ctx.as('owner') }),
        'address',
      )
    ).body;
  },
  async order(ctx: Ctx, paymentMethod: 'cod' | 'card' | 'later' = 'cod') {
    const sku = await freshSku();
    const res = await ok(
      checkout(t, checkoutBody([{ skuCode: sku.code, quantity: 1 }], { paymentMethod, note: ctx.secretNote, contact: undefined }), ctx.as('owner')),
      `${paymentMethod} order`,
    );
    ctx.order = res.body;
  },
  async guestOrder(ctx: Ctx) {
    const sku = await freshSku();
    const res = await ok(
      checkout(
        t,
        checkoutBody([{ skuCode: sku.code, quantity: 1 }], {
          note: ctx.secretNote,
          contact: { name: ctx.owner.fullName, mobile: ctx.owner.mobile, email: ctx.owner.email },
        }),
        { 'x-forwarded-for': uniqueIp() },
      ),
      'guest order',
    );
    ctx.order = res.body;
  },
  async file(ctx: Ctx, who: Who = 'owner') {
    const res = await ok(
      t.api('/api/files', {
        method: 'POST',
        body: uploadForm({ bytes: pngBytes(), name: `${ctx.secretWord}.png`, contentType: 'image/png' }),
        headers: ctx.as(who),
      }),
      'file',
    );
    if (who === 'owner') ctx.file = res.body;
    else ctx.othersFile = res.body;
  },
  async wish(ctx: Ctx) {
    const sku = await freshSku();
    const item = await t.db.kysely.selectFrom('skus').select('product_id').where('id', '=', sku.id).executeTakeFirstOrThrow();
    ctx.wish = (
      await ok(
        t.api('/api/wishlists/items', { method: 'POST', json: { itemId: item.product_id, skuCode: sku.code, action: 'add' }, headers: ctx.as('owner') }),
        'wish',
      )
    ).body;
  },
  async upload(ctx: Ctx) {
    ctx.upload = (
      await ok(
        t.api('/api/files/multipart/start', {
          method: 'POST',
          json: { filename: `${ctx.secretWord}.png`, size: 26 * MB, type: 'image' },
          headers: ctx.as('owner'),
        }),
        'multipart start',
      )
    ).body;
  },
  async task(ctx: Ctx) {
    const task = (await ok(t.api('/api/files/from-url', { method: 'POST', json: { sourceUrl, type: 'image' }, headers: ctx.as('owner') }), 'import')).body;
    await expect
      .poll(async () => (await t.api(`/api/files/from-url/${task.token}`, { headers: ctx.as('owner') })).body.status, { timeout: 10_000 })
      .toBe('success');
    ctx.task = task;
  },
};

const saleState = async (ctx: Ctx) =>
  t.db.kysely
    .selectFrom('sales')
    .select(['status', 'payment_status', 'stock_held', 'updated_at'])
    .where('invoice_id', '=', ctx.order.invoiceId)
    .executeTakeFirstOrThrow();
const profile = async (ctx: Ctx) => {
  const r = await t.api('/api/customers', { headers: ctx.as('owner') });
  return { status: r.status, body: r.body };
};
const listOf = (res: ApiResponse) => (res.body?.list ?? []) as unknown[];

// ---- the matrix ----------------------------------------------------------------------------------

const ROWS: Row[] = [
  // The profile
  {
    op: 'GET /api/customers',
    call: () => ({ method: 'GET', path: '/api/customers' }),
    expect: { guest: [401], other: [200], owner: [200] },
    check: (res, who, ctx) => {
      if (res.status === 200) expect(res.body.email).toBe((who === 'owner' ? ctx.owner : ctx.other).email);
    },
  },
  {
    op: 'PUT /api/customers',
    call: (ctx, who) => ({
      method: 'PUT',
      path: '/api/customers',
      json: { fullName: 'Renamed Person', mobile: (who === 'owner' ? ctx.owner : ctx.other).mobile },
    }),
    expect: { guest: [401], other: [200], owner: [200] },
    snapshot: profile,
  },
  {
    op: 'PATCH /api/customers/images',
    given: (ctx) => given.file(ctx),
    call: (ctx) => ({ method: 'PATCH', path: '/api/customers/images', json: { uuid: ctx.file.uuid } }),
    expect: { guest: [401], other: [404], owner: [200] },
    snapshot: profile,
  },
  {
    op: 'POST /api/auth/signout',
    call: () => ({ method: 'POST', path: '/api/auth/signout' }),
    // A guest has no session to end: the answer is the same "signed out".
    expect: { guest: [200, 401], other: [200], owner: [200] },
    snapshot: async (ctx) => (await t.api('/api/customers', { headers: ctx.as('owner') })).status,
  },
  {
    op: 'POST /api/auth/change',
    call: (ctx, who) => ({
      method: 'POST',
      path: '/api/auth/change',
      json: { currentPassword: who === 'other' ? ctx.other.password : ctx.owner.password, newPassword: 'another-secret-1' },
    }),
    expect: { guest: [401], other: [200], owner: [200] },
    snapshot: async (ctx) => (await t.api('/api/customers', { headers: ctx.as('owner') })).status,
  },
  // Addresses
  {
    op: 'POST /api/addresses',
    given: (ctx) => given.address(ctx),
    call: () => ({ method: 'POST', path: '/api/addresses', json: { ...ADDRESS, addressLine: 'House 9, Road 2', label: 'Office' } }),
    expect: { guest: [401], other: [201], owner: [201] },
    snapshot: async (ctx) => listOf(await t.api('/api/addresses/search', { method: 'POST', json: {}, headers: ctx.as('owner') })),
  },
  {
    op: 'POST /api/addresses/search',
    given: (ctx) => given.address(ctx),
    call: () => ({ method: 'POST', path: '/api/addresses/search', json: {} }),
    expect: { guest: [401], other: [200], owner: [200] },
    check: (res, who, ctx) => {
      if (who === 'other') expect(listOf(res)).toEqual([]);
      if (who === 'owner') expect(listOf(res).map((a: any) => a.id)).toEqual([ctx.address.id]);
    },
  },
  {
    op: 'GET /api/addresses/{id}',
    given: (ctx) => given.address(ctx),
    call: (ctx) => ({ method: 'GET', path: `/api/addresses/${ctx.address.id}` }),
    expect: { guest: [401], other: [404], owner: [200] },
  },
  {
    op: 'PUT /api/addresses/{id}',
    given: (ctx) => given.address(ctx),
    call: (ctx) => ({ method: 'PUT', path: `/api/addresses/${ctx.address.id}`, json: { ...ADDRESS, addressLine: 'Changed by someone', label: 'Hacked' } }),
    expect: { guest: [401], other: [404], owner: [200] },
    snapshot: async (ctx) => (await t.api(`/api/addresses/${ctx.address.id}`, { headers: ctx.as('owner') })).body,
  },
  {
    op: 'DELETE /api/addresses/{id}',
    given: (ctx) => given.address(ctx),
    call: (ctx) => ({ method: 'DELETE', path: `/api/addresses/${ctx.address.id}` }),
    expect: { guest: [401], other: [404], owner: [204] },
    snapshot: async (ctx) => (await t.api(`/api/addresses/${ctx.address.id}`, { headers: ctx.as('owner') })).status,
  },
  // Wishlist
  {
    op: 'POST /api/wishlists/items',
    given: (ctx) => given.wish(ctx),
    // Removing the owner's item: others can only ever touch their own wishlist.
    call: (ctx) => ({ method: 'POST', path: '/api/wishlists/items', json: { itemId: ctx.wish.item.itemId, skuCode: ctx.wish.item.skuCode, action: 'remove' } }),
    expect: { guest: [401], other: [200], owner: [200] },
    snapshot: async (ctx) => listOf(await t.api('/api/wishlists/items/search', { method: 'POST', json: {}, headers: ctx.as('owner') })),
  },
  {
    op: 'POST /api/wishlists/items/search',
    given: (ctx) => given.wish(ctx),
    call: () => ({ method: 'POST', path: '/api/wishlists/items/search', json: {} }),
    expect: { guest: [401], other: [200], owner: [200] },
    check: (res, who, ctx) => {
      if (who === 'other') expect(listOf(res)).toEqual([]);
      if (who === 'owner') expect(listOf(res).map((w: any) => w.id)).toEqual([ctx.wish.item.id]);
    },
  },
  {
    op: 'DELETE /api/wishlists/items/{id}',
    given: (ctx) => given.wish(ctx),
    call: (ctx) => ({ method: 'DELETE', path: `/api/wishlists/items/${ctx.wish.item.id}` }),
    expect: { guest: [401], other: [404], owner: [200, 204] },
    snapshot: async (ctx) => listOf(await t.api('/api/wishlists/items/search', { method: 'POST', json: {}, headers: ctx.as('owner') })),
  },
  // Newsletter status
  {
    op: 'GET /api/emails/subscriptions',
    given: async (ctx) => {
      await ok(t.api('/api/emails/subscriptions', { method: 'POST', json: { email: ctx.owner.email }, headers: ctx.as('owner') }), 'subscribe');
    },
    call: () => ({ method: 'GET', path: '/api/emails/subscriptions' }),
    expect: { guest: [401], other: [200], owner: [200] },
    check: (res, who) => {
      if (who === 'other') expect(res.body).toEqual({ subscribed: false, subscription: null });
      if (who === 'owner') expect(res.body.subscribed).toBe(true);
    },
  },
  // Orders and bookings
  {
    op: 'POST /api/sales',
    given: (ctx) => given.order(ctx),
    call: () => ({ method: 'POST', path: '/api/sales', json: {} }),
    expect: { guest: [200, 401], other: [200], owner: [200] },
    check: (res, who, ctx) => {
      if (who !== 'owner' && res.status === 200) expect(listOf(res)).toEqual([]);
      if (who === 'owner') expect(listOf(res).map((s: any) => s.invoiceId)).toEqual([ctx.order.invoiceId]);
    },
  },
  {
    op: 'GET /api/sales',
    given: (ctx) => given.order(ctx),
    call: (ctx) => ({ method: 'GET', path: `/api/sales?id=${ctx.order.saleId}` }),
    expect: { guest: [404], other: [404], owner: [200] },
  },
  {
    op: 'GET /api/sales/invoice',
    given: (ctx) => given.order(ctx),
    call: (ctx) => ({ method: 'GET', path: `/api/sales/invoice?id=${ctx.order.saleId}` }),
    expect: { guest: [404], other: [404], owner: [200] },
  },
  {
    op: 'PATCH /api/sales',
    given: (ctx) => given.order(ctx, 'later'),
    call: (ctx) => ({ method: 'PATCH', path: `/api/sales?id=${ctx.order.saleId}`, json: { status: 'CANCELLED' } }),
    expect: { guest: [404], other: [404], owner: [200] },
    snapshot: saleState,
  },
  {
    op: 'PATCH /api/sales/payments/attachments',
    given: async (ctx) => {
      await given.order(ctx, 'later');
      await given.file(ctx);
    },
    call: (ctx) => ({
      method: 'PATCH',
      path: '/api/sales/payments/attachments',
      json: { id: ctx.order.saleId, fileUuid: ctx.file.uuid, note: 'deposit slip' },
    }),
    expect: { guest: [404], other: [404], owner: [200] },
    snapshot: async (ctx) => ({
      sale: await saleState(ctx),
      attachments: (await t.api(`/api/sales?id=${ctx.order.saleId}`, { headers: ctx.as('owner') })).body.attachments,
    }),
  },
  {
    op: 'GET /api/qrs',
    given: (ctx) => given.order(ctx),
    call: (ctx) => ({ method: 'GET', path: `/api/qrs?invoiceId=${ctx.order.invoiceId}` }),
    expect: { guest: [404], other: [404], owner: [200] },
  },
  // Checkout
  {
    op: 'POST /api/checkouts',
    given: (ctx) => given.address(ctx),
    // Ordering to the owner's saved address: nobody else may use it (or read it back).
    call: (ctx) => ({
      method: 'POST',
      path: '/api/checkouts',
      json: { items: [{ skuCode: ctx.sku.code, quantity: 1 }], paymentMethod: 'cod', deliveryMethod: 'home_delivery', addressId: ctx.address.id },
    }),
    expect: { guest: [400, 401, 404], other: [400, 404], owner: [201] },
  },
  {
    op: 'POST /api/checkouts/payments',
    given: (ctx) => given.order(ctx, 'card'),
    call: (ctx) => ({ method: 'POST', path: `/api/checkouts/payments?invoiceId=${ctx.order.invoiceId}` }),
    expect: { guest: [404], other: [404], owner: [201] },
    snapshot: async (ctx) => ({
      sale: await saleState(ctx),
      sessions: (await t.db.kysely.selectFrom('payments').select('id').where('sale_id', '=', ctx.order.saleId).execute()).length,
    }),
  },
  {
    op: 'PATCH /api/checkouts/cancel',
    given: (ctx) => given.order(ctx, 'card'),
    call: (ctx) => ({ method: 'PATCH', path: `/api/checkouts/cancel?invoiceId=${ctx.order.invoiceId}`, json: {} }),
    expect: { guest: [404], other: [404], owner: [200] },
    snapshot: saleState,
  },
  {
    op: 'PATCH /api/checkouts/failure',
    given: (ctx) => given.order(ctx, 'card'),
    call: (ctx) => ({ method: 'PATCH', path: `/api/checkouts/failure?invoiceId=${ctx.order.invoiceId}`, json: {} }),
    expect: { guest: [404], other: [404], owner: [200] },
    snapshot: saleState,
  },
  {
    // Confirm needs no identity (decision 0018): it only records what the gateway confirms,
    // and answers the order's state, never its contents. Nobody has paid here, so nobody
    // gets it marked paid — not even the owner.
    op: 'PATCH /api/checkouts/confirm',
    given: (ctx) => given.order(ctx, 'card'),
    call: (ctx) => ({ method: 'PATCH', path: `/api/checkouts/confirm?invoiceId=${ctx.order.invoiceId}`, json: {} }),
    expect: { guest: [409], other: [409], owner: [409] },
    snapshot: saleState,
  },
  // Files
  {
    op: 'GET /api/files/{uuid}',
    given: (ctx) => given.file(ctx),
    call: (ctx) => ({ method: 'GET', path: `/api/files/${ctx.file.uuid}` }),
    expect: { guest: [404], other: [404], owner: [200] },
  },
  {
    op: 'GET /api/files/multipart/{uuid}',
    given: (ctx) => given.upload(ctx),
    call: (ctx) => ({ method: 'GET', path: `/api/files/multipart/${ctx.upload.uuid}` }),
    expect: { guest: [404], other: [404], owner: [200] },
  },
  {
    op: 'PUT /api/files/multipart/{uuid}/parts/{partNumber}',
    given: (ctx) => given.upload(ctx),
    call: (ctx) => ({
      method: 'PUT',
      path: new URL(ctx.upload.parts[0].url, t.baseUrl).pathname,
      body: new Uint8Array(ctx.upload.parts[0].size),
      headers: { 'content-type': 'application/octet-stream' },
    }),
    expect: { guest: [404], other: [404], owner: [200] },
    snapshot: async (ctx) => (await t.api(`/api/files/multipart/${ctx.upload.uuid}`, { headers: ctx.as('owner') })).body,
  },
  {
    op: 'POST /api/files/multipart/{uuid}/complete',
    given: (ctx) => given.upload(ctx),
    call: (ctx) => ({ method: 'POST', path: `/api/files/multipart/${ctx.upload.uuid}/complete` }),
    // The owner gets through to the upload itself, which still misses its parts.
    expect: { guest: [404], other: [404], owner: [400, 409] },
    snapshot: async (ctx) => (await t.api(`/api/files/multipart/${ctx.upload.uuid}`, { headers: ctx.as('owner') })).body,
  },
  {
    op: 'DELETE /api/files/multipart/{uuid}',
    given: (ctx) => given.upload(ctx),
    call: (ctx) => ({ method: 'DELETE', path: `/api/files/multipart/${ctx.upload.uuid}` }),
    expect: { guest: [404], other: [404], owner: [204] },
    snapshot: async (ctx) => (await t.api(`/api/files/multipart/${ctx.upload.uuid}`, { headers: ctx.as('owner') })).status,
  },
  {
    op: 'GET /api/files/from-url/{token}',
    given: (ctx) => given.task(ctx),
    call: (ctx) => ({ method: 'GET', path: `/api/files/from-url/${ctx.task.token}` }),
    expect: { guest: [404], other: [404], owner: [200] },
  },
  {
    op: 'GET /api/files/from-url/{token}/events',
    given: (ctx) => given.task(ctx),
    call: (ctx) => ({ method: 'GET', path: `/api/files/from-url/${ctx.task.token}/events` }),
    expect: { guest: [404], other: [404], owner: [200] },
  },
];

/** Guest orders: the "owner" is the browser holding the order's access token. */
const GUEST_ROWS: Row[] = [
  {
    op: 'GET /api/sales/invoice',
    guestOwner: true,
    given: (ctx) => given.guestOrder(ctx),
    call: (ctx) => ({ method: 'GET', path: `/api/sales/invoice?invoiceId=${ctx.order.invoiceId}` }),
    expect: { guest: [404], other: [404], owner: [200] },
  },
  {
    op: 'GET /api/sales',
    guestOwner: true,
    given: (ctx) => given.guestOrder(ctx),
    call: (ctx) => ({ method: 'GET', path: `/api/sales?invoiceId=${ctx.order.invoiceId}` }),
    expect: { guest: [404], other: [404], owner: [200] },
  },
  {
    op: 'POST /api/sales',
    guestOwner: true,
    given: (ctx) => given.guestOrder(ctx),
    call: () => ({ method: 'POST', path: '/api/sales', json: {} }),
    expect: { guest: [200, 401], other: [200], owner: [200] },
    check: (res, who, ctx) => {
      if (who !== 'owner' && res.status === 200) expect(listOf(res)).toEqual([]);
      if (who === 'owner') expect(listOf(res).map((s: any) => s.invoiceId)).toEqual([ctx.order.invoiceId]);
    },
  },
  {
    op: 'PATCH /api/sales',
    guestOwner: true,
    given: (ctx) => given.guestOrder(ctx),
    call: (ctx) => ({ method: 'PATCH', path: `/api/sales?id=${ctx.order.saleId}`, json: { status: 'CANCELLED' } }),
    expect: { guest: [404], other: [404], owner: [200] },
    snapshot: saleState,
  },
  {
    op: 'GET /api/qrs',
    guestOwner: true,
    given: (ctx) => given.guestOrder(ctx),
    call: (ctx) => ({ method: 'GET', path: `/api/qrs?invoiceId=${ctx.order.invoiceId}` }),
    expect: { guest: [404], other: [404], owner: [200] },
  },
];

// ---- running a row -------------------------------------------------------------------------------

async function newCtx(guestOwner = false): Promise<Ctx> {
  const word = randomBytes(6).toString('hex');
  const [owner, other] = await Promise.all([signUp(t, { fullName: `Owner ${word}` }), signUp(t)]);
  const ctx: Ctx = {
    owner,
    other,
    secretWord: `secret${word}`,
    secretLine: `House ${word}, Secret Road`,
    secretNote: `leave with neighbour ${word}`,
    sku: await freshSku(),
    as(who: Who) {
      if (who === 'other') return other.auth;
      // The guest's browser holds the token in its order_access cookie; API clients send the header.
      if (who === 'owner' && guestOwner)
        return {
          'x-order-token': ctx.order?.accessToken ?? '',
          cookie: `order_access=${ctx.order?.invoiceId}:${ctx.order?.accessToken}`,
          'x-forwarded-for': uniqueIp(),
        };
      if (who === 'owner') return owner.auth;
      return { 'x-forwarded-for': uniqueIp() };
    },
  };
  return ctx;
}

/** What only the owner's answers may contain. */
function secretsOf(ctx: Ctx, guestOwner: boolean): string[] {
  return [ctx.owner.fullName, ctx.owner.email, ctx.owner.mobile, ctx.secretLine, ctx.secretNote, ctx.secretWord, ...(guestOwner ? [] : [ctx.owner.token])];
}

async function runRow(row: Row) {
  const ctx = await newCtx(row.guestOwner);
  await row.given?.(ctx);
  const before = row.snapshot ? JSON.stringify(await row.snapshot(ctx)) : undefined;
  for (const who of ['guest', 'other', 'owner'] as const) {
    const c = row.call(ctx, who);
    const res = await t.api(c.path, { method: c.method, json: c.json, body: c.body, headers: { ...ctx.as(who), ...c.headers } });
    expect(row.expect[who], `${row.op} as ${who}: ${res.status} ${res.text.slice(0, 300)}`).toContain(res.status);
    if (who !== 'owner') {
      for (const secret of secretsOf(ctx, !!row.guestOwner)) expect(res.text, `${row.op} as ${who} leaks the owner's data`).not.toContain(secret);
      if (before !== undefined) expect(JSON.stringify(await row.snapshot!(ctx)), `${row.op} as ${who} changed the owner's data`).toBe(before);
    }
    await row.check?.(res, who, ctx);
  }
}

describe('authorization matrix: guest, another customer, the owner', () => {
  it('every customer-data operation of the OpenAPI document has a row or a stated exemption, and every row an operation', async () => {
    const doc = (await t.api('/api/openapi.json')).body as { paths: Record<string, Record<string, any>> };
    const ops: string[] = [];
    const customerData: string[] = [];
    for (const [p, item] of Object.entries(doc.paths)) {
      for (const [m, op] of Object.entries(item)) {
        const key = `${m.toUpperCase()} ${p}`;
        ops.push(key);
        const tagged = (op.tags ?? []).some((tag: string) => CUSTOMER_DATA_TAGS.includes(tag));
        const session = JSON.stringify(op.security ?? []).includes('authToken');
        if (tagged || session || ALSO_CUSTOMER_DATA.includes(key)) customerData.push(key);
      }
    }
    const covered = new Set([...ROWS.map((r) => r.op), ...Object.keys(EXEMPT)]);
    const missing = customerData.filter((k) => !covered.has(k));
    expect(missing, 'customer-data operations without a row in authz-matrix.test.ts (add one, or an exemption with its reason)').toEqual([]);
    const stale = [...covered, ...GUEST_ROWS.map((r) => r.op)].filter((k) => !ops.includes(k));
    expect(stale, 'rows for operations the document no longer has').toEqual([]);
  });

  it('no other operation asks a guest to sign in', async () => {
    const doc = (await t.api('/api/openapi.json')).body as { paths: Record<string, Record<string, any>> };
    const covered = new Set([...ROWS.map((r) => r.op), ...Object.keys(EXEMPT), ...ALSO_CUSTOMER_DATA]);
    const customer = await signUp(t);
    const needsSession: string[] = [];
    for (const [p, item] of Object.entries(doc.paths)) {
      for (const m of Object.keys(item)) {
        const key = `${m.toUpperCase()} ${p}`;
        if (covered.has(key) || !p.startsWith('/api/')) continue;
        const url = p.replace(/\{[^}]+\}/g, '1');
        const init = { method: m.toUpperCase(), ...(m === 'get' || m === 'delete' ? {} : { json: {} }) };
        const [asGuest, asCustomer] = [
          await t.api(url, { ...init, headers: { 'x-forwarded-for': uniqueIp() } }),
          await t.api(url, { ...init, headers: customer.auth }),
        ];
        if (asGuest.status === 401 && asCustomer.status !== 401) needsSession.push(key);
      }
    }
    expect(needsSession, 'operations that need a session but have no row in the matrix').toEqual([]);
  });

  for (const row of ROWS) {
    it(`${row.op}: only the owner gets through (guest ${row.expect.guest.join('/')}, another customer ${row.expect.other.join('/')}, owner ${row.expect.owner.join('/')})`, () =>
      runRow(row));
  }
  for (const row of GUEST_ROWS) {
    it(`${row.op} on a guest's order: only the browser holding its access token gets through`, () => runRow(row));
  }
});

describe('one customer’s things used in another’s request', () => {
  it('a customer cannot attach another customer’s file to their own booking, nor make it their picture', async () => {
    const ctx = await newCtx();
    await given.order(ctx, 'later');
    await given.file(ctx, 'other');
    const attach = await t.api('/api/sales/payments/attachments', {
      method: 'PATCH',
      json: { id: ctx.order.saleId, fileUuid: ctx.othersFile.uuid },
      headers: ctx.as('owner'),
    });
    expect([400, 404]).toContain(attach.status);
    const picture = await t.api('/api/customers/images', { method: 'PATCH', json: { uuid: ctx.othersFile.uuid }, headers: ctx.as('owner') });
    expect(picture.status).toBe(404);
  });

  it('a customer’s order cannot be opened with a guest order’s access token', async () => {
    const ctx = await newCtx();
    await given.order(ctx);
    const mine = ctx.order;
    await given.guestOrder(ctx);
    const res = await t.api(`/api/sales?id=${mine.saleId}`, { headers: { 'x-order-token': ctx.order.accessToken } });
    expect(res.status).toBe(404);
  });
});
