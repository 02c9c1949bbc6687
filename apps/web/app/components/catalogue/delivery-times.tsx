import { etaText, type TDeliveryZone } from '@storefront/shared';
import { useMoney } from '../../lib/currency.tsx';
import { TruckIcon } from './catalogue-icons.tsx';

/**
 * Home delivery on the product page (docs/decisions/0033): each zone's days and fee, from the
 * same zones the checkout charges by, so the page never promises what the checkout does not.
 */
export function DeliveryTimes({ zones }: { zones: readonly TDeliveryZone[] }) {
  const money = useMoney();
  if (zones.length === 0) return null;
  return (
    <section aria-labelledby="delivery-heading" className="mt-6 rounded-[var(--radius-card)] border border-sand-200 p-4 text-sm" data-testid="delivery-times">
      <h2 id="delivery-heading" className="flex items-center gap-2 font-semibold">
        <TruckIcon width={18} height={18} className="text-brand-700" />
        Home delivery and assembly
      </h2>
      <ul className="mt-2 space-y-1 text-ink-muted">
        {zones.map((z) => (
          <li key={z.id} className="flex flex-wrap justify-between gap-x-3">
            <span>
              <span className="font-medium text-ink">{z.districts.length ? z.name : 'Elsewhere in Bangladesh'}</span>: {etaText(z)}
            </span>
            <span>
              {z.fee === 0 ? 'free' : money.format(z.fee)}
              {z.fee > 0 && z.freeFrom !== null ? `, free from ${money.format(z.freeFrom)}` : ''}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
