import { categoryPath } from '@storefront/shared';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { cachedCategories, refreshAttributes } from '../../lib/catalogue-cache.ts';
import { useT } from '../../lib/i18n.tsx';
import { whenSettled } from '../../lib/when-settled.ts';
import { ChevronDownIcon } from '../ui/icons.tsx';
import { categoryTree, type MenuCategory } from './category-tree.ts';

/**
 * The browser caches of spec §4/§9 are filled once per visit, once the page has settled.
 * The cached categories also stand in for the menu if the page came without them.
 */
export function useCatalogueCaches(categories: MenuCategory[]): MenuCategory[] {
  const [fallback, setFallback] = useState<MenuCategory[] | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once after hydration: the server's menu, when there is one, does not change on this page.
  useEffect(() => {
    const run = () => {
      void cachedCategories().then((list) => {
        if (list && !categories.length) setFallback(categoryTree(list));
      });
      void refreshAttributes();
    };
    // A page that came without its menu wants the cached one now; otherwise the caches are
    // for later pages and wait until this one has settled (decision 0046).
    if (!categories.length) run();
    else void whenSettled(3000).then(run);
    // Once per page load: the caches outlive navigations.
  }, []);
  return categories.length ? categories : (fallback ?? []);
}

const link = 'rounded px-1 py-0.5 hover:text-brand-700 hover:underline';

const firstLinkIn = (panel: HTMLElement | null) => panel?.querySelector<HTMLElement>('a[href]');

/**
 * Arrow keys inside the open panel, as in a site navigation menu (WAI-ARIA APG "disclosure
 * navigation", the keys Radix NavigationMenu uses): Left and Right go to the previous or
 * next top-level category, Up and Down through the links of one category, Home and End to
 * its first and last link; Up from a category's name goes back to the Categories button.
 * Tab still walks every link in reading order.
 */
function moveInPanel(e: KeyboardEvent<HTMLElement>, button: HTMLButtonElement | null) {
  const from = e.target as HTMLElement;
  const column = from.closest<HTMLElement>('[data-menu-column]');
  if (!column || from.tagName !== 'A' || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
  const columns = [...e.currentTarget.querySelectorAll<HTMLElement>('[data-menu-column]')];
  const at = columns.indexOf(column);
  const links = [...column.querySelectorAll<HTMLElement>('a[href]')];
  const i = links.indexOf(from);
  const next = {
    ArrowDown: links[i + 1],
    ArrowUp: i > 0 ? links[i - 1] : button,
    ArrowRight: columns[at + 1]?.querySelector<HTMLElement>('a[href]'),
    ArrowLeft: columns[at - 1]?.querySelector<HTMLElement>('a[href]'),
    Home: links[0],
    End: links[links.length - 1],
  }[e.key];
  if (next === undefined) return;
  // At either end the key does nothing, rather than scroll the page under the menu.
  e.preventDefault();
  next?.focus();
}

/**
 * spec §2: the desktop mega menu of children and grandchildren, each with an
 * 'All {category}' link. A disclosure (a button that shows and hides a panel of links):
 * the WAI pattern for site navigation, lighter than a menu widget and fully keyboard
 * usable. Escape closes it and returns focus to the button; so do a click outside it and
 * any navigation. Arrow Down on the button opens the panel at its first link; arrow keys then
 * move through it (moveInPanel).
 *
 * No menu library: the panel and its links are in the server's markup (crawlable, usable
 * before the script runs), and Radix NavigationMenu would add about 12 KiB (brotli) to the
 * first load of every page, which is already over its budget (decision 0030). The keys
 * above are the part of its behaviour this single-button menu needs.
 */
export function CategoryMenu({ categories: given }: { categories: MenuCategory[] }) {
  const categories = useCatalogueCaches(given);
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const location = useLocation();
  const nav = useRef<HTMLElement>(null);
  // Arrow Down on a closed button: the first link takes focus once the panel is shown.
  const focusFirst = useRef(false);
  const { t } = useT();

  useEffect(() => {
    if (open && focusFirst.current) firstLinkIn(nav.current)?.focus();
    focusFirst.current = false;
  }, [open]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the dependencies are the trigger: a navigation closes the menu.
  useEffect(() => setOpen(false), [location.pathname, location.search]);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [open]);

  if (!categories.length) return null;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape and focus leaving the menu are caught where they bubble; the controls inside are the menu button and links.
    <div
      ref={root}
      className="hidden lg:block"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          setOpen(false);
          button.current?.focus();
        }
      }}
      onBlur={(e) => {
        if (open && e.relatedTarget && !root.current?.contains(e.relatedTarget as Node)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key !== 'ArrowDown' || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
          e.preventDefault();
          if (open) firstLinkIn(nav.current)?.focus();
          else {
            focusFirst.current = true;
            setOpen(true);
          }
        }}
        className="inline-flex h-11 items-center gap-1 rounded-md px-3 text-[0.95rem] font-medium text-ink hover:bg-sand-100"
      >
        {t('Categories')} <ChevronDownIcon width={18} height={18} className={`transition-transform ${open ? 'rotate-180' : ''}`} />
      </button>
      <div
        id={panelId}
        hidden={!open}
        className="absolute inset-x-0 top-full max-h-[calc(100vh-7rem)] overflow-y-auto border-b border-sand-200 bg-paper shadow-lg"
      >
        <nav
          ref={nav}
          aria-label={t('Categories')}
          className="container-page grid grid-cols-3 gap-x-8 gap-y-6 py-6 lg:grid-cols-6"
          onKeyDown={(e) => moveInPanel(e, button.current)}
        >
          {categories.map((top) => (
            <div key={top.id} data-menu-column>
              <Link to={categoryPath(top)} className="text-base font-semibold text-ink hover:text-brand-700 hover:underline">
                {top.name}
              </Link>
              <ul className="mt-2 space-y-1.5 text-sm">
                {top.children.map((child) => (
                  <li key={child.id}>
                    <Link to={categoryPath(child)} className={`${link} font-medium text-ink`}>
                      {child.name}
                    </Link>
                    {child.children.length > 0 && (
                      <ul className="mt-1 space-y-1 border-l border-sand-200 pl-3 text-ink-muted">
                        {child.children.map((g) => (
                          <li key={g.id}>
                            <Link to={categoryPath(g)} className={link}>
                              {g.name}
                            </Link>
                          </li>
                        ))}
                        <li>
                          <Link to={categoryPath(child)} className={`${link} text-brand-700`}>
                            {t('All {category}', { category: child.name })}
                          </Link>
                        </li>
                      </ul>
                    )}
                  </li>
                ))}
                <li className="pt-1">
                  <Link to={categoryPath(top)} className={`${link} font-medium text-brand-700`}>
                    {t('All {category}', { category: top.name })}
                  </Link>
                </li>
              </ul>
            </div>
          ))}
        </nav>
      </div>
    </div>
  );
}
