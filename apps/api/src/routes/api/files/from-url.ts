import { PassThrough } from 'node:stream';
import { UPLOAD, ZApiError, ZFromUrlRequest, ZUploadTask, isFinalTaskStatus } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PICTURE_LIMITS_TEXT } from './picture-limits-text.ts';

const ZToken = z.object({ token: z.string().max(64) });

/**
 * Imports from a URL (spec §4): start, then poll the task's status every 500 ms until it
 * is success or error; or follow it as server-sent events, which are read with fetch (so
 * the API key header goes along) and close once the task ends or after 30 s without news.
 */
export const fromUrlRoutes: FastifyPluginAsyncZod = async (app) => {
  // Event streams still open end when the server shuts down, so that it need not wait for them.
  const open = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const stop of [...open]) stop();
  });

  app.post(
    '/api/files/from-url',
    {
      schema: {
        tags: ['files'],
        summary: 'Start importing a file from an http(s) URL; answers the task to follow',
        description:
          'Loopback, private, link-local and metadata addresses are refused (also when reached by a redirect or a DNS name), as are schemes other than http and https. ' +
          "Room for the file is reserved when the import starts: 413 quota_exceeded when the customer (or a guest's address) has none left, 507 storage_full for a guest when the shop has none; " +
          'a file larger than the room ends the task in error with the same code. ' +
          PICTURE_LIMITS_TEXT.replace('refused with 413 image_too_large', 'ends the task in error with image_too_large'),
        body: ZFromUrlRequest,
        response: { 202: ZUploadTask, 400: ZApiError, 401: ZApiError, 403: ZApiError, 413: ZApiError, 429: ZApiError, 503: ZApiError, 507: ZApiError },
      },
    },
    async (req, reply) => {
      app.files.throttle('start', req, reply);
      const task = await app.files.importer.start({ ...req.body, who: app.files.uploader(req) });
      return reply.status(202).send(task);
    },
  );

  app.get(
    '/api/files/from-url/:token',
    {
      schema: {
        tags: ['files'],
        summary: 'The status of an import task: unknown, waiting, progress, error or success',
        params: ZToken,
        response: { 200: ZUploadTask, 401: ZApiError, 404: ZApiError },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return app.files.importer.status(req.params.token, req.customerId);
    },
  );

  app.get(
    '/api/files/from-url/:token/events',
    {
      // Events must reach the browser as they are written, not when a compressor flushes.
      compress: false,
      schema: {
        tags: ['files'],
        summary: 'The import task as server-sent events (event: status); closes when it ends or after 30 s idle',
        params: ZToken,
        produces: ['text/event-stream'],
        response: { 401: ZApiError, 404: ZApiError },
      },
    },
    async (req, reply) => {
      const { importer } = app.files;
      // Refuse others' tasks with a plain 404 before the stream starts.
      let last = await importer.status(req.params.token, req.customerId);
      const out = new PassThrough();
      const send = (task: typeof last) => out.write(`event: status\ndata: ${JSON.stringify(task)}\n\n`);
      let lastChange = Date.now();
      let timer: NodeJS.Timeout | undefined;
      const stop = () => {
        clearInterval(timer);
        open.delete(stop);
        if (!out.writableEnded) out.end();
      };
      send(last);
      if (isFinalTaskStatus(last.status) || last.status === 'unknown') stop();
      else {
        open.add(stop);
        // Any process may be running the import, so the database is what we watch.
        timer = setInterval(async () => {
          try {
            const now = await importer.status(req.params.token, req.customerId);
            if (out.writableEnded) return;
            if (JSON.stringify(now) !== JSON.stringify(last)) {
              last = now;
              lastChange = Date.now();
              send(now);
            }
            if (isFinalTaskStatus(now.status) || Date.now() - lastChange >= app.files.eventsIdleMs) stop();
          } catch {
            stop();
          }
        }, UPLOAD.pollIntervalMs);
        reply.raw.on('close', stop);
      }
      return (
        reply
          .header('content-type', 'text/event-stream; charset=utf-8')
          .header('cache-control', 'no-store')
          .header('x-accel-buffering', 'no')
          // A stream is written as it comes, not serialised (the typed reply knows only JSON bodies).
          .send(out as never)
      );
    },
  );
};
