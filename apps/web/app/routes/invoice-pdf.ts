import type { Route } from './+types/invoice-pdf';

// The shopper's invoice as a PDF download (docs/decisions/0032), at the shop's own address:
// a link cannot send the API's key, so this route asks the API in-process with the
// visitor's cookies (and the mailed order link's key, when the page was opened by it).
export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const invoiceId = url.searchParams.get('invoiceId') ?? '';
  const key = url.searchParams.get('key');
  const res = await context.api(`/api/sales/invoice?invoiceId=${encodeURIComponent(invoiceId)}`, key ? { headers: { 'x-order-token': key } } : undefined);
  if (!res.ok)
    return new Response('This invoice cannot be shown. Sign in, or open the link in your order mail.', {
      status: res.status === 400 ? 404 : res.status,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
  return new Response(res.body, {
    status: 200,
    headers: {
      'content-type': 'application/pdf',
      'content-disposition': res.headers.get('content-disposition') ?? 'attachment; filename="invoice.pdf"',
      'cache-control': 'private, no-store',
    },
  });
}
