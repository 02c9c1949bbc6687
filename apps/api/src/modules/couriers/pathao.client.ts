import type { Minor } from '@storefront/shared';
import {
  type BookingRefused,
  type BookingResult,
  type ConsignmentField,
  type Courier,
  CourierError,
  type StatusResult,
  type TCourierStatus,
  type WebhookHeaders,
  type WebhookResult,
  headerOf,
  localRefusals,
  parseWebhookBody,
  refusedLocally,
  takaTextToMinor,
} from './courier.ts';
import { fieldErrors, isRecord, type JsonAnswer, requestJson, secretsEqual, stringOrNull } from './courier-http.ts';
import { memoryTokenCache, PATHAO_REFRESH_BEFORE_MS, type PathaoToken, pathaoRefreshAt, type TokenCache } from './pathao-token.ts';

// Pathao Courier, by its "Merchant API Integration Documentation" (merchant panel → Developer
// API). OAuth 2.0 password grant, then bearer calls:
//   POST {base}/aladdin/api/v1/issue-token  { client_id, client_secret, grant_type: "password", username, password }
//        or { client_id, client_secret, grant_type: "refresh_token", refresh_token }
//        → { token_type: "Bearer", expires_in, access_token, refresh_token }
//   GET  {base}/aladdin/api/v1/city-list, /cities/{city_id}/zone-list, /zones/{zone_id}/area-list
//        → { code: 200, data: { data: [...] } }
//   POST {base}/aladdin/api/v1/merchant/price-plan { store_id, item_type, delivery_type, item_weight, recipient_city, recipient_zone }
//        → { data: { price, discount, promo_discount, plan_id, cod_enabled, cod_percentage, additional_charge, final_price } }
//   POST {base}/aladdin/api/v1/orders { store_id, merchant_order_id, recipient_*, delivery_type, item_type,
//        special_instruction, item_quantity, item_weight (0.5–10 kg), item_description, amount_to_collect (integer) }
//        → { data: { consignment_id, merchant_order_id, order_status, delivery_fee } }
//   GET  {base}/aladdin/api/v1/orders/{consignment_id}/info → { data: { consignment_id, order_status, order_status_slug, … } }
// Sandbox https://courier-api-sandbox.pathao.com, live https://api-hermes.pathao.com.
// Its webhook (panel → Webhook Integration): POSTs JSON events (order.created, order.picked,
// order.delivered, order.returned, …) to the callback URL with header X-PATHAO-Signature whose
// value is "Secret provided by you during integration" — the secret itself, not an HMAC of the
// body, so the check is a constant-time comparison of that secret. The panel first sends
// { event: "webhook_integration" } and wants 202 with header
// X-Pathao-Merchant-Webhook-Integration-Secret set to the value the panel shows.
// Validation refusals are not documented; Pathao's API (Laravel) answers 422 with
// { message, type: "error", code: 422, errors: { field: [message] } }, which is read here.

export const PATHAO_SANDBOX_URL = 'https://courier-api-sandbox.pathao.com';
export const PATHAO_LIVE_URL = 'https://api-hermes.pathao.com';
/** The value the webhook settings page asks the callback to answer with (same on every merchant's page seen). */
export const PATHAO_INTEGRATION_ANSWER = 'f3992ecc-59da-4cbe-a049-a13da2018d51';

/** 48 = normal delivery, 12 = on-demand; 2 = parcel, 1 = document. */
const DELIVERY_NORMAL = 48;
const ITEM_PARCEL = 2;
/** "Minimum 0.5 KG to Maximum 10 kg." */
const MIN_WEIGHT_KG = 0.5;
const MAX_WEIGHT_KG = 10;

export interface PathaoOptions {
  clientId: string;
  clientSecret: string;
  username: string;
  password: string;
  /** The merchant's store (its pickup location). */
  storeId: number;
  baseUrl: string;
  /** The secret typed into Pathao's webhook settings; without it every webhook is refused. */
  webhookSecret: string | null;
  /** What the integration check wants back in X-Pathao-Merchant-Webhook-Integration-Secret. */
  webhookIntegrationAnswer?: string;
  timeoutMs?: number;
  /** Where the token is kept; default in memory (one process). */
  tokenCache?: TokenCache;
  /** Refresh this long before expiry, at most half the token's life; default one hour. */
  refreshBeforeMs?: number;
  /** The clock (tests move it). */
  now?: () => number;
}

const falsy = (v: string | undefined) => /^(0|false|no|off)$/i.test(v?.trim() ?? '');

/**
 * Pathao's options from the environment, or null when the shop has not configured it.
 * PATHAO_BASE_URL wins; otherwise the sandbox unless PATHAO_SANDBOX says false, so that
 * bookings reach the live courier only when someone chose it.
 */
export function pathaoFromEnv(env: Record<string, string | undefined>): PathaoOptions | null {
  const clientId = env.PATHAO_CLIENT_ID?.trim();
  const clientSecret = env.PATHAO_CLIENT_SECRET?.trim();
  const username = env.PATHAO_USERNAME?.trim();
  const password = env.PATHAO_PASSWORD;
  const storeId = Number(env.PATHAO_STORE_ID);
  if (!clientId || !clientSecret || !username || !password || !Number.isSafeInteger(storeId) || storeId <= 0) return null;
  const timeout = Number(env.PATHAO_TIMEOUT_MS);
  return {
    clientId,
    clientSecret,
    username,
    password,
    storeId,
    baseUrl: env.PATHAO_BASE_URL?.trim() || (falsy(env.PATHAO_SANDBOX) ? PATHAO_LIVE_URL : PATHAO_SANDBOX_URL),
    webhookSecret: env.PATHAO_WEBHOOK_SECRET?.trim() || null,
    ...(env.PATHAO_WEBHOOK_INTEGRATION_ANSWER?.trim() ? { webhookIntegrationAnswer: env.PATHAO_WEBHOOK_INTEGRATION_ANSWER.trim() } : {}),
    ...(Number.isFinite(timeout) && timeout > 0 ? { timeoutMs: timeout } : {}),
  };
}

/** One key for both vocabularies: order_status_slug ("At_the_Sorting_HUB") and webhook events ("order.at-the-sorting-hub"). */
function statusKey(s: string): string {
  return s
    .trim()
    .toLowerCase()
    .replace(/^order\./, '')
    .replace(/[\s-]+/g, '_');
}

/**
 * Pathao's statuses (order_status_slug, and the webhook's order.* events) in the shop's words.
 * Null: the event says nothing about where the parcel is (an edit, an invoice).
 * A failed pickup leaves the parcel with us (booked); a failed delivery attempt needs a
 * decision (on hold); an exchange is a delivery.
 */
export const PATHAO_STATUS_MAP: Record<string, TCourierStatus | null> = {
  pending: 'booked',
  created: 'booked',
  updated: null,
  pickup_requested: 'booked',
  assigned_for_pickup: 'booked',
  pickup_failed: 'booked',
  pickup_cancelled: 'cancelled',
  picked: 'picked_up',
  at_the_sorting_hub: 'in_transit',
  in_transit: 'in_transit',
  received_at_last_mile_hub: 'in_transit',
  assigned_for_delivery: 'in_transit',
  delivered: 'delivered',
  partial_delivery: 'partly_delivered',
  return: 'returned',
  returned: 'returned',
  paid_return: 'returned',
  delivery_failed: 'on_hold',
  on_hold: 'on_hold',
  exchange: 'delivered',
  exchanged: 'delivered',
  payment_invoice: null,
  paid: null,
};

export function pathaoStatus(courierStatus: string): TCourierStatus | null {
  const key = statusKey(courierStatus);
  return key in PATHAO_STATUS_MAP ? PATHAO_STATUS_MAP[key] : 'unknown';
}

const FIELD_NAMES: Record<string, ConsignmentField> = {
  store_id: 'store',
  merchant_order_id: 'invoice',
  recipient_name: 'recipientName',
  recipient_phone: 'recipientPhone',
  recipient_address: 'recipientAddress',
  recipient_city: 'destination',
  recipient_zone: 'destination',
  recipient_area: 'destination',
  amount_to_collect: 'codAmount',
  item_quantity: 'itemCount',
  item_weight: 'weightGrams',
  special_instruction: 'note',
  item_description: 'itemDescription',
};

/** Grams to Pathao's kilograms: below 0.5 kg is charged as 0.5 kg (its minimum); above 10 kg it does not carry. */
export function toPathaoWeight(grams: number): number | null {
  if (!Number.isFinite(grams) || grams <= 0) return null;
  const kg = Math.ceil(grams / 100) / 10;
  if (kg > MAX_WEIGHT_KG) return null;
  return Math.max(MIN_WEIGHT_KG, kg);
}

export interface PathaoPlace {
  id: number;
  name: string;
}

export type PriceResult =
  | { ok: true; price: Minor; discount: Minor; finalPrice: Minor; codPercentage: number; planId: number | null; raw: unknown }
  | BookingRefused;

export interface PathaoCourier extends Courier {
  readonly name: 'pathao';
  cities(): Promise<PathaoPlace[]>;
  zones(cityId: number): Promise<PathaoPlace[]>;
  areas(zoneId: number): Promise<(PathaoPlace & { homeDelivery: boolean; pickup: boolean })[]>;
  /** What Pathao charges to carry a parcel of this weight to this city and zone. */
  price(q: { destination: { cityId: number; zoneId: number }; weightGrams: number }): Promise<PriceResult>;
  /** The answer the webhook integration check wants (status 202 and this header). */
  readonly webhookAnswer: { status: 202; headers: Record<string, string> };
  /** The current access token, issuing or refreshing it when needed (shared by concurrent callers). */
  accessToken(): Promise<string>;
}

export function createPathaoCourier(opts: PathaoOptions): PathaoCourier {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const cache = opts.tokenCache ?? memoryTokenCache();
  const now = opts.now ?? Date.now;
  const refreshBeforeMs = opts.refreshBeforeMs ?? PATHAO_REFRESH_BEFORE_MS;
  let inFlight: Promise<string> | null = null;

  const fresh = (t: PathaoToken) => now() < pathaoRefreshAt(t, refreshBeforeMs);

  async function issue(grant: Record<string, string>): Promise<PathaoToken | null> {
    const issuedAt = now();
    let answer: JsonAnswer;
    try {
      answer = await requestJson('pathao', `${base}/aladdin/api/v1/issue-token`, {
        method: 'POST',
        headers: {},
        body: { client_id: opts.clientId, client_secret: opts.clientSecret, ...grant },
        timeoutMs: opts.timeoutMs,
      });
    } catch (err) {
      // A refresh token Pathao no longer knows is not an outage: fall back to the password grant.
      if (grant.grant_type === 'refresh_token' && err instanceof CourierError && err.reason === 'unauthorised') return null;
      throw err;
    }
    const j = answer.json;
    if (answer.status >= 400 && grant.grant_type === 'refresh_token') return null;
    if (!isRecord(j) || typeof j.access_token !== 'string' || !j.access_token || !Number.isFinite(Number(j.expires_in))) {
      throw new CourierError(
        'pathao',
        answer.status >= 400 ? 'unauthorised' : 'bad_response',
        `Pathao did not issue a token (${answer.status})`,
        answer.status,
      );
    }
    return {
      accessToken: j.access_token,
      refreshToken: typeof j.refresh_token === 'string' && j.refresh_token ? j.refresh_token : null,
      issuedAt,
      expiresAt: issuedAt + Number(j.expires_in) * 1000,
    };
  }

  async function obtain(): Promise<string> {
    const cached = await cache.get();
    if (cached && fresh(cached)) return cached.accessToken;
    // A cache shared by processes lets one of them renew at a time (docs/decisions/0041).
    return cache.renewing ? cache.renewing(renew) : renew();
  }

  /** Reads the token again (another process may just have renewed it), then refreshes or asks with the password. */
  async function renew(): Promise<string> {
    const cached = await cache.get();
    if (cached && fresh(cached)) return cached.accessToken;
    let token: PathaoToken | null = null;
    if (cached?.refreshToken) token = await issue({ grant_type: 'refresh_token', refresh_token: cached.refreshToken });
    token ??= await issue({ grant_type: 'password', username: opts.username, password: opts.password });
    if (!token) throw new CourierError('pathao', 'unauthorised', 'Pathao did not issue a token');
    await cache.set(token);
    return token.accessToken;
  }

  /** Concurrent callers share one look-up (and at most one issue-token request). */
  function accessToken(): Promise<string> {
    inFlight ??= obtain().finally(() => {
      inFlight = null;
    });
    return inFlight;
  }

  async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<JsonAnswer> {
    for (let attempt = 0; ; attempt++) {
      const token = await accessToken();
      try {
        return await requestJson('pathao', `${base}/aladdin/api/v1${path}`, {
          method,
          headers: { authorization: `Bearer ${token}` },
          body,
          timeoutMs: opts.timeoutMs,
        });
      } catch (err) {
        // Pathao revoked or expired the token before we expected: forget it and try once more.
        if (attempt === 0 && err instanceof CourierError && err.reason === 'unauthorised') {
          if (cache.forget) await cache.forget(token);
          else {
            const cached = await cache.get();
            if (cached?.accessToken === token) await cache.set({ ...cached, expiresAt: 0 });
          }
          continue;
        }
        throw err;
      }
    }
  }

  function refusal(status: number, json: unknown, what: string): BookingRefused {
    const j = isRecord(json) ? json : {};
    const fields = fieldErrors(j.errors, FIELD_NAMES);
    return {
      ok: false,
      reason: Object.keys(fields).length || status === 422 ? 'invalid' : 'refused',
      message: stringOrNull(j.message) ?? `Pathao refused the ${what}`,
      fields,
      raw: json,
    };
  }

  function list(answer: JsonAnswer, what: string): Record<string, unknown>[] {
    const data = isRecord(answer.json) && isRecord(answer.json.data) ? answer.json.data.data : null;
    if (answer.status !== 200 || !Array.isArray(data))
      throw new CourierError('pathao', 'bad_response', `Pathao answered the ${what} without a list`, answer.status);
    return data.filter(isRecord);
  }

  const webhookAnswer = {
    status: 202 as const,
    headers: { 'X-Pathao-Merchant-Webhook-Integration-Secret': opts.webhookIntegrationAnswer ?? PATHAO_INTEGRATION_ANSWER },
  };

  return {
    name: 'pathao',
    webhookAnswer,
    accessToken,

    async cities() {
      return list(await call('GET', '/city-list'), 'city list').map((c) => ({ id: Number(c.city_id), name: String(c.city_name ?? '').trim() }));
    },
    async zones(cityId) {
      return list(await call('GET', `/cities/${encodeURIComponent(String(cityId))}/zone-list`), 'zone list').map((z) => ({
        id: Number(z.zone_id),
        name: String(z.zone_name ?? '').trim(),
      }));
    },
    async areas(zoneId) {
      return list(await call('GET', `/zones/${encodeURIComponent(String(zoneId))}/area-list`), 'area list').map((a) => ({
        id: Number(a.area_id),
        name: String(a.area_name ?? '').trim(),
        homeDelivery: a.home_delivery_available === true,
        pickup: a.pickup_available === true,
      }));
    },

    async price(q) {
      const kg = toPathaoWeight(q.weightGrams);
      if (kg === null) return refusedLocally({ weightGrams: `Pathao carries ${MIN_WEIGHT_KG} to ${MAX_WEIGHT_KG} kg per parcel` });
      const answer = await call('POST', '/merchant/price-plan', {
        store_id: opts.storeId,
        item_type: ITEM_PARCEL,
        delivery_type: DELIVERY_NORMAL,
        item_weight: kg,
        recipient_city: q.destination.cityId,
        recipient_zone: q.destination.zoneId,
      });
      if (answer.status >= 400) return refusal(answer.status, answer.json, 'price request');
      const d = isRecord(answer.json) && isRecord(answer.json.data) ? answer.json.data : null;
      const price = d ? takaTextToMinor(d.price) : null;
      const finalPrice = d ? takaTextToMinor(d.final_price) : null;
      if (!d || price === null || finalPrice === null)
        throw new CourierError('pathao', 'bad_response', 'Pathao answered a price that is not an amount', answer.status);
      return {
        ok: true,
        price,
        discount: (takaTextToMinor(d.discount) ?? 0) + (takaTextToMinor(d.promo_discount) ?? 0),
        finalPrice,
        codPercentage: Number(d.cod_percentage) || 0,
        planId: Number.isFinite(Number(d.plan_id)) ? Number(d.plan_id) : null,
        raw: answer.json,
      };
    },

    async book(req): Promise<BookingResult> {
      const local = localRefusals(req);
      const kg = toPathaoWeight(req.weightGrams);
      if (kg === null && !local.fields.weightGrams) local.fields.weightGrams = `Pathao carries ${MIN_WEIGHT_KG} to ${MAX_WEIGHT_KG} kg per parcel`;
      if (!req.destination) local.fields.destination = 'Pathao needs the city and zone of the address';
      if (local.phone === null || local.taka === null || kg === null || !req.destination || Object.keys(local.fields).length) {
        return refusedLocally(local.fields);
      }
      const answer = await call('POST', '/orders', {
        store_id: opts.storeId,
        merchant_order_id: req.invoice,
        recipient_name: req.recipientName,
        recipient_phone: local.phone,
        recipient_address: req.recipientAddress,
        recipient_city: req.destination.cityId,
        recipient_zone: req.destination.zoneId,
        ...(req.destination.areaId ? { recipient_area: req.destination.areaId } : {}),
        delivery_type: DELIVERY_NORMAL,
        item_type: ITEM_PARCEL,
        ...(req.note ? { special_instruction: req.note } : {}),
        item_quantity: req.itemCount,
        item_weight: kg,
        ...(req.itemDescription ? { item_description: req.itemDescription } : {}),
        amount_to_collect: local.taka,
      });
      if (answer.status >= 400) return refusal(answer.status, answer.json, 'consignment');
      const d = isRecord(answer.json) && isRecord(answer.json.data) ? answer.json.data : null;
      const cid = d ? stringOrNull(d.consignment_id) : null;
      if (!d || !cid) throw new CourierError('pathao', 'bad_response', 'Pathao answered a booking without a consignment', answer.status);
      const courierStatus = stringOrNull(d.order_status) ?? 'Pending';
      return {
        ok: true,
        consignmentId: cid,
        trackingCode: null,
        courierStatus,
        status: pathaoStatus(courierStatus) ?? 'booked',
        deliveryFee: takaTextToMinor(d.delivery_fee),
        raw: answer.json,
      };
    },

    async status(consignmentId): Promise<StatusResult> {
      const answer = await call('GET', `/orders/${encodeURIComponent(consignmentId)}/info`);
      if (answer.status === 404) return { found: false, raw: answer.json };
      const d = isRecord(answer.json) && isRecord(answer.json.data) ? answer.json.data : null;
      // order_status_slug is the documented machine-readable status; order_status its label.
      const courierStatus = d ? (stringOrNull(d.order_status_slug) ?? stringOrNull(d.order_status)) : null;
      if (answer.status !== 200 || !d || !courierStatus) {
        throw new CourierError('pathao', 'bad_response', `Pathao answered ${answer.status} without an order status`, answer.status);
      }
      return { found: true, consignmentId: stringOrNull(d.consignment_id), courierStatus, status: pathaoStatus(courierStatus) ?? 'unknown', raw: answer.json };
    },

    verifyWebhook(headers: WebhookHeaders, rawBody: string): WebhookResult {
      const given = headerOf(headers, 'x-pathao-signature');
      if (!opts.webhookSecret || given === null || !secretsEqual(given, opts.webhookSecret)) return { ok: false, reason: 'unauthorised' };
      const body = parseWebhookBody(rawBody);
      const event = body ? stringOrNull(body.event) : null;
      if (!body || !event) return { ok: false, reason: 'malformed' };
      const base = { invoice: stringOrNull(body.merchant_order_id), updatedAt: stringOrNull(body.updated_at), raw: body };
      if (event === 'webhook_integration') {
        return {
          ok: true,
          event: { ...base, kind: 'integration', consignmentId: null, courierStatus: null, status: null, codAmount: null, deliveryFee: null, message: null },
        };
      }
      const consignmentId = stringOrNull(body.consignment_id);
      if (!event.startsWith('order.') || !consignmentId) {
        return {
          ok: true,
          event: { ...base, kind: 'other', consignmentId, courierStatus: event, status: null, codAmount: null, deliveryFee: null, message: null },
        };
      }
      return {
        ok: true,
        event: {
          ...base,
          kind: 'status',
          consignmentId,
          courierStatus: event,
          status: pathaoStatus(event),
          codAmount: takaTextToMinor(body.collected_amount),
          deliveryFee: takaTextToMinor(body.delivery_fee),
          message: stringOrNull(body.reason),
        },
      };
    },
  };
}
