import { isModelCode, normalizeSearchTerm } from '@storefront/shared';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useT } from '../../lib/i18n.tsx';
import { IconButton } from '../ui/button.tsx';
import { SearchIcon } from '../ui/icons.tsx';

/** The URL of a search on the shop page (spec §2 shop query fields, §5 search). */
export function searchUrl(term: string): string {
  const q = normalizeSearchTerm(term);
  const params = new URLSearchParams({ q, categoryName: 'all' });
  if (isModelCode(q)) params.set('model', q);
  return `/shop?${params}`;
}

/**
 * spec §2: an empty term only toggles the input; otherwise the search goes to /shop.
 * On wide screens the field is always shown.
 */
export function SearchBar() {
  const [open, setOpen] = useState(false);
  const [term, setTerm] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const navigate = useNavigate();
  const { t } = useT();

  return (
    <form
      role="search"
      action="/shop"
      className="flex items-center"
      onSubmit={(e) => {
        e.preventDefault();
        if (!term.trim()) {
          setOpen((o) => !o);
          requestAnimationFrame(() => input.current?.focus());
          return;
        }
        navigate(searchUrl(term));
      }}
    >
      <label htmlFor="site-search" className="sr-only">
        {t('Search products or model numbers')}
      </label>
      <input
        ref={input}
        id="site-search"
        name="q"
        type="search"
        value={term}
        onChange={(e) => setTerm(e.target.value)}
        placeholder={t('Search sofas, beds, AFL-1021…')}
        autoComplete="off"
        className={`h-10 rounded-full border border-sand-300 bg-paper px-4 text-[0.95rem] placeholder:text-ink-muted focus:border-brand-600 min-[1400px]:block min-[1400px]:w-60 ${open ? 'block w-40 sm:w-56' : 'hidden'}`}
      />
      <input type="hidden" name="categoryName" value="all" />
      <IconButton label={t('Search')} type="submit">
        <SearchIcon />
      </IconButton>
    </form>
  );
}
