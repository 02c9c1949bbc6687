import fs from 'node:fs';
import { IMAGE_WIDTHS } from '@storefront/shared';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ImageSource } from '../modules/images/image-variants.ts';
import { errorBody } from '../plugins/errors.ts';

const SIZES = `${IMAGE_WIDTHS.join(', ')} pixels wide as .avif, .webp or .jpg, or og.jpg`;

/**
 * Resized copies of pictures (modules/images): `/images/files/<uuid>/<variant>` for an
 * uploaded image and `/images/demo|banner/<shape>/<colour>/<variant>` for a demo drawing,
 * where a variant is `640.webp` and the like (packages/shared upload-images.ts). Outside
 * /api, like /files: an <img> sends no API key (decision 0012).
 */
export const imageRoutes: FastifyPluginAsyncZod = async (app) => {
  const send = async (source: ImageSource, variant: string, reply: FastifyReply) => {
    const answer = await app.files.images.get(source, variant);
    switch (answer.status) {
      case 'bad_variant':
        return reply.status(400).send(errorBody('bad_request', `No such picture size: the sizes are ${SIZES}`, { variant: 'Not one of the sizes' }));
      case 'not_found':
        return reply.status(404).send(errorBody('not_found', 'No such picture'));
      case 'redirect':
        return reply.header('cache-control', 'public, max-age=3600').redirect(answer.location, 307);
    }
    return (
      reply
        .header('content-type', answer.mime)
        .header('content-length', String(answer.size))
        // A copy never changes under its address (a new upload is a new uuid; a drawing is a
        // pure function of its colour).
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; frame-ancestors 'none'")
        // Shown from an image host on another origin too (IMAGE_HOST).
        .header('cross-origin-resource-policy', 'cross-origin')
        .send(fs.createReadStream(answer.file))
    );
  };

  const variant = z.string().max(16);
  app.get('/images/files/:uuid/:variant', { schema: { hide: true, params: z.object({ uuid: z.string().max(64), variant }) } }, async (req, reply) =>
    send({ kind: 'files', uuid: req.params.uuid.toLowerCase() }, req.params.variant, reply),
  );
  app.get(
    '/images/:kind/:shape/:color/:variant',
    { schema: { hide: true, params: z.object({ kind: z.enum(['demo', 'banner']), shape: z.string().max(32), color: z.string().max(16), variant }) } },
    async (req, reply) => send({ kind: req.params.kind, shape: req.params.shape, color: req.params.color.toLowerCase() }, req.params.variant, reply),
  );
};
