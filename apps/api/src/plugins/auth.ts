import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../lib/errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in customer's id, or null for a guest. */
    customerId: number | null;
    /** The id of the session that signed the request in, or null. */
    sessionId: number | null;
  }
}

/**
 * Resolves the session of every request (cookie `sid` or the `x-auth-token` header,
 * decisions.md) into `request.customerId`. The session store belongs to the accounts
 * module; until it is registered every request is a guest's.
 */
export type SessionResolver = (request: FastifyRequest) => Promise<{ customerId: number; sessionId: number } | null>;

export const authPlugin = fp(async (app: FastifyInstance, opts: { resolve?: SessionResolver }) => {
  app.decorateRequest('customerId', null);
  app.decorateRequest('sessionId', null);
  if (!opts.resolve) return;
  const resolve = opts.resolve;
  app.addHook('preHandler', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    const s = await resolve(request);
    request.customerId = s?.customerId ?? null;
    request.sessionId = s?.sessionId ?? null;
  });
});

/** The signed-in customer's id, or a 401 in the one error shape. */
export function requireCustomer(request: FastifyRequest): number {
  if (request.customerId == null) throw new ApiError('unauthorized', 'Please sign in to continue');
  return request.customerId;
}
