import { COURIER_NAMES, type TConsignment } from '@storefront/shared';
import adminCss from '../../admin.css?url';
import { adminRead } from '../../components/admin/admin-api.server.ts';
import { taka } from '../../components/admin/admin-ui.tsx';
import type { Route } from './+types/consignment-label';

// The parcel's label (docs/decisions/0040): what the courier's rider needs on the box, in
// type large enough to read at the door: the courier, its consignment id and tracking code,
// the invoice, who it goes to and what to collect. A page of its own, sized for the common
// 4 × 6 inch label printers, and fine on A4 too.

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: adminCss }];

export function headers() {
  return { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' };
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const id = Number(params.id);
  if (!Number.isInteger(id) || id <= 0) throw new Response('Not found', { status: 404 });
  const [consignment, doc] = await Promise.all([
    adminRead<TConsignment>(context, request, `/api/admin/orders/${id}/consignment`),
    adminRead<{ shop: { name: string; address: string; hotline: string } }>(context, request, `/api/admin/orders/${id}/document`),
  ]);
  return { consignment, shop: doc.shop };
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data ? `Label ${data.consignment.label.invoice}` : 'Label' }, { name: 'robots', content: 'noindex' }];
}

export default function ConsignmentLabel({ loaderData }: Route.ComponentProps) {
  const { consignment: c, shop } = loaderData;
  const l = c.label;
  return (
    <div data-admin-shell className="mx-auto max-w-[4in] bg-white p-4 text-[14px] leading-snug text-ink print:p-0">
      <style>{'@page { size: 4in 6in; margin: 6mm } @media print { .no-print { display: none !important } body { background: #fff } }'}</style>
      <div className="no-print mb-4 flex justify-end">
        <button type="button" onClick={() => window.print()} className="h-10 rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white">
          Print
        </button>
      </div>
      <article className="rounded border-2 border-ink p-3" data-testid="parcel-label">
        <header className="flex items-baseline justify-between gap-3 border-b-2 border-ink pb-2">
          <p className="text-xl font-bold">{COURIER_NAMES[c.courier]}</p>
          <p className="font-mono text-lg font-bold">{l.consignmentId}</p>
        </header>
        {l.trackingCode && (
          <p className="mt-2">
            Tracking <span className="font-mono text-base font-bold">{l.trackingCode}</span>
          </p>
        )}
        <p>
          Invoice <span className="font-mono font-semibold">{l.invoice}</span>
        </p>
        <section className="mt-3 border-t border-ink pt-2">
          <h2 className="text-xs font-semibold uppercase tracking-wide">To</h2>
          <p className="text-lg font-bold">{l.recipientName}</p>
          <p className="font-mono text-lg">{l.recipientPhone}</p>
          <p>{l.recipientAddress}</p>
        </section>
        <section className="mt-3 border-t-2 border-ink pt-2 text-center">
          <h2 className="text-xs font-semibold uppercase tracking-wide">Collect on delivery</h2>
          <p className="text-2xl font-bold tabular-nums">{l.codAmount > 0 ? taka(l.codAmount) : 'Paid: collect nothing'}</p>
        </section>
        <footer className="mt-3 border-t border-ink pt-2 text-xs">
          <p className="font-semibold">From {shop.name}</p>
          <p>{shop.address}</p>
          {shop.hotline && <p>Hotline {shop.hotline}</p>}
        </footer>
      </article>
    </div>
  );
}
