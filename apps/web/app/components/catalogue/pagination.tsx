import { Link } from 'react-router';
import { useT } from '../../lib/i18n.tsx';
import { ChevronLeftIcon, ChevronRightIcon } from './catalogue-icons.tsx';

/** The page numbers to show: the first, the last, and two either side of the current one. */
export function pageWindow(current: number, last: number): (number | 'gap')[] {
  const out: (number | 'gap')[] = [];
  for (let p = 1; p <= last; p++) {
    if (p === 1 || p === last || Math.abs(p - current) <= 2) out.push(p);
    else if (out.at(-1) !== 'gap') out.push('gap');
  }
  return out;
}

/** Numbered pages as links (crawlable, and they work without JavaScript). */
export function Pagination({ page, last, hrefFor }: { page: number; last: number; hrefFor(page: number): string }) {
  const { t, n } = useT();
  if (last <= 1) return null;
  const cell = 'inline-flex h-11 min-w-11 items-center justify-center rounded-lg px-3 text-[0.95rem] font-medium';
  return (
    <nav aria-label={t('Pages')} className="mt-10 flex justify-center">
      <ul className="flex flex-wrap items-center gap-1">
        <li>
          {page > 1 ? (
            <Link to={hrefFor(page - 1)} rel="prev" className={`${cell} hover:bg-sand-100`} aria-label={t('Previous page')}>
              <ChevronLeftIcon />
            </Link>
          ) : (
            <span className={`${cell} text-sand-300`} aria-hidden="true">
              <ChevronLeftIcon />
            </span>
          )}
        </li>
        {pageWindow(page, last).map((p, i) =>
          p === 'gap' ? (
            <li key={`gap${i}`} aria-hidden="true" className="px-1 text-ink-muted">
              …
            </li>
          ) : (
            <li key={p}>
              <Link
                to={hrefFor(p)}
                aria-current={p === page ? 'page' : undefined}
                aria-label={t('Page {page}', { page: n(p) })}
                className={`${cell} ${p === page ? 'bg-brand-700 text-white' : 'hover:bg-sand-100'}`}
              >
                {n(p)}
              </Link>
            </li>
          ),
        )}
        <li>
          {page < last ? (
            <Link to={hrefFor(page + 1)} rel="next" className={`${cell} hover:bg-sand-100`} aria-label={t('Next page')}>
              <ChevronRightIcon />
            </Link>
          ) : (
            <span className={`${cell} text-sand-300`} aria-hidden="true">
              <ChevronRightIcon />
            </span>
          )}
        </li>
      </ul>
    </nav>
  );
}
