import * as Accordion from '@radix-ui/react-accordion';
import { categoryPath } from '@storefront/shared';
import { Link } from 'react-router';
import { useT } from '../../lib/i18n.tsx';
import { ChevronDownIcon } from '../ui/icons.tsx';
import { useCatalogueCaches } from './category-menu.tsx';
import type { MenuCategory } from './category-tree.ts';

// Part of the mobile menu, which loads the first time it opens (layout/mobile-menu.tsx).

/** The category tree inside the mobile menu (the hamburger's sheet): one section per top category. */
export function MobileCategoryMenu({ categories: given, onNavigate }: { categories: MenuCategory[]; onNavigate(): void }) {
  const categories = useCatalogueCaches(given);
  const { t } = useT();
  if (!categories.length) return null;
  const item = 'block rounded-md px-3 py-2.5 hover:bg-sand-100';
  return (
    <nav aria-label={t('Categories')} className="mb-4 border-b border-sand-200 pb-4">
      <p className="px-3 pb-2 text-xs font-semibold uppercase tracking-wider text-ink-muted">{t('Categories')}</p>
      <Accordion.Root type="single" collapsible>
        {categories.map((top) => (
          <Accordion.Item key={top.id} value={String(top.id)}>
            <Accordion.Header>
              <Accordion.Trigger className="group flex w-full items-center justify-between rounded-md px-3 py-3 text-left text-base font-medium hover:bg-sand-100">
                {top.name}
                <ChevronDownIcon width={20} height={20} className="transition-transform group-data-[state=open]:rotate-180" />
              </Accordion.Trigger>
            </Accordion.Header>
            <Accordion.Content>
              <ul className="pb-2 pl-3">
                <li>
                  <Link to={categoryPath(top)} onClick={onNavigate} className={`${item} font-medium text-brand-700`}>
                    {t('All {category}', { category: top.name })}
                  </Link>
                </li>
                {top.children.map((child) => (
                  <li key={child.id}>
                    <Link to={categoryPath(child)} onClick={onNavigate} className={item}>
                      {child.name}
                    </Link>
                    {child.children.length > 0 && (
                      <ul className="ml-3 border-l border-sand-200 pl-2 text-[0.95rem] text-ink-muted">
                        {child.children.map((g) => (
                          <li key={g.id}>
                            <Link to={categoryPath(g)} onClick={onNavigate} className={item}>
                              {g.name}
                            </Link>
                          </li>
                        ))}
                        <li>
                          <Link to={categoryPath(child)} onClick={onNavigate} className={`${item} text-brand-700`}>
                            {t('All {category}', { category: child.name })}
                          </Link>
                        </li>
                      </ul>
                    )}
                  </li>
                ))}
              </ul>
            </Accordion.Content>
          </Accordion.Item>
        ))}
      </Accordion.Root>
    </nav>
  );
}
