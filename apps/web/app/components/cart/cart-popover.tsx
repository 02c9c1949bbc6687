import * as Popover from '@radix-ui/react-popover';
import { lineUnitPrice, type TCart, totalsOf } from '@storefront/shared';
import { useRef } from 'react';
import { Link } from 'react-router';
import { useMoney } from '../../lib/currency.tsx';
import { useT } from '../../lib/i18n.tsx';
import { ButtonLink } from '../ui/button.tsx';
import type { FirstUsePart } from '../ui/first-use.tsx';
import { EMPTY_CART_TEXT } from './cart-slots.tsx';
import { ClearCartButton } from './clear-cart-button.tsx';
import { productHref } from './product-href.ts';
import { ResponsiveImage } from '../ui/responsive-image.tsx';

/**
 * The open cart dropdown of spec §2, loaded on first use by CartButton (cart-slots.tsx),
 * which owns the trigger's look and the open state.
 */
export function CartPopover({ open, onOpenChange, trigger, cart }: FirstUsePart & { cart: TCart }) {
  const content = useRef<HTMLDivElement>(null);
  const { t } = useT();
  // Radix focuses the first tabbable element that is not a link, which here is "Clear All":
  // one more Enter would empty the cart. The focus goes to the first link instead (the first
  // item's title, or "Continue Shopping" when the cart is empty), in reading order.
  const focusFirstLink = (e?: Event) => {
    const first = content.current?.querySelector<HTMLElement>('a[href]');
    if (!first) return;
    e?.preventDefault();
    first.focus();
  };
  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
      <Popover.Trigger asChild>{trigger}</Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={10}
          collisionPadding={12}
          aria-label={t('Cart')}
          ref={content}
          onOpenAutoFocus={focusFirstLink}
          className="z-40 w-[25rem] max-w-[calc(100vw-1.5rem)] rounded-[var(--radius-card)] border border-sand-200 bg-paper shadow-xl focus:outline-none"
          data-testid="cart-dropdown"
        >
          <CartDropdown cart={cart} onClose={() => onOpenChange(false)} onCleared={() => requestAnimationFrame(() => focusFirstLink())} />
          <Popover.Arrow className="fill-paper" width={14} height={7} />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

/** spec §2: items (image, title, quantity x unit price, line subtotal), total, Clear All and View Cart. */
function CartDropdown({ cart, onClose, onCleared }: { cart: TCart; onClose(): void; onCleared(): void }) {
  const { format } = useMoney();
  const { t, n } = useT();
  const totals = totalsOf(cart);

  if (cart.lines.length === 0) {
    return (
      <div className="flex flex-col items-center gap-4 px-6 py-10 text-center">
        <p className="text-sm font-semibold tracking-wider text-ink-muted">{t(EMPTY_CART_TEXT)}</p>
        <ButtonLink to="/shop" variant="secondary" size="sm" onClick={onClose}>
          {t('Continue Shopping')}
        </ButtonLink>
      </div>
    );
  }

  return (
    <div className="flex max-h-[min(36rem,calc(100vh-6rem))] flex-col">
      <p className="border-b border-sand-200 px-4 py-3 text-sm font-semibold">
        {t('Your Cart')} <span className="font-normal text-ink-muted">({t('{count, plural, one {# item} other {# items}}', { count: totals.quantity })})</span>
      </p>
      <ul className="flex-1 divide-y divide-sand-200 overflow-y-auto px-4" aria-label={t('Items in your cart')}>
        {cart.lines.map((line) => (
          <li key={line.sku.code} className="flex gap-3 py-3" data-testid="cart-dropdown-line">
            <ResponsiveImage
              src={line.product.image ?? '/favicon.svg'}
              alt=""
              width={64}
              height={64}
              sizes="64px"
              maxWidth={320}
              loading="lazy"
              className="h-16 w-16 shrink-0 rounded-md bg-sand-100 object-cover"
            />
            <div className="min-w-0 flex-1">
              <Link to={productHref(line.product)} onClick={onClose} className="line-clamp-2 text-sm font-medium hover:underline">
                {line.product.title}
              </Link>
              {line.sku.label && <p className="truncate text-xs text-ink-muted">{line.sku.label}</p>}
              <p className="mt-1 text-xs text-ink-muted" data-testid="cart-dropdown-unit">
                {t('{quantity} x {price}', { quantity: n(line.quantity), price: format(lineUnitPrice(line)) })}
              </p>
            </div>
            <p className="shrink-0 text-sm font-semibold" data-testid="cart-dropdown-subtotal">
              {format(line.subTotal)}
            </p>
          </li>
        ))}
      </ul>
      <div className="border-t border-sand-200 px-4 py-3">
        {totals.couponAmount > 0 && (
          <p className="flex justify-between text-sm text-ink-muted">
            <span>{t('Coupon {code}', { code: cart.couponCode ?? '' })}</span>
            <span>{format(-totals.couponAmount)}</span>
          </p>
        )}
        <p className="flex justify-between text-base font-semibold">
          <span>{t('Total')}</span>
          <span data-testid="cart-dropdown-total">{format(totals.total)}</span>
        </p>
        <div className="mt-3 grid grid-cols-2 gap-2">
          <ClearCartButton variant="secondary" onCleared={onCleared} />
          <ButtonLink to="/cart" size="sm" onClick={onClose}>
            {t('View Cart')}
          </ButtonLink>
        </div>
      </div>
    </div>
  );
}
