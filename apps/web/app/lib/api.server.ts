import type { TApiError } from '@storefront/shared';
import { data, type AppLoadContext } from 'react-router';
import './context.ts';

/** An API answer that was not 2xx, with the API's one error shape. */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly body: TApiError | null,
  ) {
    super(body?.error.message ?? `API answered ${status}`);
  }
}

/**
 * Calls the shop's API from a loader or action (in-process, see WebLoadContext) and
 * returns its JSON. A 404 from the API becomes the page's 404, and so does a 400: the
 * API refused a value taken from the page's address (an invoice id that is not one, a
 * NUL byte), so there is no such page — not a server error. Other failures throw.
 */
export async function apiJson<T>(context: AppLoadContext, path: string, init?: { method?: string; body?: unknown }): Promise<T> {
  const res = await context.api(path, init);
  const text = await res.text();
  const json = text ? JSON.parse(text) : null;
  if (!res.ok) {
    if (res.status === 404) throw data({ message: json?.error?.message ?? 'Not found' }, { status: 404 });
    if (res.status === 400) throw data({ message: 'This address is not valid' }, { status: 404 });
    throw new ApiCallError(res.status, json);
  }
  return json as T;
}

/**
 * Runs a read of `context.reads` (the shop's services, called directly) with the page
 * mapping of apiJson: the API's 404 is the page's 404, and so is its 400 (a value from the
 * page's address that the API refuses). Other failures throw.
 */
export async function pageRead<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    const status = (err as { status?: unknown }).status;
    if (status === 404) throw data({ message: (err as Error).message || 'Not found' }, { status: 404 });
    if (status === 400) throw data({ message: 'This address is not valid' }, { status: 404 });
    throw err;
  }
}

/**
 * A read a page does not wait for (decision 0029): what is below the first screen (a
 * product page's related items, home's listings) streams in after the page's first bytes.
 * It starts on the next turn of the event loop, so that even a synchronous database
 * (SQLite) lets the first screen render first. A failed read gives `fallback` (the section
 * is left out) and is logged: it never fails a page that is already on its way.
 */
export function later<T>(read: () => Promise<T>, fallback: T): Promise<T> {
  return new Promise<void>((resolve) => setImmediate(resolve)).then(read).catch((err) => {
    console.error('A deferred read of a page failed', err);
    return fallback;
  });
}
