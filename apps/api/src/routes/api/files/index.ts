import multipart from '@fastify/multipart';
import { UPLOAD, ZApiError, ZUploadedFile, ZUploadType } from '@storefront/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contentLength } from '../../../lib/content-length.ts';
import { ApiError } from '../../../lib/errors.ts';
import { type StoredObject, acceptObject, fileInfo, storeObject, toUploadedFile, tooLarge } from '../../../modules/files/files.service.ts';
import { type Hold, type Uploader, overHoldError, releaseHold, reserveUpload } from '../../../modules/files/upload-quota.ts';
import { fromUrlRoutes } from './from-url.ts';
import { multipartUploadRoutes } from './multipart.ts';
import { PICTURE_LIMITS_TEXT } from './picture-limits-text.ts';

/** Room for the form's boundaries, headers and the type field around the file itself. */
const FORM_OVERHEAD = 64 * 1024;

const errors = { 400: ZApiError, 401: ZApiError, 404: ZApiError, 413: ZApiError, 415: ZApiError, 429: ZApiError, 503: ZApiError, 507: ZApiError };

/**
 * Files: direct upload (POST /api/files, spec §7), multipart uploads for large
 * files, imports from URLs, and a file's details. The bytes are served outside /api
 * (routes/files.ts) so that an <img> can show them.
 */
export const fileRoutes: FastifyPluginAsyncZod = async (app) => {
  // The JSON body limit of the app (1 MiB) does not apply here: the form is read as a
  // stream and the file counted against UPLOAD.maxBytes as it arrives.
  await app.register(multipart, {
    limits: { fileSize: UPLOAD.maxBytes + 1, files: 1, fields: 5, fieldSize: 1024, parts: 8, headerPairs: 50 },
    throwFileSizeLimit: false,
  });

  // A client still sending a body we will not read (too large, over its quota, refused)
  // gets its connection closed rather than having the rest of its upload read and thrown
  // away: the errors plugin does so for every route (plugins/errors.ts).

  app.post(
    '/api/files',
    {
      schema: {
        tags: ['files'],
        summary: 'Upload a file (spec §7): a multipart form with the fields file and type',
        description:
          `type is "image" (PNG, JPEG, GIF or WebP) or "document" (those or a PDF). The type is decided from the file's bytes, not its name. ` +
          `At most ${UPLOAD.maxBytes / 1024 / 1024} MB (413 beyond); files of ${UPLOAD.multipartFromBytes / 1024 / 1024} MB or more should use /api/files/multipart/start. ` +
          "A throttled client gets 429 with Retry-After. An upload that does not fit in what the customer (or a guest's address) may keep stored is refused with 413 quota_exceeded, " +
          "and a guest upload when the shop has no more room for guests' files with 507 storage_full, before the body is read when its length is given. " +
          PICTURE_LIMITS_TEXT,
        consumes: ['multipart/form-data'],
        // Describes the form for the OpenAPI document; the form itself is read as a stream.
        body: z.object({ file: z.string().meta({ format: 'binary' }), type: ZUploadType }),
        response: { 200: ZUploadedFile, ...errors },
      },
      validatorCompiler: () => (data) => ({ value: data }),
    },
    async (req, reply) => {
      app.files.throttle('start', req, reply);
      const declared = contentLength(req);
      if (declared !== null && declared > UPLOAD.maxBytes + FORM_OVERHEAD) throw tooLarge();
      if (!req.isMultipart()) {
        throw new ApiError('unsupported_media_type', 'Send the file as multipart/form-data with the fields file and type', undefined, 415);
      }
      // Room under the uploader's quota is reserved before a byte is read (docs/decisions/0024):
      // the declared length when there is one, otherwise what is left, at which the body is cut off.
      const who = app.files.uploader(req);
      const hold = await reserveUpload(
        app.files.deps,
        who,
        declared !== null ? { bytes: Math.min(declared, UPLOAD.maxBytes) } : { bytes: UPLOAD.maxBytes, atLeast: 1 },
      );
      try {
        return await receiveForm(req, who, hold);
      } finally {
        await releaseHold(app.files.deps.db, hold);
      }
    },
  );

  /** Reads the form, storing its file within the hold, and records the file. */
  async function receiveForm(req: FastifyRequest, who: Uploader, hold: Hold) {
    const { storage } = app.files.deps;
    let type: unknown;
    let filename: string | undefined;
    let obj: StoredObject | null = null;
    // Whether the error came from storing the bytes (the server's disk: a 500) rather than
    // from reading the form (a malformed body, no boundary, cut short: the client's 400).
    let storing = false;
    let formBroken = false;
    try {
      for await (const part of req.parts()) {
        if (part.type === 'field') {
          if (part.fieldname === 'type') type = part.value;
          continue;
        }
        if (part.fieldname !== 'file') {
          throw new ApiError('bad_request', 'Send the file in the field named file', { file: 'Missing file' });
        }
        filename = part.filename;
        part.file.once('error', () => {
          formBroken = true;
        });
        storing = true;
        obj = await storeObject(storage, part.file, Math.min(UPLOAD.maxBytes, hold.bytes), () => overHoldError(who, hold, app.files.deps.quota, tooLarge));
        storing = false;
      }
    } catch (err) {
      if (obj) await storage.delete(obj.key).catch(() => {});
      if (err instanceof ApiError) throw err;
      const code = (err as { code?: string }).code ?? '';
      if (code.startsWith('FST_')) throw new ApiError('bad_request', 'The form must hold one file and its type', { file: 'One file only' });
      if (!storing || formBroken)
        throw new ApiError('bad_request', 'The multipart form is malformed (its boundary or parts)', { file: 'Send the file as a well-formed multipart form' });
      throw err;
    }
    if (!obj) throw new ApiError('validation_error', 'Choose a file to upload', { file: 'Choose a file to upload' });
    const parsed = ZUploadType.safeParse(type);
    if (!parsed.success) {
      await storage.delete(obj.key).catch(() => {});
      throw new ApiError('validation_error', 'The type must be image or document', { type: 'Must be image or document' });
    }
    const row = await acceptObject(app.files.deps, obj, {
      type: parsed.data,
      filename,
      owner: who.customerId,
      address: who.address,
      holdId: hold.id,
      source: 'direct',
    });
    return toUploadedFile(row, app.config.imageHost);
  }

  app.get(
    '/api/files/:uuid',
    {
      schema: {
        tags: ['files'],
        summary: "A file's details: the caller's own files, or a guest's by its uuid",
        params: z.object({ uuid: z.string().max(64) }),
        response: { 200: ZUploadedFile, 401: ZApiError, 404: ZApiError },
      },
    },
    async (req) => fileInfo(app.files.deps, req.params.uuid, req.customerId),
  );

  await app.register(multipartUploadRoutes);
  await app.register(fromUrlRoutes);
};
