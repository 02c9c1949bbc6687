import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A local stand-in for Pathao Courier's merchant API, as its integration documentation
// describes it, so the adapter is tested over real HTTP without the internet:
//   POST /aladdin/api/v1/issue-token   password grant (client_id, client_secret, username, password) or
//                                      refresh_token grant → { token_type: "Bearer", expires_in, access_token, refresh_token };
//                                      wrong credentials → 401. A refresh token is good once (it rotates).
//   every other call                   Authorization: Bearer <access_token>; unknown or expired → 401
//   GET  /aladdin/api/v1/city-list, /cities/{id}/zone-list, /zones/{id}/area-list → { code: 200, data: { data: [...] } }
//   POST /aladdin/api/v1/merchant/price-plan → { code: 200, data: { price, discount, …, final_price } }
//   POST /aladdin/api/v1/orders        → { code: 200, data: { consignment_id, merchant_order_id, order_status: "Pending", delivery_fee } }
//                                      or 422 { message, type: "error", code: 422, errors: { field: [message] } }
//   GET  /aladdin/api/v1/orders/{consignment_id}/info → { code: 200, data: { consignment_id, order_status, order_status_slug, … } }
// The documented rules are enforced: recipient_address at least 10 characters, item_weight
// 0.5–10 kg, delivery_type 48 or 12, item_type 1 or 2, amount_to_collect an integer. The
// phone rule (11 digits, 01…) and the 422 shape are not in the documentation: they are what
// Pathao's API (Laravel) is seen to answer. Prices are this stand-in's own small tariff.
// A test plays the rider with advance() and Pathao's webhook with webhookRequest().

export type PathaoSlug =
  | 'Pending'
  | 'Pickup_Requested'
  | 'Assigned_for_Pickup'
  | 'Picked'
  | 'Pickup_Failed'
  | 'Pickup_Cancelled'
  | 'At_the_Sorting_HUB'
  | 'In_Transit'
  | 'Received_at_Last_Mile_HUB'
  | 'Assigned_for_Delivery'
  | 'Delivered'
  | 'Partial_Delivery'
  | 'Return'
  | 'Delivery_Failed'
  | 'On_Hold'
  | 'Payment_Invoice'
  | 'Paid_Return'
  | 'Exchange';

/** The webhook event the panel documents for each status. */
const EVENT_OF: Record<PathaoSlug, string> = {
  Pending: 'order.created',
  Pickup_Requested: 'order.pickup-requested',
  Assigned_for_Pickup: 'order.assigned-for-pickup',
  Picked: 'order.picked',
  Pickup_Failed: 'order.pickup-failed',
  Pickup_Cancelled: 'order.pickup-cancelled',
  At_the_Sorting_HUB: 'order.at-the-sorting-hub',
  In_Transit: 'order.in-transit',
  Received_at_Last_Mile_HUB: 'order.received-at-last-mile-hub',
  Assigned_for_Delivery: 'order.assigned-for-delivery',
  Delivered: 'order.delivered',
  Partial_Delivery: 'order.partial-delivery',
  Return: 'order.returned',
  Delivery_Failed: 'order.delivery-failed',
  On_Hold: 'order.on-hold',
  Payment_Invoice: 'order.paid',
  Paid_Return: 'order.paid-return',
  Exchange: 'order.exchanged',
};

export interface PathaoOrder {
  consignment_id: string;
  merchant_order_id: string | null;
  store_id: number;
  body: Record<string, unknown>;
  slug: PathaoSlug;
  delivery_fee: number;
  collected_amount: number | null;
  updated_at: string;
}

export interface PathaoStandIn {
  url: string;
  clientId: string;
  clientSecret: string;
  username: string;
  password: string;
  storeId: number;
  webhookSecret: string;
  orders: Map<string, PathaoOrder>;
  requests: { method: string; path: string; headers: http.IncomingHttpHeaders; body: unknown }[];
  /** issue-token requests answered with a token, by grant. */
  issued: { password: number; refresh_token: number };
  /** Seconds an access token lives (Pathao's example: 432000); short in tests. */
  tokenTtlSeconds: number;
  down: boolean;
  delayMs: number;
  /** Forgets every access token (refresh tokens stay good), as if Pathao revoked them. */
  revokeAccessTokens(): void;
  advance(consignmentId: string, slug: PathaoSlug, opts?: { collectedAmount?: number }): PathaoOrder;
  /** The request Pathao would POST to the callback URL for this order's current status. */
  webhookRequest(consignmentId: string, opts?: { secret?: string | null }): { headers: Record<string, string>; body: string };
  /** The panel's integration check. */
  integrationRequest(opts?: { secret?: string | null }): { headers: Record<string, string>; body: string };
  close(): Promise<void>;
}

const CITIES = [
  { city_id: 1, city_name: 'Dhaka' },
  { city_id: 2, city_name: 'Chittagong' },
  { city_id: 4, city_name: 'Rajshahi' },
];
const ZONES: Record<number, { zone_id: number; zone_name: string }[]> = {
  1: [
    { zone_id: 52, zone_name: 'Adabor' },
    { zone_id: 298, zone_name: '60 feet' },
    { zone_id: 1070, zone_name: 'Abdullahpur Uttara' },
  ],
  2: [{ zone_id: 420, zone_name: 'Agrabad' }],
  4: [{ zone_id: 610, zone_name: 'Boalia' }],
};
const AREAS: Record<number, { area_id: number; area_name: string; home_delivery_available: boolean; pickup_available: boolean }[]> = {
  52: [
    { area_id: 37, area_name: ' Bonolota', home_delivery_available: true, pickup_available: true },
    { area_id: 3, area_name: ' Road 03', home_delivery_available: true, pickup_available: false },
  ],
};
/** The stand-in's store sits in Dhaka. */
const STORE_CITY = 1;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The stand-in's tariff, in taka: 60 inside the store's city, 110 outside, for the first kg; 15 per further kg or part. */
export function standInPrice(cityId: number, weightKg: number): number {
  const base = cityId === STORE_CITY ? 60 : 110;
  return base + Math.max(0, Math.ceil(weightKg - 1)) * 15;
}

export async function startPathaoStandIn(
  opts: { tokenTtlSeconds?: number; now?: () => number; storeId?: number; webhookSecret?: string; port?: number } = {},
): Promise<PathaoStandIn> {
  const now = opts.now ?? Date.now;
  const accessTokens = new Map<string, number>(); // token → expiry (ms)
  const refreshTokens = new Set<string>();
  const orders = new Map<string, PathaoOrder>();
  const requests: PathaoStandIn['requests'] = [];
  const storeId = opts.storeId ?? 130820;

  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const invalid = (res: http.ServerResponse, errors: Record<string, string[]>) =>
    json(res, 422, { message: 'Please fix the given errors', type: 'error', code: 422, errors });
  const stamp = () => new Date(now()).toISOString().slice(0, 19).replace('T', ' ');

  function issue() {
    const access = `pathao-at-${randomBytes(12).toString('hex')}`;
    const refresh = `pathao-rt-${randomBytes(12).toString('hex')}`;
    accessTokens.set(access, now() + stand.tokenTtlSeconds * 1000);
    refreshTokens.add(refresh);
    return { token_type: 'Bearer', expires_in: stand.tokenTtlSeconds, access_token: access, refresh_token: refresh };
  }

  function locationErrors(b: Record<string, unknown>, errors: Record<string, string[]>) {
    const city = Number(b.recipient_city);
    const zone = Number(b.recipient_zone);
    if (!CITIES.some((c) => c.city_id === city)) errors.recipient_city = ['The selected recipient city is invalid.'];
    else if (!(ZONES[city] ?? []).some((z) => z.zone_id === zone)) errors.recipient_zone = ['The selected recipient zone is invalid.'];
    if (b.recipient_area !== undefined && !(AREAS[zone] ?? []).some((a) => a.area_id === Number(b.recipient_area))) {
      errors.recipient_area = ['The selected recipient area is invalid.'];
    }
    const w = Number(b.item_weight);
    if (!Number.isFinite(w) || w < 0.5 || w > 10) errors.item_weight = ['The item weight must be between 0.5 and 10.'];
    if (Number(b.store_id) !== storeId) errors.store_id = ['The selected store id is invalid.'];
    if (![48, 12].includes(Number(b.delivery_type))) errors.delivery_type = ['The selected delivery type is invalid.'];
    if (![1, 2].includes(Number(b.item_type))) errors.item_type = ['The selected item type is invalid.'];
  }

  const server = http.createServer(async (req, res) => {
    const u = new URL(req.url ?? '/', 'http://stand-in');
    const text = req.method === 'POST' ? await readBody(req) : '';
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    requests.push({ method: req.method ?? 'GET', path: u.pathname, headers: req.headers, body });
    if (stand.delayMs > 0) await sleep(stand.delayMs);
    if (stand.down) return json(res, 500, { message: 'Server Error' });
    const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    const path = u.pathname;

    if (req.method === 'POST' && path === '/aladdin/api/v1/issue-token') {
      if (b.client_id !== stand.clientId || b.client_secret !== stand.clientSecret) {
        return json(res, 401, { message: 'Client authentication failed', type: 'error', code: 401 });
      }
      if (b.grant_type === 'password') {
        if (b.username !== stand.username || b.password !== stand.password) {
          return json(res, 401, { message: 'The user credentials were incorrect.', type: 'error', code: 401 });
        }
        stand.issued.password++;
        return json(res, 200, issue());
      }
      if (b.grant_type === 'refresh_token') {
        if (typeof b.refresh_token !== 'string' || !refreshTokens.delete(b.refresh_token)) {
          return json(res, 401, { message: 'The refresh token is invalid.', type: 'error', code: 401 });
        }
        stand.issued.refresh_token++;
        return json(res, 200, issue());
      }
      return json(res, 400, { message: 'The authorization grant type is not supported.', type: 'error', code: 400 });
    }

    const bearer = req.headers.authorization?.match(/^Bearer (\S+)$/)?.[1];
    const expiry = bearer ? accessTokens.get(bearer) : undefined;
    if (expiry === undefined || expiry <= now()) return json(res, 401, { message: 'Unauthorized', type: 'error', code: 401 });

    if (req.method === 'GET' && path === '/aladdin/api/v1/city-list') {
      return json(res, 200, { message: 'City successfully fetched.', type: 'success', code: 200, data: { data: CITIES } });
    }
    let m = path.match(/^\/aladdin\/api\/v1\/cities\/(\d+)\/zone-list$/);
    if (req.method === 'GET' && m)
      return json(res, 200, { message: 'Zone list fetched.', type: 'success', code: 200, data: { data: ZONES[Number(m[1])] ?? [] } });
    m = path.match(/^\/aladdin\/api\/v1\/zones\/(\d+)\/area-list$/);
    if (req.method === 'GET' && m)
      return json(res, 200, { message: 'Area list fetched.', type: 'success', code: 200, data: { data: AREAS[Number(m[1])] ?? [] } });

    if (req.method === 'POST' && path === '/aladdin/api/v1/merchant/price-plan') {
      const errors: Record<string, string[]> = {};
      locationErrors(b, errors);
      if (Object.keys(errors).length) return invalid(res, errors);
      const price = standInPrice(Number(b.recipient_city), Number(b.item_weight));
      return json(res, 200, {
        message: 'price',
        type: 'success',
        code: 200,
        data: { price, discount: 0, promo_discount: 0, plan_id: 69, cod_enabled: 1, cod_percentage: 0.01, additional_charge: 0, final_price: price },
      });
    }

    if (req.method === 'POST' && path === '/aladdin/api/v1/orders') {
      const errors: Record<string, string[]> = {};
      if (typeof b.recipient_name !== 'string' || !b.recipient_name.trim()) errors.recipient_name = ['The recipient name field is required.'];
      if (typeof b.recipient_phone !== 'string' || !/^01[3-9]\d{8}$/.test(b.recipient_phone))
        errors.recipient_phone = ['The recipient phone format is invalid.'];
      if (typeof b.recipient_address !== 'string' || [...b.recipient_address].length < 10) {
        errors.recipient_address = ['The recipient address must be at least 10 characters.'];
      }
      locationErrors(b, errors);
      if (!Number.isSafeInteger(b.item_quantity) || (b.item_quantity as number) < 1) errors.item_quantity = ['The item quantity must be at least 1.'];
      if (!Number.isSafeInteger(b.amount_to_collect) || (b.amount_to_collect as number) < 0)
        errors.amount_to_collect = ['The amount to collect must be an integer.'];
      if (Object.keys(errors).length) return invalid(res, errors);
      const id = `DL${new Date(now()).toISOString().slice(2, 10).replace(/-/g, '')}${randomBytes(3).toString('hex').toUpperCase()}`;
      const fee = standInPrice(Number(b.recipient_city), Number(b.item_weight));
      const order: PathaoOrder = {
        consignment_id: id,
        merchant_order_id: typeof b.merchant_order_id === 'string' ? b.merchant_order_id : null,
        store_id: storeId,
        body: b,
        slug: 'Pending',
        delivery_fee: fee,
        collected_amount: null,
        updated_at: stamp(),
      };
      orders.set(id, order);
      return json(res, 200, {
        message: 'Order Created Successfully',
        type: 'success',
        code: 200,
        data: { consignment_id: id, merchant_order_id: order.merchant_order_id, order_status: 'Pending', delivery_fee: fee },
      });
    }

    m = path.match(/^\/aladdin\/api\/v1\/orders\/([^/]+)\/info$/);
    if (req.method === 'GET' && m) {
      const o = orders.get(decodeURIComponent(m[1]));
      if (!o) return json(res, 404, { message: 'Order not found', type: 'error', code: 404 });
      return json(res, 200, {
        message: 'Order info',
        type: 'success',
        code: 200,
        data: {
          consignment_id: o.consignment_id,
          merchant_order_id: o.merchant_order_id,
          order_status: o.slug.replace(/_/g, ' '),
          order_status_slug: o.slug,
          updated_at: o.updated_at,
          invoice_id: null,
        },
      });
    }
    json(res, 404, { message: 'Not found', type: 'error', code: 404 });
  });

  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const find = (id: string) => {
    const o = orders.get(id);
    if (!o) throw new Error(`no Pathao order ${id}`);
    return o;
  };
  const signed = (secret: string | null | undefined, payload: unknown) => {
    const s = secret === undefined ? stand.webhookSecret : secret;
    // "Headers you will receive: X-PATHAO-Signature — Secret provided by you during integration."
    return { headers: { 'content-type': 'application/json', ...(s === null ? {} : { 'x-pathao-signature': s }) }, body: JSON.stringify(payload) };
  };

  const stand: PathaoStandIn = {
    url,
    clientId: '7N1aMJQbWm',
    clientSecret: 'wRcaibZkUdSNz2EI9ZyuXLlNrnAv0TdPUPXMnD39',
    username: 'test@pathao.com',
    password: 'lovePathao',
    storeId,
    webhookSecret: opts.webhookSecret ?? 'pathao-webhook-secret-7d1e',
    orders,
    requests,
    issued: { password: 0, refresh_token: 0 },
    tokenTtlSeconds: opts.tokenTtlSeconds ?? 432_000,
    down: false,
    delayMs: 0,
    revokeAccessTokens() {
      accessTokens.clear();
    },
    advance(id, slug, o = {}) {
      const order = find(id);
      order.slug = slug;
      order.updated_at = stamp();
      if (o.collectedAmount !== undefined) order.collected_amount = o.collectedAmount;
      else if (slug === 'Delivered') order.collected_amount = Number(order.body.amount_to_collect);
      return order;
    },
    webhookRequest(id, o = {}) {
      const order = find(id);
      const event = EVENT_OF[order.slug];
      // The documentation's sample payloads, field for field.
      const payload: Record<string, unknown> = {
        consignment_id: order.consignment_id,
        merchant_order_id: order.merchant_order_id,
        updated_at: order.updated_at,
        timestamp: new Date(now()).toISOString().replace(/\.\d+Z$/, '+00:00'),
        store_id: order.store_id,
        event,
      };
      if (event === 'order.created' || event === 'order.updated' || event === 'order.pickup-requested') payload.delivery_fee = order.delivery_fee;
      if (['order.delivered', 'order.partial-delivery', 'order.paid-return', 'order.exchanged'].includes(event) && order.collected_amount !== null) {
        payload.collected_amount = order.collected_amount;
      }
      if (['order.partial-delivery', 'order.returned', 'order.delivery-failed', 'order.on-hold'].includes(event))
        payload.reason = 'Customer refused the parcel';
      return signed(o.secret, payload);
    },
    integrationRequest(o = {}) {
      return signed(o.secret, { event: 'webhook_integration' });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return stand;
}
