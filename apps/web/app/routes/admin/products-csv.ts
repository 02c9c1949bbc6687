import type { Route } from './+types/products-csv';

// The product export as a download at a back-office address (the browser sends the staff
// cookie here; the API itself wants its key in a header, which a download link cannot send).
export async function loader({ context }: Route.LoaderArgs) {
  const res = await context.api('/api/admin/products/export');
  if (res.status === 401) return new Response(null, { status: 302, headers: { location: '/admin/sign-in?next=/admin/import' } });
  return new Response(res.body, {
    status: res.status,
    headers: {
      'content-type': res.headers.get('content-type') ?? 'text/csv; charset=utf-8',
      'content-disposition': res.headers.get('content-disposition') ?? 'attachment; filename="products.csv"',
      'cache-control': 'no-store',
    },
  });
}
