import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ping } from '../../db/database.ts';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['system'],
        summary: 'Liveness and database reachability',
        security: [],
        response: {
          200: z.object({ status: z.literal('ok'), database: z.enum(['sqlite', 'postgres']) }),
          503: z.object({ status: z.literal('unavailable'), database: z.enum(['sqlite', 'postgres']) }),
        },
      },
    },
    async (_req, reply) => {
      try {
        await ping(app.db);
        return { status: 'ok' as const, database: app.db.dialect };
      } catch {
        return reply.status(503).send({ status: 'unavailable' as const, database: app.db.dialect });
      }
    },
  );
};
