import type { TApiError } from '@storefront/shared';

// The browser's calls to the API (spec §7): JSON bodies, the storefront's API key and a
// device id on every call. The session travels in an httpOnly cookie the script never
// sees (decisions.md).

let apiKey = '';
export function configureApi(key: string) {
  apiKey = key;
}

const DEVICE_KEY = 'device-id';
export function deviceId(): string {
  try {
    let id = localStorage.getItem(DEVICE_KEY);
    if (!id) {
      id = crypto.randomUUID();
      localStorage.setItem(DEVICE_KEY, id);
    }
    return id;
  } catch {
    return 'no-storage';
  }
}

/** The headers every call carries, for calls made without apiFetch (an upload with progress). */
export function apiHeaders(): Record<string, string> {
  return { 'x-api-key': apiKey, 'x-device-id': deviceId(), 'x-session-cookie': '1' };
}

export type ApiResult<T> = { ok: true; status: number; data: T } | { ok: false; status: number; error: TApiError['error'] | null; networkError?: boolean };

/** Never throws: a network failure is `networkError: true` (spec §7, the request helper). */
export async function apiFetch<T>(
  path: string,
  init: { method?: string; body?: unknown; signal?: AbortSignal; headers?: Record<string, string> } = {},
): Promise<ApiResult<T>> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        'x-api-key': apiKey,
        'x-device-id': deviceId(),
        // Sign-in and sign-up put the session in the httpOnly cookie, never in script's reach
        // (docs/decisions/0008).
        'x-session-cookie': '1',
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      credentials: 'same-origin',
      signal: init.signal,
    });
  } catch {
    return { ok: false, status: 0, error: null, networkError: true };
  }
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    // spec §7: when the body is not JSON, only the status is returned.
  }
  if (res.ok) return { ok: true, status: res.status, data: body as T };
  return { ok: false, status: res.status, error: (body as TApiError | null)?.error ?? null };
}
