import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import * as Popover from '@radix-ui/react-popover';
import { lineUnitPrice, type TCart, totalsOf } from '@storefront/shared';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { cartActions, useCart, useCartReady } from '../../lib/cart-store.ts';
import { useMoney } from '../../lib/currency.tsx';
import { toast } from '../../lib/toast.ts';
import { Button, ButtonLink } from '../ui/button.tsx';
import { CartIcon, ChevronDownIcon } from '../ui/icons.tsx';
import { CheckIcon } from './cart-icons.tsx';
import type { ShellCurrency } from './currencies.server.ts';
import { productHref } from './product-href.ts';

export const EMPTY_CART_TEXT = 'YOUR CART IS EMPTY';

function cartLabel(count: number) {
  return count === 0 ? 'Cart, empty' : `Cart, ${count} ${count === 1 ? 'item' : 'items'}`;
}

function Badge({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <span
      aria-hidden="true"
      data-testid="cart-count"
      className="absolute -right-0.5 -top-0.5 grid h-5 min-w-5 place-items-center rounded-full bg-accent-600 px-1 text-[0.7rem] font-bold leading-none text-white"
    >
      {count > 99 ? '99+' : count}
    </span>
  );
}

// No display utility here: each of the two cart controls sets its own (one per screen size).
const iconButton = 'relative h-11 w-11 items-center justify-center rounded-full text-ink hover:bg-sand-100';

/**
 * Cart icon with its quantity badge (spec §2). On desktop a click opens the cart
 * dropdown; on mobile the icon is a link to /cart.
 */
export function CartButton() {
  const cart = useCart();
  const ready = useCartReady();
  const count = ready ? totalsOf(cart).quantity : 0;
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();
  // Leaving the page (View Cart, a product link) closes the dropdown.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the dependency is the trigger: a new page closes the dropdown.
  useEffect(() => setOpen(false), [pathname]);

  return (
    <>
      <Link
        to="/cart"
        aria-label={cartLabel(count)}
        title="Cart"
        className={`${iconButton} inline-flex md:hidden`}
        data-testid="cart-link-mobile"
        data-ready={ready}
      >
        <CartIcon />
        <Badge count={count} />
      </Link>
      <Popover.Root open={open} onOpenChange={setOpen}>
        <Popover.Trigger
          className={`${iconButton} hidden md:inline-flex`}
          aria-label={cartLabel(count)}
          title="Cart"
          data-testid="cart-button"
          data-ready={ready}
        >
          <CartIcon />
          <Badge count={count} />
        </Popover.Trigger>
        <Popover.Portal>
          <Popover.Content
            align="end"
            sideOffset={10}
            collisionPadding={12}
            aria-label="Cart"
            className="z-40 w-[25rem] max-w-[calc(100vw-1.5rem)] rounded-[var(--radius-card)] border border-sand-200 bg-paper shadow-xl focus:outline-none"
            data-testid="cart-dropdown"
          >
            <CartDropdown cart={cart} onClose={() => setOpen(false)} />
            <Popover.Arrow className="fill-paper" width={14} height={7} />
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
    </>
  );
}

/** spec §2: items (image, title, quantity x unit price, line subtotal), total, Clear All and View Cart. */
function CartDropdown({ cart, onClose }: { cart: TCart; onClose(): void }) {
  const { format } = useMoney();
  const totals = totalsOf(cart);

  if (cart.lines.length === 0) {
    return (
      <div className="flex flex-col items-center gap-4 px-6 py-10 text-center">
        <p className="text-sm font-semibold tracking-wider text-ink-muted">{EMPTY_CART_TEXT}</p>
        <ButtonLink to="/shop" variant="secondary" size="sm" onClick={onClose}>
          Continue Shopping
        </ButtonLink>
      </div>
    );
  }

  return (
    <div className="flex max-h-[min(36rem,calc(100vh-6rem))] flex-col">
      <p className="border-b border-sand-200 px-4 py-3 text-sm font-semibold">
        Your Cart{' '}
        <span className="font-normal text-ink-muted">
          ({totals.quantity} {totals.quantity === 1 ? 'item' : 'items'})
        </span>
      </p>
      <ul className="flex-1 divide-y divide-sand-200 overflow-y-auto px-4" aria-label="Items in your cart">
        {cart.lines.map((line) => (
          <li key={line.sku.code} className="flex gap-3 py-3" data-testid="cart-dropdown-line">
            <img
              src={line.product.image ?? '/favicon.svg'}
              alt=""
              width={64}
              height={64}
              loading="lazy"
              className="h-16 w-16 shrink-0 rounded-md bg-sand-100 object-cover"
            />
            <div className="min-w-0 flex-1">
              <Link to={productHref(line.product)} onClick={onClose} className="line-clamp-2 text-sm font-medium hover:underline">
                {line.product.title}
              </Link>
              {line.sku.label && <p className="truncate text-xs text-ink-muted">{line.sku.label}</p>}
              <p className="mt-1 text-xs text-ink-muted" data-testid="cart-dropdown-unit">
                {line.quantity} x {format(lineUnitPrice(line))}
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
            <span>Coupon {cart.couponCode}</span>
            <span>{format(-totals.couponAmount)}</span>
          </p>
        )}
        <p className="flex justify-between text-base font-semibold">
          <span>Total</span>
          <span data-testid="cart-dropdown-total">{format(totals.total)}</span>
        </p>
        <div className="mt-3 grid grid-cols-2 gap-2">
          <Button
            variant="secondary"
            size="sm"
            onClick={() => {
              cartActions.clear();
              toast.success('Your cart is now empty');
            }}
          >
            Clear All
          </Button>
          <ButtonLink to="/cart" size="sm" onClick={onClose}>
            View Cart
          </ButtonLink>
        </div>
      </div>
    </div>
  );
}

function titleCase(s: string) {
  return s.replace(/\b\p{L}/gu, (c) => c.toUpperCase());
}

function Flag({ currency }: { currency: ShellCurrency }) {
  return <img src={currency.imageUrl} alt="" width={24} height={16} className="h-4 w-6 shrink-0 rounded-[2px] object-cover ring-1 ring-ink/10" />;
}

/** Currency dropdown with flags (spec §2). The choice is kept across visits (lib/currency.tsx). */
export function CurrencyMenu({ currencies }: { currencies: ShellCurrency[] }) {
  const { currency, setCurrency } = useMoney();
  if (currencies.length < 2) return null;
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        aria-label={`Currency: ${currency.sourceId}. Change currency`}
        className="inline-flex h-11 min-w-11 items-center justify-center gap-1.5 rounded-full px-2 text-sm font-semibold text-ink hover:bg-sand-100 data-[state=open]:bg-sand-100"
        data-testid="currency-button"
      >
        <Flag currency={currency} />
        <span className="hidden lg:inline">{currency.sourceId}</span>
        <ChevronDownIcon width={16} height={16} className="hidden lg:block" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          collisionPadding={12}
          className="z-40 w-64 rounded-[var(--radius-card)] border border-sand-200 bg-paper p-1.5 shadow-xl"
        >
          <DropdownMenu.Label className="px-2.5 pb-1 pt-1.5 text-xs font-semibold uppercase tracking-wider text-ink-muted">Show prices in</DropdownMenu.Label>
          <DropdownMenu.RadioGroup value={currency.sourceId} onValueChange={setCurrency}>
            {currencies.map((c) => (
              <DropdownMenu.RadioItem
                key={c.sourceId}
                value={c.sourceId}
                className="flex cursor-pointer select-none items-center gap-3 rounded-md px-2.5 py-2 text-sm outline-none data-[highlighted]:bg-sand-100 data-[state=checked]:font-semibold"
              >
                <Flag currency={c} />
                <span className="w-10">{c.sourceId}</span>
                <span className="flex-1 truncate text-ink-muted">{titleCase(c.sourceCountry)}</span>
                <DropdownMenu.ItemIndicator>
                  <CheckIcon className="text-brand-700" />
                </DropdownMenu.ItemIndicator>
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
          <DropdownMenu.Separator className="my-1 h-px bg-sand-200" />
          <p className="px-2.5 py-1.5 text-xs text-ink-muted">Orders are charged in taka (BDT).</p>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
