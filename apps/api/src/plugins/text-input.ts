import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../lib/errors.ts';

/**
 * Where a NUL character (U+0000) sits in a parsed request part, as a dotted path ('' for
 * the part itself), or null. Walks with a stack, not recursion: a body may be nested
 * tens of thousands of levels deep.
 */
export function findNul(value: unknown): string | null {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length) {
    const [v, at] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return at;
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) stack.push([v[i], at ? `${at}.${i}` : String(i)]);
    } else if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v) && typeof (v as { pipe?: unknown }).pipe !== 'function') {
      // Parsed JSON, forms and query strings (whose objects may have a prototype of their
      // own); bytes and streams (uploads) are not text.
      for (const k of Object.keys(v)) {
        if (k.includes('\u0000')) return at ? `${at}.${k.replace(/\u0000/g, '')}` : k.replace(/\u0000/g, '');
        stack.push([(v as Record<string, unknown>)[k], at ? `${at}.${k}` : k]);
      }
    }
  }
  return null;
}

/**
 * NUL characters in any text of an API or gateway request (query, path, JSON or form
 * body) are refused with a 400 before validation: PostgreSQL cannot store them (a 500 there), SQLite would
 * store them silently, and no field of the shop has a use for them.
 */
export const textInputPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    // Pages read their own query strings (their loaders call the API, which refuses NUL
    // there); a page answers a browser with a page, never with a JSON error.
    const route = request.routeOptions.url ?? '';
    if (route === '/' || route === '/*') return;
    for (const [part, value] of [
      ['query', request.query],
      ['params', request.params],
      ['body', request.body],
    ] as const) {
      const at = findNul(value);
      if (at !== null) throw new ApiError('validation_error', 'Text may not contain NUL characters', { [at || part]: 'Contains a NUL character' });
    }
  });
});
