import type { TPaymentOutcome, TSale } from '@storefront/shared';
import { type ReactNode, useEffect } from 'react';
import { Link, useLocation, useRevalidator, useRouteLoaderData } from 'react-router';
import type { ShellUser } from '../components/account/shell-user.ts';
import { AlertIcon, CheckIcon } from '../components/cart/cart-icons.tsx';
import { DeliveryDetails, PaymentBadge, RetryPaymentButton, SaleItems, SaleTotals, StatusBadge, WalletReceipt } from '../components/orders/sale-parts.tsx';
import { Button, ButtonLink } from '../components/ui/button.tsx';
import { cartActions, useCartReady } from '../lib/cart-store.ts';
import { useMoney } from '../lib/currency.tsx';
import { type Localized, metaT, Trans, useT } from '../lib/i18n.tsx';
import { useSessionUser } from '../lib/session-store.ts';
import { brandName, type SiteSettings } from '../lib/site.ts';
import type { Route } from './+types/payment-response';

// The four outcome screens of spec §2: /payments/response/success|failed|cancel|later.
// The shopper lands here from checkout or back from the payment page (after our server
// has checked the payment with the gateway, routes/payments.ts). Each shows the order as
// it really is now, what was charged, and the next step.

const OUTCOMES: Record<string, TPaymentOutcome> = { success: 'success', failed: 'failed', cancel: 'cancel', later: 'later' };

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const outcome = OUTCOMES[url.pathname.split('/').pop() ?? ''] ?? 'success';
  const invoiceId = url.searchParams.get('invoiceId') ?? '';
  const reason = url.searchParams.get('reason');
  if (!/^[A-Za-z0-9-]{6,40}$/.test(invoiceId)) return { outcome, invoiceId: null, sale: null, reason };
  // Not the visitor's order (or none): the page says so rather than failing. The API answers
  // 404 for an order the visitor may not see (docs/decisions/0018); 403 is taken alike.
  const read = () =>
    context.reads
      .sale({ invoiceId })
      .catch((err: { status?: number }) => (err.status === 404 || err.status === 403 || err.status === 400 ? null : Promise.reject(err)));
  let sale = await read();
  // Back from the gateway but not settled yet (the notification is on its way): ask our
  // server to check with the gateway now. It marks the order paid only if the gateway says so.
  if (sale && outcome === 'success' && sale.status === 'pending_payment') {
    await context.api(`/api/checkouts/confirm?invoiceId=${encodeURIComponent(invoiceId)}`, { method: 'PATCH', body: {} });
    sale = await read();
  }
  return { outcome, invoiceId, sale, reason };
}

export function meta({ data, matches }: Route.MetaArgs) {
  const settings = (matches[0]?.data as { settings?: SiteSettings } | undefined)?.settings ?? {};
  const { t } = metaT(matches);
  const title = hidden(data?.outcome ?? 'success', data?.sale ?? null, data?.invoiceId ?? null)
    ? t('We cannot show this order')
    : {
        success: t('Thank you for your order'),
        failed: t('Payment failed'),
        cancel: t('Payment cancelled'),
        later: t('Your booking is confirmed'),
      }[data?.outcome ?? 'success'];
  return [{ title: `${title} — ${brandName(settings)}` }, { name: 'robots', content: 'noindex' }];
}

/**
 * An order was named but the visitor may not see it (another customer's, or a guest's from
 * another device, docs/decisions/0018) or there is none. The success and booking pages then
 * say only that: their headlines would claim a payment or a booking the visitor cannot know
 * of. The failed and cancelled pages keep theirs: the payer may come back from the gateway
 * without the cookie that opens the order, and "nothing was charged" is still theirs to read.
 */
function hidden(outcome: TPaymentOutcome, sale: TSale | null, invoiceId: string | null): boolean {
  return !sale && !!invoiceId && (outcome === 'success' || outcome === 'later');
}

function headline(
  { t, digits }: Localized,
  outcome: TPaymentOutcome,
  sale: TSale | null,
  reason: string | null,
  invoiceId: string | null,
): { tone: 'good' | 'wait' | 'bad'; title: string; text: string } {
  if (hidden(outcome, sale, invoiceId)) {
    return {
      tone: 'wait',
      title: t('We cannot show this order'),
      text: t(
        'Order {invoiceId} cannot be shown here. If it is yours, sign in with the account that placed it, or open the link in your order confirmation email.',
        { invoiceId: digits(invoiceId ?? '') },
      ),
    };
  }
  if (outcome === 'later') {
    return {
      tone: 'good',
      title: t('Your items are booked'),
      text: t(
        'We are holding them for you. Pay at any of our showrooms or by bank transfer, then upload the deposit slip on your order page. You can cancel the booking until it is delivered.',
      ),
    };
  }
  if (outcome === 'failed') {
    return {
      tone: 'bad',
      title: t('Your payment did not go through'),
      text:
        reason === 'unverified'
          ? t(
              'We could not confirm this payment with the payment provider, so nothing has been recorded as paid. If money was taken from your account, it will be returned by your bank; please call us if you need help.',
            )
          : t('Nothing was charged. We released the items you chose, so they may sell out; you can try the payment again now.'),
    };
  }
  if (outcome === 'cancel') {
    return {
      tone: 'bad',
      title: t('You cancelled the payment'),
      text: t('Nothing was charged. Your order is saved: you can pay for it now or later from your orders.'),
    };
  }
  if (sale?.paymentMethod === 'cod')
    return {
      tone: 'good',
      title: t('Thank you for your order'),
      text: t('We will call you to arrange delivery. You pay in cash when your furniture arrives.'),
    };
  if (sale?.paymentStatus === 'paid' && sale.status === 'confirmed')
    return { tone: 'good', title: t('Thank you, your payment was received'), text: t('Your order is confirmed. We will call you to arrange delivery.') };
  if (sale?.status === 'on_hold')
    return { tone: 'wait', title: t('Payment received, under review'), text: t('We are checking your payment and will call you before the order goes out.') };
  if (sale && (sale.status === 'payment_failed' || sale.status === 'payment_cancelled' || sale.status === 'payment_expired')) {
    return { tone: 'bad', title: t('This order is not paid'), text: t('The payment was not completed. You can try it again.') };
  }
  return {
    tone: 'wait',
    title: t('We are waiting for the payment provider'),
    text: t('Your payment is being confirmed. This usually takes a few seconds; we will email you as soon as it is.'),
  };
}

export default function PaymentResponse({ loaderData }: Route.ComponentProps) {
  const { outcome, sale, reason, invoiceId } = loaderData;
  const money = useMoney();
  const l = useT();
  const { t, digits, date } = l;
  const revalidator = useRevalidator();
  const root = useRouteLoaderData('root') as { user?: ShellUser | null } | undefined;
  const user = useSessionUser(root?.user ?? null);
  const { pathname, search } = useLocation();
  const h = headline(l, outcome, sale, reason, invoiceId);
  const canRetry = sale?.canRetryPayment && (outcome !== 'success' || sale.status !== 'pending_payment');
  const offerSignIn = !sale && !!invoiceId && !user;

  // The cart was kept while the card payment was open (routes/checkout.tsx): once the
  // provider's payment is verified, what was ordered leaves it. Nothing happens for an order
  // this browser did not place from its cart, or for one that is not paid.
  const cartReady = useCartReady();
  const paidInvoice = sale?.paidAt ? sale.invoiceId : null;
  useEffect(() => {
    if (cartReady && paidInvoice) cartActions.paid(paidInvoice);
  }, [cartReady, paidInvoice]);

  return (
    <div className="container-page max-w-4xl py-8 md:py-12" data-testid={`outcome-${outcome}`}>
      <header
        className={`flex gap-4 rounded-[var(--radius-card)] p-5 md:p-6 ${h.tone === 'good' ? 'bg-brand-50' : h.tone === 'bad' ? 'bg-red-50' : 'bg-amber-50'}`}
      >
        <span
          className={`inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-full ${h.tone === 'good' ? 'bg-brand-700 text-white' : h.tone === 'bad' ? 'bg-danger-600 text-white' : 'bg-amber-600 text-white'}`}
          aria-hidden="true"
        >
          {h.tone === 'good' ? <CheckIcon /> : <AlertIcon />}
        </span>
        <div>
          <h1 className="text-2xl font-bold tracking-tight md:text-3xl">{h.title}</h1>
          <p className="mt-2 max-w-2xl text-[0.98rem]">{h.text}</p>
        </div>
      </header>

      <div className="mt-6 flex flex-wrap gap-3" data-testid="next-steps">
        {canRetry && invoiceId && <RetryPaymentButton invoiceId={invoiceId} />}
        {sale?.status === 'pending_payment' && outcome === 'success' && (
          <Button variant="secondary" onClick={() => revalidator.revalidate()} disabled={revalidator.state !== 'idle'}>
            {t('Check again')}
          </Button>
        )}
        {sale && (
          <ButtonLink to={`/orders?invoiceId=${encodeURIComponent(sale.invoiceId)}`} variant={canRetry ? 'secondary' : 'primary'}>
            {t('View order')}
          </ButtonLink>
        )}
        {offerSignIn && <ButtonLink to={`/sign-in?redirectTo=${encodeURIComponent(pathname + search)}`}>{t('Sign in')}</ButtonLink>}
        <ButtonLink to="/shop" variant="secondary">
          {t('Continue shopping')}
        </ButtonLink>
      </div>

      {sale ? (
        <div className="mt-8 grid items-start gap-6 md:grid-cols-[1fr_20rem]">
          <Card>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h2 className="text-lg font-semibold">
                <Trans
                  id={sale.kind === 'booking' ? 'Booking <0>{invoiceId}</0>' : 'Order <0>{invoiceId}</0>'}
                  values={{ invoiceId: digits(sale.invoiceId) }}
                  components={{ 0: <span data-testid="invoice-id" /> }}
                />
              </h2>
              <div className="flex gap-2">
                <StatusBadge status={sale.status} />
                <PaymentBadge status={sale.paymentStatus} saleStatus={sale.status} />
              </div>
            </div>
            <p className="text-sm text-ink-muted">{t('Placed {date}', { date: date(sale.createdAt, 'dateTime') })}</p>
            <SaleItems sale={sale} money={money} />
            <div className="mt-4 border-t border-sand-200 pt-4">
              <DeliveryDetails sale={sale} />
            </div>
          </Card>
          <Card>
            <h2 className="mb-3 text-lg font-semibold">{t('Summary')}</h2>
            <SaleTotals sale={sale} money={money} />
            <WalletReceipt sale={sale} />
          </Card>
        </div>
      ) : (
        <p className="mt-8 text-ink-muted">
          {invoiceId ? (
            <>
              {hidden(outcome, sale, invoiceId)
                ? user
                  ? `${t('You are signed in as {name}.', { name: user.name })} `
                  : ''
                : `${t(
                    'We cannot show order {invoiceId} here. If it is yours, sign in with the account that placed it, or open the link in your order confirmation email.',
                    { invoiceId: digits(invoiceId) },
                  )} `}
              <Link to="/orders" className="font-semibold text-brand-700 underline">
                {t('Your orders')}
              </Link>
            </>
          ) : (
            t('No order was given.')
          )}
        </p>
      )}
    </div>
  );
}

function Card({ children }: { children: ReactNode }) {
  return <section className="rounded-[var(--radius-card)] bg-paper p-5 shadow-[var(--shadow-card)] md:p-6">{children}</section>;
}
