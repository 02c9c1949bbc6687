import type { Route } from './+types/robots';

// /robots.txt, with the address of the sitemap (served by the API process: routes/seo.ts).
export function loader({ context }: Route.LoaderArgs) {
  const body = [
    'User-agent: *',
    'Allow: /',
    'Disallow: /cart',
    'Disallow: /checkout',
    'Disallow: /profile',
    'Disallow: /orders',
    'Disallow: /payments/',
    'Disallow: /api/',
    '',
    `Sitemap: ${context.publicUrl}/sitemap.xml`,
    '',
  ].join('\n');
  return new Response(body, { headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'public, max-age=3600' } });
}
