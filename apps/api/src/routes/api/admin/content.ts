import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const adminContentRoutes: FastifyPluginAsyncZod = async (_app) => {};
