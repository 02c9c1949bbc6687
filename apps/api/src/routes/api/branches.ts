import { ZApiError, ZBranch } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cachedRead } from '../../lib/catalogue-route.ts';
import { HTTP_CACHE } from '../../lib/read-cache.ts';
import { branchList } from '../../modules/catalogue/catalogue.service.ts';

const ZBranchList = z.object({ list: z.array(ZBranch) });

export const branchRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/branches',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'Showrooms, outlets and warehouses, in their order',
        querystring: z.object({ kind: z.enum(['showroom', 'outlet', 'warehouse']).optional() }),
        response: { 200: ZBranchList, 400: ZApiError, 401: ZApiError },
      },
    },
    (req, reply) => cachedRead(app, req, reply, ZBranchList, HTTP_CACHE.reference, async () => ({ list: await branchList(app.db.kysely, req.query.kind) })),
  );
};
