import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../lib/errors.ts';

/** Paths under /api that answer without the storefront's API key. */
// Couriers' webhooks carry the courier's own credentials, checked by the route (docs/decisions/0040).
const OPEN_PREFIXES = ['/api/health', '/api/docs', '/api/openapi.json', '/api/couriers'];

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * spec §7: every call carries an API key identifying the storefront and a device id.
 * The key is not a secret (the browser holds it); requiring a custom header also means
 * a cross-site form can never call the API with a shopper's cookie.
 */
export const apiKeyPlugin = fp(async (app: FastifyInstance, opts: { apiKey: string; open?: string[] }) => {
  const open = [...OPEN_PREFIXES, ...(opts.open ?? [])];
  const underApi = (p: string) => p === '/api' || p.startsWith('/api/');
  app.addHook('onRequest', async (request) => {
    // Decide by the route the router matched, not by the raw URL alone: the router decodes
    // the path, so /%61pi/kvps reaches /api/kvps while its raw URL is not under /api.
    const route = request.routeOptions.url;
    const raw = request.url.split('?')[0];
    if (!underApi(raw) && !(route && underApi(route))) return;
    const target = route ?? raw;
    if (open.some((p) => target === p || target.startsWith(`${p}/`))) return;
    const key = request.headers['x-api-key'];
    if (typeof key !== 'string' || !same(key, opts.apiKey)) {
      // Refused before the body is read: the answer closes the connection rather than
      // draining whatever the client is still sending (plugins/errors.ts, decision 0024).
      throw new ApiError('unauthorized', 'A valid API key is required (x-api-key header)');
    }
  });
});
