import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const adminPromotionsRoutes: FastifyPluginAsyncZod = async (_app) => {};
