import { apiQuery } from '../../components/admin/order-query.ts';
import type { Route } from './+types/orders-csv';

// The filtered orders list as a download at a back-office address (the browser sends the
// staff cookie here; the API wants its key in a header, which a download link cannot send).
export async function loader({ context, request }: Route.LoaderArgs) {
  const q = apiQuery(new URL(request.url));
  q.delete('page');
  q.delete('sort');
  const res = await context.api(`/api/admin/orders/export?${q}`);
  if (res.status === 401) return new Response(null, { status: 302, headers: { location: '/admin/sign-in?next=/admin/orders' } });
  return new Response(res.body, {
    status: res.status,
    headers: {
      'content-type': res.headers.get('content-type') ?? 'text/csv; charset=utf-8',
      'content-disposition': res.headers.get('content-disposition') ?? 'attachment; filename="orders.csv"',
      'cache-control': 'no-store',
    },
  });
}
