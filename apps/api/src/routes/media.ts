import type { FastifyInstance, FastifyReply } from 'fastify';
import { drawBadge, drawBanner, drawFlag, drawFurniture, SHAPES, type Shape } from '../modules/media/demo-art.ts';
import { sofaGlb } from '../modules/media/sofa-model.ts';
import { errorBody } from '../plugins/errors.ts';

function svg(reply: FastifyReply, body: string | null) {
  if (!body) return reply.status(404).send(errorBody('not_found', 'No such picture'));
  return (
    reply
      .header('content-type', 'image/svg+xml; charset=utf-8')
      // The pictures are pure functions of their URL.
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
      .send(body)
  );
}

const COLOR = /^[0-9a-f]{6}$/i;

/** Generated demo pictures: products, banners, flags and payment badges. */
export async function mediaRoutes(app: FastifyInstance) {
  app.get<{ Params: { shape: string; color: string } }>('/media/demo/:shape/:color', async (req, reply) => {
    const color = req.params.color.replace(/\.svg$/, '');
    if (!SHAPES.includes(req.params.shape as Shape) || !COLOR.test(color)) return svg(reply, null);
    return svg(reply, drawFurniture(req.params.shape as Shape, color));
  });
  app.get<{ Params: { shape: string; color: string }; Querystring: { t?: string } }>('/media/banner/:shape/:color', async (req, reply) => {
    const color = req.params.color.replace(/\.svg$/, '');
    if (!SHAPES.includes(req.params.shape as Shape) || !COLOR.test(color)) return svg(reply, null);
    return svg(reply, drawBanner(req.params.shape as Shape, color, String(req.query.t ?? '').slice(0, 80)));
  });
  app.get<{ Params: { code: string } }>('/media/flags/:code', async (req, reply) => svg(reply, drawFlag(req.params.code.replace(/\.svg$/, '').toUpperCase())));
  app.get<{ Params: { name: string } }>('/media/badges/:name', async (req, reply) => svg(reply, drawBadge(req.params.name.replace(/\.svg$/, ''))));
  // The 3D viewer's sofa (/sofa-3d), a .glb drawn from boxes by sofa-model.ts.
  app.get('/media/models/sofa.glb', async (_req, reply) =>
    reply.header('content-type', 'model/gltf-binary').header('cache-control', 'public, max-age=86400').send(sofaGlb()),
  );
}
