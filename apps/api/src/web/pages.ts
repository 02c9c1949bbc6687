import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import middie from '@fastify/middie';
import client from 'prom-client';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LANG_COOKIE, LANG_PARAM, localeOf, parseLocale, type WebLoadContext } from '@storefront/shared';
import { createRequestHandler, type ServerBuild } from 'react-router';
import type { ViteDevServer } from 'vite';
import { type CachedPage, PageCache, type RenderResult, withNonce } from './page-cache.ts';
import { RenderGate, type RenderGateOptions } from './render-gate.ts';
import { ShellMemo, shopReads } from './shop-reads.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Turns for server renders (web/render-gate.ts); absent without pages. */
    renderGate?: RenderGate;
  }
}

/** A render the gate refused: the page is answered 503 with Retry-After. */
class Shed extends Error {}

/** What a shopper sees when the shop is too busy to render their page now. */
const BUSY_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
  '<title>Busy</title></head><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5">' +
  '<h1 style="font-size:1.5rem">The shop is very busy right now</h1><p>Please try again in a moment.</p></body></html>';

/** Scripts run only with this response's nonce; the page cannot be framed. */
function pageCsp(nonce: string): string {
  return [
    "default-src 'self'",
    // 'wasm-unsafe-eval' lets the 3D viewer (model-viewer's mesh decoder) compile WebAssembly;
    // it does not allow eval() of script. On every page: a client-side navigation keeps
    // the CSP of the first page loaded.
    `script-src 'self' 'nonce-${nonce}' 'wasm-unsafe-eval'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    // data: for the Bengali marks faces of an English page, inlined in its style (lib/fonts.ts).
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
}

const FORWARDED = ['cookie', 'x-device-id', 'accept-language', 'user-agent', 'x-request-id'];

export interface PagesOptions {
  apiKey: string;
  publicUrl: string;
  pageCacheMs?: number;
  /** Overload shedding of renders (RENDER_CONCURRENCY, RENDER_QUEUE, RENDER_WAIT_MS). */
  renders?: RenderGateOptions;
  /** Production: the React Router build to serve, with its static assets. */
  buildDir?: string;
  /**
   * Development (`npm run dev`, apps/api/src/dev.ts): Vite in middleware mode serves the
   * modules, assets and hot updates, and each page renders with the server build as it is
   * now, so an edit shows on the next request. The same handler and load context as
   * production, without the page cache.
   */
  vite?: ViteDevServer;
}

export async function registerPages(app: FastifyInstance, opts: PagesOptions) {
  const { vite } = opts;
  const shell = new ShellMemo(app);
  const gate = new RenderGate(opts.renders ?? { concurrency: 16, queue: 64, waitMs: 2_000 });
  app.decorate('renderGate', gate);
  if (app.metrics) {
    const registry = app.metrics.registry;
    new client.Gauge({
      name: 'storefront_page_renders',
      help: 'Server renders running and waiting for a turn now.',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        this.set({ state: 'running' }, gate.active);
        this.set({ state: 'waiting' }, gate.queued);
      },
    });
    new client.Counter({
      name: 'storefront_page_renders_refused_total',
      help: 'Pages answered 503 because the server had more renders than it could serve in time.',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(gate.refused);
      },
    });
  }
  const pageCache = new PageCache({ ttlMs: vite ? 0 : (opts.pageCacheMs ?? 0), maxBytes: 32 * 1024 * 1024 });
  let handle: (request: Request, context: never) => Promise<Response>;
  if (vite) {
    handle = async (request, context) =>
      createRequestHandler((await vite.ssrLoadModule('virtual:react-router/server-build')) as ServerBuild, 'development')(request, context);
    // Vite's own middlewares (modules, assets, the HMR client) answer first; what they do
    // not know falls through to the routes.
    await app.register(middie);
    app.use(vite.middlewares);
  } else {
    if (!opts.buildDir) throw new Error('registerPages needs a buildDir or a Vite dev server');
    const build = (await import(pathToFileURL(path.join(opts.buildDir, 'server/index.js')).href)) as ServerBuild;
    handle = createRequestHandler(build, 'production');
    await registerBuildAssets(app, opts.buildDir);
  }

  app.get('/favicon.ico', (_req, reply) => reply.redirect('/favicon.svg', 301));

  // The earlier build served a stray copy of the shop here; it is the shop (decisions.md).
  // The router matches the decoded path, so the route is '/shop copy'.
  app.get('/shop copy', (req, reply) => {
    const q = req.url.indexOf('?');
    return reply.redirect(`/shop${q >= 0 ? req.url.slice(q) : ''}`, 301);
  });

  await app.register(async (scope) => {
    // Route actions read their own bodies: Fastify must not consume them first.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null));

    const pageHandler = async (req: FastifyRequest, reply: FastifyReply) => {
      const nonce = randomBytes(16).toString('base64');
      const controller = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) controller.abort();
      });
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) {
        if (Array.isArray(v)) for (const x of v) headers.append(k, x);
        else if (v !== undefined) headers.set(k, String(v));
      }
      const url = new URL(req.url, `${req.protocol}://${req.headers.host ?? 'localhost'}`);
      const init: RequestInit & { duplex?: 'half' } = { method: req.method, headers, signal: controller.signal };
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        init.body = Readable.toWeb(req.raw) as unknown as ReadableStream;
        init.duplex = 'half';
      }
      const lang = localeOf(url, req.headers.cookie);
      // `?lang=` chooses the language and remembers it (docs/decisions/0038): the links of
      // the page carry no parameter, so the cookie keeps the shopper's choice from here on.
      if (parseLocale(url.searchParams.get(LANG_PARAM))) {
        reply.header('set-cookie', `${LANG_COOKIE}=${lang}; Path=/; Max-Age=${365 * 24 * 60 * 60}; SameSite=Lax`);
      }
      const context: WebLoadContext = {
        apiKey: opts.apiKey,
        publicUrl: opts.publicUrl,
        nonce,
        lang,
        reads: shopReads(app, shell, req),
        async api(apiPath, callInit = {}) {
          const fwd: Record<string, string> = { 'x-api-key': opts.apiKey };
          for (const h of FORWARDED) {
            const v = req.headers[h];
            if (typeof v === 'string') fwd[h] = v;
          }
          const hasBody = callInit.body !== undefined;
          if (hasBody) fwd['content-type'] = 'application/json';
          const res = await app.inject({
            method: (callInit.method ?? 'GET') as 'GET',
            url: apiPath,
            headers: { ...fwd, ...callInit.headers },
            payload: hasBody ? JSON.stringify(callInit.body) : undefined,
            remoteAddress: req.ip,
          });
          const out = new Headers();
          for (const [k, v] of Object.entries(res.headers)) {
            if (Array.isArray(v)) for (const x of v) out.append(k, String(x));
            else if (v !== undefined) out.set(k, String(v));
          }
          return new Response(res.statusCode === 204 || res.statusCode === 304 ? null : res.rawPayload, { status: res.statusCode, headers: out });
        },
      };
      const render = async (pageNonce: string, signal: AbortSignal) => {
        const turn = await gate.admit(signal);
        if (!turn.ok) throw new Shed(turn.reason);
        try {
          return await handle(new Request(url, { ...init, signal }), { ...context, nonce: pageNonce } as never);
        } finally {
          // The shell is rendered: what is left streams without holding a turn.
          turn.release();
        }
      };
      const busy = () => {
        reply.header('content-security-policy', pageCsp(nonce));
        return reply.status(503).header('retry-after', '2').header('cache-control', 'no-store').type('text/html; charset=utf-8').send(BUSY_PAGE);
      };

      try {
        return await renderPage();
      } catch (err) {
        if (err instanceof Shed) return busy();
        throw err;
      }

      async function renderPage() {
        // Guests' catalogue pages go through the page cache (web/page-cache.ts, docs/decisions/0007).
        // The read side's generation is part of the key: after a catalogue change no page
        // rendered before it is served again.
        const pageKey = pageCache.keyFor(req);
        const cacheKey = pageKey && `${app.readCache.generation}|${pageKey}`;
        if (cacheKey) {
          const send = (page: CachedPage) => {
            for (const [k, v] of page.headers) reply.header(k, v);
            reply.header('content-security-policy', pageCsp(nonce));
            return reply.status(page.status).send(withNonce(page, nonce));
          };
          const toResult = async (res: Response, pageNonce: string): Promise<RenderResult> => {
            if (!PageCache.cacheable(res)) return { page: null, response: res };
            const kept = [...res.headers.entries()].filter(([k]) => k !== 'content-length');
            return { page: { status: res.status, headers: kept, body: await res.text(), nonce: pageNonce }, response: null };
          };
          const hit = pageCache.lookup(cacheKey);
          if (hit && !hit.stale) return send(hit.page);
          const running = pageCache.inFlight(cacheKey);
          if (hit) {
            // Stale: this guest gets it now; one render replaces it, tied to no one's connection.
            if (!running) {
              const refreshNonce = randomBytes(16).toString('base64');
              void pageCache
                .render(cacheKey, async () => toResult(await render(refreshNonce, new AbortController().signal), refreshNonce))
                .then((r) => r.response?.body?.cancel())
                .catch(() => {});
            }
            return send(hit.page);
          }
          if (running) {
            const page = await running;
            if (page) return send(page);
          } else {
            const result = await pageCache.render(cacheKey, async () => toResult(await render(nonce, controller.signal), nonce));
            if (result.page) return send(result.page);
            reply.header('content-security-policy', pageCsp(nonce));
            return reply.send(result.response);
          }
        }
        const response = await render(nonce, controller.signal);
        reply.header('content-security-policy', pageCsp(nonce));
        return reply.send(response);
      }
    };
    scope.route({ method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'], url: '/*', handler: pageHandler });
    scope.route({ method: ['GET', 'HEAD', 'POST'], url: '/', handler: pageHandler });
  });
}

/** The client build's files: hashed assets cached for a year, precompressed copies sent as they are. */
async function registerBuildAssets(app: FastifyInstance, buildDir: string) {
  await app.register(fastifyStatic, {
    root: path.join(buildDir, 'client'),
    prefix: '/',
    wildcard: false,
    index: false,
    // The .br/.gz written beside each asset at build time (apps/web/precompress.vite.ts).
    preCompressed: true,
    // @fastify/static 10 hands the Fastify reply here, not the raw response.
    setHeaders(reply: unknown, filePath: string) {
      const r = reply as FastifyReply;
      // Hashed build assets never change: cache them for a year.
      if (filePath.includes(`${path.sep}assets${path.sep}`)) r.header('cache-control', 'public, max-age=31536000, immutable');
      // Open tabs poll it to learn of a new deploy (docs/decisions/0011): always fresh.
      else if (filePath.endsWith(`${path.sep}latest-build.json`)) r.header('cache-control', 'no-cache');
      else r.header('cache-control', 'public, max-age=3600');
    },
  });
}
