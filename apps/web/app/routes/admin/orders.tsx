import {
  PAYMENT_METHOD_LABELS,
  PAYMENT_METHODS,
  PAYMENT_STATUS_LABELS,
  PAYMENT_STATUSES,
  SALE_STATUS_LABELS,
  SALE_STATUSES,
  type TAdminOrderRow,
  type TBranch,
  type TBulkBookResult,
  type TConsignmentCourier,
  type TCourierList,
} from '@storefront/shared';
import { useState } from 'react';
import { Link, useRevalidator, useSearchParams } from 'react-router';
import { adminRead } from '../../components/admin/admin-api.server.ts';
import { AdminPage, FilterBar, inputClass, Notice, OrderStatusBadge, Pagination, taka } from '../../components/admin/admin-ui.tsx';
import { apiFetch } from '../../lib/api-client.ts';
import { apiQuery } from '../../components/admin/order-query.ts';
import type { Route } from './+types/orders';
import { may, useAdminSession } from './layout.tsx';

// Orders and bookings (docs/decisions/0032): filtered, searched and paged on the server; the
// same filters export the list as CSV.

export function meta() {
  return [{ title: 'Orders · Back office' }];
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const [page, branches, couriers] = await Promise.all([
    adminRead<{ items: TAdminOrderRow[]; total: number; page: number; size: number }>(context, request, `/api/admin/orders?${apiQuery(url)}`),
    context.reads.branches(),
    adminRead<TCourierList>(context, request, '/api/admin/couriers'),
  ]);
  return { page, branches: branches as TBranch[], couriers: couriers.items, csv: `/admin/orders.csv?${apiQuery(url)}` };
}

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { timeZone: 'Asia/Dhaka', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });

export default function AdminOrders({ loaderData }: Route.ComponentProps) {
  const { page, branches, couriers, csv } = loaderData;
  const [params] = useSearchParams();
  const session = useAdminSession();
  // Parcels are booked in bulk from here (docs/decisions/0040): packed home deliveries only,
  // the ones the courier can take; each order answers its own outcome.
  const bookable = (o: TAdminOrderRow) => o.kind === 'order' && o.status === 'packed' && o.deliveryMethod === 'home_delivery';
  // Pathao needs each parcel's own city and zone, picked on the order's screen: in bulk, only couriers that take the address as text.
  const bulkCouriers = couriers.filter((c) => c.id !== 'pathao');
  const bulk = may(session, 'orders.write') && bulkCouriers.length > 0 && page.items.some(bookable);
  const [selected, setSelected] = useState<number[]>([]);
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
      {bulk && <BulkBooking couriers={bulkCouriers} selected={selected} orders={page.items} onDone={() => setSelected([])} />}
      <div className="overflow-x-auto rounded-card border border-sand-200 bg-paper">
        <table className="w-full min-w-[56rem] border-collapse text-sm">
          <caption className="sr-only">Orders and bookings</caption>
          <thead className="border-b border-sand-200 bg-sand-50">
            <tr>
              {bulk && (
                <th scope="col" className="w-10 px-3 py-2">
                  <span className="sr-only">Select to book</span>
                </th>
              )}
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
                {bulk && (
                  <td className="px-3 py-2">
                    {bookable(o) && (
                      <input
                        type="checkbox"
                        className="h-4 w-4 accent-brand-700"
                        aria-label={`Select ${o.invoiceId} to book`}
                        checked={selected.includes(o.id)}
                        onChange={(e) => setSelected(e.target.checked ? [...selected, o.id] : selected.filter((id) => id !== o.id))}
                      />
                    )}
                  </td>
                )}
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
                <td colSpan={bulk ? 8 : 7} className="px-3 py-8 text-center text-ink-muted">
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

function BulkBooking({
  couriers,
  selected,
  orders,
  onDone,
}: {
  couriers: TCourierList['items'];
  selected: number[];
  orders: TAdminOrderRow[];
  onDone: () => void;
}) {
  const revalidator = useRevalidator();
  const [courier, setCourier] = useState<TConsignmentCourier>(couriers[0]!.id);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; booked: string[]; failed: { invoice: string; message: string }[] } | null>(null);
  const invoice = (id: number) => orders.find((o) => o.id === id)?.invoiceId ?? `#${id}`;
  const name = couriers.find((c) => c.id === courier)?.name ?? courier;
  const book = async () => {
    setBusy(true);
    const res = await apiFetch<TBulkBookResult>('/api/admin/consignments/bulk', { method: 'POST', body: { courier, orderIds: selected } });
    setBusy(false);
    if (!res.ok) {
      setOutcome({ tone: 'error', booked: [], failed: [{ invoice: '', message: res.error?.message ?? 'The courier could not be asked' }] });
      return;
    }
    const booked = res.data.results.filter((r) => r.ok).map((r) => invoice(r.orderId));
    const failed = res.data.results.filter((r) => !r.ok).map((r) => ({ invoice: invoice(r.orderId), message: r.error?.message ?? 'Not booked' }));
    setOutcome({ tone: failed.length ? 'error' : 'success', booked, failed });
    onDone();
    revalidator.revalidate();
  };
  return (
    <div className="mb-4 flex flex-col gap-3">
      <div className="flex flex-wrap items-end gap-3 rounded-card border border-sand-200 bg-paper p-3 text-sm">
        {couriers.length > 1 && (
          <label className="flex flex-col gap-1 font-medium">
            Courier
            <select className={inputClass} value={courier} onChange={(e) => setCourier(e.target.value as TConsignmentCourier)}>
              {couriers.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <p className="text-ink-muted" aria-live="polite">
          {selected.length ? `${selected.length} packed order${selected.length === 1 ? '' : 's'} selected` : 'Select packed orders to book them together'}
        </p>
        <button
          type="button"
          className="inline-flex h-10 items-center rounded-lg bg-brand-700 px-4 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
          disabled={busy || !selected.length}
          onClick={book}
        >
          {busy ? 'Booking…' : `Book selected with ${name}`}
        </button>
      </div>
      {outcome && (
        <Notice tone={outcome.tone}>
          {outcome.booked.length > 0 && (
            <p>
              Booked with {name}: {outcome.booked.join(', ')}.
            </p>
          )}
          {outcome.failed.map((f) => (
            <p key={f.invoice}>
              {f.invoice ? `${f.invoice}: ` : ''}
              {f.message}
            </p>
          ))}
        </Notice>
      )}
    </div>
  );
}
