import { timingSafeEqual, createHash } from 'node:crypto';
import { type CourierName, CourierError } from './courier.ts';

// The one way the adapters talk to a courier: JSON over fetch with a deadline. Anything
// that means "the courier could not be asked" (no connection, the deadline, a 5xx, an
// answer that is not JSON) becomes CourierError here, so callers can retry later; a 4xx with
// a JSON body is handed back for the adapter to read as the courier's own refusal.

export const DEFAULT_TIMEOUT_MS = 20_000;

export interface JsonAnswer {
  status: number;
  json: Record<string, unknown> | unknown[] | null;
}

export async function requestJson(
  courier: CourierName,
  url: string,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: unknown; timeoutMs?: number },
): Promise<JsonAnswer> {
  const timeoutMs = init.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, {
      method: init.method,
      headers: { accept: 'application/json', ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
    text = await res.text();
  } catch (err) {
    const name = (err as Error)?.name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      throw new CourierError(courier, 'timeout', `${courier} did not answer within ${timeoutMs} ms`);
    }
    throw new CourierError(courier, 'unreachable', `${courier} could not be reached: ${String((err as Error)?.message ?? err).slice(0, 200)}`);
  }
  if (res.status >= 500) throw new CourierError(courier, 'server_error', `${courier} answered ${res.status}`, res.status);
  if (res.status === 401 || res.status === 403) {
    throw new CourierError(courier, 'unauthorised', `${courier} refused our credentials (${res.status})`, res.status);
  }
  let json: JsonAnswer['json'] = null;
  if (text.trim()) {
    try {
      const parsed: unknown = JSON.parse(text);
      json = parsed && typeof parsed === 'object' ? (parsed as JsonAnswer['json']) : null;
    } catch {
      json = null;
    }
  }
  if (json === null) throw new CourierError(courier, 'bad_response', `${courier} answered ${res.status} without a JSON body`, res.status);
  return { status: res.status, json };
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Equality of two secrets in time that does not depend on where they differ or on their
 * lengths: both are hashed first, so timingSafeEqual always compares 32 bytes.
 */
export function secretsEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}

/** Laravel-style `errors: { field: ["message", …] }` to one message per field, renamed to ours. */
export function fieldErrors<K extends string>(errors: unknown, rename: Record<string, K>): Partial<Record<K | string, string>> {
  const out: Partial<Record<string, string>> = {};
  if (!isRecord(errors)) return out;
  for (const [field, messages] of Object.entries(errors)) {
    const first = Array.isArray(messages) ? messages.find((m) => typeof m === 'string') : typeof messages === 'string' ? messages : null;
    const ours = rename[field] ?? field;
    if (!out[ours]) out[ours] = String(first ?? 'Refused by the courier').slice(0, 300);
  }
  return out;
}

export function stringOrNull(v: unknown): string | null {
  return typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : null;
}
