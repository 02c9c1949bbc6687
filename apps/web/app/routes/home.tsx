import { categoryPath, type TProductCard } from '@storefront/shared';
import { Suspense } from 'react';
import { Await, Link, useRouteLoaderData } from 'react-router';
import { TickIcon } from '../components/catalogue/catalogue-icons.tsx';
import type { MenuCategory } from '../components/catalogue/category-tree.ts';
import { HeroCarousel } from '../components/catalogue/hero-carousel.tsx';
import { ProductGrid, ProductGridSkeleton } from '../components/catalogue/product-card.tsx';
import { ArrowRightIcon } from '../components/ui/icons.tsx';
import { later } from '../lib/api.server.ts';
import { metaT, useT } from '../lib/i18n.tsx';
import { pageMeta, settingsFrom } from '../lib/seo.ts';
import { brandName, type SiteSettings } from '../lib/site.ts';
import type { Route } from './+types/home';

// Home: the carousel, the shop's promises, categories, new arrivals, items on sale and the
// journal. (The campaign and subscription pop-ups are rendered by the layout.)

const listing = (filter: string) => ({
  page: 1,
  size: 8,
  textParams: [{ field: filter, value: true, matchType: 'EXACT' as const }],
  sortParams: [{ field: 'createdAt', type: 'DESC' as const }],
});

export async function loader({ context }: Route.LoaderArgs) {
  const { reads } = context;
  const { slides, bullets, articles } = await reads.homeContent(20);
  return {
    slides,
    bullets,
    // Guides aimed at categories belong on product pages; the journal shows the general ones.
    articles: articles.filter((a) => !Array.isArray(a.fields.categories)).slice(0, 4),
    // The listings are below the first screen: streamed after it (docs/decisions/0029), as
    // one part. React reveals a streamed part in the next frame but waits 300 ms after one
    // reveal before the next: a second part lands amid hydration and lays the page out again.
    listings: later(
      () =>
        Promise.all([listing('newArrival'), listing('onSale')].map((q) => reads.searchItems(q, 'listing').then((r) => r.list))).then(
          ([newArrivals, onSale]) => ({ newArrivals, onSale }),
        ),
      { newArrivals: [], onSale: [] },
    ),
    canonical: `${context.publicUrl}/`,
  };
}

export function meta({ data, matches }: Route.MetaArgs) {
  const settings = settingsFrom(matches);
  if (!data) return [];
  const { t, lang } = metaT(matches);
  return pageMeta({
    settings,
    lang,
    title: t('{brand} — Sofas, beds, dining and office furniture in Bangladesh', { brand: brandName(settings) }),
    description: settings['brand.tagline'] ?? t('Furniture for Bangladeshi homes.'),
    canonical: data.canonical,
    image: data.slides[0]?.image,
  });
}

/** Home's two listings, streamed in after the first screen (the loader's deferred read). */
function Listings({ listings }: { listings: Promise<{ newArrivals: TProductCard[]; onSale: TProductCard[] }> }) {
  const { t } = useT();
  return (
    <Suspense
      fallback={
        <>
          <SectionPlaceholder />
          <SectionPlaceholder />
        </>
      }
    >
      <Await resolve={listings} errorElement={null}>
        {({ newArrivals, onSale }) => (
          <>
            <ListingSection products={newArrivals} id="new-heading" title={t('New arrivals')} to="/new-arrival" more={t('See all new arrivals')} />
            <ListingSection products={onSale} id="sale-heading" title={t('On sale now')} to="/sales" more={t('See all offers')} />
          </>
        )}
      </Await>
    </Suspense>
  );
}

function ListingSection({ products, ...heading }: { products: TProductCard[]; id: string; title: string; to: string; more: string }) {
  if (products.length === 0) return null;
  return (
    <section className="container-page pt-14" aria-labelledby={heading.id}>
      <SectionHeading {...heading} />
      <ProductGrid products={products} className="mt-5" />
    </section>
  );
}

/** A listing section's place while it streams in: its heading's height and a row of cards. */
function SectionPlaceholder() {
  return (
    <div className="container-page pt-14" aria-busy="true">
      <div className="h-8 w-56 rounded bg-sand-100" />
      <ProductGridSkeleton count={4} className="mt-5" />
    </div>
  );
}

function SectionHeading({ id, title, to, more }: { id: string; title: string; to: string; more: string }) {
  const { t } = useT();
  return (
    <div className="flex items-end justify-between gap-4">
      <h2 id={id} className="text-2xl font-bold tracking-tight">
        {title}
      </h2>
      <Link to={to} className="inline-flex items-center gap-1 text-[0.95rem] font-semibold text-brand-700 hover:underline">
        <span className="sm:hidden">{t('See all')}</span>
        <span className="hidden sm:inline">{more}</span> <ArrowRightIcon width={18} height={18} />
      </Link>
    </div>
  );
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { slides, bullets, articles, listings } = loaderData;
  const root = useRouteLoaderData('root') as { settings?: SiteSettings; categories?: MenuCategory[] } | undefined;
  const categories = root?.categories ?? [];
  const tagline = root?.settings?.['brand.tagline'] ?? brandName(root?.settings ?? {});
  const { t } = useT();

  return (
    <>
      <HeroCarousel slides={slides} />

      <section aria-labelledby="home-title" className="border-b border-sand-200 bg-paper">
        <div className="container-page flex flex-col gap-4 py-6 lg:flex-row lg:items-center lg:justify-between">
          <h1 id="home-title" className="text-xl font-bold tracking-tight text-brand-800 md:text-2xl">
            {tagline}
          </h1>
          {bullets.length > 0 && (
            <ul className="grid gap-2 text-sm font-medium text-ink sm:grid-cols-3 lg:flex lg:gap-6">
              {bullets.map((b) => (
                <li key={b.id} className="flex items-center gap-2">
                  <TickIcon width={18} height={18} className="shrink-0 text-brand-700" />
                  {b.title}
                </li>
              ))}
            </ul>
          )}
        </div>
      </section>

      {categories.length > 0 && (
        <section className="container-page pt-12" aria-labelledby="categories-heading">
          <SectionHeading id="categories-heading" title={t('Shop by category')} to="/shop" more={t('All furniture')} />
          <ul className="mt-5 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
            {categories.map((c) => (
              <li key={c.id}>
                <Link to={categoryPath(c)} className="group block overflow-hidden rounded-[var(--radius-card)] bg-paper shadow-[var(--shadow-card)]">
                  {c.img && (
                    <img
                      src={c.img}
                      alt=""
                      width={800}
                      height={600}
                      loading="lazy"
                      className="aspect-[4/3] w-full bg-sand-100 object-cover transition-transform group-hover:scale-[1.03]"
                    />
                  )}
                  <span className="block px-3 py-2.5 font-semibold group-hover:text-brand-700">{c.name}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}

      <Listings listings={listings} />

      {articles.length > 0 && (
        <section className="container-page py-14" aria-labelledby="journal-heading">
          <h2 id="journal-heading" className="text-2xl font-bold tracking-tight">
            {t('From our journal')}
          </h2>
          <div className="mt-5 grid gap-6 md:grid-cols-2">
            {articles.map((a) => (
              <article key={a.id} className="rounded-[var(--radius-card)] bg-paper p-6 shadow-[var(--shadow-card)]">
                <h3 className="text-lg font-semibold">{a.title}</h3>
                <p className="mt-2 text-ink-muted">{a.body}</p>
              </article>
            ))}
          </div>
        </section>
      )}
    </>
  );
}
