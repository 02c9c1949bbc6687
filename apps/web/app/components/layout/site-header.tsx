import { NAV_FIXED_SCROLL_PX } from '@storefront/shared';
import { lazy, Suspense } from 'react';
import { Link, NavLink } from 'react-router';
import { useT } from '../../lib/i18n.tsx';
import { brandName, type SiteSettings } from '../../lib/site.ts';
import { useScrolledPast } from '../../lib/use-scrolled-past.ts';
import { AccountButton, WishlistButton } from '../account/account-slots.tsx';
import type { ShellUser } from '../account/session.server.ts';
import { CartButton, CurrencyMenu } from '../cart/cart-slots.tsx';
import type { ShellCurrency } from '../cart/currencies.server.ts';
import { CategoryMenu } from '../catalogue/category-menu.tsx';
import type { MenuCategory } from '../catalogue/category-menu.server.ts';
import { SearchBar } from '../catalogue/search-bar.tsx';
import { IconButton } from '../ui/button.tsx';
import { useFirstUse } from '../ui/first-use.tsx';
import { MenuIcon, PhoneIcon } from '../ui/icons.tsx';
import { LanguageSwitch } from './language-switch.tsx';
import { Logo, logoImage } from './logo.tsx';

const loadMobileMenu = () => import('./mobile-menu.tsx');
const MobileMenu = lazy(() => loadMobileMenu().then((m) => ({ default: m.MobileMenu })));

/** The main links shown in the desktop bar and in the mobile menu (labels are message ids: shown through t()). */
export const MAIN_LINKS = [
  { to: '/shop', label: 'Shop' },
  { to: '/new-arrival', label: 'New Arrivals' },
  { to: '/sales', label: 'Sales' },
  { to: '/outlets', label: 'Showrooms' },
];

export function SiteHeader({
  settings,
  categories,
  user,
  currencies,
}: {
  settings: SiteSettings;
  categories: MenuCategory[];
  user: ShellUser | null;
  currencies: ShellCurrency[];
}) {
  const fixed = useScrolledPast(NAV_FIXED_SCROLL_PX);
  // The menu's sheet and its category tree load the first time it opens (decision 0030).
  const menu = useFirstUse(loadMobileMenu);
  const brand = brandName(settings);
  const hotline = settings['contact.hotline'];
  const { t, digits } = useT();

  return (
    <>
      {/* On a phone too: the hotline and the language are what a shopper looks for first. */}
      <div className="bg-brand-800 text-sm text-white">
        <div className="container-page flex h-9 items-center justify-between gap-3">
          <p className="hidden md:block">{settings['brand.tagline']}</p>
          <div className="flex items-center gap-4 max-md:w-full max-md:justify-between md:ml-auto">
            {hotline && (
              <a href={`tel:${hotline}`} className="inline-flex items-center gap-1.5 font-medium hover:underline">
                <PhoneIcon width={16} height={16} /> {t('Hotline {hotline}', { hotline: digits(hotline) })}
              </a>
            )}
            <LanguageSwitch />
          </div>
        </div>
      </div>
      <header
        data-fixed={fixed ? 'true' : 'false'}
        className={`sticky top-0 z-30 border-b border-sand-200 bg-paper/95 backdrop-blur transition-shadow ${fixed ? 'nav-fixed shadow-md' : ''}`}
      >
        {/* Below 640 px the row is packed tighter (12 px sides, no gaps between the 44 px
            buttons) so the shop's name fits beside the mark at 360 px (components/layout/logo.tsx). */}
        <div className="container-page flex h-16 items-center gap-1.5 max-sm:px-3 sm:gap-2 xl:gap-4">
          <IconButton label={t('Open menu')} className="xl:hidden" {...menu.popupTrigger}>
            <MenuIcon />
          </IconButton>
          <Link to="/" className="flex min-w-0 items-center gap-1.5 sm:shrink-0 sm:gap-2" aria-label={t('{brand} home', { brand })}>
            <Logo name={brand} compact image={logoImage(settings)} />
          </Link>
          <CategoryMenu categories={categories} />
          {/* Below 1280 px the main links live in the menu sheet, so the bar never overflows. */}
          <nav aria-label={t('Main')} className="hidden xl:block">
            <ul className="flex items-center gap-1">
              {MAIN_LINKS.map((l) => (
                <li key={l.to}>
                  <NavLink
                    to={l.to}
                    className={({ isActive }) =>
                      `whitespace-nowrap rounded-md px-3 py-2 text-[0.95rem] font-medium hover:bg-sand-100 ${isActive ? 'text-brand-700' : 'text-ink'}`
                    }
                  >
                    {t(l.label)}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <div className="ml-auto flex shrink-0 items-center sm:gap-1">
            <SearchBar />
            <CurrencyMenu currencies={currencies} />
            <AccountButton user={user} />
            <WishlistButton user={user} />
            <CartButton />
          </div>
        </div>
      </header>
      {menu.wanted && (
        <Suspense fallback={null}>
          <MobileMenu open={menu.open} onOpenChange={menu.setOpen} categories={categories} />
        </Suspense>
      )}
    </>
  );
}
