import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import cookie from '@fastify/cookie';
import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { LOCALES } from '@storefront/shared';
import { serverI18n } from '@storefront/shared/i18n/server';
import { type AppConfig, fastifyTrustProxy, LOG_REDACT } from './config.ts';
import type { Db } from './db/database.ts';
import { type ClientAddress, clientAddress } from './lib/client-address.ts';
import { apiKeyPlugin } from './plugins/api-key.ts';
import { accountsPlugin } from './modules/accounts/accounts.plugin.ts';
import { createSessionResolver } from './modules/accounts/sessions.ts';
import { adminAuthPlugin } from './plugins/admin-auth.ts';
import { authPlugin } from './plugins/auth.ts';
import { cataloguePlugin } from './plugins/catalogue.ts';
import { clientErrorHandler, errorBody, errorsPlugin, frameworkErrors } from './plugins/errors.ts';
import { ApiError } from './lib/errors.ts';
import { type FilesPluginOptions, filesPlugin } from './plugins/files.ts';
import { textInputPlugin } from './plugins/text-input.ts';
import { mailPlugin } from './plugins/mail.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { openapiPlugin } from './plugins/openapi.ts';
import { paymentsPlugin } from './plugins/payments.ts';
import { couriersPlugin } from './plugins/couriers.ts';
import { apiRoutes } from './routes/api/index.ts';
import { fileServeRoutes } from './routes/files.ts';
import { imageRoutes } from './routes/images.ts';
import { mediaRoutes } from './routes/media.ts';
import { paymentPageRoutes } from './routes/payments.ts';
import { seoRoutes } from './routes/seo.ts';
import { registerPages } from './web/pages.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: AppConfig;
  }
  interface FastifyRequest {
    /**
     * The client as every per-address limit counts it: the IPv4 address, or the /64 of an
     * IPv6 one (docs/decisions/0049). Limits read this, never `request.ip`.
     */
    readonly clientAddress: ClientAddress;
  }
}

/** JSON bodies above this get a 413 (uploads have their own, larger limit). */
export const JSON_BODY_LIMIT = 1024 * 1024;

export interface BuildOptions {
  config: AppConfig;
  db: Db;
  /** Pino options; tests pass { level: 'silent' }. */
  logger?: boolean | Record<string, unknown>;
  /** Uploaded files: storage, throttles, and test-only hooks (plugins/files.ts). */
  files?: FilesPluginOptions;
}

export async function buildApp({ config, db, logger, files }: BuildOptions): Promise<FastifyInstance> {
  // The mails' catalogues are compiled now, not by the first request that sends one: that
  // request would answer later than the others (a reset for a known address slower than for
  // an unknown one, docs/decisions/0009).
  for (const locale of LOCALES) serverI18n(locale);
  const app = Fastify({
    // Secrets never reach the log: auth headers and cookies are redacted (docs/decisions/0027).
    logger: logger ?? { level: config.logLevel, redact: LOG_REDACT },
    bodyLimit: JSON_BODY_LIMIT,
    // Only the configured hops or proxy addresses may name the client (docs/decisions/0023).
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // No requestIdHeader: with one, Fastify takes the header's value as it comes and never
    // calls genReqId, so the check below would not run. genReqId reads the header itself.
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{8,64}$/.test(given) ? given : randomUUID();
    },
    // __proto__ / constructor.prototype keys in JSON are refused with a 400.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    return503OnClosing: true,
    // Start-up work in onReady hooks (the search index of a large catalogue, on a busy
    // machine) may take longer than Fastify's default 10 s; a slow start is not a failure.
    pluginTimeout: 120_000,
    // Requests refused by the HTTP parser itself (a head over 16 KB…) answer in the one error shape.
    clientErrorHandler,
    // …and so do paths the router refuses (a broken percent-escape, a parameter too long).
    frameworkErrors,
    forceCloseConnections: 'idle',
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('db', db);
  app.decorate('config', config);
  app.decorateRequest('clientAddress', {
    getter(this: { ip: string }) {
      return clientAddress(this.ip);
    },
  });

  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  // A GET or HEAD has no body, and Fastify never reads one: answered before its handler, so a
  // large answer (a CSV export) is never written while the unread body still arrives (Node
  // then resets the connection and the client gets no answer at all).
  app.addHook('onRequest', async (req) => {
    if ((req.method === 'GET' || req.method === 'HEAD') && (Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined)) {
      throw new ApiError('bad_request', 'A GET request has no body');
    }
  });

  await app.register(errorsPlugin);
  // Before every route, so that its timing hook sees them all.
  await app.register(metricsPlugin);
  // NUL characters in request text: a 400 on every route, before validation.
  await app.register(textInputPlugin);
  await app.register(helmet, {
    // The default for every answer: JSON, assets and images may load nothing, run nothing
    // and be framed by nobody. Pages replace it with a per-request CSP carrying a script
    // nonce (web/pages.ts); the gateway page, uploaded files, drawings and the API
    // reference set their own.
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
    },
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // HSTS only means something over TLS; a proxy in front sets it there.
    strictTransportSecurity: config.publicUrl.startsWith('https:'),
  });
  // Pages and JSON go out compressed to clients that accept it (every browser): on a
  // phone's network the bytes are most of the wait. Low levels: the home page (114 KB)
  // takes ~0.45 ms at brotli 3 (16 KB) and ~0.5 ms at gzip 3 (19 KB), against 0.7 and 1 ms
  // at the usual 4 and 6 for 5-10% fewer bytes. Build assets are compressed once at build
  // time instead (web/pages.ts). Server-sent events opt out per route: they must flush as
  // they go.
  if (config.compression) {
    await app.register(compress, {
      global: true,
      threshold: 1024,
      encodings: ['br', 'gzip'],
      // A 256 KiB window covers the largest page (~120 KB) at a sixteenth of the default's
      // memory per answer in flight.
      brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 3, [zlib.constants.BROTLI_PARAM_LGWIN]: 18 } },
      zlibOptions: { level: 3 },
    });
  }
  await app.register(cookie);
  await app.register(openapiPlugin);
  await app.register(apiKeyPlugin, { apiKey: config.apiKey });
  await app.register(mailPlugin);
  await app.register(cataloguePlugin);
  // The accounts module passes its session resolver here.
  await app.register(accountsPlugin);
  await app.register(authPlugin, { resolve: createSessionResolver(app.accounts) });
  // Staff sessions and the permission of every /api/admin route (before the routes).
  await app.register(adminAuthPlugin);
  await app.register(filesPlugin, files ?? {});
  // Card payments: the provider (sandbox or SSLCommerz) and its housekeeping.
  await app.register(paymentsPlugin);
  // Couriers configured for booking parcels, and the poll of their statuses (docs/decisions/0040).
  await app.register(couriersPlugin);
  await app.register(apiRoutes);
  await app.register(paymentPageRoutes);
  await app.register(mediaRoutes);
  await app.register(seoRoutes);
  await app.register(fileServeRoutes);
  await app.register(imageRoutes);

  // Unknown /api paths answer JSON, never a page.
  // Hidden from the OpenAPI document: it is not an endpoint, only the answer for a wrong path.
  app.all('/api/*', { schema: { hide: true } }, async (req, reply) =>
    reply.status(404).send(errorBody('not_found', `No API endpoint at ${req.method} ${req.url.split('?')[0]}`)),
  );
  app.setNotFoundHandler((req, reply) => reply.status(404).send(errorBody('not_found', `Nothing at ${req.method} ${req.url.split('?')[0]}`)));

  if (config.webBuildDir && fs.existsSync(path.join(config.webBuildDir, 'server/index.js'))) {
    await registerPages(app, {
      buildDir: config.webBuildDir,
      apiKey: config.apiKey,
      publicUrl: config.publicUrl,
      pageCacheMs: config.pageCacheMs,
      renders: config.renders,
    });
  } else if (config.webBuildDir) {
    app.log.warn({ dir: config.webBuildDir }, 'no web build found: serving the API only (run npm run build)');
  }
  return app;
}
