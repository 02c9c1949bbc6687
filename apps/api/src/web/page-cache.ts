import type { FastifyRequest } from 'fastify';

// A short-lived in-process cache of server-rendered catalogue pages for guests
// (docs/decisions/0007). A guest's home, shop, new-arrival, sales and product pages depend
// only on the address and the display currency, so the HTML rendered for one guest is the
// HTML for the next one for a few seconds. Rendering a page costs far more than the reads
// it makes; this is what lets the shop serve its busiest pages at catalogue speed.
//
// What keeps it safe:
// - only GET requests for the catalogue's own paths (never cart, checkout, orders,
//   profile…), and only answers 200 with an HTML or route-data body and no Set-Cookie;
// - only requests that carry no cookie but the display currency and no auth header: a
//   signed-in customer, or anyone with another cookie (a guest's order access, say),
//   always gets a fresh render;
// - the key is the full address plus the currency and language cookies;
// - each answer gets a fresh CSP nonce: the cached page's nonce is replaced in the body and
//   the header is built for the new one.
// A page is rendered once however many guests ask for it at the same moment, and an expired
// page is still served (for two more lifetimes) while one request renders it again.

const PATHS = /^\/(?:|shop|new-arrival|sales|details|products\/[^/]+)(?:\.data)?$|^\/_root\.data$/;
const ALLOWED_COOKIES = new Set(['currency', 'lang']);
const CACHEABLE_TYPES = /^(text\/html|text\/x-script)/;

export interface CachedPage {
  status: number;
  headers: [string, string][];
  body: string;
  /** The nonce the body was rendered with, to be replaced per response. */
  nonce: string;
}

interface Entry extends CachedPage {
  /** Fresh until then; served while one refresh runs until `staleUntil`. */
  expires: number;
  staleUntil: number;
  bytes: number;
}

export interface RenderResult {
  /** The page, when it may be kept for other guests. */
  page: CachedPage | null;
  /** Otherwise the response as rendered, for the request that asked. */
  response: Response | null;
}

export class PageCache {
  private entries = new Map<string, Entry>();
  private pending = new Map<string, Promise<CachedPage | null>>();
  private bytes = 0;
  constructor(private readonly opts: { ttlMs: number; maxBytes: number }) {}

  /** The cache key of a request, or null when its page must be rendered for it alone. */
  keyFor(req: FastifyRequest): string | null {
    if (this.opts.ttlMs <= 0 || req.method !== 'GET') return null;
    const q = req.url.indexOf('?');
    const path = q >= 0 ? req.url.slice(0, q) : req.url;
    if (!PATHS.test(path)) return null;
    if (req.headers.authorization || req.headers['x-auth-token']) return null;
    const values: Record<string, string> = {};
    const cookie = req.headers.cookie;
    if (cookie) {
      for (const part of cookie.split(';')) {
        const eq = part.indexOf('=');
        const name = (eq >= 0 ? part.slice(0, eq) : part).trim();
        if (!name) continue;
        if (!ALLOWED_COOKIES.has(name)) return null;
        values[name] = part
          .slice(eq + 1)
          .trim()
          .slice(0, 8);
      }
    }
    // The page's language comes from the address or the cookie (docs/decisions/0038).
    return `${values.currency ?? ''}|${values.lang ?? ''}|${req.url}`;
  }

  get(key: string): CachedPage | null {
    const hit = this.lookup(key);
    return hit && !hit.stale ? hit.page : null;
  }

  /** The page for a key: fresh, or stale (to serve while it is rendered again), or null. */
  lookup(key: string): { page: CachedPage; stale: boolean } | null {
    const e = this.entries.get(key);
    if (!e) return null;
    const now = Date.now();
    if (now >= e.staleUntil) {
      this.drop(key, e);
      return null;
    }
    return { page: e, stale: now >= e.expires };
  }

  /** A render of this key under way, whose page other requests can wait for. */
  inFlight(key: string): Promise<CachedPage | null> | undefined {
    return this.pending.get(key);
  }

  /**
   * Renders a page once for everyone who asks for it meanwhile: keeps it when it may be kept
   * and lets waiting requests have it; the caller gets the full result.
   */
  render(key: string, produce: () => Promise<RenderResult>): Promise<RenderResult> {
    const job = produce();
    const page = job
      .then(
        (r) => {
          if (r.page) this.set(key, r.page);
          return r.page;
        },
        () => null,
      )
      .finally(() => {
        if (this.pending.get(key) === page) this.pending.delete(key);
      });
    this.pending.set(key, page);
    return job;
  }

  /** Whether a rendered response may be kept for other guests. */
  static cacheable(res: Response): boolean {
    return res.status === 200 && !res.headers.has('set-cookie') && CACHEABLE_TYPES.test(res.headers.get('content-type') ?? '');
  }

  set(key: string, page: CachedPage) {
    // The text, and its UTF-8 copy once served (withNonce).
    const bytes = page.body.length * 3;
    if (bytes > this.opts.maxBytes / 16) return;
    const old = this.entries.get(key);
    if (old) this.drop(key, old);
    const now = Date.now();
    // A stale page is served for two more lifetimes while it is rendered again.
    this.entries.set(key, { ...page, expires: now + this.opts.ttlMs, staleUntil: now + this.opts.ttlMs * 3, bytes });
    this.bytes += bytes;
    while (this.bytes > this.opts.maxBytes) {
      const [k, e] = this.entries.entries().next().value as [string, Entry];
      this.drop(k, e);
    }
  }

  private drop(key: string, e: Entry) {
    this.entries.delete(key);
    this.bytes -= e.bytes;
  }
}

/** A cached body in UTF-8, with where its nonce stands: made once per cached page. */
const templates = new WeakMap<CachedPage, { bytes: Buffer; offsets: number[]; nonceBytes: number }>();

/**
 * The cached body with this response's nonce in place of the one it was rendered with.
 * A hit copies the encoded page and writes the new nonce over the old one where it stands
 * (nonces are all the same length): splitting and joining the text and encoding it again
 * for the socket took two thirds of a cache hit's time for a 117 KB home page.
 */
export function withNonce(page: CachedPage, nonce: string): Buffer {
  let t = templates.get(page);
  if (!t) {
    const bytes = Buffer.from(page.body, 'utf8');
    const offsets: number[] = [];
    if (page.nonce) {
      const needle = Buffer.from(page.nonce, 'utf8');
      for (let i = bytes.indexOf(needle); i >= 0; i = bytes.indexOf(needle, i + needle.length)) offsets.push(i);
    }
    t = { bytes, offsets, nonceBytes: Buffer.byteLength(page.nonce, 'utf8') };
    templates.set(page, t);
  }
  // Never handed out to be written to: the copy below is what changes.
  if (!t.offsets.length) return t.bytes;
  const fresh = Buffer.from(nonce, 'utf8');
  if (fresh.length !== t.nonceBytes) return Buffer.from(page.body.split(page.nonce).join(nonce), 'utf8');
  const out = Buffer.allocUnsafe(t.bytes.length);
  t.bytes.copy(out);
  for (const at of t.offsets) fresh.copy(out, at);
  return out;
}
