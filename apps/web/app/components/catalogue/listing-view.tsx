import {
  categoryPath,
  hasShopFilters,
  SHOP_MAX_PAGE,
  SHOP_PAGE_SIZE,
  SHOP_SORT_LABELS,
  SHOP_SORTS,
  shopQueryString,
  toggleAttrValue,
  type TFacets,
  type TShopQuery,
  type TShopSort,
  withShopQuery,
} from '@storefront/shared';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { Link, useNavigate, useRouteLoaderData } from 'react-router';
import { type Localized, localeOfMatches, metaT, useT } from '../../lib/i18n.tsx';
import type { ListingData } from '../../lib/listing.server.ts';
import { pageMeta, settingsFrom } from '../../lib/seo.ts';
import { Button, ButtonLink } from '../ui/button.tsx';
import { CloseIcon } from '../ui/icons.tsx';
import { SheetOnFirstUse } from '../ui/sheet-on-first-use.tsx';
import { FilterIcon } from './catalogue-icons.tsx';
import type { MenuCategory } from './category-tree.ts';
import { Pagination } from './pagination.tsx';
import { ProductGrid } from './product-card.tsx';
import { ResponsiveImage } from '../ui/responsive-image.tsx';

/** The path from a top category down to `id`, from the menu tree the root loader holds. */
function categoryTrail(tree: MenuCategory[], id: number): MenuCategory[] {
  for (const c of tree) {
    if (c.id === id) return [c];
    const below = categoryTrail(c.children, id);
    if (below.length) return [c, ...below];
  }
  return [];
}

/** Digits typed in Bangla (০–৯) read as the Latin ones the query carries. */
const latinDigits = (text: string) => text.replace(/[০-৯]/g, (d) => String(d.charCodeAt(0) - 0x09e6));

/** The heading of a listing: the category, the search, or the screen's own name. */
/** meta() of a listing screen (shop, new arrivals, sales): `about` describes the screen. */
export function listingMeta(data: ListingData | undefined, matches: Parameters<typeof settingsFrom>[0], about: string) {
  if (!data) return [];
  const { t, n } = metaT(matches);
  const title = listingTitle(data, t);
  const aboutText = t(about);
  const first = data.result.list
    .slice(0, 3)
    .map((p) => p.title)
    .join(', ');
  return pageMeta({
    settings: settingsFrom(matches),
    lang: localeOfMatches(matches),
    title: data.state.page > 1 ? t('{title} – page {page}', { title, page: n(data.state.page) }) : title,
    description: first ? t('{title}: {first} and more. {about}', { title, first, about: aboutText }) : aboutText,
    canonical: data.canonical,
    image: data.result.category?.banner ?? data.result.list[0]?.image?.url,
    noindex: data.noindex,
  });
}

export function listingTitle(data: Pick<ListingData, 'path' | 'state' | 'result'>, t: Localized['t']): string {
  const { path, state, result } = data;
  if (path === '/new-arrival') return result.category ? t('New in {category}', { category: result.category.name }) : t('New Arrivals');
  if (path === '/sales') return result.category ? t('{category} on sale', { category: result.category.name }) : t('Sales');
  if (state.q) return t('Results for “{q}”', { q: state.q });
  if (result.category) return result.category.name;
  if (state.categoryName && state.categoryName !== 'all') return state.categoryName;
  return t('All furniture');
}

/** Shop, new arrivals and sales: banner, heading, facets, sort, products and pages. */
export function ListingView({ data, intro }: { data: ListingData; intro?: ReactNode }) {
  const productsId = useId();
  const { t } = useT();
  const { path, state, result, attributes } = data;
  const navigate = useNavigate();
  const root = useRouteLoaderData('root') as { categories?: MenuCategory[] } | undefined;
  const [filtersOpen, setFiltersOpen] = useState(false);
  const go = (next: TShopQuery, keepScroll = true) => navigate(`${path}${shopQueryString(next)}`, { preventScrollReset: keepScroll });
  const href = (next: TShopQuery) => `${path}${shopQueryString(next)}`;

  const count = result.count ?? result.list.length;
  const last = Math.min(Math.max(1, Math.ceil(count / SHOP_PAGE_SIZE)), SHOP_MAX_PAGE);
  const trail = result.category ? categoryTrail(root?.categories ?? [], result.category.id) : [];
  const banner = state.categoryBanner || result.category?.banner || null;
  const title = listingTitle(data, t);
  const screenName = path === '/shop' ? t('Shop') : path === '/sales' ? t('Sales') : t('New Arrivals');
  const filtered = hasShopFilters(state);

  const facets = result.facets ? (
    <Facets facets={result.facets} state={state} attributes={attributes} go={go} href={href} onNavigate={() => setFiltersOpen(false)} />
  ) : null;

  return (
    <div className="container-page py-6 md:py-8">
      <nav aria-label={t('Breadcrumb')} className="mb-4 text-sm text-ink-muted">
        <ol className="flex flex-wrap items-center gap-1.5">
          <li>
            <Link to="/" className="hover:text-brand-700 hover:underline">
              {t('Home')}
            </Link>
          </li>
          <li aria-hidden="true">/</li>
          <li>
            {trail.length || state.q ? (
              <Link to={path} className="hover:text-brand-700 hover:underline">
                {screenName}
              </Link>
            ) : (
              <span aria-current="page">{screenName}</span>
            )}
          </li>
          {trail.map((c, i) => (
            <li key={c.id} className="flex items-center gap-1.5">
              <span aria-hidden="true">/</span>
              {i === trail.length - 1 ? (
                <span aria-current="page" className="text-ink">
                  {c.name}
                </span>
              ) : (
                <Link to={categoryPath(c)} className="hover:text-brand-700 hover:underline">
                  {c.name}
                </Link>
              )}
            </li>
          ))}
        </ol>
      </nav>

      {banner && state.page === 1 && (
        <ResponsiveImage
          src={banner}
          alt=""
          width={1600}
          height={500}
          sizes="(min-width: 1280px) 1216px, 100vw"
          fetchPriority="high"
          className="mb-6 h-36 w-full rounded-[var(--radius-card)] bg-sand-100 object-cover object-right sm:h-48 lg:h-56"
        />
      )}
      {intro}

      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight md:text-3xl">{title}</h1>
          <p className="mt-1 text-ink-muted" aria-live="polite" data-testid="result-count">
            {result.match === 'model' ? t('Exact model number match') : t('{count, plural, one {# product} other {# products}}', { count })}
          </p>
        </div>
        <div className="flex w-full items-center gap-2 sm:w-auto">
          {facets && (
            <Button variant="secondary" className="lg:hidden" onClick={() => setFiltersOpen(true)}>
              <FilterIcon /> {t('Filters')}
            </Button>
          )}
          <SortSelect state={state} onChange={(sort) => go(withShopQuery(state, { sort }))} />
        </div>
      </div>

      <ActiveFilters state={state} attributes={attributes} href={href} />

      <div className="mt-6 grid gap-8 lg:grid-cols-[15rem_1fr]">
        {facets && (
          <aside aria-label={t('Filters')} className="hidden lg:block">
            {facets}
          </aside>
        )}
        <section aria-labelledby={productsId} className={facets ? '' : 'lg:col-span-2'}>
          {/* The cards' titles are h3s: on a phone the filters' h2s are hidden, so the
              list carries its own h2 and the outline never skips a level. */}
          <h2 id={productsId} className="sr-only">
            {t('Products')}
          </h2>
          {result.list.length ? (
            <>
              <ProductGrid products={result.list} eagerCount={4} />
              <Pagination page={state.page} last={last} hrefFor={(page) => href(withShopQuery(state, { page }))} />
            </>
          ) : (
            <div role="status" className="rounded-[var(--radius-card)] bg-paper px-6 py-12 text-center shadow-[var(--shadow-card)]">
              <h2 className="text-xl font-semibold">{t('No products found')}</h2>
              <p className="mx-auto mt-2 max-w-md text-ink-muted">
                {state.page > 1
                  ? t('This page is past the end of the list.')
                  : state.q
                    ? filtered
                      ? t('Nothing matches “{q}” with these filters. Check the spelling, try fewer words, or search for a model number such as AFL-1021.', {
                          q: state.q,
                        })
                      : t('Nothing matches “{q}”. Check the spelling, try fewer words, or search for a model number such as AFL-1021.', { q: state.q })
                    : filtered
                      ? t('Nothing matches all of these filters. Remove one to see more.')
                      : t('There is nothing here yet. Have a look around the rest of the shop.')}
              </p>
              <div className="mt-6 flex flex-wrap justify-center gap-3">
                {state.page > 1 && <ButtonLink to={href(withShopQuery(state, { page: 1 }))}>{t('Back to page 1')}</ButtonLink>}
                {filtered && (
                  <ButtonLink to={href(withShopQuery(state, { attrs: {}, minPrice: null, maxPrice: null }))} variant="secondary">
                    {t('Clear filters')}
                  </ButtonLink>
                )}
                <ButtonLink to="/shop" variant={filtered || state.page > 1 ? 'ghost' : 'primary'}>
                  {t('Browse all furniture')}
                </ButtonLink>
              </div>
            </div>
          )}
        </section>
      </div>

      {facets && (
        <SheetOnFirstUse open={filtersOpen} onOpenChange={setFiltersOpen} title={t('Filters')}>
          {facets}
        </SheetOnFirstUse>
      )}
    </div>
  );
}

function SortSelect({ state, onChange }: { state: TShopQuery; onChange(sort: TShopSort): void }) {
  const id = useId();
  const { t } = useT();
  const sorts = SHOP_SORTS.filter((s) => s !== 'relevance' || state.q);
  return (
    <div className="flex min-w-0 flex-1 items-center gap-2 sm:flex-none">
      <label htmlFor={id} className="sr-only text-sm font-medium text-ink-muted sm:not-sr-only sm:whitespace-nowrap">
        {t('Sort by')}
      </label>
      <select
        id={id}
        value={state.sort}
        onChange={(e) => onChange(e.target.value as TShopSort)}
        className="h-11 w-full min-w-0 rounded-lg border border-sand-300 bg-paper px-3 text-[0.95rem] sm:w-auto"
      >
        {sorts.map((s) => (
          <option key={s} value={s}>
            {t(SHOP_SORT_LABELS[s])}
          </option>
        ))}
      </select>
    </div>
  );
}

function ActiveFilters({ state, attributes, href }: { state: TShopQuery; attributes: ListingData['attributes']; href(s: TShopQuery): string }) {
  const { t, n } = useT();
  const taka = (amount: number) => `৳${n(amount)}`;
  const chips: { label: string; to: string }[] = [];
  for (const [name, values] of Object.entries(state.attrs)) {
    const attr = attributes.find((a) => a.name === name);
    for (const v of values) chips.push({ label: `${attr?.displayLabel ?? name}: ${v}`, to: href(toggleAttrValue(state, name, v)) });
  }
  if (state.minPrice !== null || state.maxPrice !== null) {
    const label =
      state.minPrice !== null && state.maxPrice !== null
        ? `${taka(state.minPrice)} – ${taka(state.maxPrice)}`
        : state.minPrice !== null
          ? t('From {price}', { price: taka(state.minPrice) })
          : t('Up to {price}', { price: taka(state.maxPrice!) });
    chips.push({ label, to: href(withShopQuery(state, { minPrice: null, maxPrice: null })) });
  }
  if (!chips.length) return null;
  return (
    <ul className="mt-4 flex flex-wrap gap-2" aria-label={t('Active filters')}>
      {chips.map((c) => (
        <li key={c.label}>
          <Link
            to={c.to}
            preventScrollReset
            className="inline-flex h-9 items-center gap-1.5 rounded-full border border-sand-300 bg-paper pl-3 pr-2 text-sm hover:border-brand-600"
            aria-label={t('Remove filter {filter}', { filter: c.label })}
          >
            {c.label} <CloseIcon width={16} height={16} />
          </Link>
        </li>
      ))}
      {chips.length > 1 && (
        <li>
          <Link
            to={href(withShopQuery(state, { attrs: {}, minPrice: null, maxPrice: null }))}
            preventScrollReset
            className="inline-flex h-9 items-center px-2 text-sm font-medium text-brand-700 hover:underline"
          >
            {t('Clear all')}
          </Link>
        </li>
      )}
    </ul>
  );
}

const VISIBLE_VALUES = 8;

function Facets({
  facets,
  state,
  attributes,
  go,
  href,
  onNavigate,
}: {
  facets: TFacets;
  state: TShopQuery;
  attributes: ListingData['attributes'];
  go(next: TShopQuery): void;
  href(next: TShopQuery): string;
  onNavigate(): void;
}) {
  const { t, n, digits } = useT();
  const [expanded, setExpanded] = useState<Record<string, boolean>>({});
  const minId = useId();
  const maxId = useId();
  const applyPrice = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const read = (k: string) => {
      const v = latinDigits(String(form.get(k) ?? '').trim());
      return /^\d{1,9}$/.test(v) ? Number(v) : null;
    };
    let min = read('minPrice');
    let max = read('maxPrice');
    if (min !== null && max !== null && min > max) [min, max] = [max, min];
    go(withShopQuery(state, { minPrice: min, maxPrice: max }));
    onNavigate();
  };

  return (
    <div className="space-y-7 text-[0.95rem]">
      {facets.categories.length > 0 && (
        <section aria-labelledby={`${minId}-cat`}>
          <h2 id={`${minId}-cat`} className="mb-2 text-sm font-semibold uppercase tracking-wider text-ink-muted">
            {t('Category')}
          </h2>
          <ul className="space-y-1">
            {facets.categories.map((c) => (
              <li key={c.id}>
                <Link
                  to={href(withShopQuery(state, { categoryId: c.id, categoryName: c.name, categoryBanner: '' }))}
                  onClick={onNavigate}
                  aria-current={c.id === state.categoryId ? 'page' : undefined}
                  className={`flex justify-between gap-2 rounded px-1 py-1 hover:text-brand-700 ${c.id === state.categoryId ? 'font-semibold text-brand-700' : ''}`}
                >
                  <span>{c.name}</span>
                  <span className="text-ink-muted">{n(c.count)}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}

      {facets.attributes.map((a) => {
        const chosen = state.attrs[a.name] ?? [];
        // A chosen value stays visible (and can be unticked) even if nothing else matches it.
        const values = [
          ...a.values,
          ...chosen.filter((c) => !a.values.some((v) => v.displayLabel === c)).map((c) => ({ value: c, displayLabel: c, count: 0 })),
        ];
        const shown = expanded[a.name] ? values : values.slice(0, VISIBLE_VALUES);
        const label = attributes.find((x) => x.name === a.name)?.displayLabel ?? a.displayLabel;
        return (
          <fieldset key={a.name}>
            <legend className="mb-2 text-sm font-semibold uppercase tracking-wider text-ink-muted">{label}</legend>
            <ul className="space-y-0.5">
              {shown.map((v) => {
                const checked = chosen.includes(v.displayLabel);
                return (
                  <li key={v.value}>
                    <label className="flex min-h-9 cursor-pointer items-center gap-2.5 rounded px-1 hover:bg-sand-100">
                      {/* Uncontrolled, so a tick shows at once; the key resets it to the URL's state. */}
                      <input
                        key={String(checked)}
                        type="checkbox"
                        defaultChecked={checked}
                        onChange={() => {
                          go(toggleAttrValue(state, a.name, v.displayLabel));
                        }}
                        className="h-4 w-4 accent-brand-700"
                      />
                      {a.name === 'color' && /^[0-9a-f]{6}$/i.test(v.value) && (
                        <span aria-hidden="true" className="h-4 w-4 rounded-full ring-1 ring-sand-300" style={{ background: `#${v.value}` }} />
                      )}
                      <span className="flex-1">{v.displayLabel}</span>
                      <span className="text-sm text-ink-muted">{n(v.count)}</span>
                    </label>
                  </li>
                );
              })}
            </ul>
            {values.length > VISIBLE_VALUES && (
              <button
                type="button"
                className="mt-1 px-1 text-sm font-medium text-brand-700 hover:underline"
                onClick={() => setExpanded((e) => ({ ...e, [a.name]: !e[a.name] }))}
                aria-expanded={!!expanded[a.name]}
              >
                {expanded[a.name] ? t('Show fewer') : t('Show all {count}', { count: n(values.length) })}
              </button>
            )}
          </fieldset>
        );
      })}

      {facets.price && (
        <form onSubmit={applyPrice} aria-label={t('Price range')}>
          <fieldset>
            <legend className="mb-2 text-sm font-semibold uppercase tracking-wider text-ink-muted">{t('Price (৳)')}</legend>
            <div className="flex items-end gap-2">
              <div className="flex-1">
                <label htmlFor={minId} className="text-xs text-ink-muted">
                  {t('Min')}
                </label>
                <input
                  id={minId}
                  name="minPrice"
                  inputMode="numeric"
                  pattern="[0-9০-৯]*"
                  defaultValue={state.minPrice === null ? '' : digits(String(state.minPrice))}
                  key={`min${state.minPrice}`}
                  placeholder={digits(String(Math.floor(facets.price.min / 100)))}
                  className="h-10 w-full rounded-lg border border-sand-300 bg-paper px-2"
                />
              </div>
              <div className="flex-1">
                <label htmlFor={maxId} className="text-xs text-ink-muted">
                  {t('Max')}
                </label>
                <input
                  id={maxId}
                  name="maxPrice"
                  inputMode="numeric"
                  pattern="[0-9০-৯]*"
                  defaultValue={state.maxPrice === null ? '' : digits(String(state.maxPrice))}
                  key={`max${state.maxPrice}`}
                  placeholder={digits(String(Math.ceil(facets.price.max / 100)))}
                  className="h-10 w-full rounded-lg border border-sand-300 bg-paper px-2"
                />
              </div>
            </div>
            <Button type="submit" variant="secondary" size="sm" className="mt-3 w-full">
              {t('Apply price')}
            </Button>
          </fieldset>
        </form>
      )}
    </div>
  );
}
