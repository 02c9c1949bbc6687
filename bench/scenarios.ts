import type autocannon from 'autocannon';
import { headersFor, type ProbeResult } from './lib/load.ts';
import type { DbKind } from './lib/server.ts';

// The list `npm run bench` measures. A feature that wants its figures adds an entry here;
// `--only name,name` picks some.

export interface ScenarioContext {
  baseUrl: string;
  db: DbKind;
  /** The catalogue size given with --products (undefined: the demo catalogue). */
  products?: number;
}

/** What a scenario's prepare() may change once the server runs (e.g. a session header). */
export interface ScenarioRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Several requests each connection cycles through. */
  requests?: autocannon.Request[];
}

export interface Scenario extends ScenarioRequest {
  name: string;
  description: string;
  /** Runs against the started server before the probe: sign in, create a cart, pick ids... */
  prepare?(ctx: ScenarioContext): Promise<Partial<ScenarioRequest>>;
  /**
   * Looks at one answer before loading. Returns why the scenario cannot be measured, or
   * null to go ahead. Default: anything but 2xx is not measured (a fast 404 is not a figure).
   */
  check?(probe: ProbeResult): string | null;
  /**
   * The same kind of request spread over `n` different targets (products, categories,
   * search words), for --spread: what a crawl or real traffic asks, where few answers repeat.
   */
  spread?(ctx: ScenarioContext, n: number): Promise<autocannon.Request[]>;
}

export function expect2xx(p: ProbeResult): string | null {
  if (p.status >= 200 && p.status < 300) return null;
  return `not measured: the probe answered ${p.status} ${p.contentType || '(no content type)'}: ${p.snippet.slice(0, 120)}`;
}

export const scenarios: Scenario[] = [
  {
    name: 'health',
    description: 'GET /api/health: the framework plus one trivial database query',
    path: '/api/health',
  },
  {
    name: 'home',
    description: 'GET /: the server-rendered home page',
    path: '/',
    headers: { accept: 'text/html' },
    check: (p) => {
      if (p.status === 404 && p.contentType.includes('application/json')) {
        return 'not measured: GET / answered 404 JSON, so the server has no web build (run `npm run build`, or set WEB_BUILD_DIR)';
      }
      if (p.status >= 200 && p.status < 300 && !p.contentType.includes('text/html')) {
        return `not measured: GET / answered ${p.status} ${p.contentType}, not an HTML page`;
      }
      return expect2xx(p);
    },
  },
  {
    name: 'ssr-cart',
    description: 'GET /cart: a server-rendered page without catalogue data (the shell only)',
    path: '/cart',
    headers: { accept: 'text/html' },
    check: (p) => expectHtml(p),
  },
  ...catalogueScenarios(),
];

// ---- catalogue ------------------------------------------------------------------------
// The busiest reads of the shop. Each asks the server for what it needs (a category id, a
// model number, a product's address) in prepare(), so it works on the demo catalogue and on a
// seeded one (--products 100000). Catalogue reads are answered from the in-process read cache
// after the first (docs/decisions/0007); to measure every request computed, run with
// READ_CACHE_MS=0 in the environment.

/**
 * A setup request of a scenario. A 503 (the server still shedding the previous scenario's
 * load) is asked again after its Retry-After, a few times, rather than failing the scenario.
 */
async function setupFetch(url: string, init: RequestInit): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(url, init);
    if (res.status !== 503 || attempt >= 10) return res;
    await res.arrayBuffer();
    await new Promise((r) => setTimeout(r, 1000 * Math.min(5, Number(res.headers.get('retry-after')) || 1)));
  }
}

async function apiGet<T>(baseUrl: string, path: string): Promise<T> {
  const res = await setupFetch(baseUrl + path, { headers: headersFor(path) });
  if (!res.ok) throw new Error(`${path} answered ${res.status}`);
  return (await res.json()) as T;
}

async function apiPost<T>(baseUrl: string, path: string, body: unknown): Promise<T> {
  const res = await setupFetch(baseUrl + path, {
    method: 'POST',
    headers: { ...headersFor(path), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path} answered ${res.status}`);
  return (await res.json()) as T;
}

/** The largest top-level category: the heaviest category listing. */
async function biggestCategory(baseUrl: string): Promise<{ id: number; name: string }> {
  const res = await apiPost<{ facets: { categories: { id: number; name: string; count: number }[] } }>(baseUrl, '/api/search/indices/items', {
    size: 1,
    facets: true,
  });
  return res.facets.categories.reduce((a, b) => (b.count > a.count ? b : a));
}

/** A product in the middle of the catalogue, by id (the seed numbers products from 1). */
async function someProduct(ctx: ScenarioContext): Promise<{ id: number; slug: string; modelCode: string }> {
  const total = ctx.products ?? (await apiPost<{ count: number }>(ctx.baseUrl, '/api/search/indices/items', { size: 1, fetchCount: true })).count;
  const id = Math.max(1, Math.floor(total / 2));
  return apiGet(ctx.baseUrl, `/api/v3/items/joined?id=${id}`);
}

/** `n` product ids spread evenly over the catalogue (the seed numbers products from 1). */
async function spreadIds(ctx: ScenarioContext, n: number): Promise<number[]> {
  // An existing database (--sqlite-file, --pg-schema) says itself how big its catalogue is.
  const total = ctx.products ?? (await apiPost<{ count: number }>(ctx.baseUrl, '/api/search/indices/items', { size: 1, fetchCount: true })).count;
  const count = Math.min(n, total);
  return Array.from({ length: count }, (_, i) => 1 + Math.floor((i * total) / count));
}

/** Every category with its product count, and `n` words from product titles across the catalogue. */
async function categories(baseUrl: string): Promise<{ id: number; name: string }[]> {
  const all: { id: number; name: string }[] = [];
  for (let page = 1; page <= 40; page++) {
    const res = await apiPost<{ list: { id: number; name: string }[]; nextPageToken: string }>(baseUrl, '/api/categories/search', { page, size: 50 });
    all.push(...res.list.map((c) => ({ id: c.id, name: c.name })));
    if (!res.nextPageToken) break;
  }
  return all;
}

async function titleWords(ctx: ScenarioContext, n: number): Promise<string[]> {
  const words = new Set<string>();
  for (const id of await spreadIds(ctx, Math.min(n, 200))) {
    const p = await apiGet<{ title: string }>(ctx.baseUrl, `/api/v3/items/joined?id=${id}`).catch(() => null);
    for (const w of p?.title.split(/[^\p{L}\p{N}]+/u) ?? []) if (w.length >= 3 && !/^\d+$/.test(w)) words.add(w.toUpperCase());
    if (words.size >= n) break;
  }
  return [...words].slice(0, n);
}

function expectHtml(p: ProbeResult): string | null {
  if (p.status === 404 && p.contentType.includes('application/json')) return 'not measured: no web build (run `npm run build`, or set WEB_BUILD_DIR)';
  if (p.status >= 200 && p.status < 300 && !p.contentType.includes('text/html')) return `not measured: answered ${p.contentType}, not an HTML page`;
  return expect2xx(p);
}

function catalogueScenarios(): Scenario[] {
  const search = (body: unknown) => ({
    method: 'POST',
    path: '/api/search/indices/items',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return [
    {
      name: 'category-listing',
      description: 'POST /api/search/indices/items: the largest top category, newest first, with count and facets (what /shop asks)',
      ...search({}),
      prepare: async ({ baseUrl }) => {
        const c = await biggestCategory(baseUrl);
        return search({
          page: 1,
          size: 24,
          fetchCount: true,
          facets: true,
          textParams: [{ field: 'categoryId', value: c.id }],
          sortParams: [{ field: 'createdAt', type: 'DESC' }],
        });
      },
      spread: async ({ baseUrl }, n) => {
        // Every category, each sort, the first pages: n listings in all.
        const cats = await categories(baseUrl);
        const sorts = [
          { field: 'createdAt', type: 'DESC' },
          { field: 'price', type: 'ASC' },
          { field: 'price', type: 'DESC' },
          { field: 'title', type: 'ASC' },
        ];
        const out: autocannon.Request[] = [];
        for (let i = 0; out.length < n && i < n * 4; i++) {
          const c = cats[i % cats.length];
          const sort = sorts[Math.floor(i / cats.length) % sorts.length];
          const page = 1 + (Math.floor(i / (cats.length * sorts.length)) % 5);
          out.push(search({ page, size: 24, fetchCount: true, facets: true, textParams: [{ field: 'categoryId', value: c.id }], sortParams: [sort] }));
        }
        return out;
      },
    },
    {
      name: 'search-word',
      description: 'POST /api/search/indices/items: full-text search for a common word ("sofa"), ranked, with count and facets',
      ...search({
        page: 1,
        size: 24,
        fetchCount: true,
        facets: true,
        textParams: [{ field: 'query', value: 'SOFA' }],
        sortParams: [{ field: 'relevance', type: 'DESC' }],
      }),
      spread: async (ctx, n) =>
        (await titleWords(ctx, n)).map((w) =>
          search({
            page: 1,
            size: 24,
            fetchCount: true,
            facets: true,
            textParams: [{ field: 'query', value: w }],
            sortParams: [{ field: 'relevance', type: 'DESC' }],
          }),
        ),
    },
    {
      name: 'search-model',
      description: 'POST /api/search/indices/items: a model number (exact lookup first)',
      ...search({}),
      prepare: async (ctx) => {
        const p = await someProduct(ctx);
        return search({
          page: 1,
          size: 24,
          fetchCount: true,
          facets: true,
          textParams: [
            { field: 'query', value: p.modelCode },
            { field: 'model', value: p.modelCode },
          ],
        });
      },
    },
    {
      name: 'product-details',
      description: 'GET /api/v3/items/joined?id=: one product with skus, attribute values, pictures, categories',
      path: '/api/v3/items/joined?id=1',
      prepare: async (ctx) => ({ path: `/api/v3/items/joined?id=${(await someProduct(ctx)).id}` }),
      spread: async (ctx, n) => (await spreadIds(ctx, n)).map((id) => ({ method: 'GET', path: `/api/v3/items/joined?id=${id}` })),
    },
    {
      name: 'ssr-shop',
      description: 'GET /shop?categoryId=…: the server-rendered category page (largest top category)',
      path: '/shop',
      headers: { accept: 'text/html' },
      prepare: async ({ baseUrl }) => {
        const c = await biggestCategory(baseUrl);
        return { path: `/shop?${new URLSearchParams({ categoryId: String(c.id), categoryName: c.name })}` };
      },
      spread: async ({ baseUrl }, n) => {
        const cats = await categories(baseUrl);
        const sorts = ['', 'price-asc', 'price-desc', 'name'];
        const out: autocannon.Request[] = [];
        for (let i = 0; out.length < n && i < n * 4; i++) {
          const c = cats[i % cats.length];
          const sort = sorts[Math.floor(i / cats.length) % sorts.length];
          const page = 1 + (Math.floor(i / (cats.length * sorts.length)) % 5);
          const q = new URLSearchParams({ categoryId: String(c.id), categoryName: c.name });
          if (sort) q.set('sort', sort);
          if (page > 1) q.set('page', String(page));
          out.push({ method: 'GET', path: `/shop?${q}`, headers: { accept: 'text/html' } });
        }
        return out;
      },
      check: expectHtml,
    },
    {
      name: 'ssr-details',
      description: 'GET /products/{slug}: the server-rendered product page (the /details page at its readable address)',
      path: '/details?id=1',
      headers: { accept: 'text/html' },
      prepare: async (ctx) => ({ path: `/products/${(await someProduct(ctx)).slug}` }),
      // /details?id= is the same page as /products/{slug}, without a lookup per product here.
      spread: async (ctx, n) => (await spreadIds(ctx, n)).map((id) => ({ method: 'GET', path: `/details?id=${id}`, headers: { accept: 'text/html' } })),
      check: expectHtml,
    },
  ];
}
