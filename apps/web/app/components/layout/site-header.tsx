import { NAV_FIXED_SCROLL_PX } from '@storefront/shared';
import { useState } from 'react';
import { Link, NavLink } from 'react-router';
import { brandName, type SiteSettings } from '../../lib/site.ts';
import { useScrolledPast } from '../../lib/use-scrolled-past.ts';
import { AccountButton, WishlistButton } from '../account/account-slots.tsx';
import type { ShellUser } from '../account/session.server.ts';
import { CartButton, CurrencyMenu } from '../cart/cart-slots.tsx';
import type { ShellCurrency } from '../cart/currencies.server.ts';
import { CategoryMenu, MobileCategoryMenu } from '../catalogue/category-menu.tsx';
import type { MenuCategory } from '../catalogue/category-menu.server.ts';
import { SearchBar } from '../catalogue/search-bar.tsx';
import { IconButton } from '../ui/button.tsx';
import { MenuIcon, PhoneIcon } from '../ui/icons.tsx';
import { Sheet } from '../ui/sheet.tsx';
import { Logo } from './logo.tsx';

/** The main links shown in the desktop bar and in the mobile menu. */
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
  const [menuOpen, setMenuOpen] = useState(false);
  const brand = brandName(settings);
  const hotline = settings['contact.hotline'];

  return (
    <>
      <div className="hidden bg-brand-800 text-sm text-white md:block">
        <div className="container-page flex h-9 items-center justify-between">
          <p>{settings['brand.tagline']}</p>
          {hotline && (
            <a href={`tel:${hotline}`} className="inline-flex items-center gap-1.5 font-medium hover:underline">
              <PhoneIcon width={16} height={16} /> Hotline {hotline}
            </a>
          )}
        </div>
      </div>
      <header
        data-fixed={fixed ? 'true' : 'false'}
        className={`sticky top-0 z-30 border-b border-sand-200 bg-paper/95 backdrop-blur transition-shadow ${fixed ? 'nav-fixed shadow-md' : ''}`}
      >
        <div className="container-page flex h-16 items-center gap-2 xl:gap-4">
          <IconButton label="Open menu" className="xl:hidden" onClick={() => setMenuOpen(true)}>
            <MenuIcon />
          </IconButton>
          <Link to="/" className="flex shrink-0 items-center gap-2 max-sm:[&>span]:hidden" aria-label={`${brand} home`}>
            <Logo name={brand} collapse />
          </Link>
          <CategoryMenu categories={categories} />
          {/* Below 1280 px the main links live in the menu sheet, so the bar never overflows. */}
          <nav aria-label="Main" className="hidden xl:block">
            <ul className="flex items-center gap-1">
              {MAIN_LINKS.map((l) => (
                <li key={l.to}>
                  <NavLink
                    to={l.to}
                    className={({ isActive }) =>
                      `whitespace-nowrap rounded-md px-3 py-2 text-[0.95rem] font-medium hover:bg-sand-100 ${isActive ? 'text-brand-700' : 'text-ink'}`
                    }
                  >
                    {l.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <div className="ml-auto flex items-center gap-1">
            <SearchBar />
            <CurrencyMenu currencies={currencies} />
            <AccountButton user={user} />
            <WishlistButton user={user} />
            <CartButton />
          </div>
        </div>
      </header>
      <Sheet open={menuOpen} onOpenChange={setMenuOpen} title="Menu">
        <MobileCategoryMenu categories={categories} onNavigate={() => setMenuOpen(false)} />
        <nav aria-label="Mobile">
          <ul className="flex flex-col">
            {[{ to: '/', label: 'Home' }, ...MAIN_LINKS, { to: '/about', label: 'About Us' }, { to: '/contact', label: 'Contact' }].map((l) => (
              <li key={l.to}>
                <Link to={l.to} onClick={() => setMenuOpen(false)} className="block rounded-md px-3 py-3 text-base font-medium hover:bg-sand-100">
                  {l.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </Sheet>
    </>
  );
}
