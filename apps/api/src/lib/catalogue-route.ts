import { type Locale, localeFromCookie } from '@storefront/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { BusyError } from './errors.ts';
import { type HttpCaching, sendRead } from './read-cache.ts';

/** The language an API request reads the catalogue in: its `lang` cookie, else English (docs/decisions/0038). */
export function requestLang(request: FastifyRequest): Locale {
  return localeFromCookie(request.headers.cookie) ?? 'en';
}

/**
 * A catalogue read answered through the read cache (docs/decisions/0007), keyed by the
 * route, its parsed input (so `{}` and `{"page":1}` share one entry) and the language of
 * the request's `lang` cookie: `produce` receives it, and an answer that carries catalogue
 * texts (`localized`) says that it varies with the cookie.
 */
export function cachedRead<S extends z.ZodType>(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  schema: S,
  http: HttpCaching,
  produce: (lang: Locale) => Promise<z.input<S>>,
  opts: { cache?: boolean; localized?: boolean } = {},
) {
  const input = request.method === 'GET' ? request.query : request.body;
  const lang = opts.localized ? requestLang(request) : 'en';
  const key = `${request.method} ${request.routeOptions.url} ${lang} ${JSON.stringify(input ?? null)}`;
  if (opts.localized) reply.header('vary', 'Cookie');
  return sendRead(request, reply, { cache: opts.cache === false ? null : app.readCache, key, schema, http, produce: () => produce(lang) });
}

/**
 * Computes a catalogue search in its turn (FastifyInstance.searchGate): refused at once with
 * 503 and Retry-After beyond the queue, and never started for a client that has gone.
 */
export async function inTurn<T>(app: FastifyInstance, request: FastifyRequest, compute: () => Promise<T>): Promise<T> {
  const gone = new AbortController();
  const onClose = () => {
    if (!request.raw.complete || request.raw.socket?.destroyed) gone.abort();
  };
  if (request.raw.socket?.destroyed) gone.abort();
  request.raw.socket?.once('close', onClose);
  try {
    const turn = await app.searchGate.admit(gone.signal);
    if (!turn.ok) throw new BusyError();
    try {
      return await compute();
    } finally {
      turn.release();
    }
  } finally {
    request.raw.socket?.off('close', onClose);
  }
}
