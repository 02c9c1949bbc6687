import { MAX_CART_LINES, MAX_LINE_QUANTITY, type TCartLine } from '@storefront/shared';
import { cartActions } from '../../lib/cart-store.ts';
import { useSkuPrice } from '../../lib/currency.tsx';
import { useT } from '../../lib/i18n.tsx';
import { toast } from '../../lib/toast.ts';
import { Button } from '../ui/button.tsx';
import { CartIcon } from '../ui/icons.tsx';

/** What a product card or the product page hands to the cart (cart feature fills this). */
export interface AddToCartProps {
  /** The product as the cart line keeps it (its categories let category discounts show before checkout). */
  product: TCartLine['product'];
  /** The chosen sku, with its list and discounted prices and its attribute values ("Walnut / 3 Seater"). */
  sku: TCartLine['sku'];
  /** Set when the line is a bundle (spec §3: sourceType 'bundle'). */
  sourceType?: 'bundle';
  quantity?: number;
  disabled?: boolean;
  /** 'full' on the product page, 'compact' on cards. */
  variant?: 'full' | 'compact';
}

/**
 * Adds a sku to the cart (spec §4: the quantity merges when the sku is already there) at
 * the price the page shows: the same shared rule the server's quote applies.
 */
export function AddToCartButton({ product, sku, sourceType, quantity = 1, disabled, variant = 'full' }: AddToCartProps) {
  const { t, n } = useT();
  const price = useSkuPrice({
    productId: product.id,
    categoryIds: product.categoryIds ?? [],
    skuCode: sku.code,
    salesPrice: sku.salesPrice,
    discountedSalesPrice: sku.discountedSalesPrice,
  });

  const add = () => {
    const result = cartActions.add({
      product: {
        id: product.id,
        title: product.title,
        slug: product.slug,
        image: product.image,
        ...(product.categoryIds ? { categoryIds: product.categoryIds.slice(0, 20) } : {}),
      },
      sku: {
        code: sku.code,
        salesPrice: sku.salesPrice,
        discountedSalesPrice: sku.discountedSalesPrice,
        ...(sku.label ? { label: sku.label.slice(0, 200) } : {}),
      },
      quantity,
      sourceType,
      unitPrice: price.unitPrice,
    });
    if (result === 'full') toast.error(t('Your cart holds at most {max} different items', { max: n(MAX_CART_LINES) }));
    else if (result === 'capped') toast.error(t('You can order at most {max} of one item', { max: n(MAX_LINE_QUANTITY) }));
    else toast.success(t('{title} added to your cart', { title: product.title }));
  };

  if (variant === 'compact') {
    return (
      <Button
        variant="secondary"
        size="sm"
        onClick={add}
        disabled={disabled}
        aria-label={t('Add {title} to cart', { title: product.title })}
        data-testid="add-to-cart"
      >
        <CartIcon width={18} height={18} /> {t('Add')}
      </Button>
    );
  }
  return (
    <Button size="lg" onClick={add} disabled={disabled} className="w-full sm:w-auto" data-testid="add-to-cart">
      <CartIcon width={20} height={20} /> {t('Add to Cart')}
    </Button>
  );
}
