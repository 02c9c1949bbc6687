import type { TBranch } from '@storefront/shared';
import { useT } from '../../lib/i18n.tsx';
import { StoreIcon } from './catalogue-icons.tsx';

/** One line on the stock of the chosen sku across every showroom. */
export function StockSummary({ quantities, branches }: { quantities: Map<number, number>; branches: TBranch[] }) {
  const { t, n } = useT();
  const total = branches.reduce((n, b) => n + (quantities.get(b.id) ?? 0), 0);
  const places = branches.filter((b) => (quantities.get(b.id) ?? 0) > 0).length;
  return (
    <p
      className={`flex items-center gap-2 text-sm font-medium ${total > 0 ? 'text-success-600' : 'text-danger-600'}`}
      data-testid="stock-summary"
      aria-live="polite"
    >
      <StoreIcon width={18} height={18} />
      {total > 0
        ? t('In stock: {total} available at {places, plural, one {# showroom} other {# showrooms}}', { total: n(total), places })
        : t('Out of stock in every showroom')}
    </p>
  );
}

/** spec §3/§7: stock per showroom for the chosen sku. */
export function StockTable({ quantities, branches }: { quantities: Map<number, number>; branches: TBranch[] }) {
  const { t, n } = useT();
  return (
    <table className="w-full text-left text-sm" data-testid="stock-table">
      <caption className="sr-only">{t('Stock of the chosen option per showroom')}</caption>
      <thead className="border-b border-sand-200 text-ink-muted">
        <tr>
          <th scope="col" className="py-2 font-medium">
            {t('Showroom')}
          </th>
          <th scope="col" className="py-2 font-medium">
            {t('City')}
          </th>
          <th scope="col" className="py-2 text-right font-medium">
            {t('Stock')}
          </th>
        </tr>
      </thead>
      <tbody>
        {branches.map((b) => {
          const q = quantities.get(b.id) ?? 0;
          return (
            <tr key={b.id} className="border-b border-sand-100">
              <th scope="row" className="py-2.5 pr-3 font-medium">
                {b.name}
              </th>
              <td className="py-2.5 pr-3 text-ink-muted">{b.city}</td>
              <td className={`whitespace-nowrap py-2.5 text-right font-medium ${q > 0 ? 'text-success-600' : 'text-ink-muted'}`}>
                {q > 0 ? t('{count} in stock', { count: n(q) }) : t('None')}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
