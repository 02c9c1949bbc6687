import { createHash, timingSafeEqual } from 'node:crypto';
import type { Minor } from '@storefront/shared';
import type { GatewayTransaction } from './provider.ts';

// The wire details SSLCommerz and our sandbox share: decimal amounts and the
// verify_sign / verify_key signature of notifications.

/** Poisha as the gateway's decimal (10,2) text: 123456 → "1234.56". */
export function toGatewayAmount(minor: Minor): string {
  if (!Number.isSafeInteger(minor) || minor < 0) throw new RangeError(`not an amount: ${minor}`);
  return `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
}

/**
 * The gateway's decimal text as poisha, exactly ("1234.5" → 123450), without going through
 * floating point. Anything that is not a plain non-negative decimal with at most two
 * places gives null, and a null never matches an order's amount.
 */
export function parseGatewayAmount(value: unknown): Minor | null {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const m = /^(\d{1,12})(?:\.(\d{1,2})\d*)?$/.exec(text);
  if (!m) return null;
  // More than two places are accepted only when the extra digits are zeros ("10.000").
  const extra = text.includes('.') ? text.split('.')[1].slice(2) : '';
  if (/[1-9]/.test(extra)) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'));
}

const md5 = (s: string) => createHash('md5').update(s, 'utf8').digest('hex');

/**
 * SSLCommerz's notification signature: md5 of `key=value&…` over the fields listed in
 * verify_key plus `store_passwd=md5(password)`, keys sorted. Returns the two fields a
 * gateway adds to what it posts.
 */
export function signFields(fields: Record<string, string>, password: string): { verify_sign: string; verify_key: string } {
  const keys = Object.keys(fields).filter((k) => k !== 'verify_sign' && k !== 'verify_key' && k !== 'verify_sign_sha2');
  return { verify_key: keys.join(','), verify_sign: md5(signingString(fields, keys, password)) };
}

function signingString(fields: Record<string, string>, keys: string[], password: string): string {
  const data: Record<string, string> = {};
  for (const k of keys) if (k in fields) data[k] = fields[k];
  data.store_passwd = md5(password);
  return Object.keys(data)
    .sort()
    .map((k) => `${k}=${data[k]}`)
    .join('&');
}

/** Checks a posted notification's verify_sign against our copy of the store password. */
export function verifyFields(fields: Record<string, string>, password: string): boolean {
  const sign = fields.verify_sign;
  const keyList = fields.verify_key;
  if (!sign || !keyList) return false;
  const keys = keyList.split(',').filter(Boolean);
  // The signature must cover what we act on; a notification signing only harmless fields is refused.
  for (const needed of ['tran_id', 'status']) if (!keys.includes(needed)) return false;
  const expected = Buffer.from(md5(signingString(fields, keys, password)));
  const given = Buffer.from(String(sign).toLowerCase());
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** A validation or query answer in our terms. */
export function toTransaction(raw: Record<string, unknown>): GatewayTransaction {
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);
  const risk = str(raw.risk_level);
  // currency_type/currency_amount are what the merchant sent; amount may be converted to BDT.
  const currency = str(raw.currency_type) ?? str(raw.currency);
  const amount = str(raw.currency_type) ? parseGatewayAmount(raw.currency_amount ?? raw.amount) : parseGatewayAmount(raw.amount);
  return {
    status: (str(raw.status) ?? 'UNKNOWN').toUpperCase(),
    tranId: str(raw.tran_id),
    valId: str(raw.val_id),
    amount,
    currency: currency?.toUpperCase() ?? null,
    riskLevel: risk === null ? null : Number(risk) === 1 ? 1 : 0,
    bankTranId: str(raw.bank_tran_id),
    cardType: str(raw.card_type),
    raw: stripSecrets(raw),
  };
}

export function stripSecrets(raw: Record<string, unknown>): Record<string, unknown> {
  const { store_passwd: _p, store_pass: _q, store_id: _s, ...rest } = raw as Record<string, unknown>;
  return rest;
}
