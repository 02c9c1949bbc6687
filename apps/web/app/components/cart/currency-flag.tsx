import type { ShellCurrency } from './currencies.server.ts';

/** A currency's flag, beside its code in the currency menu and on its trigger. */
export function Flag({ currency }: { currency: Pick<ShellCurrency, 'imageUrl'> }) {
  return <img src={currency.imageUrl} alt="" width={24} height={16} className="h-4 w-6 shrink-0 rounded-[2px] object-cover ring-1 ring-ink/10" />;
}
