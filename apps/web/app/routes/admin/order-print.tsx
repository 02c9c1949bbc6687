import { DELIVERY_METHOD_LABELS, PAYMENT_METHOD_LABELS, PAYMENT_STATUS_LABELS, type TAdminOrder } from '@storefront/shared';
import adminCss from '../../admin.css?url';
import { adminRead } from '../../components/admin/admin-api.server.ts';
import { taka } from '../../components/admin/admin-ui.tsx';
import { OrderTotals } from '../../components/admin/order-totals.tsx';
import type { Route } from './+types/order-print';

// The printed invoice and delivery slip (docs/decisions/0032): an A4 page of its own, without
// the shop's or the back office's frame, with the shop's name, address and licence numbers
// from its settings and the QR code of the order's page. A normal order fits one page.

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: adminCss }];

export function headers() {
  return { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' };
}

type Shop = { name: string; address: string; hotline: string; email: string; bin: string; tradeLicence: string; tin: string; logo: string; colour: string };

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const id = Number(params.id);
  if (!Number.isInteger(id) || id <= 0) throw new Response('Not found', { status: 404 });
  const doc = new URL(request.url).searchParams.get('doc') === 'slip' ? 'slip' : 'invoice';
  const data = await adminRead<{ order: TAdminOrder; shop: Shop; qrSvg: string }>(context, request, `/api/admin/orders/${id}/document`);
  return { ...data, doc: doc as 'slip' | 'invoice', qr: `data:image/svg+xml;base64,${Buffer.from(data.qrSvg).toString('base64')}` };
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data ? `${data.doc === 'slip' ? 'Delivery slip' : 'Invoice'} ${data.order.invoiceId}` : 'Print' }, { name: 'robots', content: 'noindex' }];
}

const day = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { timeZone: 'Asia/Dhaka', day: 'numeric', month: 'long', year: 'numeric' });

export default function OrderPrint({ loaderData }: Route.ComponentProps) {
  const { order, shop, qr, doc } = loaderData;
  const a = order.deliveryAddress;
  const where = order.pickupBranch
    ? `${order.pickupBranch.name}, ${order.pickupBranch.address}, ${order.pickupBranch.city}`
    : a
      ? [a.addressLine, a.area, a.district, a.division].filter(Boolean).join(', ')
      : '';
  const slip = doc === 'slip';
  const due = order.paymentMethod === 'cod' && order.paymentStatus === 'unpaid' ? order.total : Math.max(0, order.total - order.amountPaid);
  return (
    <div data-admin-shell className="print-page mx-auto max-w-[210mm] bg-white p-8 text-[13px] leading-snug text-ink print:p-0">
      <style>{'@page { size: A4; margin: 14mm } @media print { .no-print { display: none !important } body { background: #fff } }'}</style>
      <div className="no-print mb-6 flex justify-end gap-2">
        <button type="button" onClick={() => window.print()} className="h-10 rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white">
          Print
        </button>
      </div>
      {/* The brand colour and logo of the settings (docs/decisions/0037); the name in type when there is no logo. */}
      <header className="flex items-start justify-between gap-6 border-t-8 border-b border-b-sand-300 pt-3 pb-4" style={{ borderTopColor: shop.colour }}>
        <div>
          {shop.logo ? (
            <>
              <img src={shop.logo} alt={shop.name} height={48} className="mb-1 h-12 w-auto max-w-[240px] object-contain" />
              <p className="font-bold">{shop.name}</p>
            </>
          ) : (
            <p className="text-xl font-bold">{shop.name}</p>
          )}
          <p className="text-ink-muted">{shop.address}</p>
          <p className="text-ink-muted">{[shop.hotline && `Hotline ${shop.hotline}`, shop.email].filter(Boolean).join(' · ')}</p>
          <p className="text-xs text-ink-muted">{[shop.bin, shop.tradeLicence, shop.tin].filter(Boolean).join(' · ')}</p>
        </div>
        <img src={qr} alt={`QR code of ${order.invoiceId}`} width={112} height={112} className="h-28 w-28 shrink-0" />
      </header>
      <section className="mt-4 flex flex-wrap justify-between gap-4">
        <div>
          <h1 className="text-lg font-bold">
            {slip ? 'Delivery slip' : order.kind === 'booking' ? 'Booking' : 'Invoice'} {order.invoiceId}
          </h1>
          <p className="text-ink-muted">Placed {day(order.createdAt)}</p>
          <p className="text-ink-muted">
            {PAYMENT_METHOD_LABELS[order.paymentMethod]} · {PAYMENT_STATUS_LABELS[order.paymentStatus]}
          </p>
        </div>
        <div className="max-w-[50%] text-right">
          <p className="font-semibold">{a?.fullName ?? order.contactName}</p>
          <p>{a?.phone ?? order.contactMobile}</p>
          {!slip && <p>{order.contactEmail}</p>}
          <p className="font-medium">{DELIVERY_METHOD_LABELS[order.deliveryMethod]}</p>
          <p>{where}</p>
        </div>
      </section>
      <table className="mt-5 w-full border-collapse">
        <thead>
          <tr className="border-b-2 border-ink text-left">
            <th scope="col" className="py-1.5 pr-2">
              Item
            </th>
            <th scope="col" className="py-1.5 pr-2 text-right">
              Qty
            </th>
            {!slip && (
              <>
                <th scope="col" className="py-1.5 pr-2 text-right">
                  Unit price
                </th>
                <th scope="col" className="py-1.5 text-right">
                  Total
                </th>
              </>
            )}
            {slip && (
              <th scope="col" className="py-1.5 text-right">
                Checked
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {order.lines.map((l) => (
            <tr key={l.lineNo} className="border-b border-sand-200 align-top">
              <td className="py-1.5 pr-2">
                <p className="font-medium">{l.title}</p>
                <p className="text-xs text-ink-muted">
                  {l.skuCode}
                  {l.variant ? ` · ${l.variant}` : ''}
                </p>
              </td>
              <td className="py-1.5 pr-2 text-right tabular-nums">{l.quantity}</td>
              {!slip && (
                <>
                  <td className="py-1.5 pr-2 text-right tabular-nums">{taka(l.unitPrice)}</td>
                  <td className="py-1.5 text-right tabular-nums">{taka(l.lineTotal)}</td>
                </>
              )}
              {slip && <td className="py-1.5 text-right">☐</td>}
            </tr>
          ))}
        </tbody>
      </table>
      {slip ? (
        <section className="mt-6 grid grid-cols-2 gap-8">
          <div>
            <p className="text-base font-bold">{due > 0 ? `Collect ${taka(due)} in cash` : 'Paid: nothing to collect'}</p>
            {order.note && <p className="mt-2">Customer’s note: “{order.note}”</p>}
          </div>
          <div className="flex flex-col gap-8 pt-6">
            <p className="border-t border-ink pt-1 text-xs">Received in good condition: customer’s signature</p>
            <p className="border-t border-ink pt-1 text-xs">Delivered by</p>
          </div>
        </section>
      ) : (
        <OrderTotals order={order} className="mt-4" />
      )}
      <p className="mt-8 text-xs text-ink-muted">
        Scan the code to see this {order.kind} online. Thank you for shopping with {shop.name}.
      </p>
    </div>
  );
}
