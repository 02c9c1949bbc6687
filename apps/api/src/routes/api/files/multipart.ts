import { Readable } from 'node:stream';
import { ZApiError, ZMultipartStartRequest, ZMultipartUpload, ZUploadedFile } from '@storefront/shared';
import { type FastifyPluginAsyncZod, type ZodTypeProvider, validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { abortMultipart, completeMultipart, multipartStatus, putPart, startMultipart, toUploadedFile } from '../../../modules/files/files.service.ts';
import { contentLength } from '../../../lib/content-length.ts';
import { ApiError } from '../../../lib/errors.ts';
import { PICTURE_LIMITS_TEXT } from './picture-limits-text.ts';

const ZUploadParams = z.object({ uuid: z.string().max(64) });
const errors = {
  400: ZApiError,
  401: ZApiError,
  404: ZApiError,
  409: ZApiError,
  413: ZApiError,
  415: ZApiError,
  429: ZApiError,
  503: ZApiError,
  507: ZApiError,
};

/**
 * Multipart uploads for large files (spec §4, §9): start → PUT each part (5 MB, the last at
 * least 1 MB unless it is the only one; any order, up to 4 at once, a part may be sent
 * again) → complete. GET tells which parts arrived, so an interrupted upload resumes
 * without sending them again. Unfinished uploads are removed after a day.
 */
export const multipartUploadRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/files/multipart/start',
    {
      schema: {
        tags: ['files'],
        summary: 'Start a multipart upload: answers the parts to send and where',
        description:
          "The declared size is reserved against what the customer (or a guest's address) may keep stored until the upload completes, is cancelled or expires: " +
          "413 quota_exceeded when it does not fit, and for a guest 507 storage_full when the shop has no more room for guests' files.",
        body: ZMultipartStartRequest,
        response: { 200: ZMultipartUpload, ...errors },
      },
    },
    async (req, reply) => {
      app.files.throttle('start', req, reply);
      return startMultipart(app.files.deps, { ...req.body, who: app.files.uploader(req) });
    },
  );

  app.get(
    '/api/files/multipart/:uuid',
    {
      schema: {
        tags: ['files'],
        summary: 'A multipart upload: its parts and the ones already received (to resume)',
        params: ZUploadParams,
        response: { 200: ZMultipartUpload, ...errors },
      },
    },
    async (req) => multipartStatus(app.files.deps, req.params.uuid, req.customerId),
  );

  // A part's bytes are opaque, whatever Content-Type the client gives them, and arrive as a
  // stream, never buffered: the service refuses a Content-Length beyond the part's planned
  // size and counts the bytes as they come (chunked, or more than announced).
  await app.register(async (parent) => {
    const scope = parent.withTypeProvider<ZodTypeProvider>();
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    scope.put(
      '/api/files/multipart/:uuid/parts/:partNumber',
      {
        schema: {
          tags: ['files'],
          summary: "Send one part's bytes (Content-Type application/octet-stream)",
          consumes: ['application/octet-stream'],
          // Describes the body for the OpenAPI document; the bytes themselves are streamed.
          body: z.string().meta({ format: 'binary' }),
          params: z.object({ uuid: z.string().max(64), partNumber: z.coerce.number().int().min(1).max(10_000) }),
          response: {
            200: z.object({ partNumber: z.number().int(), size: z.number().int(), completedParts: z.array(z.number().int()) }),
            ...errors,
          },
        },
        validatorCompiler: (route) => (route.httpPart === 'body' ? (data: unknown) => ({ value: data }) : validatorCompiler(route as never)),
      },
      async (req, reply) => {
        app.files.throttle('part', req, reply);
        if (!((req.body as unknown) instanceof Readable)) throw new ApiError('bad_request', 'Send the part as the request body', { body: 'Missing' });
        return putPart(app.files.deps, {
          uuid: req.params.uuid,
          partNumber: req.params.partNumber,
          owner: req.customerId,
          contentLength: contentLength(req),
          body: req.body as unknown as Readable,
        });
      },
    );
  });

  app.post(
    '/api/files/multipart/:uuid/complete',
    {
      schema: {
        tags: ['files'],
        summary: 'Join the received parts into the file; answers the uploaded file',
        description: PICTURE_LIMITS_TEXT,
        params: ZUploadParams,
        response: { 200: ZUploadedFile, ...errors },
      },
    },
    async (req) => toUploadedFile(await completeMultipart(app.files.deps, req.params.uuid, req.customerId), app.config.imageHost),
  );

  app.delete(
    '/api/files/multipart/:uuid',
    {
      schema: {
        tags: ['files'],
        summary: 'Cancel an unfinished multipart upload and drop its parts',
        params: ZUploadParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await abortMultipart(app.files.deps, req.params.uuid, req.customerId);
      return reply.status(204).send(null);
    },
  );
};
