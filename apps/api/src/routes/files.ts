import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contentDisposition } from '../modules/files/file-name.ts';
import { isInlineSafe } from '../modules/files/file-type.ts';
import { findFile } from '../modules/files/files.service.ts';
import { StorageNotFoundError } from '../modules/files/storage.ts';
import { errorBody } from '../plugins/errors.ts';

/**
 * The bytes of uploaded files, at /files/<uuid>/<name> (the cdnUrl of spec §3). Outside
 * /api because an <img> cannot send the API key (decision 0012). Only real raster images
 * are shown inline; everything else, SVG and HTML above all, downloads as an attachment,
 * and nothing is sniffed or allowed to run script.
 */
export const fileServeRoutes: FastifyPluginAsyncZod = async (app) => {
  const handler = async (req: { params: { uuid: string }; headers: Record<string, string | string[] | undefined> }, reply: import('fastify').FastifyReply) => {
    const row = await findFile(app.db.kysely, req.params.uuid);
    if (!row) return reply.status(404).send(errorBody('not_found', 'No such file'));
    const inline = row.is_image === 1 && isInlineSafe(row.mime_type);
    const etag = `"${row.uuid}"`;
    reply
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', contentDisposition(inline ? 'inline' : 'attachment', row.name))
      // Opened on its own, a file is a sandboxed document that can run nothing.
      .header('content-security-policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox; frame-ancestors 'none'")
      // A file's bytes never change under its uuid.
      .header('etag', etag)
      .header('cache-control', inline ? 'public, max-age=31536000, immutable' : 'private, max-age=3600')
      // Images may be shown from an image host on another origin (IMAGE_HOST); documents may not.
      .header('cross-origin-resource-policy', inline ? 'cross-origin' : 'same-origin')
      .header('x-robots-tag', 'noindex');
    if (req.headers['if-none-match'] === etag) return reply.status(304).send();
    let stream: Awaited<ReturnType<typeof app.files.deps.storage.read>>;
    try {
      stream = await app.files.deps.storage.read(row.storage_key);
    } catch (err) {
      if (err instanceof StorageNotFoundError) return reply.status(404).send(errorBody('not_found', 'No such file'));
      throw err;
    }
    return reply
      .header('content-type', inline || row.mime_type === 'application/pdf' ? row.mime_type : 'application/octet-stream')
      .header('content-length', String(row.size))
      .send(stream);
  };

  const schema = { hide: true, params: z.object({ uuid: z.string().max(64), '*': z.string().optional() }) };
  app.get('/files/:uuid', { schema }, handler);
  // The name is a label for people and downloads; a wildcard, because an encoded Bengali
  // name is longer than a route parameter may be (maxParamLength).
  app.get('/files/:uuid/*', { schema }, handler);
};
