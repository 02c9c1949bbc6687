import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { BusyError } from './errors.ts';
import { type HttpCaching, sendRead } from './read-cache.ts';

/**
 * A catalogue read answered through the read cache (docs/decisions/0007), keyed by the
 * route and its parsed input (so `{}` and `{"page":1}` share one entry).
 */
export function cachedRead<S extends z.ZodType>(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  schema: S,
  http: HttpCaching,
  produce: () => Promise<z.input<S>>,
  opts: { cache?: boolean } = {},
) {
  const input = request.method === 'GET' ? request.query : request.body;
  const key = `${request.method} ${request.routeOptions.url} ${JSON.stringify(input ?? null)}`;
  return sendRead(request, reply, { cache: opts.cache === false ? null : app.readCache, key, schema, http, produce });
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
