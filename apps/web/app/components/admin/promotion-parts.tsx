import { PERCENTAGE_MAX, type TDiscountState } from '@storefront/shared';

// Pieces the discount and coupon screens share (docs/decisions/0034). Staff type times in
// Dhaka time (UTC+6 all year, no daylight saving); the API keeps instants in UTC.

const DHAKA_OFFSET_MS = 6 * 3_600_000;

/** An instant as a datetime-local field shows it, in Dhaka time ("2026-12-01T09:00"). */
export function toDhakaInput(iso: string | null): string {
  if (!iso) return '';
  return new Date(Date.parse(iso) + DHAKA_OFFSET_MS).toISOString().slice(0, 16);
}

/** A datetime-local value typed in Dhaka time, as the API takes it; '' is no time; null when unreadable. */
export function fromDhakaInput(value: string): string | null | undefined {
  if (!value.trim()) return null;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return undefined;
  const t = Date.parse(`${value.length === 16 ? `${value}:00` : value}+06:00`);
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
}

const WHEN = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'Asia/Dhaka' });

/** "from 1 Dec 2026, 09:00 until 8 Dec 2026, 00:00", or "always". */
export function windowText(startsAt: string | null, endsAt: string | null): string {
  if (!startsAt && !endsAt) return 'No end date';
  const parts = [];
  if (startsAt) parts.push(`from ${WHEN.format(new Date(startsAt))}`);
  if (endsAt) parts.push(`until ${WHEN.format(new Date(endsAt))}`);
  return parts.join(' ');
}

export const STATE_LABELS: Record<TDiscountState, string> = { scheduled: 'Scheduled', in_force: 'In force', ended: 'Ended', off: 'Off' };

const STATE_STYLE: Record<TDiscountState, string> = {
  scheduled: 'bg-amber-100 text-amber-900',
  in_force: 'bg-green-50 text-success-600',
  ended: 'bg-sand-200 text-ink-muted',
  off: 'bg-sand-100 text-ink',
};

export function PromotionStateBadge({ state }: { state: TDiscountState }) {
  return <span className={`inline-block whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold ${STATE_STYLE[state]}`}>{STATE_LABELS[state]}</span>;
}

/** "20% off" or "৳500 off". */
export function valueText(discountType: 'PERCENTAGE' | 'AMOUNT', value: number): string {
  return discountType === 'PERCENTAGE' ? `${value}% off` : `৳${(value / 100).toLocaleString('en-US', { maximumFractionDigits: 2 })} off`;
}

export const PERCENT_HINT = `1 to ${PERCENTAGE_MAX} per cent`;

/** The on/off switch of a saved promotion: a real button with the switch role. */
export function OnOffSwitch({ on, label, disabled, onToggle }: { on: boolean; label: string; disabled?: boolean; onToggle: () => void }) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={on}
      aria-label={label}
      disabled={disabled}
      onClick={onToggle}
      className="inline-flex items-center gap-3 rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:opacity-60"
    >
      <span className={`relative inline-block h-6 w-11 rounded-full transition-colors ${on ? 'bg-brand-700' : 'bg-sand-300'}`} aria-hidden="true">
        <span className={`absolute top-0.5 h-5 w-5 rounded-full bg-white shadow transition-all ${on ? 'left-[1.375rem]' : 'left-0.5'}`} />
      </span>
      <span className="text-sm font-semibold">{on ? 'On' : 'Off'}</span>
    </button>
  );
}
