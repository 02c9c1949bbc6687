import type { Minor } from '@storefront/shared';
import {
  type BookingRefused,
  type BookingResult,
  type ConsignmentField,
  type ConsignmentRequest,
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
import { fieldErrors, isRecord, requestJson, secretsEqual, stringOrNull } from './courier-http.ts';

// Steadfast Courier, by its merchant API documentation (V1, "Steadfast Courier Limited API
// Documentation", published from the merchant panel):
//   headers Api-Key, Secret-Key, Content-Type: application/json on every request
//   POST {base}/create_order            one parcel → { status: 200, consignment: { consignment_id, tracking_code, status, … } }
//   POST {base}/create_order/bulk-order { data: JSON-encoded list, at most 500 } → one entry per order,
//                                       status "success" (with consignment_id, tracking_code) or "error"
//   GET  {base}/status_by_cid/{id}, /status_by_invoice/{invoice}, /status_by_trackingcode/{code}
//                                       → { status: 200, delivery_status }
//   GET  {base}/get_balance             → { status: 200, current_balance }
// Its webhook (panel → Webhook Integration): POSTs JSON to the merchant's callback URL with
// "Authorization: Bearer {token}", the token the merchant typed into the panel; the body
// has notification_type delivery_status or tracking_update. The documentation describes no
// signature over the body, so the bearer token is all there is to check.
// The documentation gives no sandbox: tests use the stand-in (test/helpers/steadfast-stand-in.ts).

export const STEADFAST_LIVE_URL = 'https://portal.packzy.com/api/v1';
/** "Maximum 500 items are allowed" per bulk-order request. */
export const STEADFAST_BULK_MAX = 500;

export interface SteadfastOptions {
  apiKey: string;
  secretKey: string;
  /** https://portal.packzy.com/api/v1, or a stand-in. */
  baseUrl: string;
  /** The bearer token typed into Steadfast's webhook settings; without it every webhook is refused. */
  webhookToken: string | null;
  /** How long one call may take; default 20 s. */
  timeoutMs?: number;
}

/** Steadfast's options from the environment, or null when the shop has not configured it. */
export function steadfastFromEnv(env: Record<string, string | undefined>): SteadfastOptions | null {
  const apiKey = env.STEADFAST_API_KEY?.trim();
  const secretKey = env.STEADFAST_SECRET_KEY?.trim();
  if (!apiKey || !secretKey) return null;
  const timeout = Number(env.STEADFAST_TIMEOUT_MS);
  return {
    apiKey,
    secretKey,
    baseUrl: env.STEADFAST_BASE_URL?.trim() || STEADFAST_LIVE_URL,
    webhookToken: env.STEADFAST_WEBHOOK_TOKEN?.trim() || null,
    ...(Number.isFinite(timeout) && timeout > 0 ? { timeoutMs: timeout } : {}),
  };
}

/**
 * Steadfast's delivery_status values (the documentation's table) in the shop's words.
 * "…_approval_pending" means the rider reported it and Steadfast's office has yet to confirm:
 * the parcel is where the rider says, only the money is not settled. Steadfast has no status
 * of its own for "returned": a parcel that was picked up and then cancelled comes back to
 * the merchant, so `cancelled` after `picked_up`/`in_transit` is a return for the shop.
 * `pending` ("not delivered or cancelled yet") follows in_review once Steadfast has accepted
 * the parcel; the API does not say whether it was picked up, so it reads as in transit.
 */
export const STEADFAST_STATUS_MAP: Record<string, TCourierStatus> = {
  in_review: 'booked',
  pending: 'in_transit',
  delivered_approval_pending: 'delivered',
  delivered: 'delivered',
  partial_delivered_approval_pending: 'partly_delivered',
  partial_delivered: 'partly_delivered',
  cancelled_approval_pending: 'cancelled',
  cancelled: 'cancelled',
  hold: 'on_hold',
  unknown_approval_pending: 'unknown',
  unknown: 'unknown',
};

export function steadfastStatus(courierStatus: string): TCourierStatus {
  // The webhook's own example writes "Delivered": compare without case or spacing.
  const key = courierStatus
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  return STEADFAST_STATUS_MAP[key] ?? 'unknown';
}

/** Steadfast's field names → ours, to say which field it refused. */
const FIELD_NAMES: Record<string, ConsignmentField> = {
  invoice: 'invoice',
  recipient_name: 'recipientName',
  recipient_phone: 'recipientPhone',
  recipient_address: 'recipientAddress',
  cod_amount: 'codAmount',
  note: 'note',
  item_description: 'itemDescription',
  total_lot: 'itemCount',
};

export type BulkBookingResult = BookingResult & { invoice: string };

export interface SteadfastCourier extends Courier {
  readonly name: 'steadfast';
  /** Books many parcels in requests of at most 500; each order's own outcome, in the order given. */
  bookMany(reqs: ConsignmentRequest[]): Promise<BulkBookingResult[]>;
  statusByInvoice(invoice: string): Promise<StatusResult>;
  statusByTrackingCode(trackingCode: string): Promise<StatusResult>;
  /** The merchant's balance with Steadfast, in poisha. */
  balance(): Promise<Minor>;
}

export function createSteadfastCourier(opts: SteadfastOptions): SteadfastCourier {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const auth = { 'Api-Key': opts.apiKey, 'Secret-Key': opts.secretKey };

  const call = (method: 'GET' | 'POST', path: string, body?: unknown) =>
    requestJson('steadfast', `${base}${path}`, { method, headers: auth, body, timeoutMs: opts.timeoutMs });

  function payload(req: ConsignmentRequest, phone: string, taka: number): Record<string, unknown> {
    return {
      invoice: req.invoice,
      recipient_name: req.recipientName,
      recipient_phone: phone,
      recipient_address: req.recipientAddress,
      cod_amount: taka,
      note: req.note ?? '',
      ...(req.itemDescription ? { item_description: req.itemDescription } : {}),
      total_lot: req.itemCount,
      // 0 = home delivery (the documentation's delivery_type); the shop delivers to the door.
      delivery_type: 0,
    };
  }

  /** A refusal in Steadfast's validation shape: { status: 400|422, message?, errors: { field: [..] } }. */
  function refusal(json: Record<string, unknown>): BookingRefused {
    const fields = fieldErrors(json.errors, FIELD_NAMES);
    return {
      ok: false,
      reason: Object.keys(fields).length ? 'invalid' : 'refused',
      message: stringOrNull(json.message) ?? 'Steadfast refused the consignment',
      fields,
      raw: json,
    };
  }

  async function statusAt(path: string): Promise<StatusResult> {
    const { status, json } = await call('GET', path);
    if (!isRecord(json)) throw new CourierError('steadfast', 'bad_response', 'Steadfast answered a status that is not an object', status);
    const delivery = stringOrNull(json.delivery_status);
    // Steadfast answers an unknown id or invoice with a non-200 status (HTTP or in the body)
    // and no delivery_status; the documentation shows only the success answer.
    if (status === 404 || !delivery || (json.status !== undefined && Number(json.status) !== 200)) return { found: false, raw: json };
    const cid = stringOrNull(json.consignment_id);
    return { found: true, consignmentId: cid, courierStatus: delivery, status: steadfastStatus(delivery), raw: json };
  }

  return {
    name: 'steadfast',

    async book(req) {
      const local = localRefusals(req);
      if (local.phone === null || local.taka === null || Object.keys(local.fields).length) return refusedLocally(local.fields);
      const { status, json } = await call('POST', '/create_order', payload(req, local.phone, local.taka));
      if (!isRecord(json)) throw new CourierError('steadfast', 'bad_response', 'Steadfast answered a booking that is not an object', status);
      const c = json.consignment;
      if (status === 200 && Number(json.status ?? 200) === 200 && isRecord(c) && stringOrNull(c.consignment_id)) {
        const courierStatus = stringOrNull(c.status) ?? 'in_review';
        return {
          ok: true,
          consignmentId: stringOrNull(c.consignment_id)!,
          trackingCode: stringOrNull(c.tracking_code),
          courierStatus,
          status: steadfastStatus(courierStatus),
          deliveryFee: null,
          raw: json,
        };
      }
      if (status >= 400 || json.errors !== undefined || Number(json.status) >= 400) return refusal(json);
      throw new CourierError('steadfast', 'bad_response', 'Steadfast answered a booking without a consignment', status);
    },

    async bookMany(reqs) {
      const results: BulkBookingResult[] = new Array(reqs.length);
      const toSend: { index: number; body: Record<string, unknown> }[] = [];
      reqs.forEach((req, index) => {
        const local = localRefusals(req);
        if (local.phone === null || local.taka === null || Object.keys(local.fields).length) {
          results[index] = { ...refusedLocally(local.fields), invoice: req.invoice };
        } else {
          toSend.push({ index, body: payload(req, local.phone, local.taka) });
        }
      });
      for (let i = 0; i < toSend.length; i += STEADFAST_BULK_MAX) {
        const chunk = toSend.slice(i, i + STEADFAST_BULK_MAX);
        // The documentation's example sends `data` as a JSON-encoded string of the list.
        const { status, json } = await call('POST', '/create_order/bulk-order', { data: JSON.stringify(chunk.map((c) => c.body)) });
        if (status >= 400 && isRecord(json) && !Array.isArray(json.data)) {
          // The whole request was refused (e.g. the list itself is malformed): every order in it shares the refusal.
          const r = refusal(json);
          for (const c of chunk) results[c.index] = { ...r, invoice: String(c.body.invoice) };
          continue;
        }
        // The documentation shows both a bare list and { data: [...] }.
        const list = Array.isArray(json) ? json : isRecord(json) && Array.isArray(json.data) ? json.data : null;
        if (!list || list.length !== chunk.length) {
          throw new CourierError('steadfast', 'bad_response', 'Steadfast answered a bulk booking without one entry per order', status);
        }
        chunk.forEach((c, k) => {
          const item = list[k];
          const invoice = String(c.body.invoice);
          // Entries come back in the order sent; one whose invoice differs cannot be trusted to be this order's.
          if (!isRecord(item) || (item.invoice !== undefined && String(item.invoice) !== invoice)) {
            throw new CourierError('steadfast', 'bad_response', `Steadfast's bulk answer does not line up with invoice ${invoice}`, status);
          }
          const cid = stringOrNull(item.consignment_id);
          if (item.status === 'success' && cid) {
            results[c.index] = {
              ok: true,
              invoice,
              consignmentId: cid,
              trackingCode: stringOrNull(item.tracking_code),
              courierStatus: 'in_review',
              status: 'booked',
              deliveryFee: null,
              raw: item,
            };
          } else {
            const fields = fieldErrors(item.errors, FIELD_NAMES);
            results[c.index] = {
              ok: false,
              invoice,
              reason: Object.keys(fields).length ? 'invalid' : 'refused',
              // The documentation's error entry carries only status "error"; a message or errors, when present, are kept.
              message: stringOrNull(item.message) ?? stringOrNull(item.error) ?? 'Steadfast refused this order',
              fields,
              raw: item,
            };
          }
        });
      }
      return results;
    },

    status: (consignmentId) => statusAt(`/status_by_cid/${encodeURIComponent(consignmentId)}`),
    statusByInvoice: (invoice) => statusAt(`/status_by_invoice/${encodeURIComponent(invoice)}`),
    statusByTrackingCode: (code) => statusAt(`/status_by_trackingcode/${encodeURIComponent(code)}`),

    async balance() {
      const { status, json } = await call('GET', '/get_balance');
      const minor = isRecord(json) ? takaTextToMinor(json.current_balance) : null;
      if (minor === null) throw new CourierError('steadfast', 'bad_response', 'Steadfast answered a balance that is not an amount', status);
      return minor;
    },

    verifyWebhook(headers: WebhookHeaders, rawBody: string): WebhookResult {
      // Fail closed: without a configured token nobody can be told apart from Steadfast.
      const auth = headerOf(headers, 'authorization');
      const m = auth?.match(/^Bearer\s+(\S+)\s*$/i);
      if (!opts.webhookToken || !m || !secretsEqual(m[1], opts.webhookToken)) return { ok: false, reason: 'unauthorised' };
      const body = parseWebhookBody(rawBody);
      if (!body) return { ok: false, reason: 'malformed' };
      const type = body.notification_type;
      const consignmentId = stringOrNull(body.consignment_id);
      if ((type !== 'delivery_status' && type !== 'tracking_update') || !consignmentId) return { ok: false, reason: 'malformed' };
      const courierStatus = type === 'delivery_status' ? stringOrNull(body.status) : null;
      return {
        ok: true,
        event: {
          kind: type === 'delivery_status' ? 'status' : 'tracking',
          consignmentId,
          invoice: stringOrNull(body.invoice),
          courierStatus,
          status: courierStatus ? steadfastStatus(courierStatus) : null,
          codAmount: takaTextToMinor(body.cod_amount),
          deliveryFee: takaTextToMinor(body.delivery_charge),
          message: stringOrNull(body.tracking_message),
          updatedAt: stringOrNull(body.updated_at),
          raw: body,
        },
      };
    },
  };
}
