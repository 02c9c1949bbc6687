import { useMoney, useSkuPrice } from '../../lib/currency.tsx';
import { useT } from '../../lib/i18n.tsx';

/**
 * A sku's price as the shop charges it: the shared pricing rule (its own sale price or a
 * global discount, whichever saves more), with the list price struck through and the
 * saving when there is one: in whole per cent, the nearest (savingPercent of the shared
 * pricing rules), or as the amount when that is under 1%, so a badge never says "−0%".
 */
export function Price({
  productId,
  categoryIds,
  sku,
  size = 'md',
}: {
  productId: number;
  categoryIds: number[];
  sku: { code: string; salesPrice: number; discountedSalesPrice: number | null };
  size?: 'md' | 'lg';
}) {
  const money = useMoney();
  const { t, n } = useT();
  const p = useSkuPrice({ productId, categoryIds, skuCode: sku.code, salesPrice: sku.salesPrice, discountedSalesPrice: sku.discountedSalesPrice });
  const big = size === 'lg';
  return (
    <p className="flex flex-wrap items-baseline gap-x-2 gap-y-1" data-testid="price">
      <span className={`font-bold text-ink ${big ? 'text-2xl md:text-3xl' : 'text-lg'}`} data-testid="price-now">
        {money.format(p.unitPrice)}
      </span>
      {p.saving > 0 && (
        <>
          <s className={`text-ink-muted ${big ? 'text-base' : 'text-sm'}`} data-testid="price-was">
            <span className="sr-only">{t('Was')} </span>
            {money.format(p.salesPrice)}
          </s>
          <span className="rounded bg-accent-600 px-1.5 py-0.5 text-xs font-semibold text-white" data-testid="price-saving">
            −{p.percentOff > 0 ? `${n(p.percentOff)}%` : money.format(p.saving)}
          </span>
        </>
      )}
    </p>
  );
}
