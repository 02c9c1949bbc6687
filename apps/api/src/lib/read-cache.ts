import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

// Catalogue and site reads are the shop's busiest calls and change rarely (only the seed
// writes the catalogue today). They are answered from a small in-process cache of
// serialised JSON bodies with their ETag (docs/decisions/0007):
// - an entry is fresh for `ttlMs`; after that it is still served for `staleMs` while one
//   background refresh replaces it, so no shopper waits for a recomputation;
// - concurrent misses for one key share one computation;
// - a change to the catalogue made through this process (rebuilding the search index)
//   empties the cache at once; other processes sharing a PostgreSQL database catch up
//   within ttlMs.
// Stock levels are never cached here: a shopper must see what is there now.

export interface CachedBody {
  body: string;
  etag: string;
}

interface Entry extends CachedBody {
  freshUntil: number;
  staleUntil: number;
  bytes: number;
  refreshing: boolean;
}

export interface ReadCacheOptions {
  /** 0 disables caching (every read is computed). */
  ttlMs: number;
  staleMs: number;
  maxEntries: number;
  maxBytes: number;
}

export function etagOf(body: string): string {
  return `W/"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
}

export class ReadCache {
  private entries = new Map<string, Entry>();
  private pending = new Map<string, Promise<CachedBody>>();
  private bytes = 0;
  private generation_ = 0;
  constructor(readonly opts: ReadCacheOptions) {}

  get enabled() {
    return this.opts.ttlMs > 0;
  }

  /** Forgets everything (after the catalogue changed). */
  clear() {
    this.generation_++;
    this.entries.clear();
    this.pending.clear();
    this.bytes = 0;
  }

  /** Moves on every clear(): what is derived from cached reads compares it to know it is current. */
  get generation() {
    return this.generation_;
  }

  get size() {
    return this.entries.size;
  }

  async get(key: string, produce: () => Promise<string>): Promise<CachedBody> {
    if (!this.enabled) {
      const body = await produce();
      return { body, etag: etagOf(body) };
    }
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && now < hit.staleUntil) {
      // Least recently used goes first: move the entry to the end.
      this.entries.delete(key);
      this.entries.set(key, hit);
      if (now >= hit.freshUntil && !hit.refreshing) {
        hit.refreshing = true;
        this.load(key, produce).catch(() => {
          hit.refreshing = false;
        });
      }
      return hit;
    }
    return this.load(key, produce);
  }

  private load(key: string, produce: () => Promise<string>): Promise<CachedBody> {
    const running = this.pending.get(key);
    if (running) return running;
    const generation = this.generation_;
    const p = produce()
      .then((body) => {
        const value = { body, etag: etagOf(body) };
        if (generation === this.generation_) this.store(key, value);
        return value;
      })
      .finally(() => {
        if (this.pending.get(key) === p) this.pending.delete(key);
      });
    this.pending.set(key, p);
    return p;
  }

  private store(key: string, value: CachedBody) {
    const bytes = value.body.length * 2;
    // One huge answer must not push everything else out.
    if (bytes > this.opts.maxBytes / 8) return;
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.bytes;
      this.entries.delete(key);
    }
    const now = Date.now();
    this.entries.set(key, { ...value, freshUntil: now + this.opts.ttlMs, staleUntil: now + this.opts.ttlMs + this.opts.staleMs, bytes, refreshing: false });
    this.bytes += bytes;
    while (this.entries.size > this.opts.maxEntries || this.bytes > this.opts.maxBytes) {
      const [oldestKey, oldest] = this.entries.entries().next().value as [string, Entry];
      this.entries.delete(oldestKey);
      this.bytes -= oldest.bytes;
    }
  }
}

/** How long browsers and proxies may keep an answer (seconds), and how long they may serve it stale. */
export interface HttpCaching {
  maxAge: number;
  staleWhileRevalidate?: number;
}

export const HTTP_CACHE = {
  /** Categories, attributes, branches, site settings and content: change rarely. */
  reference: { maxAge: 300, staleWhileRevalidate: 3600 },
  /** Listings, searches and product data. */
  catalogue: { maxAge: 60, staleWhileRevalidate: 300 },
  /** Stock: always revalidated (the ETag makes an unchanged answer a 304). */
  live: { maxAge: 0 },
} satisfies Record<string, HttpCaching>;

function cacheControl(c: HttpCaching): string {
  if (c.maxAge === 0) return 'no-cache';
  return `public, max-age=${c.maxAge}${c.staleWhileRevalidate ? `, stale-while-revalidate=${c.staleWhileRevalidate}` : ''}`;
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => {
    const v = t.trim();
    return v === '*' || v.replace(/^W\//, '') === bare;
  });
}

/**
 * Answers a read with a JSON body that is computed at most once per cache period, checked
 * against the route's response schema when computed (the route's serializer does not see a
 * ready string), with ETag and Cache-Control, and 304 when the client already has it.
 */
export async function sendRead<S extends z.ZodType>(
  request: FastifyRequest,
  reply: FastifyReply,
  opts: { cache: ReadCache | null; key: string; schema: S; http: HttpCaching; produce: () => Promise<z.input<S>> },
): Promise<void> {
  const produce = async () => JSON.stringify(opts.schema.parse(await opts.produce()));
  const { body, etag } = opts.cache ? await opts.cache.get(opts.key, produce) : await produce().then((b) => ({ body: b, etag: etagOf(b) }));
  reply.header('etag', etag).header('cache-control', cacheControl(opts.http));
  // Awaiting a reply waits until it is written. A handler that resolves while its onSend
  // hooks still run (compression) makes Fastify send a second, empty answer.
  if (matches(request.headers['if-none-match'], etag)) await reply.status(304).send();
  else await reply.type('application/json; charset=utf-8').send(body);
}
