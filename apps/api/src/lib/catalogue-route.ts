import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
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
