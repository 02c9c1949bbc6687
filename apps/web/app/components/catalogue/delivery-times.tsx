import type { TDeliveryZone } from '@storefront/shared';
import { useMoney } from '../../lib/currency.tsx';
import { type Localized, useT } from '../../lib/i18n.tsx';
import { TruckIcon } from './catalogue-icons.tsx';

/**
 * Home delivery on the product page (docs/decisions/0033): each zone's days and fee, from the
 * same zones the checkout charges by, so the page never promises what the checkout does not.
 */
/** "1–3 days", "2 days", "today": the shared etaText, in the shopper's language. */
function eta({ t, n }: Localized, zone: Pick<TDeliveryZone, 'etaMinDays' | 'etaMaxDays'>): string {
  if (zone.etaMaxDays === 0) return t('today');
  if (zone.etaMinDays === zone.etaMaxDays) return t('{days, plural, one {# day} other {# days}}', { days: zone.etaMaxDays });
  return t('{min}–{max} days', { min: n(zone.etaMinDays), max: n(zone.etaMaxDays) });
}

export function DeliveryTimes({ zones }: { zones: readonly TDeliveryZone[] }) {
  const money = useMoney();
  const l = useT();
  const { t } = l;
  if (zones.length === 0) return null;
  return (
    <section aria-labelledby="delivery-heading" className="mt-6 rounded-[var(--radius-card)] border border-sand-200 p-4 text-sm" data-testid="delivery-times">
      <h2 id="delivery-heading" className="flex items-center gap-2 font-semibold">
        <TruckIcon width={18} height={18} className="text-brand-700" />
        {t('Home delivery and assembly')}
      </h2>
      <ul className="mt-2 space-y-1 text-ink-muted">
        {zones.map((z) => (
          <li key={z.id} className="flex flex-wrap justify-between gap-x-3">
            <span>
              <span className="font-medium text-ink">{z.districts.length ? z.name : t('Elsewhere in Bangladesh')}</span>: {eta(l, z)}
            </span>
            <span>
              {z.fee === 0
                ? t('free')
                : z.freeFrom !== null
                  ? t('{fee}, free from {amount}', { fee: money.format(z.fee), amount: money.format(z.freeFrom) })
                  : money.format(z.fee)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
