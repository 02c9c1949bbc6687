import { categoryPath, chooseSku, productPath, skuOptions, skuSelection, type TProductDetails } from '@storefront/shared';
import { useEffect, useMemo, useState } from 'react';
import { data, Link, redirect, type ShouldRevalidateFunctionArgs, useSearchParams } from 'react-router';
import { WishlistToggle } from '../components/account/wishlist-toggle.tsx';
import { AddToCartButton } from '../components/cart/add-to-cart.tsx';
import { CubeIcon, TickIcon } from '../components/catalogue/catalogue-icons.tsx';
import { DeliveryTimes } from '../components/catalogue/delivery-times.tsx';
import { Price } from '../components/catalogue/price.tsx';
import { DeferredProducts, ProductGrid, ProductGridSkeleton } from '../components/catalogue/product-card.tsx';
import { ProductGallery } from '../components/catalogue/product-gallery.tsx';
import { SkuPicker } from '../components/catalogue/sku-picker.tsx';
import { StockSummary, StockTable } from '../components/catalogue/stock-table.tsx';
import { RichText } from '../components/content/rich-text.tsx';
import { later, pageRead } from '../lib/api.server.ts';
import { localeOfMatches, Trans, useT } from '../lib/i18n.tsx';
import { pageMeta, settingsFrom } from '../lib/seo.ts';
import { brandName } from '../lib/site.ts';
import type { Route } from './+types/details';
import { ResponsiveImage } from '../components/ui/responsive-image.tsx';
import { ogImage } from '@storefront/shared/upload-images';

// The product page (spec §2 /details, with the product in the query string), also served
// at its readable, canonical address /products/{slug}. The chosen sku lives in the URL
// (?sku=) so a link shares the exact option; choosing one does not reload the data.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  let by: { id?: number; slug?: string };
  if (params.slug) by = { slug: params.slug };
  else if (/^\d{1,10}$/.test(url.searchParams.get('id') ?? '')) by = { id: Number(url.searchParams.get('id')) };
  else if (url.searchParams.get('slug')) by = { slug: url.searchParams.get('slug')! };
  else throw data({ message: 'Choose a product to see its page: /details?id=…' }, { status: 404 });

  const [{ item, content, bullets, articles, variants, stock, branches, attachments, helpTexts }, deliveryZones] = await Promise.all([
    pageRead(() => context.reads.productPage(by, 0)).catch(async (err) => {
      // A product's old address leads to its new one (its slug changed in the back office).
      const moved = by.slug && (err as { status?: number })?.status === 404 ? await context.reads.slugRedirect(by.slug) : null;
      if (moved) throw redirect(`${productPath(moved)}${url.search}`, 301);
      throw err;
    }),
    // Kept with the page shell: no rows read for it on a product page.
    context.reads.deliveryZones(),
  ]);
  // Below the first screen: streamed after it (docs/decisions/0029).
  const related = later(
    () => context.reads.linkedItems({ page: 1, size: 8, textParams: [{ field: 'itemId', value: item.id, matchType: 'EXACT' }] }).then((p) => p.list),
    [],
  );
  return {
    item,
    content,
    bullets,
    articles,
    variants,
    stock,
    branches,
    related,
    attachments,
    helpTexts,
    deliveryZones,
    canonical: `${context.publicUrl}${productPath(item.slug)}`,
  };
}

/** Choosing another sku changes only ?sku=: nothing to load again. */
export function shouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (currentUrl.pathname === nextUrl.pathname) {
    const a = new URLSearchParams(currentUrl.search);
    const b = new URLSearchParams(nextUrl.search);
    a.delete('sku');
    b.delete('sku');
    if (a.toString() === b.toString()) return false;
  }
  return defaultShouldRevalidate;
}

/** The sku a visitor arrives on: the one in the URL, else the cheapest (what listings show). */
function initialSku(item: TProductDetails, code: string | null) {
  const byCode = code ? item.skus.find((s) => s.code === code) : undefined;
  if (byCode) return byCode;
  const price = (s: TProductDetails['skus'][number]) =>
    s.discountedSalesPrice != null && s.discountedSalesPrice < s.salesPrice ? s.discountedSalesPrice : s.salesPrice;
  return item.skus.reduce((best, s) => (price(s) < price(best) ? s : best), item.skus[0]);
}

export function meta({ data: d, matches }: Route.MetaArgs) {
  if (!d) return [];
  const settings = settingsFrom(matches);
  const { item, stock, canonical } = d;
  const origin = new URL(canonical).origin;
  const inStock = (code: string) => stock.some((r) => r.skuCode === code && r.quantity > 0);
  const category = item.categories[0]?.name;
  const description = `${item.title}${item.modelCode ? ` (${item.modelCode})` : ''}${category ? `, ${category}` : ''}. ${item.description}`;
  const jsonLd = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: item.title,
    description: item.description,
    // Search engines take JPEG, PNG or WebP pictures, not the demo's drawings (SVG).
    image: item.images.map((i) => new URL(ogImage(i.url)?.url ?? i.url, origin).href),
    sku: initialSku(item, null)?.code,
    mpn: item.modelCode ?? undefined,
    category,
    brand: { '@type': 'Brand', name: brandName(settings) },
    url: canonical,
    offers: item.skus.map((s) => ({
      '@type': 'Offer',
      sku: s.code,
      priceCurrency: 'BDT',
      price: ((s.discountedSalesPrice != null && s.discountedSalesPrice < s.salesPrice ? s.discountedSalesPrice : s.salesPrice) / 100).toFixed(2),
      availability: inStock(s.code) ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
      itemCondition: 'https://schema.org/NewCondition',
      url: `${canonical}?sku=${encodeURIComponent(s.code)}`,
    })),
  };
  return [
    ...pageMeta({ settings, lang: localeOfMatches(matches), title: item.title, description, canonical, type: 'product', image: item.image }),
    { 'script:ld+json': jsonLd },
  ];
}

export default function Details({ loaderData }: Route.ComponentProps) {
  const { item, content, bullets, articles, variants, stock, branches, related, attachments, helpTexts, deliveryZones } = loaderData;
  const [params, setParams] = useSearchParams();
  const { t, n } = useT();
  // The choice shows at once; the URL follows (replace, no reload of the data).
  const [chosen, setChosen] = useState<string | null>(params.get('sku'));
  useEffect(() => setChosen(params.get('sku')), [params]);
  const sku = initialSku(item, chosen);
  const selection = sku ? skuSelection(sku) : {};
  const options = useMemo(() => skuOptions(item.skus), [item.skus]);
  const color = selection.color;

  // The chosen colour's pictures first, then the rest.
  const images = useMemo(() => {
    const own = variants.variants.find((v) => v.name === 'color' && v.value === color)?.images ?? [];
    const rest = item.images.filter((i) => !own.some((o) => o.url === i.url));
    return [...own, ...rest];
  }, [variants, item.images, color]);

  const quantities = useMemo(() => {
    const m = new Map<number, number>();
    for (const r of stock) if (r.skuCode === sku?.code) m.set(r.branchId, (m.get(r.branchId) ?? 0) + r.quantity);
    return m;
  }, [stock, sku?.code]);
  const inStock = [...quantities.values()].some((q) => q > 0);

  const choose = (name: string, value: string) => {
    const next = chooseSku(item.skus, selection, name, value);
    if (!next) return;
    setChosen(next.code);
    const p = new URLSearchParams(params);
    p.set('sku', next.code);
    setParams(p, { replace: true, preventScrollReset: true });
  };

  const trail = [...item.categories].reverse();
  const label = sku?.attributeValues.map((a) => a.displayLabel).join(' / ');
  const model = attachments.find((a) => a.kind === '3d-model');

  return (
    <div className="container-page py-6 md:py-8">
      <nav aria-label={t('Breadcrumb')} className="mb-5 text-sm text-ink-muted">
        <ol className="flex flex-wrap items-center gap-1.5">
          <li>
            <Link to="/" className="hover:text-brand-700 hover:underline">
              {t('Home')}
            </Link>
          </li>
          {trail.map((c) => (
            <li key={c.id} className="flex items-center gap-1.5">
              <span aria-hidden="true">/</span>
              <Link to={categoryPath(c)} className="hover:text-brand-700 hover:underline">
                {c.name}
              </Link>
            </li>
          ))}
          <li className="flex items-center gap-1.5">
            <span aria-hidden="true">/</span>
            <span aria-current="page" className="text-ink">
              {item.title}
            </span>
          </li>
        </ol>
      </nav>

      <div className="grid gap-8 md:grid-cols-2 lg:gap-12">
        <ProductGallery images={images} title={item.title} />

        <div>
          {item.modelCode && (
            <p className="text-sm font-medium tracking-wide text-ink-muted">
              <Trans id="Model <0>{code}</0>" values={{ code: item.modelCode }} components={{ 0: <span data-testid="model-code" /> }} />
            </p>
          )}
          <h1 className="mt-1 text-2xl font-bold tracking-tight md:text-3xl">{item.title}</h1>
          {sku && (
            <div className="mt-4">
              <Price productId={item.id} categoryIds={item.categoryIds} sku={sku} size="lg" />
              <p className="mt-1 text-xs text-ink-muted">
                <Trans id="Option <0>{code}</0>" values={{ code: sku.code }} components={{ 0: <span data-testid="sku-code" /> }} />
                {label ? ` · ${label}` : ''}
              </p>
            </div>
          )}

          {options.length > 0 && (
            <div className="mt-6">
              <SkuPicker options={options} selection={selection} skus={item.skus} onChoose={choose} helpTexts={helpTexts} />
            </div>
          )}

          <div className="mt-6">
            <StockSummary quantities={quantities} branches={branches} />
          </div>

          {sku && (
            <div className="mt-4 flex items-center gap-3">
              <div className="flex-1 sm:flex-none">
                <AddToCartButton
                  product={{ id: item.id, title: item.title, slug: item.slug, image: images[0]?.url ?? item.image, categoryIds: item.categoryIds }}
                  sku={{ code: sku.code, salesPrice: sku.salesPrice, discountedSalesPrice: sku.discountedSalesPrice, label }}
                  sourceType={item.kind === 'bundle' ? 'bundle' : undefined}
                  disabled={!inStock}
                  variant="full"
                />
              </div>
              <WishlistToggle itemId={item.id} skuCode={sku.code} title={item.title} />
            </div>
          )}

          {bullets.length > 0 && (
            <ul className="mt-6 space-y-2 text-sm">
              {bullets.map((b) => (
                <li key={b.id} className="flex items-start gap-2">
                  <TickIcon width={18} height={18} className="mt-0.5 shrink-0 text-brand-700" />
                  {b.title}
                </li>
              ))}
            </ul>
          )}

          <DeliveryTimes zones={deliveryZones} />

          {model && (
            <Link to={model.url} className="mt-6 inline-flex items-center gap-2 font-medium text-brand-700 hover:underline">
              <CubeIcon /> {t('View this sofa in 3D')}
            </Link>
          )}
        </div>
      </div>

      <div className="mt-12 grid gap-10 lg:grid-cols-[1fr_24rem]">
        <section aria-labelledby="about-heading">
          <h2 id="about-heading" className="text-xl font-semibold">
            {t('About this product')}
          </h2>
          <div className="mt-3 text-ink">
            <RichText text={content.description} />
          </div>
          {content.specifications.length > 0 && (
            <dl className="mt-6 divide-y divide-sand-200 rounded-[var(--radius-card)] border border-sand-200 bg-paper text-sm">
              {content.specifications.map((s) => (
                <div key={s.label} className="grid grid-cols-[7.5rem_1fr] gap-3 px-4 py-2.5 sm:grid-cols-[10rem_1fr]">
                  {/* The API names its own rows in English (Model number, Category, In this set): they
                      are catalogue ids; an option's name is the shop's data and shows as it is. */}
                  <dt className="font-medium text-ink-muted">{t(s.label)}</dt>
                  <dd>{s.value}</dd>
                </div>
              ))}
            </dl>
          )}

          {item.skuDetails.length > 0 && (
            <div className="mt-10">
              <h2 className="text-xl font-semibold">{t('In this set')}</h2>
              <ul className="mt-3 divide-y divide-sand-200 rounded-[var(--radius-card)] border border-sand-200 bg-paper" data-testid="bundle-parts">
                {item.skuDetails.map((p) => (
                  <li key={p.skuCode} className="flex items-center gap-4 p-3">
                    {p.product.image && (
                      <ResponsiveImage
                        src={p.product.image}
                        alt=""
                        width={96}
                        height={72}
                        sizes="96px"
                        maxWidth={320}
                        loading="lazy"
                        className="h-[72px] w-24 rounded object-cover"
                      />
                    )}
                    <div className="flex-1">
                      <Link to={productPath(p.product.slug)} className="font-medium hover:text-brand-700 hover:underline">
                        {p.product.title}
                      </Link>
                      <p className="text-sm text-ink-muted">
                        {n(p.quantity)} × {p.attributeValues.map((a) => `${a.optionDisplayLabel} ${a.displayLabel}`).join(', ') || p.skuCode}
                      </p>
                    </div>
                  </li>
                ))}
              </ul>
            </div>
          )}

          {articles.length > 0 && (
            <div className="mt-10">
              <h2 className="text-xl font-semibold">{t('Care and buying guides')}</h2>
              <div className="mt-3 grid gap-4 md:grid-cols-2">
                {articles.map((a) => (
                  <article key={a.id} className="rounded-[var(--radius-card)] bg-paper p-5 shadow-[var(--shadow-card)]">
                    <h3 className="font-semibold">{a.title}</h3>
                    <p className="mt-2 text-sm text-ink-muted">{a.body}</p>
                  </article>
                ))}
              </div>
            </div>
          )}
        </section>

        <section aria-labelledby="stock-heading">
          <h2 id="stock-heading" className="text-xl font-semibold">
            {t('Availability in our showrooms')}
          </h2>
          <p className="mt-1 text-sm text-ink-muted">{t('For {option}', { option: label || sku?.code || '' })}</p>
          <div className="mt-3 rounded-[var(--radius-card)] bg-paper p-4 shadow-[var(--shadow-card)]">
            <StockTable quantities={quantities} branches={branches} />
          </div>
        </section>
      </div>

      <DeferredProducts
        products={related}
        placeholder={
          <div className="mt-14" aria-busy="true">
            <div className="h-7 w-48 rounded bg-sand-100" />
            <ProductGridSkeleton count={4} className="mt-4" />
          </div>
        }
        render={(list) => (
          <section aria-labelledby="related-heading" className="mt-14">
            <h2 id="related-heading" className="text-xl font-semibold">
              {t('You may also like')}
            </h2>
            <ProductGrid products={list.slice(0, 8)} className="mt-4" />
          </section>
        )}
      />
    </div>
  );
}
