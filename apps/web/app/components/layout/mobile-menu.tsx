import { Link } from 'react-router';
import type { MenuCategory } from '../catalogue/category-tree.ts';
import { MobileCategoryMenu } from '../catalogue/mobile-category-menu.tsx';
import { Sheet } from '../ui/sheet.tsx';
import { MAIN_LINKS } from './site-header.tsx';

/**
 * The hamburger's sheet below 1280 px (spec §2): the category tree and the site's links.
 * Loaded by SiteHeader the first time it opens.
 */
export function MobileMenu({ open, onOpenChange, categories }: { open: boolean; onOpenChange(open: boolean): void; categories: MenuCategory[] }) {
  const close = () => onOpenChange(false);
  return (
    <Sheet open={open} onOpenChange={onOpenChange} title="Menu">
      <MobileCategoryMenu categories={categories} onNavigate={close} />
      <nav aria-label="Mobile">
        <ul className="flex flex-col">
          {[{ to: '/', label: 'Home' }, ...MAIN_LINKS, { to: '/about', label: 'About Us' }, { to: '/contact', label: 'Contact' }].map((l) => (
            <li key={l.to}>
              <Link to={l.to} onClick={close} className="block rounded-md px-3 py-3 text-base font-medium hover:bg-sand-100">
                {l.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </Sheet>
  );
}
