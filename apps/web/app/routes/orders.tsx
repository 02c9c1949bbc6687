import * as Tabs from '@radix-ui/react-tabs';
import { COURIER_NAMES, PAYMENT_STATUS_LABELS, SALE_STATUS_LABELS, SHIPMENT_STATUS_LABELS, type TSale, type TUploadedFile } from '@storefront/shared';
import { type ReactNode, useState } from 'react';
import { data, Link, useRevalidator, useRouteLoaderData, useSearchParams } from 'react-router';
import type { ShellUser } from '../components/account/shell-user.ts';
import { FileUploadField } from '../components/files/file-upload-field.tsx';
import { DeliveryDetails, PaymentBadge, RetryPaymentButton, SaleItems, SaleTotals, StatusBadge, WalletReceipt } from '../components/orders/sale-parts.tsx';
import { Button, ButtonLink } from '../components/ui/button.tsx';
import { Modal } from '../components/ui/modal.tsx';
import { apiFetch } from '../lib/api-client.ts';
import { pageRead } from '../lib/api.server.ts';
import { useMoney } from '../lib/currency.tsx';
import { metaT, Trans, useT } from '../lib/i18n.tsx';
import { session, useSessionUser } from '../lib/session-store.ts';
import { brandName, type SiteSettings } from '../lib/site.ts';
import { toast } from '../lib/toast.ts';
import { translateMessage } from '../lib/translate-message.ts';
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
  const { t, digits } = metaT(matches);
  const title =
    loaded?.view === 'detail'
      ? t(loaded.sale.kind === 'booking' ? 'Booking {invoiceId}' : 'Order {invoiceId}', { invoiceId: digits(loaded.sale.invoiceId) })
      : t('My Orders');
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
  const { t, n } = useT();

  return (
    <section className="container-page py-8 md:py-12">
      <h1 className="text-2xl font-bold tracking-tight md:text-3xl">{t('My Orders')}</h1>
      {!user && (
        <p className="mt-3 max-w-2xl text-ink-muted">
          {orders.length + bookings.length ? `${t('These are the orders placed from this device.')} ` : ''}
          <Trans
            id="<0>Sign in</0> to see every order of your account."
            components={{
              0: (
                <button
                  type="button"
                  className="font-semibold text-brand-700 underline"
                  onClick={() => session.openAuth('sign-in', () => revalidator.revalidate())}
                />
              ),
            }}
          />
        </p>
      )}
      <Tabs.Root
        value={tab}
        onValueChange={(v) => setParams(v === 'bookings' ? { tab: 'bookings' } : {}, { preventScrollReset: true, replace: true })}
        className="mt-6"
      >
        <Tabs.List aria-label={t('Orders and bookings')} className="flex gap-1 border-b border-sand-200">
          {[
            ['orders', t('Orders ({count})', { count: n(orders.length) })],
            ['bookings', t('Bookings ({count})', { count: n(bookings.length) })],
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
          <SaleList sales={orders} empty={t('You have no orders yet.')} />
        </Tabs.Content>
        <Tabs.Content value="bookings" className="pt-6 focus-visible:outline-none">
          <SaleList
            sales={bookings}
            empty={t('You have no bookings. Choose “Pay later” at checkout to book items and pay at a showroom or by bank transfer.')}
          />
        </Tabs.Content>
      </Tabs.Root>
    </section>
  );
}

function SaleList({ sales, empty }: { sales: TSale[]; empty: string }) {
  const money = useMoney();
  const { t, n, digits, date } = useT();
  if (!sales.length) {
    return (
      <div className="rounded-[var(--radius-card)] bg-paper px-6 py-12 text-center shadow-[var(--shadow-card)]">
        <p className="text-ink-muted">{empty}</p>
        <ButtonLink to="/shop" className="mt-5">
          {t('Continue shopping')}
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
                {digits(s.invoiceId)}
              </Link>
              <p className="text-sm text-ink-muted">
                {date(s.createdAt, 'dateTime')} · {t('{count, plural, one {# item} other {# items}}', { count: s.itemCount })}
              </p>
            </div>
            <div className="flex flex-wrap gap-2">
              <StatusBadge status={s.status} />
              <PaymentBadge status={s.paymentStatus} saleStatus={s.status} />
            </div>
          </div>
          {s.shipment && (
            <p className="mt-2 text-sm" data-testid="shipment-summary">
              {t('{courier}: {status}', {
                courier: t(COURIER_NAMES[s.shipment.courier]),
                status: t(SHIPMENT_STATUS_LABELS[s.shipment.status] ?? 'Being checked with the courier'),
              })}
              {s.shipment.trackingCode && <span className="text-ink-muted"> · {t('tracking code {code}', { code: s.shipment.trackingCode })}</span>}
            </p>
          )}
          <ul className="mt-3 space-y-1 text-sm">
            {s.lines.map((l) => (
              <li key={l.lineNo} className="flex justify-between gap-3">
                <span className="min-w-0 truncate">
                  {n(l.quantity)} × {l.title}
                  {l.variant ? <span className="text-ink-muted"> · {l.variant}</span> : null}
                </span>
                <span className="shrink-0 font-medium">{money.format(l.lineTotal)}</span>
              </li>
            ))}
          </ul>
          <div className="mt-3 flex flex-wrap items-center justify-between gap-3 border-t border-sand-200 pt-3">
            <p className="font-semibold">
              {t('Total {amount}', { amount: money.format(s.total) })}
              {!money.isBdt && <span className="ml-2 text-sm font-normal text-ink-muted">({money.formatBdt(s.total)})</span>}
            </p>
            <ButtonLink
              to={`/orders?invoiceId=${encodeURIComponent(s.invoiceId)}`}
              variant="secondary"
              size="sm"
              aria-label={t(s.kind === 'booking' ? 'View booking {invoiceId}' : 'View order {invoiceId}', { invoiceId: digits(s.invoiceId) })}
            >
              {t('View details')}
            </ButtonLink>
          </div>
        </li>
      ))}
    </ul>
  );
}

function OrderDetail({ sale, qr }: { sale: TSale; qr: string | null }) {
  const money = useMoney();
  const l = useT();
  const { t, digits, date } = l;
  const [params] = useSearchParams();
  const orderKey = params.get('key');
  const revalidator = useRevalidator();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const booking = sale.kind === 'booking';

  async function cancel() {
    setBusy(true);
    setError(null);
    const res = await apiFetch<TSale>(`/api/sales?id=${sale.id}`, { method: 'PATCH', body: { status: 'CANCELLED' } });
    setBusy(false);
    if (!res.ok) {
      setError(
        res.networkError
          ? t('We could not reach the shop. Please try again.')
          : (translateMessage(l, res.error?.message) ?? t('The order could not be cancelled.')),
      );
      return;
    }
    setConfirming(false);
    toast.success(booking ? t('Your booking is cancelled') : t('Your order is cancelled'));
    revalidator.revalidate();
  }

  async function attach(file: TUploadedFile) {
    const res = await apiFetch<TSale>('/api/sales/payments/attachments', { method: 'PATCH', body: { id: sale.id, fileUuid: file.uuid } });
    if (res.ok) {
      toast.success(t('Payment proof received'));
      revalidator.revalidate();
    } else {
      toast.error(translateMessage(l, res.error?.message) ?? t('The proof could not be attached'));
    }
  }

  return (
    <section className="container-page max-w-5xl py-8 md:py-12">
      <nav aria-label={t('Breadcrumb')} className="mb-4 text-sm">
        <Link to={sale.kind === 'booking' ? '/orders?tab=bookings' : '/orders'} className="font-medium text-brand-700 hover:underline">
          ← {t('My Orders')}
        </Link>
      </nav>
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight md:text-3xl">
            <Trans
              id={booking ? 'Booking <0>{invoiceId}</0>' : 'Order <0>{invoiceId}</0>'}
              values={{ invoiceId: digits(sale.invoiceId) }}
              components={{ 0: <span data-testid="invoice-id" /> }}
            />
          </h1>
          <p className="mt-1 text-ink-muted">{t('Placed {date}', { date: date(sale.createdAt, 'dateTime') })}</p>
          <div className="mt-3 flex flex-wrap gap-2">
            <StatusBadge status={sale.status} />
            <PaymentBadge status={sale.paymentStatus} saleStatus={sale.status} />
          </div>
        </div>
        <div className="flex flex-wrap gap-3 print:hidden">
          {sale.canRetryPayment && <RetryPaymentButton invoiceId={sale.invoiceId} label={t('Pay now')} />}
          <Button variant="secondary" onClick={() => window.print()}>
            {t('Print invoice')}
          </Button>
          <ButtonLink
            variant="secondary"
            reloadDocument
            to={`/orders/invoice.pdf?invoiceId=${encodeURIComponent(sale.invoiceId)}${orderKey ? `&key=${encodeURIComponent(orderKey)}` : ''}`}
          >
            {t('Download PDF')}
          </ButtonLink>
          {sale.canCancel && (
            <Button variant="danger" onClick={() => setConfirming(true)}>
              {booking ? t('Cancel booking') : t('Cancel order')}
            </Button>
          )}
        </div>
      </header>

      {/* On a phone the cards are one column in reading order (items, what is due, delivery…);
          from lg the invoice and QR sit in a column of their own. */}
      <div className="mt-6 grid items-start gap-6 lg:grid-cols-[1fr_20rem]">
        <div className="contents lg:block lg:space-y-6">
          <Card title={t('Items')} className="order-1">
            <SaleItems sale={sale} money={money} />
          </Card>
          <Card title={t('Delivery and payment')} className="order-3">
            <DeliveryDetails sale={sale} />
            {sale.note && <p className="mt-3 text-sm text-ink-muted">{t('Note: {note}', { note: sale.note })}</p>}
          </Card>
          {sale.shipment && <Shipment shipment={sale.shipment} />}
          {sale.kind === 'booking' && (
            <Card title={t('Payment proof')} className="order-4">
              <p className="text-sm text-ink-muted">
                <Trans
                  id="Pay {amount} at any showroom or by bank transfer quoting <0>{invoiceId}</0>, then upload the deposit slip here. We confirm the booking once we have checked it."
                  values={{ amount: money.formatBdt(sale.total), invoiceId: digits(sale.invoiceId) }}
                  components={{ 0: <strong /> }}
                />
              </p>
              {sale.attachments && sale.attachments.length > 0 && (
                <ul className="mt-3 space-y-1 text-sm" data-testid="attachments">
                  {sale.attachments.map((a) => (
                    <li key={a.fileUuid}>
                      {a.url ? (
                        <a href={a.url} className="font-medium text-brand-700 underline" target="_blank" rel="noreferrer">
                          {a.name ?? t('Payment proof')}
                        </a>
                      ) : (
                        (a.name ?? t('Payment proof'))
                      )}{' '}
                      <span className="text-ink-muted">· {t('uploaded {date}', { date: date(a.createdAt, 'dateTime') })}</span>
                      {a.reviewStatus === 'accepted' && <span className="ml-1 font-medium text-brand-700">· {t('accepted')}</span>}
                      {a.reviewStatus === 'rejected' && (
                        <span className="block font-medium text-danger-600">
                          {t('Not accepted: {reason}. Please upload a new proof.', { reason: a.reviewNote ?? '' })}
                        </span>
                      )}
                    </li>
                  ))}
                </ul>
              )}
              {sale.canUploadProof && (
                <div className="mt-4 print:hidden">
                  <FileUploadField label={t('Deposit slip or receipt')} type="document" onUploaded={attach} buttonText={t('Upload payment proof')} />
                </div>
              )}
            </Card>
          )}
          <Card title={t('History')} className="order-6">
            <ol className="relative space-y-4 border-l-2 border-sand-200 pl-5" data-testid="history">
              {(sale.history ?? []).map((h, i) => (
                <li key={i} className="relative">
                  <span className="absolute -left-[1.72rem] top-1.5 h-3 w-3 rounded-full bg-brand-700 ring-4 ring-paper" aria-hidden="true" />
                  <p className="font-medium">
                    {t(SALE_STATUS_LABELS[h.status])} · <span className="text-ink-muted">{t(PAYMENT_STATUS_LABELS[h.paymentStatus])}</span>
                  </p>
                  <p className="text-sm text-ink-muted">
                    {date(h.createdAt, 'dateTime')} — {t(h.note)}
                  </p>
                </li>
              ))}
            </ol>
          </Card>
        </div>
        <div className="contents lg:block lg:space-y-6">
          <Card title={t('Invoice')} className="order-2">
            <SaleTotals sale={sale} money={money} />
            {sale.payments?.some((p) => p.status === 'valid' || p.status === 'review') && (
              <p className="mt-3 text-sm text-ink-muted">
                {t('Paid {date} by {method}.', {
                  date: sale.paidAt ? date(sale.paidAt, 'dateTime') : '',
                  method: sale.payments.find((p) => p.status === 'valid' || p.status === 'review')?.cardType ?? t('card'),
                })}
              </p>
            )}
            <WalletReceipt sale={sale} />
          </Card>
          {qr && (
            <Card title={t('Show at the showroom')} className="order-5">
              <img
                src={qr}
                alt={t(booking ? 'QR code of booking {invoiceId}' : 'QR code of order {invoiceId}', { invoiceId: digits(sale.invoiceId) })}
                width={200}
                height={200}
                className="mx-auto h-auto w-48"
                data-testid="invoice-qr"
              />
              <p className="mt-2 text-center text-sm text-ink-muted">
                {booking ? t('Scan to open this booking, for payment or pickup.') : t('Scan to open this order, for payment or pickup.')}
              </p>
            </Card>
          )}
        </div>
      </div>

      <Modal
        open={confirming}
        onOpenChange={(o) => !busy && setConfirming(o)}
        title={booking ? t('Cancel this booking?') : t('Cancel this order?')}
        className="max-w-md"
      >
        <p>
          {sale.couponCode
            ? t('{invoiceId}: the items go back on sale and the coupon {code} can be used again. This cannot be undone.', {
                invoiceId: digits(sale.invoiceId),
                code: sale.couponCode,
              })
            : t('{invoiceId}: the items go back on sale. This cannot be undone.', { invoiceId: digits(sale.invoiceId) })}
        </p>
        {error && (
          <p role="alert" className="mt-3 text-sm font-medium text-danger-600">
            {error}
          </p>
        )}
        <div className="mt-5 flex flex-wrap justify-end gap-3">
          <Button variant="secondary" onClick={() => setConfirming(false)} disabled={busy}>
            {t('Keep it')}
          </Button>
          <Button variant="danger" onClick={cancel} disabled={busy} aria-busy={busy}>
            {busy ? t('Cancelling…') : booking ? t('Yes, cancel the booking') : t('Yes, cancel the order')}
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

/**
 * The parcel as the courier reports it (docs/decisions/0040): which courier, the tracking
 * code to quote when calling it, and each status with its time, newest first.
 */
function Shipment({ shipment }: { shipment: NonNullable<TSale['shipment']> }) {
  const { t, date } = useT();
  const statuses = [...shipment.statuses].reverse();
  return (
    <Card title={t('Delivery tracking')} className="order-3">
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm" data-testid="shipment">
        <dt className="text-ink-muted">{t('Courier')}</dt>
        <dd className="font-medium">{t(COURIER_NAMES[shipment.courier])}</dd>
        {shipment.trackingCode && (
          <>
            <dt className="text-ink-muted">{t('Tracking code')}</dt>
            <dd className="font-mono font-medium" data-testid="shipment-tracking-code">
              {shipment.trackingCode}
            </dd>
          </>
        )}
        <dt className="text-ink-muted">{t('Status')}</dt>
        <dd className="font-medium" data-testid="shipment-status">
          {t(SHIPMENT_STATUS_LABELS[shipment.status] ?? 'Being checked with the courier')}
        </dd>
      </dl>
      {statuses.length > 0 && (
        <ol className="relative mt-4 space-y-3 border-l-2 border-sand-200 pl-5" aria-label={t('Courier status history')} data-testid="shipment-history">
          {statuses.map((h, i) => (
            <li key={`${h.at}:${h.status}:${h.message ?? ''}`} className="relative">
              <span
                className={`absolute -left-[1.72rem] top-1.5 h-3 w-3 rounded-full ring-4 ring-paper ${i === 0 ? 'bg-brand-700' : 'bg-sand-300'}`}
                aria-hidden="true"
              />
              <p className="font-medium">{t(SHIPMENT_STATUS_LABELS[h.status] ?? 'Being checked with the courier')}</p>
              <p className="text-sm text-ink-muted">
                <time dateTime={h.at}>{date(h.at, 'dateTime')}</time>
                {h.message ? ` — ${h.message}` : ''}
              </p>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}
