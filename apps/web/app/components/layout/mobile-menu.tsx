import { Link, useRouteLoaderData } from 'react-router';
import { useT } from '../../lib/i18n.tsx';
import { useSessionUser } from '../../lib/session-store.ts';
import type { ShellUser } from '../account/shell-user.ts';
import type { MenuCategory } from '../catalogue/category-tree.ts';
import { MobileCategoryMenu } from '../catalogue/mobile-category-menu.tsx';
import { Sheet } from '../ui/sheet.tsx';
import { MAIN_LINKS } from './site-header.tsx';

const linkClass = 'block rounded-md px-3 py-3 text-base font-medium hover:bg-sand-100';

/**
 * The hamburger's sheet below 1280 px (spec §2): the category tree and the site's links,
 * and for a signed-in customer their account and orders (on a phone the account icon's
 * menu is one tap further, and /orders had no way in at all). Loaded by SiteHeader the
 * first time it opens.
 */
export function MobileMenu({ open, onOpenChange, categories }: { open: boolean; onOpenChange(open: boolean): void; categories: MenuCategory[] }) {
  const close = () => onOpenChange(false);
  const root = useRouteLoaderData('root') as { user?: ShellUser | null } | undefined;
  const user = useSessionUser(root?.user ?? null);
  const { t } = useT();
  return (
    <Sheet open={open} onOpenChange={onOpenChange} title={t('Menu')}>
      <MobileCategoryMenu categories={categories} onNavigate={close} />
      <nav aria-label={t('Mobile')}>
        <ul className="flex flex-col">
          {[{ to: '/', label: 'Home' }, ...MAIN_LINKS, { to: '/about', label: 'About Us' }, { to: '/contact', label: 'Contact' }].map((l) => (
            <li key={l.to}>
              <Link to={l.to} onClick={close} className={linkClass}>
                {t(l.label)}
              </Link>
            </li>
          ))}
        </ul>
        {user && (
          <ul className="mt-2 flex flex-col border-t border-sand-200 pt-2" aria-label={t('My account')}>
            <li>
              <Link to="/profile" onClick={close} className={linkClass}>
                {t('My Account')}
              </Link>
            </li>
            <li>
              <Link to="/orders" onClick={close} className={linkClass}>
                {t('My Orders')}
              </Link>
            </li>
          </ul>
        )}
      </nav>
    </Sheet>
  );
}
