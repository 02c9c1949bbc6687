import { type Minor, normalizeMobile } from '@storefront/shared';

// One interface for the couriers that carry parcels inside Bangladesh (Steadfast, Pathao).
// Each adapter speaks its courier's public merchant API; the shapes here are what the rest
// of the shop sees: amounts in poisha, one status vocabulary, validation refusals as typed
// results naming our own fields, and CourierError when the courier cannot be asked at all.

export type CourierName = 'steadfast' | 'pathao';

/** Where a parcel is, in the shop's words. Each courier's own statuses map onto these. */
export const COURIER_STATUSES = ['booked', 'picked_up', 'in_transit', 'delivered', 'partly_delivered', 'returned', 'cancelled', 'on_hold', 'unknown'] as const;
export type TCourierStatus = (typeof COURIER_STATUSES)[number];

/** A parcel to hand to a courier. */
export interface ConsignmentRequest {
  /** Ours and unique per courier (Steadfast: letters, digits, hyphens and underscores). */
  invoice: string;
  recipientName: string;
  /** Any form normalizeMobile accepts; sent as 01XXXXXXXXX, the 11 digits couriers ask for. */
  recipientPhone: string;
  recipientAddress: string;
  /** What the rider collects, in poisha. Couriers collect whole taka only (see toCourierTaka). */
  codAmount: Minor;
  note?: string;
  itemDescription?: string;
  /** Parcel weight in grams (Pathao prices by it; Steadfast's API has no weight field). */
  weightGrams: number;
  itemCount: number;
  /** The courier's own location ids (Pathao's city, zone and area); Steadfast takes the address text only. */
  destination?: { cityId: number; zoneId: number; areaId?: number };
}

/** Our request's field names, used to say which field a courier refused. */
export type ConsignmentField = keyof ConsignmentRequest | 'store';

export interface Booked {
  ok: true;
  consignmentId: string;
  /** Steadfast's public tracking code; Pathao tracks by the consignment id itself. */
  trackingCode: string | null;
  /** The courier's own word for the status, kept for the record. */
  courierStatus: string;
  status: TCourierStatus;
  /** The delivery charge the courier quoted, when it says (Pathao does, Steadfast does not). */
  deliveryFee: Minor | null;
  raw: unknown;
}

/** The courier (or our own check before asking it) refused the request as it stands. */
export interface BookingRefused {
  ok: false;
  reason: 'invalid' | 'refused';
  message: string;
  /** Which of our fields were refused, and why (empty when the courier did not say). */
  fields: Partial<Record<ConsignmentField, string>>;
  raw: unknown;
}

export type BookingResult = Booked | BookingRefused;

export type StatusResult =
  | { found: true; consignmentId: string | null; courierStatus: string; status: TCourierStatus; raw: unknown }
  | { found: false; raw: unknown };

/** A status update the courier posted to our callback URL, after its credentials were checked. */
export interface CourierWebhookEvent {
  kind: 'status' | 'tracking' | 'integration' | 'other';
  consignmentId: string | null;
  /** Our invoice (Steadfast: invoice; Pathao: merchant_order_id). */
  invoice: string | null;
  courierStatus: string | null;
  /** Null when the update does not change where the parcel is (a tracking note, an invoice). */
  status: TCourierStatus | null;
  /** Steadfast: the COD amount; Pathao: collected_amount on (partial) delivery. */
  codAmount: Minor | null;
  deliveryFee: Minor | null;
  message: string | null;
  updatedAt: string | null;
  raw: Record<string, unknown>;
}

export type WebhookResult = { ok: true; event: CourierWebhookEvent } | { ok: false; reason: 'unauthorised' | 'malformed' };

/** Request headers as node:http and Fastify give them. */
export type WebhookHeaders = Record<string, string | string[] | undefined>;

export interface Courier {
  readonly name: CourierName;
  /** Books one parcel. Throws CourierError when the courier cannot be reached or answers 5xx. */
  book(req: ConsignmentRequest): Promise<BookingResult>;
  /** Where the parcel is, by the courier's consignment id. */
  status(consignmentId: string): Promise<StatusResult>;
  /** Checks the credentials of a request posted to our callback URL and reads it. */
  verifyWebhook(headers: WebhookHeaders, rawBody: string): WebhookResult;
}

/** The courier could not be asked: unreachable, too slow, 5xx, refused our credentials, or answered nonsense. */
export class CourierError extends Error {
  constructor(
    readonly courier: CourierName,
    readonly reason: 'unreachable' | 'timeout' | 'server_error' | 'unauthorised' | 'bad_response',
    message: string,
    readonly httpStatus: number | null = null,
  ) {
    super(message);
    this.name = 'CourierError';
  }
}

/** A COD amount a courier cannot collect exactly. */
export class CodAmountError extends RangeError {
  constructor(readonly amount: number) {
    super(
      Number.isSafeInteger(amount) && amount >= 0
        ? `Couriers collect whole taka only: ${Math.floor(amount / 100)}.${String(amount % 100).padStart(2, '0')} taka has poisha`
        : `Not a cash-on-delivery amount in poisha: ${amount}`,
    );
    this.name = 'CodAmountError';
  }
}

/**
 * Poisha to the whole taka couriers take for cash on delivery (Steadfast cod_amount,
 * Pathao amount_to_collect: "integer"). Riders carry no coins below a taka, so an amount
 * with poisha is refused rather than rounded: the order's total must be made collectable
 * (e.g. by the pricing rules) before it is booked.
 */
export function toCourierTaka(amount: Minor): number {
  if (!Number.isSafeInteger(amount) || amount < 0 || amount % 100 !== 0) throw new CodAmountError(amount);
  return amount / 100;
}

/**
 * A courier's decimal taka (a JSON number such as 83.46, or text such as "1060.00") to
 * poisha, exactly: from its decimal text, never by multiplying a float. Null if unreadable.
 */
export function takaTextToMinor(value: unknown): Minor | null {
  if (typeof value !== 'number' && typeof value !== 'string') return null;
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
  const m = text.match(/^(-?)(\d{1,13})(?:\.(\d{1,2})0*)?$/);
  if (!m) return null;
  const minor = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] ? -minor : minor;
}

/** A Bangladeshi mobile number as couriers want it (01XXXXXXXXX), or null if it is not one. */
export function toCourierPhone(input: string): string | null {
  const n = normalizeMobile(input);
  return n && /^\+8801[3-9]\d{8}$/.test(n) ? n.slice(3) : null;
}

/** Reads a header the way node:http stores them (lower-case names, repeated ones as arrays). */
export function headerOf(headers: WebhookHeaders, name: string): string | null {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
  const v = key === undefined ? undefined : headers[key];
  if (Array.isArray(v)) return v.length === 1 ? v[0] : null;
  return v ?? null;
}

/**
 * Reads one JSON object from a webhook's raw body: anything else (an array, invalid JSON,
 * a body too large to be a status update) is malformed.
 */
export function parseWebhookBody(rawBody: string): Record<string, unknown> | null {
  if (rawBody.length > 64 * 1024) return null;
  try {
    const json: unknown = JSON.parse(rawBody);
    return json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The checks every courier needs on our side before asking it: phone, COD, count. */
export function localRefusals(req: ConsignmentRequest): { phone: string | null; taka: number | null; fields: BookingRefused['fields'] } {
  const fields: BookingRefused['fields'] = {};
  const phone = toCourierPhone(req.recipientPhone);
  if (!phone) fields.recipientPhone = 'Not a Bangladeshi mobile number (01XXXXXXXXX)';
  let taka: number | null = null;
  try {
    taka = toCourierTaka(req.codAmount);
  } catch (err) {
    fields.codAmount = (err as Error).message;
  }
  if (!Number.isSafeInteger(req.itemCount) || req.itemCount < 1) fields.itemCount = 'At least one item';
  if (!Number.isFinite(req.weightGrams) || req.weightGrams <= 0) fields.weightGrams = 'A parcel has a weight';
  return { phone, taka, fields };
}

export function refusedLocally(fields: BookingRefused['fields']): BookingRefused {
  return { ok: false, reason: 'invalid', message: 'The consignment was not sent: some fields cannot be accepted by the courier', fields, raw: null };
}
