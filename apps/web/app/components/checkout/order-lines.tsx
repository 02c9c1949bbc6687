import type { Minor } from '@storefront/shared';
import type { Money } from '../../lib/currency.tsx';
import { Trans, useT } from '../../lib/i18n.tsx';
import { ResponsiveImage } from '../ui/responsive-image.tsx';

// Lines and totals of a priced cart or a placed order, for the checkout summary, the
// outcome pages and the order page. Amounts in the shopper's display currency, and the
// BDT amount charged stated plainly (decisions.md: checkout always charges in BDT).

export interface SummaryLine {
  key: string;
  title: string;
  variant?: string;
  image: string | null;
  quantity: number;
  /** What the line costs after discounts. */
  lineTotal: Minor;
  /** The line at list prices, when a discount took something off. */
  listTotal?: Minor;
}

export interface SummaryTotals {
  subTotal: Minor;
  discount: Minor;
  couponCode?: string | null;
  couponAmount: Minor;
  deliveryFee: Minor | null;
  total: Minor;
}

export function OrderLines({ lines, money, compact = false }: { lines: SummaryLine[]; money: Money; compact?: boolean }) {
  const { t, n } = useT();
  return (
    <ul className="divide-y divide-sand-200" data-testid="summary-lines">
      {lines.map((l) => (
        <li key={l.key} className="flex gap-3 py-3">
          <ResponsiveImage
            src={l.image ?? '/favicon.svg'}
            alt=""
            width={64}
            height={64}
            sizes="64px"
            maxWidth={320}
            className={`${compact ? 'h-12 w-12' : 'h-16 w-16'} shrink-0 rounded-md bg-sand-100 object-cover`}
            loading="lazy"
          />
          <div className="min-w-0 flex-1">
            <p className="font-medium leading-snug">{l.title}</p>
            <p className="text-sm text-ink-muted">
              {l.variant ? `${l.variant} · ` : ''}
              {t('Qty {quantity}', { quantity: n(l.quantity) })}
            </p>
          </div>
          <p className="text-right text-sm font-semibold">
            {money.format(l.lineTotal)}
            {l.listTotal !== undefined && l.listTotal > l.lineTotal && (
              <s className="block text-xs font-normal text-ink-muted">
                <span className="sr-only">{t('was')} </span>
                {money.format(l.listTotal)}
              </s>
            )}
          </p>
        </li>
      ))}
    </ul>
  );
}

export function OrderTotals({ totals, money, totalLabel, chargedLabel }: { totals: SummaryTotals; money: Money; totalLabel?: string; chargedLabel?: string }) {
  const { t } = useT();
  return (
    <>
      <dl className="space-y-2 text-sm" data-testid="summary-totals">
        <Row label={t('Subtotal')} value={money.format(totals.subTotal)} />
        {totals.discount > 0 && <Row label={t('Discounts')} value={money.format(-totals.discount)} accent />}
        {totals.couponAmount > 0 && (
          <Row label={totals.couponCode ? t('Coupon {code}', { code: totals.couponCode }) : t('Coupon')} value={money.format(-totals.couponAmount)} accent />
        )}
        <Row
          label={t('Delivery')}
          value={totals.deliveryFee === null ? t('Choose below') : totals.deliveryFee === 0 ? t('Free') : money.format(totals.deliveryFee)}
        />
        <div className="flex items-baseline justify-between border-t border-sand-200 pt-3 text-base font-bold">
          <dt>{totalLabel ?? t('Total')}</dt>
          <dd data-testid="summary-total">{money.format(totals.total)}</dd>
        </div>
      </dl>
      <p className="mt-3 rounded-lg bg-brand-50 px-3 py-2 text-sm text-brand-800" data-testid="charged-bdt">
        <Trans
          id="{label}: <0>{amount}</0> (BDT)"
          values={{ label: chargedLabel ?? t('Amount in taka'), amount: money.formatBdt(totals.total) }}
          components={{ 0: <strong /> }}
        />
        {!money.isBdt && (
          <span className="block text-xs text-ink-muted">
            {t('Prices above are shown in {currency}; payment is always taken in taka.', { currency: money.currency.sourceId })}
          </span>
        )}
      </p>
    </>
  );
}

function Row({ label, value, accent }: { label: string; value: string; accent?: boolean }) {
  return (
    <div className="flex items-baseline justify-between gap-3">
      <dt className="text-ink-muted">{label}</dt>
      <dd className={accent ? 'font-semibold text-accent-600' : 'font-semibold'}>{value}</dd>
    </div>
  );
}
