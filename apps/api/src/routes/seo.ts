import { categoryPath, productPath } from '@storefront/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { allCategories, productCount, sitemapProducts } from '../modules/catalogue/catalogue.service.ts';
import { errorBody } from '../plugins/errors.ts';

// /sitemap.xml for search engines: a sitemap index pointing at one file of site pages and
// category listings and at product files of PER_FILE products each (a sitemap may list
// at most 50,000 addresses). Built from the database and kept in the read cache.

const PER_FILE = 10_000;
const PAGES = [
  '/',
  '/shop',
  '/new-arrival',
  '/sales',
  '/outlets',
  '/about',
  '/contact',
  '/privacy-policy',
  '/terms-conditions',
  '/return',
  '/delivery-shipping',
];

const xmlEscape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

function urlset(urls: { loc: string; lastmod?: string }[]): string {
  const items = urls.map((u) => `<url><loc>${xmlEscape(u.loc)}</loc>${u.lastmod ? `<lastmod>${u.lastmod.slice(0, 10)}</lastmod>` : ''}</url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items.join('\n')}\n</urlset>\n`;
}

async function sendXml(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply, produce: () => Promise<string>) {
  const { body, etag } = await app.readCache.get(`XML ${req.url}`, produce);
  reply.header('etag', etag).header('cache-control', 'public, max-age=3600');
  if (req.headers['if-none-match'] === etag) return reply.status(304).send();
  return reply.type('application/xml; charset=utf-8').send(body);
}

export async function seoRoutes(app: FastifyInstance) {
  const base = app.config.publicUrl;

  app.get('/sitemap.xml', (req, reply) =>
    sendXml(app, req, reply, async () => {
      const files = Math.ceil((await productCount(app.db.kysely)) / PER_FILE);
      const locs = [`${base}/sitemaps/pages.xml`, ...Array.from({ length: files }, (_, i) => `${base}/sitemaps/products-${i + 1}.xml`)];
      return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs.map((l) => `<sitemap><loc>${xmlEscape(l)}</loc></sitemap>`).join('\n')}\n</sitemapindex>\n`;
    }),
  );

  app.get('/sitemaps/pages.xml', (req, reply) =>
    sendXml(app, req, reply, async () => {
      const cats = await allCategories(app.db.kysely);
      return urlset([...PAGES.map((p) => ({ loc: `${base}${p}` })), ...cats.map((c) => ({ loc: `${base}${categoryPath(c)}` }))]);
    }),
  );

  app.get<{ Params: { n: string } }>('/sitemaps/products-:n', async (req, reply) => {
    const m = /^(\d{1,6})\.xml$/.exec(req.params.n);
    const n = m ? Number(m[1]) : 0;
    const total = await productCount(app.db.kysely);
    if (n < 1 || (n - 1) * PER_FILE >= total) return reply.status(404).send(errorBody('not_found', 'No such sitemap'));
    return sendXml(app, req, reply, async () => {
      const rows = await sitemapProducts(app.db.kysely, (n - 1) * PER_FILE, PER_FILE);
      return urlset(rows.map((r) => ({ loc: `${base}${productPath(r.slug)}`, lastmod: r.created_at })));
    });
  });
}
