import {
  PAYMENT_METHOD_LABELS,
  PAYMENT_METHODS,
  PAYMENT_STATUS_LABELS,
  PAYMENT_STATUSES,
  SALE_STATUS_LABELS,
  SALE_STATUSES,
  type TAdminOrderRow,
  type TBranch,
} from '@storefront/shared';
import { Link, useSearchParams } from 'react-router';
import { adminRead } from '../../components/admin/admin-api.server.ts';
import { AdminPage, FilterBar, inputClass, OrderStatusBadge, Pagination, taka } from '../../components/admin/admin-ui.tsx';
import { apiQuery } from '../../components/admin/order-query.ts';
import type { Route } from './+types/orders';

// Orders and bookings (docs/decisions/0032): filtered, searched and paged on the server; the
// same filters export the list as CSV.

export function meta() {
  return [{ title: 'Orders · Back office' }];
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const [page, branches] = await Promise.all([
    adminRead<{ items: TAdminOrderRow[]; total: number; page: number; size: number }>(context, request, `/api/admin/orders?${apiQuery(url)}`),
    context.reads.branches(),
  ]);
  return { page, branches: branches as TBranch[], csv: `/admin/orders.csv?${apiQuery(url)}` };
}

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { timeZone: 'Asia/Dhaka', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });

export default function AdminOrders({ loaderData }: Route.ComponentProps) {
  const { page, branches, csv } = loaderData;
  const [params] = useSearchParams();
  const select = (name: string, label: string, options: readonly string[], labels: Record<string, string>, any = true) => (
    <label className="flex flex-col gap-1 text-sm font-medium">
      {label}
      <select className={inputClass} name={name} defaultValue={params.get(name) ?? ''}>
        {any && <option value="">Any</option>}
        {options.map((o) => (
          <option key={o} value={o}>
            {labels[o] ?? o}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <AdminPage
      title="Orders"
      description="Every order and booking, newest first. Open one to confirm, pack, ship, deliver or refund it."
      actions={
        <a
          href={csv}
          className="inline-flex h-10 items-center rounded-lg border border-sand-300 bg-paper px-4 text-sm font-semibold hover:bg-sand-100"
          download
        >
          Export CSV
        </a>
      }
    >
      <FilterBar>
        <label className="flex min-w-56 flex-1 flex-col gap-1 text-sm font-medium">
          Search
          <input className={inputClass} type="search" name="q" defaultValue={params.get('q') ?? ''} placeholder="Invoice, name, mobile or email" />
        </label>
        {select('status', 'Status', SALE_STATUSES, SALE_STATUS_LABELS)}
        {select('paymentStatus', 'Payment', PAYMENT_STATUSES, PAYMENT_STATUS_LABELS)}
        {select('paymentMethod', 'Method', PAYMENT_METHODS, PAYMENT_METHOD_LABELS)}
        {select('kind', 'Kind', ['order', 'booking'], { order: 'Orders', booking: 'Bookings' })}
        {select(
          'branchId',
          'Branch',
          branches.map((b) => String(b.id)),
          Object.fromEntries(branches.map((b) => [String(b.id), b.name])),
        )}
        <label className="flex flex-col gap-1 text-sm font-medium">
          From
          <input className={inputClass} type="date" name="from" defaultValue={params.get('from') ?? ''} />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          To
          <input className={inputClass} type="date" name="to" defaultValue={params.get('to') ?? ''} />
        </label>
        <label className="flex w-28 flex-col gap-1 text-sm font-medium">
          Min ৳
          <input className={inputClass} inputMode="decimal" name="min" defaultValue={params.get('min') ?? ''} />
        </label>
        <label className="flex w-28 flex-col gap-1 text-sm font-medium">
          Max ৳
          <input className={inputClass} inputMode="decimal" name="max" defaultValue={params.get('max') ?? ''} />
        </label>
        {select(
          'sort',
          'Sort',
          ['newest', 'oldest', 'total_desc', 'total_asc'],
          {
            newest: 'Newest first',
            oldest: 'Oldest first',
            total_desc: 'Largest total',
            total_asc: 'Smallest total',
          },
          false,
        )}
      </FilterBar>
      <div className="overflow-x-auto rounded-card border border-sand-200 bg-paper">
        <table className="w-full min-w-[56rem] border-collapse text-sm">
          <caption className="sr-only">Orders and bookings</caption>
          <thead className="border-b border-sand-200 bg-sand-50">
            <tr>
              {['Invoice', 'Placed', 'Customer', 'Status', 'Payment', 'Branch'].map((h) => (
                <th key={h} scope="col" className="px-3 py-2 text-left font-semibold">
                  {h}
                </th>
              ))}
              <th scope="col" className="px-3 py-2 text-right font-semibold">
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {page.items.map((o) => (
              <tr key={o.id} className="border-b border-sand-100 last:border-0 hover:bg-sand-50">
                <td className="px-3 py-2">
                  <Link to={`/admin/orders/${o.id}`} className="whitespace-nowrap font-semibold text-brand-700 hover:underline">
                    {o.invoiceId}
                  </Link>
                  {o.kind === 'booking' && <span className="ml-2 rounded bg-sand-100 px-1.5 py-0.5 text-xs">Booking</span>}
                </td>
                <td className="whitespace-nowrap px-3 py-2 text-ink-muted">{when(o.createdAt)}</td>
                <td className="px-3 py-2">
                  <p className="font-medium">{o.contactName}</p>
                  <p className="text-xs text-ink-muted">{o.contactMobile}</p>
                </td>
                <td className="px-3 py-2">
                  <OrderStatusBadge status={o.status} label={SALE_STATUS_LABELS[o.status]} />
                </td>
                <td className="px-3 py-2">
                  <p>{PAYMENT_STATUS_LABELS[o.paymentStatus]}</p>
                  <p className="text-xs text-ink-muted">{PAYMENT_METHOD_LABELS[o.paymentMethod]}</p>
                </td>
                <td className="px-3 py-2 text-ink-muted">{o.branchName ?? '—'}</td>
                <td className="whitespace-nowrap px-3 py-2 text-right font-medium tabular-nums">{taka(o.total)}</td>
              </tr>
            ))}
            {!page.items.length && (
              <tr>
                <td colSpan={7} className="px-3 py-8 text-center text-ink-muted">
                  No orders match these filters.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <Pagination page={page.page} size={page.size} total={page.total} />
    </AdminPage>
  );
}
