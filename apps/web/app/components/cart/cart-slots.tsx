import { totalsOf } from '@storefront/shared';
import { lazy, Suspense, useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { useCart, useCartReady } from '../../lib/cart-store.ts';
import { useMoney } from '../../lib/currency.tsx';
import { type Localized, useT } from '../../lib/i18n.tsx';
import { useFirstUse } from '../ui/first-use.tsx';
import { CartIcon, ChevronDownIcon } from '../ui/icons.tsx';
import type { ShellCurrency } from './currencies.server.ts';
import { Flag } from './currency-flag.tsx';

/** spec §2's words, an id for t() (bn/cart.ts). */
export const EMPTY_CART_TEXT = 'YOUR CART IS EMPTY';

function cartLabel(t: Localized['t'], count: number) {
  return t('{count, plural, =0 {Cart, empty} one {Cart, # item} other {Cart, # items}}', { count });
}

function Badge({ count }: { count: number }) {
  const { n } = useT();
  if (count <= 0) return null;
  return (
    <span
      aria-hidden="true"
      data-testid="cart-count"
      className="absolute -right-0.5 -top-0.5 grid h-5 min-w-5 place-items-center rounded-full bg-accent-600 px-1 text-[0.7rem] font-bold leading-none text-white"
    >
      {count > 99 ? `${n(99)}+` : n(count)}
    </span>
  );
}

// No display utility here: each of the two cart controls sets its own (one per screen size).
const iconButton = 'relative h-11 w-11 items-center justify-center rounded-full text-ink hover:bg-sand-100';

// The cart dropdown loads on first use (components/ui/first-use.tsx).
const loadCartPopover = () => import('./cart-popover.tsx');
const CartPopover = lazy(() => loadCartPopover().then((m) => ({ default: m.CartPopover })));

/**
 * Cart icon with its quantity badge (spec §2). On desktop a click opens the cart
 * dropdown; on mobile the icon is a link to /cart.
 */
export function CartButton() {
  const cart = useCart();
  const ready = useCartReady();
  const count = ready ? totalsOf(cart).quantity : 0;
  const use = useFirstUse(loadCartPopover);
  const { setOpen } = use;
  const { pathname } = useLocation();
  const { t } = useT();
  // Leaving the page (View Cart, a product link) closes the dropdown.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the dependency is the trigger: a new page closes the dropdown.
  useEffect(() => setOpen(false), [pathname]);
  const trigger = (extra: object) => (
    <button
      type="button"
      className={`${iconButton} hidden md:inline-flex`}
      aria-label={cartLabel(t, count)}
      title={t('Cart')}
      data-testid="cart-button"
      data-ready={ready}
      {...extra}
    >
      <CartIcon />
      <Badge count={count} />
    </button>
  );
  const plain = trigger(use.popupTrigger);

  return (
    <>
      <Link
        to="/cart"
        aria-label={cartLabel(t, count)}
        title={t('Cart')}
        className={`${iconButton} inline-flex md:hidden`}
        data-testid="cart-link-mobile"
        data-ready={ready}
      >
        <CartIcon />
        <Badge count={count} />
      </Link>
      {use.wanted ? (
        <Suspense fallback={plain}>
          <CartPopover open={use.open} onOpenChange={use.setOpen} trigger={trigger({})} cart={cart} />
        </Suspense>
      ) : (
        plain
      )}
    </>
  );
}

// The currency menu loads its menu code on first use (components/ui/first-use.tsx).
const loadCurrencyMenu = () => import('./currency-menu.tsx');
const CurrencyMenuPopup = lazy(() => loadCurrencyMenu().then((m) => ({ default: m.CurrencyMenuPopup })));

/** Currency dropdown with flags (spec §2). The choice is kept across visits (lib/currency.tsx). */
export function CurrencyMenu({ currencies }: { currencies: ShellCurrency[] }) {
  const { currency, setCurrency } = useMoney();
  const use = useFirstUse(loadCurrencyMenu);
  const { t } = useT();
  if (currencies.length < 2) return null;
  const trigger = (extra: object) => (
    <button
      type="button"
      aria-label={t('Currency: {code}. Change currency', { code: currency.sourceId })}
      className="inline-flex h-11 min-w-11 items-center justify-center gap-1.5 rounded-full px-2 text-sm font-semibold text-ink hover:bg-sand-100 data-[state=open]:bg-sand-100"
      data-testid="currency-button"
      {...extra}
    >
      <Flag currency={currency} />
      <span className="hidden lg:inline">{currency.sourceId}</span>
      <ChevronDownIcon width={16} height={16} className="hidden lg:block" />
    </button>
  );
  const plain = trigger(use.menuTrigger);
  if (!use.wanted) return plain;
  return (
    <Suspense fallback={plain}>
      <CurrencyMenuPopup
        open={use.open}
        onOpenChange={use.setOpen}
        trigger={trigger({})}
        currencies={currencies}
        current={currency.sourceId}
        onChoose={setCurrency}
      />
    </Suspense>
  );
}
