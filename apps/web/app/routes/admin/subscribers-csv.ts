import type { Route } from './+types/subscribers-csv';

// The filtered subscribers as a download at a back-office address (the browser sends the
// staff cookie here; the API wants its key in a header, which a download link cannot send).
export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const q = new URLSearchParams();
  for (const k of ['q', 'state']) {
    const v = url.searchParams.get(k);
    if (v) q.set(k, v);
  }
  const res = await context.api(`/api/admin/subscribers/export?${q}`);
  if (res.status === 401) return new Response(null, { status: 302, headers: { location: '/admin/sign-in?next=/admin/subscribers' } });
  return new Response(res.body, {
    status: res.status,
    headers: {
      'content-type': res.headers.get('content-type') ?? 'text/csv; charset=utf-8',
      'content-disposition': res.headers.get('content-disposition') ?? 'attachment; filename="subscribers.csv"',
      'cache-control': 'no-store',
    },
  });
}
