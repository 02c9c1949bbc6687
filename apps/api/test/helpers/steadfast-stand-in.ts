import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A local stand-in for Steadfast Courier that speaks its merchant API (V1) as documented,
// so the adapter is tested over real HTTP without the internet:
//   every request  headers Api-Key and Secret-Key; wrong or missing → 401 { status: 401, message }
//   POST /create_order               → { status: 200, message, consignment: { consignment_id, invoice, tracking_code, status: "in_review", … } }
//                                      or 422 { status: 422, message, errors: { field: [message] } }
//   POST /create_order/bulk-order    { data: JSON text of a list (≤ 500) } → a list, one entry per order,
//                                      status "success" with consignment_id and tracking_code, or "error" with nulls
//   GET  /status_by_cid/{id}, /status_by_invoice/{invoice}, /status_by_trackingcode/{code}
//                                    → { status: 200, delivery_status } or 404 { status: 404, message }
//   GET  /get_balance                → { status: 200, current_balance }
// The validation rules are the documentation's: invoice unique, letters, digits, hyphens and
// underscores; recipient_name within 100 characters; recipient_phone 11 digits; address within
// 250 characters; cod_amount numeric and not below 0. The shape of a validation refusal is not
// documented: this stand-in answers Laravel's usual { errors: { field: [...] } }, which is how
// Steadfast's API (a Laravel application) is seen to answer.
// A test plays the rider with advance(), and the courier's webhook with webhookRequest().

export type SteadfastDeliveryStatus =
  | 'in_review'
  | 'pending'
  | 'delivered_approval_pending'
  | 'partial_delivered_approval_pending'
  | 'cancelled_approval_pending'
  | 'unknown_approval_pending'
  | 'delivered'
  | 'partial_delivered'
  | 'cancelled'
  | 'hold'
  | 'unknown';

export interface SteadfastParcel {
  consignment_id: number;
  invoice: string;
  tracking_code: string;
  recipient_name: string;
  recipient_phone: string;
  recipient_address: string;
  cod_amount: number;
  note: string | null;
  status: SteadfastDeliveryStatus;
  tracking_message: string;
  created_at: string;
  updated_at: string;
}

export interface SteadfastStandIn {
  url: string;
  apiKey: string;
  secretKey: string;
  /** The bearer token the merchant typed into the webhook settings. */
  webhookToken: string;
  parcels: Map<number, SteadfastParcel>;
  /** Every request received, for assertions (headers lower-cased, body parsed when JSON). */
  requests: { method: string; path: string; headers: http.IncomingHttpHeaders; body: unknown }[];
  /** When set, every call answers 500 (Steadfast is down). */
  down: boolean;
  /** When above 0, every answer waits this long (for timeouts). */
  delayMs: number;
  balance: number;
  /** The rider and the office move a parcel on. */
  advance(consignmentId: number | string, status: SteadfastDeliveryStatus, trackingMessage?: string): SteadfastParcel;
  /** The request Steadfast would POST to the merchant's callback URL for this parcel now. */
  webhookRequest(
    consignmentId: number | string,
    opts?: { type?: 'delivery_status' | 'tracking_update'; token?: string | null },
  ): { headers: Record<string, string>; body: string };
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const now = () => new Date().toISOString().replace(/\.\d+Z$/, '.000000Z');

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startSteadfastStandIn(
  opts: { apiKey?: string; secretKey?: string; webhookToken?: string; port?: number } = {},
): Promise<SteadfastStandIn> {
  const apiKey = opts.apiKey ?? 'sf-api-key-1m9mwrrwsjbrg0w';
  const secretKey = opts.secretKey ?? 'sf-secret-y196ftazvk9s3';
  const parcels = new Map<number, SteadfastParcel>();
  const requests: SteadfastStandIn['requests'] = [];
  let nextId = 1_424_107;

  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  /** The documentation's rules for one order; an empty object when it is acceptable. */
  function validate(o: Record<string, unknown>, invoicesInRequest: Set<string>): Record<string, string[]> {
    const errors: Record<string, string[]> = {};
    const str = (k: string) => (typeof o[k] === 'string' ? (o[k] as string) : typeof o[k] === 'number' ? String(o[k]) : '');
    const invoice = str('invoice');
    if (!invoice) errors.invoice = ['The invoice field is required.'];
    else if (!/^[A-Za-z0-9_-]+$/.test(invoice)) errors.invoice = ['The invoice may only contain letters, numbers, dashes and underscores.'];
    else if ([...parcels.values()].some((p) => p.invoice === invoice) || invoicesInRequest.has(invoice))
      errors.invoice = ['The invoice has already been taken.'];
    if (!str('recipient_name')) errors.recipient_name = ['The recipient name field is required.'];
    else if ([...str('recipient_name')].length > 100) errors.recipient_name = ['The recipient name may not be greater than 100 characters.'];
    if (!/^\d{11}$/.test(str('recipient_phone'))) errors.recipient_phone = ['The recipient phone must be 11 digits.'];
    if (!str('recipient_address')) errors.recipient_address = ['The recipient address field is required.'];
    else if ([...str('recipient_address')].length > 250) errors.recipient_address = ['The recipient address may not be greater than 250 characters.'];
    const cod = o.cod_amount;
    if (cod === undefined || cod === null || cod === '') errors.cod_amount = ['The cod amount field is required.'];
    else if (!Number.isFinite(Number(cod))) errors.cod_amount = ['The cod amount must be a number.'];
    else if (Number(cod) < 0) errors.cod_amount = ['The cod amount must be at least 0.'];
    return errors;
  }

  function create(o: Record<string, unknown>): SteadfastParcel {
    const id = nextId++;
    const p: SteadfastParcel = {
      consignment_id: id,
      invoice: String(o.invoice),
      tracking_code: id.toString(16).toUpperCase().padStart(8, '0').slice(-8),
      recipient_name: String(o.recipient_name),
      recipient_phone: String(o.recipient_phone),
      recipient_address: String(o.recipient_address),
      cod_amount: Number(o.cod_amount),
      note: typeof o.note === 'string' && o.note ? o.note : null,
      status: 'in_review',
      tracking_message: 'Consignment has been created.',
      created_at: now(),
      updated_at: now(),
    };
    parcels.set(id, p);
    return p;
  }

  const server = http.createServer(async (req, res) => {
    const u = new URL(req.url ?? '/', 'http://stand-in');
    const text = req.method === 'POST' ? await readBody(req) : '';
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {}
    requests.push({ method: req.method ?? 'GET', path: u.pathname, headers: req.headers, body });
    if (stand.delayMs > 0) await sleep(stand.delayMs);
    if (stand.down) return json(res, 500, { status: 500, message: 'Server Error' });
    if (req.headers['api-key'] !== apiKey || req.headers['secret-key'] !== secretKey) {
      return json(res, 401, { status: 401, message: 'Unauthorized: invalid Api-Key or Secret-Key' });
    }
    const path = u.pathname.replace(/^\/api\/v1/, '');

    if (req.method === 'POST' && path === '/create_order') {
      if (!body || typeof body !== 'object') return json(res, 400, { status: 400, message: 'Invalid JSON body' });
      const errors = validate(body as Record<string, unknown>, new Set());
      if (Object.keys(errors).length) return json(res, 422, { status: 422, message: 'The given data was invalid.', errors });
      const p = create(body as Record<string, unknown>);
      return json(res, 200, { status: 200, message: 'Consignment has been created successfully.', consignment: { ...p } });
    }

    if (req.method === 'POST' && path === '/create_order/bulk-order') {
      const raw = body && typeof body === 'object' ? (body as Record<string, unknown>).data : undefined;
      let list: unknown = raw;
      if (typeof raw === 'string') {
        try {
          list = JSON.parse(raw);
        } catch {
          list = null;
        }
      }
      if (!Array.isArray(list))
        return json(res, 422, { status: 422, message: 'The given data was invalid.', errors: { data: ['The data field is required.'] } });
      if (list.length > 500)
        return json(res, 422, { status: 422, message: 'The given data was invalid.', errors: { data: ['Maximum 500 items are allowed.'] } });
      const seen = new Set<string>();
      const out = list.map((item: unknown) => {
        const o = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>;
        const echo = {
          invoice: o.invoice ?? null,
          recipient_name: o.recipient_name ?? null,
          recipient_address: o.recipient_address ?? null,
          recipient_phone: o.recipient_phone ?? null,
          cod_amount: Number.isFinite(Number(o.cod_amount)) ? Number(o.cod_amount).toFixed(2) : null,
          note: o.note || null,
        };
        const errors = validate(o, seen);
        if (typeof o.invoice === 'string') seen.add(o.invoice);
        if (Object.keys(errors).length) return { ...echo, consignment_id: null, tracking_code: null, status: 'error' };
        const p = create(o);
        return { ...echo, consignment_id: p.consignment_id, tracking_code: p.tracking_code, status: 'success' };
      });
      return json(res, 200, out);
    }

    if (req.method === 'GET') {
      const m = path.match(/^\/(status_by_cid|status_by_invoice|status_by_trackingcode)\/([^/]+)$/);
      if (m) {
        const key = decodeURIComponent(m[2]);
        const p = [...parcels.values()].find((x) =>
          m[1] === 'status_by_cid' ? String(x.consignment_id) === key : m[1] === 'status_by_invoice' ? x.invoice === key : x.tracking_code === key,
        );
        if (!p) return json(res, 404, { status: 404, message: 'Consignment not found.' });
        return json(res, 200, { status: 200, delivery_status: p.status });
      }
      if (path === '/get_balance') return json(res, 200, { status: 200, current_balance: stand.balance });
    }
    json(res, 404, { status: 404, message: 'Not found' });
  });

  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;

  const find = (id: number | string) => {
    const p = parcels.get(Number(id));
    if (!p) throw new Error(`no Steadfast parcel ${id}`);
    return p;
  };

  const stand: SteadfastStandIn = {
    url,
    apiKey,
    secretKey,
    webhookToken: opts.webhookToken ?? 'sf-webhook-token-4f2a9c',
    parcels,
    requests,
    down: false,
    delayMs: 0,
    balance: 0,
    advance(id, status, trackingMessage) {
      const p = find(id);
      p.status = status;
      p.tracking_message = trackingMessage ?? `Status changed to ${status}.`;
      p.updated_at = now();
      if (status === 'delivered') stand.balance += p.cod_amount;
      return p;
    },
    webhookRequest(id, o = {}) {
      const p = find(id);
      const type = o.type ?? 'delivery_status';
      const updatedAt = p.updated_at.slice(0, 19).replace('T', ' ');
      // The documentation's payloads, field for field.
      const payload =
        type === 'delivery_status'
          ? {
              notification_type: 'delivery_status',
              consignment_id: p.consignment_id,
              invoice: p.invoice,
              cod_amount: p.cod_amount,
              status: p.status,
              delivery_charge: 100,
              tracking_message: p.tracking_message,
              updated_at: updatedAt,
            }
          : {
              notification_type: 'tracking_update',
              consignment_id: p.consignment_id,
              invoice: p.invoice,
              tracking_message: p.tracking_message,
              updated_at: updatedAt,
            };
      const token = o.token === undefined ? stand.webhookToken : o.token;
      return {
        headers: { 'content-type': 'application/json', ...(token === null ? {} : { authorization: `Bearer ${token}` }) },
        body: JSON.stringify(payload),
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return stand;
}
