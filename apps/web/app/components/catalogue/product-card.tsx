import { productPath, type TProductCard } from '@storefront/shared';
import { type ReactNode, Suspense, useId } from 'react';
import { Await, Link } from 'react-router';
import { WishlistToggle } from '../account/wishlist-toggle.tsx';
import { useT } from '../../lib/i18n.tsx';
import { AddToCartButton } from '../cart/add-to-cart.tsx';
import { ButtonLink } from '../ui/button.tsx';
import { ResponsiveImage } from '../ui/responsive-image.tsx';
import { Price } from './price.tsx';

/** One product in a listing: picture, name, model number, colours, price, wishlist heart and Add (or Choose options). */
/** `eager`: in the first screenful; `priority`: one of the first row's pictures, the page's likely largest paint. */
export function ProductCard({ product, eager = false, priority = false }: { product: TProductCard; eager?: boolean; priority?: boolean }) {
  const href = productPath(product.slug);
  const colors = product.colors.slice(0, 5);
  const titleId = useId();
  const { t, n } = useT();
  return (
    <article
      className="group relative flex h-full flex-col overflow-hidden rounded-[var(--radius-card)] bg-paper shadow-[var(--shadow-card)]"
      data-testid="product-card"
    >
      <Link to={href} className="block bg-sand-100" tabIndex={-1} aria-hidden="true">
        {product.image ? (
          <ResponsiveImage
            src={product.image.url}
            alt=""
            width={800}
            height={600}
            sizes="(min-width: 1280px) 300px, (min-width: 768px) 33vw, 50vw"
            // At most 422 px drawn (a third of 1279 px) at twice the pixels: 960 is always sharp.
            maxWidth={960}
            loading={eager ? 'eager' : 'lazy'}
            fetchPriority={priority ? 'high' : undefined}
            decoding="async"
            className="aspect-[4/3] w-full object-cover transition-transform duration-300 group-hover:scale-[1.02]"
          />
        ) : (
          <div className="aspect-[4/3] w-full" />
        )}
      </Link>
      <div className="pointer-events-none absolute left-2 top-2 flex gap-1">
        {product.isNewArrival && <span className="rounded bg-brand-700 px-2 py-0.5 text-xs font-semibold text-white">{t('New')}</span>}
        {product.kind === 'bundle' && <span className="rounded bg-ink px-2 py-0.5 text-xs font-semibold text-white">{t('Set')}</span>}
      </div>
      <div className="absolute right-2 top-2">
        <WishlistToggle itemId={product.id} skuCode={product.sku.code} title={product.title} />
      </div>
      <div className="flex flex-1 flex-col gap-1.5 p-4">
        {product.modelCode && <p className="text-xs font-medium tracking-wide text-ink-muted">{product.modelCode}</p>}
        <h3 className="text-[0.95rem] font-semibold leading-snug">
          <Link id={titleId} to={href} className="hover:text-brand-700 hover:underline">
            {product.title}
          </Link>
        </h3>
        {colors.length > 1 && (
          <p className="flex items-center gap-1.5">
            <span className="sr-only">{t('Available in {colors}', { colors: product.colors.map((c) => c.label).join(', ') })}</span>
            {colors.map((c) => (
              <span
                key={c.value}
                aria-hidden="true"
                title={c.label}
                className="h-3.5 w-3.5 rounded-full ring-1 ring-sand-300"
                style={{ background: /^[0-9a-f]{6}$/i.test(c.value) ? `#${c.value}` : undefined }}
              />
            ))}
            {product.colors.length > colors.length && (
              <span className="text-xs text-ink-muted" aria-hidden="true">
                +{n(product.colors.length - colors.length)}
              </span>
            )}
          </p>
        )}
        <div className="mt-auto pt-2">
          {product.skuCount > 1 && <p className="text-xs text-ink-muted">{t('From')}</p>}
          <Price productId={product.id} categoryIds={product.categoryIds} sku={product.sku} />
        </div>
        <div className="pt-2">
          {product.skuCount > 1 ? (
            // Several colours or sizes: the card cannot know which one the shopper wants, so it
            // leads to the product page's choice instead of adding the cheapest one unseen.
            // Described by the title rather than named with it: the card's title link keeps the only name that is the title.
            <ButtonLink to={href} variant="secondary" size="sm" aria-describedby={titleId} data-testid="choose-options">
              {t('Choose options')}
            </ButtonLink>
          ) : (
            <AddToCartButton
              variant="compact"
              product={{ id: product.id, title: product.title, slug: product.slug, image: product.image?.url ?? null, categoryIds: product.categoryIds }}
              sku={product.sku}
              sourceType={product.kind === 'bundle' ? 'bundle' : undefined}
            />
          )}
        </div>
      </div>
    </article>
  );
}

export function ProductGrid({ products, eagerCount = 0, className = '' }: { products: TProductCard[]; eagerCount?: number; className?: string }) {
  return (
    <ul className={`grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 xl:grid-cols-4 ${className}`}>
      {products.map((p, i) => (
        <li key={p.id}>
          {/* A phone's first row is two cards: their pictures come before the page's scripts. */}
          <ProductCard product={p} eager={i < eagerCount} priority={i < Math.min(2, eagerCount)} />
        </li>
      ))}
    </ul>
  );
}

/** Placeholders in the shape of product cards, holding the grid's place while it streams in. */
export function ProductGridSkeleton({ count, className = '' }: { count: number; className?: string }) {
  return (
    <ul className={`grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 xl:grid-cols-4 ${className}`} aria-hidden="true">
      {Array.from({ length: count }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have nothing else to tell them apart.
        <li key={i} className="flex flex-col overflow-hidden rounded-[var(--radius-card)] bg-paper shadow-[var(--shadow-card)]">
          <div className="aspect-[4/3] w-full animate-pulse bg-sand-100" />
          <div className="flex flex-col gap-2 p-4">
            <div className="h-3 w-1/3 rounded bg-sand-100" />
            <div className="h-4 w-4/5 rounded bg-sand-100" />
            <div className="mt-4 h-5 w-1/2 rounded bg-sand-100" />
            <div className="mt-2 h-9 w-full rounded bg-sand-100" />
          </div>
        </li>
      ))}
    </ul>
  );
}

/**
 * A section of products that streams in after the first screen (a loader's deferred
 * read): the placeholder holds its place, and `render` draws the section once the list
 * is there (nothing when it is empty).
 */
export function DeferredProducts({
  products,
  placeholder,
  render,
}: {
  products: Promise<TProductCard[]> | TProductCard[];
  placeholder: ReactNode;
  render(list: TProductCard[]): ReactNode;
}) {
  return (
    <Suspense fallback={placeholder}>
      <Await resolve={products} errorElement={null}>
        {(list) => (list.length > 0 ? render(list) : null)}
      </Await>
    </Suspense>
  );
}
