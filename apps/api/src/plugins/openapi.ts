import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** The OpenAPI 3 document at /api/openapi.json and a browsable reference at /api/docs. */
export const openapiPlugin = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Storefront API',
        version: '1.0.0',
        description:
          'The public REST API of the storefront. Every call under /api (except health and this document) needs the `x-api-key` header; customer calls need the session (cookie `sid` or the `x-auth-token` header). Errors always have the shape `{ "error": { "code", "message", "fields"? } }`.',
      },
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
          authToken: { type: 'apiKey', in: 'header', name: 'x-auth-token' },
          // The back office (/api/admin/*): the staff session cookie, separate from customers'.
          adminSession: { type: 'apiKey', in: 'cookie', name: 'admin_sid' },
        },
      },
      security: [{ apiKey: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true },
    // The reference page's own CSP: its scripts by hash, no inline script otherwise. It may
    // not be framed, and it must work over plain http (no upgrade-insecure-requests).
    staticCSP: true,
    transformStaticCSP: (header: string) =>
      header
        .replace("frame-ancestors 'self'", "frame-ancestors 'none'")
        .replace(/\s*upgrade-insecure-requests;?/, '')
        .replace(' validator.swagger.io', ''),
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
});
