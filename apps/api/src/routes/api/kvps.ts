import { ZApiError } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cachedRead } from '../../lib/catalogue-route.ts';
import { HTTP_CACHE } from '../../lib/read-cache.ts';
import { siteSettings } from '../../modules/site/site.service.ts';

const ZSettings = z.record(z.string(), z.string());

export const kvpsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/kvps',
    {
      schema: {
        tags: ['site'],
        summary: 'Site settings: brand, hotlines, support email, social links, licence numbers',
        querystring: z.object({ keys: z.string().max(2000).optional().describe('Comma-separated keys; all when absent') }),
        response: { 200: ZSettings, 401: ZApiError },
      },
    },
    (req, reply) => {
      const keys = req.query.keys
        ?.split(',')
        .map((k) => k.trim())
        .filter(Boolean);
      // Every server-rendered page reads these: served from the read cache (docs/decisions/0007).
      return cachedRead(app, req, reply, ZSettings, HTTP_CACHE.reference, () => siteSettings(app.db.kysely, keys));
    },
  );
};
