import * as Tabs from '@radix-ui/react-tabs';
import { PAYMENT_STATUS_LABELS, SALE_STATUS_LABELS, type TSale, type TUploadedFile } from '@storefront/shared';
import { type ReactNode, useState } from 'react';
import { data, Link, useRevalidator, useRouteLoaderData, useSearchParams } from 'react-router';
import type { ShellUser } from '../components/account/shell-user.ts';
import { FileUploadField } from '../components/files/file-upload-field.tsx';
import { DeliveryDetails, formatDate, PaymentBadge, RetryPaymentButton, SaleItems, SaleTotals, StatusBadge } from '../components/orders/sale-parts.tsx';
import { Button, ButtonLink } from '../components/ui/button.tsx';
import { Modal } from '../components/ui/modal.tsx';
import { apiFetch } from '../lib/api-client.ts';
import { pageRead } from '../lib/api.server.ts';
import { useMoney } from '../lib/currency.tsx';
import { session, useSessionUser } from '../lib/session-store.ts';
import { brandName, type SiteSettings } from '../lib/site.ts';
import { toast } from '../lib/toast.ts';
import type { Route } from './+types/orders';

// /orders (spec §2): the customer's orders and bookings (tabs), each with its lines,
// totals and payment status; ?invoiceId= opens one with its invoice, QR code, history,
// cancel (bookings and unpaid orders) and payment proof upload. A guest sees the orders
// placed from this browser (decision 0018).

const search = (kind: 'order' | 'booking') => ({
  page: 1,
  size: 50,
  textParams: [{ field: 'kind', value: kind, matchType: 'EXACT' as const }],
  sortParams: [{ field: 'createdAt', type: 'DESC' as const }],
});

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const invoiceId = url.searchParams.get('invoiceId');
  const id = url.searchParams.get('id');
  // A guest's order mail links here with its signed key (docs/decisions/0032): the order opens
  // on any device, and this browser remembers it as if it had placed it.
  const key = url.searchParams.get('key');
  if (invoiceId || id) {
    const sale = await pageRead(() => context.reads.sale(invoiceId ? { invoiceId } : { id: id! }, key));
    const svg = await context.reads.invoiceQr(sale.invoiceId, 200, key).catch(() => null);
    const setCookie = key && invoiceId ? await context.reads.rememberOrderLink(invoiceId, key) : null;
    return data(
      { view: 'detail' as const, sale, qr: svg ? `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` : null },
      setCookie ? { headers: { 'Set-Cookie': setCookie } } : undefined,
    );
  }
  const [orders, bookings] = await Promise.all([context.reads.sales(search('order')), context.reads.sales(search('booking'))]);
  return { view: 'list' as const, orders: orders.list, bookings: bookings.list };
}

/** Orders are the visitor's own: never kept by a shared cache; a mailed link's cookie reaches the browser. */
export function headers({ loaderHeaders }: Route.HeadersArgs) {
  const out = new Headers({ 'Cache-Control': 'private, no-store' });
  const cookie = loaderHeaders.get('Set-Cookie');
  if (cookie) out.set('Set-Cookie', cookie);
  return out;
}

export function meta({ data: loaded, matches }: Route.MetaArgs) {
  const settings = (matches[0]?.data as { settings?: SiteSettings } | undefined)?.settings ?? {};
  const title = loaded?.view === 'detail' ? `${loaded.sale.kind === 'booking' ? 'Booking' : 'Order'} ${loaded.sale.invoiceId}` : 'My Orders';
  return [{ title: `${title} — ${brandName(settings)}` }, { name: 'robots', content: 'noindex' }];
}

export default function OrdersPage({ loaderData }: Route.ComponentProps) {
  if (loaderData.view === 'detail') return <OrderDetail sale={loaderData.sale} qr={loaderData.qr} />;
  return <OrderList orders={loaderData.orders} bookings={loaderData.bookings} />;
}

function OrderList({ orders, bookings }: { orders: TSale[]; bookings: TSale[] }) {
  const root = useRouteLoaderData('root') as { user?: ShellUser | null } | undefined;
  const user = useSessionUser(root?.user ?? null);
  const revalidator = useRevalidator();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'bookings' ? 'bookings' : 'orders';

  return (
    <section className="container-page py-8 md:py-12">
      <h1 className="text-2xl font-bold tracking-tight md:text-3xl">My Orders</h1>
      {!user && (
        <p className="mt-3 max-w-2xl text-ink-muted">
          {orders.length + bookings.length ? 'These are the orders placed from this device. ' : ''}
          <button type="button" className="font-semibold text-brand-700 underline" onClick={() => session.openAuth('sign-in', () => revalidator.revalidate())}>
            Sign in
          </button>{' '}
          to see every order of your account.
        </p>
      )}
      <Tabs.Root
        value={tab}
        onValueChange={(v) => setParams(v === 'bookings' ? { tab: 'bookings' } : {}, { preventScrollReset: true, replace: true })}
        className="mt-6"
      >
        <Tabs.List aria-label="Orders and bookings" className="flex gap-1 border-b border-sand-200">
          {[
            ['orders', `Orders (${orders.length})`],
            ['bookings', `Bookings (${bookings.length})`],
          ].map(([value, label]) => (
            <Tabs.Trigger
              key={value}
              value={value}
              className="border-b-2 border-transparent px-4 py-3 text-[0.95rem] font-medium text-ink-muted hover:text-ink data-[state=active]:border-brand-700 data-[state=active]:text-brand-700"
            >
              {label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value="orders" className="pt-6 focus-visible:outline-none">
          <SaleList sales={orders} empty="You have no orders yet." />
        </Tabs.Content>
        <Tabs.Content value="bookings" className="pt-6 focus-visible:outline-none">
          <SaleList sales={bookings} empty="You have no bookings. Choose “Pay later” at checkout to book items and pay at a showroom or by bank transfer." />
        </Tabs.Content>
      </Tabs.Root>
    </section>
  );
}

function SaleList({ sales, empty }: { sales: TSale[]; empty: string }) {
  const money = useMoney();
  if (!sales.length) {
    return (
      <div className="rounded-[var(--radius-card)] bg-paper px-6 py-12 text-center shadow-[var(--shadow-card)]">
        <p className="text-ink-muted">{empty}</p>
        <ButtonLink to="/shop" className="mt-5">
          Continue shopping
        </ButtonLink>
      </div>
    );
  }
  return (
    <ul className="space-y-4" data-testid="sale-list">
      {sales.map((s) => (
        <li
          key={s.id}
          className="rounded-[var(--radius-card)] bg-paper p-4 shadow-[var(--shadow-card)] md:p-5"
          data-testid="sale-card"
          data-invoice={s.invoiceId}
        >
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div>
              <Link to={`/orders?invoiceId=${encodeURIComponent(s.invoiceId)}`} className="text-lg font-semibold text-brand-700 hover:underline">
                {s.invoiceId}
              </Link>
              <p className="text-sm text-ink-muted">
                {formatDate(s.createdAt)} · {s.itemCount} {s.itemCount === 1 ? 'item' : 'items'}
              </p>
            </div>
            <div className="flex flex-wrap gap-2">
              <StatusBadge status={s.status} />
              <PaymentBadge status={s.paymentStatus} saleStatus={s.status} />
            </div>
          </div>
          <ul className="mt-3 space-y-1 text-sm">
            {s.lines.map((l) => (
              <li key={l.lineNo} className="flex justify-between gap-3">
                <span className="min-w-0 truncate">
                  {l.quantity} × {l.title}
                  {l.variant ? <span className="text-ink-muted"> · {l.variant}</span> : null}
                </span>
                <span className="shrink-0 font-medium">{money.format(l.lineTotal)}</span>
              </li>
            ))}
          </ul>
          <div className="mt-3 flex flex-wrap items-center justify-between gap-3 border-t border-sand-200 pt-3">
            <p className="font-semibold">
              Total {money.format(s.total)}
              {!money.isBdt && <span className="ml-2 text-sm font-normal text-ink-muted">({money.formatBdt(s.total)})</span>}
            </p>
            <ButtonLink to={`/orders?invoiceId=${encodeURIComponent(s.invoiceId)}`} variant="secondary" size="sm" aria-label={`View ${s.kind} ${s.invoiceId}`}>
              View details
            </ButtonLink>
          </div>
        </li>
      ))}
    </ul>
  );
}

function OrderDetail({ sale, qr }: { sale: TSale; qr: string | null }) {
  const money = useMoney();
  const [params] = useSearchParams();
  const orderKey = params.get('key');
  const revalidator = useRevalidator();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const noun = sale.kind === 'booking' ? 'booking' : 'order';

  async function cancel() {
    setBusy(true);
    setError(null);
    const res = await apiFetch<TSale>(`/api/sales?id=${sale.id}`, { method: 'PATCH', body: { status: 'CANCELLED' } });
    setBusy(false);
    if (!res.ok) {
      setError(res.networkError ? 'We could not reach the shop. Please try again.' : (res.error?.message ?? 'The order could not be cancelled.'));
      return;
    }
    setConfirming(false);
    toast.success(`Your ${noun} is cancelled`);
    revalidator.revalidate();
  }

  async function attach(file: TUploadedFile) {
    const res = await apiFetch<TSale>('/api/sales/payments/attachments', { method: 'PATCH', body: { id: sale.id, fileUuid: file.uuid } });
    if (res.ok) {
      toast.success('Payment proof received');
      revalidator.revalidate();
    } else {
      toast.error(res.error?.message ?? 'The proof could not be attached');
    }
  }

  return (
    <section className="container-page max-w-5xl py-8 md:py-12">
      <nav aria-label="Breadcrumb" className="mb-4 text-sm">
        <Link to={sale.kind === 'booking' ? '/orders?tab=bookings' : '/orders'} className="font-medium text-brand-700 hover:underline">
          ← My Orders
        </Link>
      </nav>
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight md:text-3xl">
            {sale.kind === 'booking' ? 'Booking' : 'Order'} <span data-testid="invoice-id">{sale.invoiceId}</span>
          </h1>
          <p className="mt-1 text-ink-muted">Placed {formatDate(sale.createdAt)}</p>
          <div className="mt-3 flex flex-wrap gap-2">
            <StatusBadge status={sale.status} />
            <PaymentBadge status={sale.paymentStatus} saleStatus={sale.status} />
          </div>
        </div>
        <div className="flex flex-wrap gap-3 print:hidden">
          {sale.canRetryPayment && <RetryPaymentButton invoiceId={sale.invoiceId} label="Pay now" />}
          <Button variant="secondary" onClick={() => window.print()}>
            Print invoice
          </Button>
          <ButtonLink
            variant="secondary"
            reloadDocument
            to={`/orders/invoice.pdf?invoiceId=${encodeURIComponent(sale.invoiceId)}${orderKey ? `&key=${encodeURIComponent(orderKey)}` : ''}`}
          >
            Download PDF
          </ButtonLink>
          {sale.canCancel && (
            <Button variant="danger" onClick={() => setConfirming(true)}>
              Cancel {noun}
            </Button>
          )}
        </div>
      </header>

      {/* On a phone the cards are one column in reading order (items, what is due, delivery…);
          from lg the invoice and QR sit in a column of their own. */}
      <div className="mt-6 grid items-start gap-6 lg:grid-cols-[1fr_20rem]">
        <div className="contents lg:block lg:space-y-6">
          <Card title="Items" className="order-1">
            <SaleItems sale={sale} money={money} />
          </Card>
          <Card title="Delivery and payment" className="order-3">
            <DeliveryDetails sale={sale} />
            {sale.note && <p className="mt-3 text-sm text-ink-muted">Note: {sale.note}</p>}
          </Card>
          {sale.kind === 'booking' && (
            <Card title="Payment proof" className="order-4">
              <p className="text-sm text-ink-muted">
                Pay {money.formatBdt(sale.total)} at any showroom or by bank transfer quoting <strong>{sale.invoiceId}</strong>, then upload the deposit slip
                here. We confirm the booking once we have checked it.
              </p>
              {sale.attachments && sale.attachments.length > 0 && (
                <ul className="mt-3 space-y-1 text-sm" data-testid="attachments">
                  {sale.attachments.map((a) => (
                    <li key={a.fileUuid}>
                      {a.url ? (
                        <a href={a.url} className="font-medium text-brand-700 underline" target="_blank" rel="noreferrer">
                          {a.name ?? 'Payment proof'}
                        </a>
                      ) : (
                        (a.name ?? 'Payment proof')
                      )}{' '}
                      <span className="text-ink-muted">· uploaded {formatDate(a.createdAt)}</span>
                      {a.reviewStatus === 'accepted' && <span className="ml-1 font-medium text-brand-700">· accepted</span>}
                      {a.reviewStatus === 'rejected' && (
                        <span className="block font-medium text-danger-600">Not accepted: {a.reviewNote}. Please upload a new proof.</span>
                      )}
                    </li>
                  ))}
                </ul>
              )}
              {sale.canUploadProof && (
                <div className="mt-4 print:hidden">
                  <FileUploadField label="Deposit slip or receipt" type="document" onUploaded={attach} buttonText="Upload payment proof" />
                </div>
              )}
            </Card>
          )}
          <Card title="History" className="order-6">
            <ol className="relative space-y-4 border-l-2 border-sand-200 pl-5" data-testid="history">
              {(sale.history ?? []).map((h, i) => (
                <li key={i} className="relative">
                  <span className="absolute -left-[1.72rem] top-1.5 h-3 w-3 rounded-full bg-brand-700 ring-4 ring-paper" aria-hidden="true" />
                  <p className="font-medium">
                    {SALE_STATUS_LABELS[h.status]} · <span className="text-ink-muted">{PAYMENT_STATUS_LABELS[h.paymentStatus]}</span>
                  </p>
                  <p className="text-sm text-ink-muted">
                    {formatDate(h.createdAt)} — {h.note}
                  </p>
                </li>
              ))}
            </ol>
          </Card>
        </div>
        <div className="contents lg:block lg:space-y-6">
          <Card title="Invoice" className="order-2">
            <SaleTotals sale={sale} money={money} />
            {sale.payments?.some((p) => p.status === 'valid' || p.status === 'review') && (
              <p className="mt-3 text-sm text-ink-muted">
                Paid {sale.paidAt ? formatDate(sale.paidAt) : ''} by{' '}
                {sale.payments.find((p) => p.status === 'valid' || p.status === 'review')?.cardType ?? 'card'}.
              </p>
            )}
          </Card>
          {qr && (
            <Card title="Show at the showroom" className="order-5">
              <img src={qr} alt={`QR code of ${noun} ${sale.invoiceId}`} width={200} height={200} className="mx-auto h-auto w-48" data-testid="invoice-qr" />
              <p className="mt-2 text-center text-sm text-ink-muted">Scan to open this {noun}, for payment or pickup.</p>
            </Card>
          )}
        </div>
      </div>

      <Modal open={confirming} onOpenChange={(o) => !busy && setConfirming(o)} title={`Cancel this ${noun}?`} className="max-w-md">
        <p>
          {sale.invoiceId}: the items go back on sale{sale.couponCode ? ` and the coupon ${sale.couponCode} can be used again` : ''}. This cannot be undone.
        </p>
        {error && (
          <p role="alert" className="mt-3 text-sm font-medium text-danger-600">
            {error}
          </p>
        )}
        <div className="mt-5 flex flex-wrap justify-end gap-3">
          <Button variant="secondary" onClick={() => setConfirming(false)} disabled={busy}>
            Keep it
          </Button>
          <Button variant="danger" onClick={cancel} disabled={busy} aria-busy={busy}>
            {busy ? 'Cancelling…' : `Yes, cancel the ${noun}`}
          </Button>
        </div>
      </Modal>
    </section>
  );
}

function Card({ title, children, className = '' }: { title: string; children: ReactNode; className?: string }) {
  return (
    <section className={`rounded-[var(--radius-card)] bg-paper p-5 shadow-[var(--shadow-card)] md:p-6 ${className}`} aria-label={title}>
      <h2 className="mb-3 text-lg font-semibold">{title}</h2>
      {children}
    </section>
  );
}
