import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const adminInboxRoutes: FastifyPluginAsyncZod = async (_app) => {};
