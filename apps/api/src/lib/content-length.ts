import type { FastifyRequest } from 'fastify';

/** The request's Content-Length as a number, or null when absent or not a valid length. */
export function contentLength(req: FastifyRequest): number | null {
  const v = req.headers['content-length'];
  if (v === undefined) return null;
  const n = Number(v);
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}
