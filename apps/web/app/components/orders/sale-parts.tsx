import {
  DELIVERY_METHOD_LABELS,
  displayMobile,
  PAYMENT_METHOD_LABELS,
  PAYMENT_STATUS_LABELS,
  SALE_STATUS_LABELS,
  type TPaymentStatus,
  type TSale,
  type TSaleStatus,
} from '@storefront/shared';
import { useState } from 'react';
import { apiFetch } from '../../lib/api-client.ts';
import type { Money } from '../../lib/currency.tsx';
import { type Localized, useT } from '../../lib/i18n.tsx';
import { translateMessage } from '../../lib/translate-message.ts';
import { OrderLines, OrderTotals } from '../checkout/order-lines.tsx';
import { Button } from '../ui/button.tsx';

// Pieces of an order shown on the outcome pages and the orders page. The status and method
// names are the shared labels' English ids, translated where they are shown (docs/decisions/0038).

const TONES: Record<string, string> = {
  good: 'bg-brand-50 text-brand-800 ring-brand-700/20',
  wait: 'bg-amber-50 text-amber-900 ring-amber-700/25',
  bad: 'bg-red-50 text-danger-600 ring-danger-600/25',
  plain: 'bg-sand-100 text-ink ring-sand-300',
};

const STATUS_TONE: Record<TSaleStatus, keyof typeof TONES> = {
  pending_payment: 'wait',
  placed: 'wait',
  confirmed: 'good',
  packed: 'good',
  shipped: 'good',
  booked: 'wait',
  on_hold: 'wait',
  payment_failed: 'bad',
  payment_cancelled: 'bad',
  payment_expired: 'bad',
  cancelled: 'plain',
  fulfilled: 'good',
  returned: 'plain',
};
const PAYMENT_TONE: Record<TPaymentStatus, keyof typeof TONES> = {
  unpaid: 'plain',
  pending: 'wait',
  paid: 'good',
  review: 'wait',
  failed: 'bad',
  cancelled: 'bad',
  expired: 'bad',
  proof_submitted: 'wait',
  proof_rejected: 'bad',
  refund_pending: 'wait',
  partially_refunded: 'plain',
  refunded: 'plain',
};

export function StatusBadge({ status }: { status: TSaleStatus }) {
  const { t } = useT();
  return (
    <Badge tone={STATUS_TONE[status]} testId="sale-status">
      {t(SALE_STATUS_LABELS[status])}
    </Badge>
  );
}

/** The payment's state; left out when it would only repeat the order's (“Payment failed” twice). */
export function PaymentBadge({ status, saleStatus }: { status: TPaymentStatus; saleStatus?: TSaleStatus }) {
  const { t } = useT();
  if (saleStatus && SALE_STATUS_LABELS[saleStatus] === PAYMENT_STATUS_LABELS[status]) return null;
  return (
    <Badge tone={PAYMENT_TONE[status]} testId="payment-status">
      {t(PAYMENT_STATUS_LABELS[status])}
    </Badge>
  );
}

function Badge({ tone, children, testId }: { tone: keyof typeof TONES; children: string; testId: string }) {
  return (
    <span className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${TONES[tone]}`} data-testid={testId}>
      {children}
    </span>
  );
}

export function saleLines(sale: TSale) {
  return sale.lines.map((l) => ({
    key: String(l.lineNo),
    title: l.title,
    variant: l.variant,
    image: l.image,
    quantity: l.quantity,
    lineTotal: l.lineTotal,
    listTotal: l.unitPrice * l.quantity,
  }));
}

/** What was charged, or what is due, in words that match the order's state. */
export function chargedLabel(sale: TSale, { t }: Pick<Localized, 't'>): string {
  if (sale.paymentStatus === 'paid' || sale.paymentStatus === 'review' || sale.paymentStatus === 'partially_refunded' || sale.paymentStatus === 'refunded')
    return t('Charged');
  if (sale.status === 'cancelled') return t('Not charged');
  if (sale.paymentMethod === 'cod') return t('To pay on delivery');
  if (sale.paymentMethod === 'later') return t('Amount due');
  return t('Not charged yet');
}

export function SaleTotals({ sale, money }: { sale: TSale; money: Money }) {
  const l = useT();
  return (
    <OrderTotals
      money={money}
      totals={{
        subTotal: sale.subTotal,
        discount: sale.discount,
        couponCode: sale.couponCode,
        couponAmount: sale.couponAmount,
        deliveryFee: sale.deliveryFee,
        total: sale.total,
      }}
      chargedLabel={chargedLabel(sale, l)}
    />
  );
}

export function SaleItems({ sale, money }: { sale: TSale; money: Money }) {
  return <OrderLines lines={saleLines(sale)} money={money} />;
}

export function DeliveryDetails({ sale }: { sale: TSale }) {
  const { t, digits } = useT();
  return (
    <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
      <div>
        <dt className="text-ink-muted">{t('Payment')}</dt>
        <dd className="font-medium">{t(PAYMENT_METHOD_LABELS[sale.paymentMethod])}</dd>
      </div>
      <div>
        <dt className="text-ink-muted">{t(DELIVERY_METHOD_LABELS[sale.deliveryMethod])}</dt>
        <dd className="font-medium">
          {sale.pickupBranch ? (
            <>
              {sale.pickupBranch.name}
              <span className="block font-normal text-ink-muted">
                {sale.pickupBranch.address}, {sale.pickupBranch.city}
              </span>
            </>
          ) : sale.deliveryAddress ? (
            <>
              {sale.deliveryAddress.fullName}
              <span className="block font-normal text-ink-muted">
                {[sale.deliveryAddress.addressLine, sale.deliveryAddress.area, sale.deliveryAddress.district].filter(Boolean).join(', ')} ·{' '}
                {digits(displayMobile(sale.deliveryAddress.phone))}
              </span>
            </>
          ) : (
            '—'
          )}
        </dd>
      </div>
    </dl>
  );
}

/** Opens a new payment session for an unpaid card order and goes to the gateway. */
/** A wallet payment's receipt: bKash's trxID or Nagad's issuer reference is what the shopper finds in their wallet's statement. */
export function WalletReceipt({ sale }: { sale: TSale }) {
  const { t } = useT();
  const paid = sale.payments?.find((p) => (p.status === 'valid' || p.status === 'review') && p.transactionId);
  if (!paid?.transactionId) return null;
  return (
    <p className="mt-2 text-sm text-ink-muted" data-testid="wallet-receipt">
      {t('Paid by {wallet}, transaction ID {trxId}.', {
        wallet: paid.provider === 'nagad' ? t('Nagad') : (paid.cardType ?? t('bKash')),
        trxId: paid.transactionId,
      })}
    </p>
  );
}

export function RetryPaymentButton({ invoiceId, label, variant = 'primary' }: { invoiceId: string; label?: string; variant?: 'primary' | 'secondary' }) {
  const l = useT();
  const { t } = l;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <div>
      <Button
        variant={variant}
        disabled={busy}
        aria-busy={busy}
        onClick={async () => {
          setBusy(true);
          setError(null);
          const res = await apiFetch<{ paymentUrl: string }>(`/api/checkouts/payments?invoiceId=${encodeURIComponent(invoiceId)}`, { method: 'POST' });
          if (res.ok) {
            window.location.assign(res.data.paymentUrl);
            return;
          }
          setBusy(false);
          setError(
            res.networkError
              ? t('We could not reach the shop. Please try again.')
              : (translateMessage(l, res.error?.message) ?? t('The payment could not be started. Please try again.')),
          );
        }}
      >
        {busy ? t('Opening the payment page…') : (label ?? t('Try the payment again'))}
      </Button>
      {error && (
        <p role="alert" className="mt-2 text-sm text-danger-600">
          {error}
        </p>
      )}
    </div>
  );
}
