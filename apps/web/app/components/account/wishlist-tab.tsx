import { type TPage, type TWishlistItem, MESSAGES } from '@storefront/shared';
import { useState } from 'react';
import { Link, useRevalidator, useRouteLoaderData } from 'react-router';
import { useT } from '../../lib/i18n.tsx';
import { session } from '../../lib/session-store.ts';
import { toast } from '../../lib/toast.ts';
import { AddToCartButton } from '../cart/add-to-cart.tsx';
import { productHref } from '../cart/product-href.ts';
import { Price } from '../catalogue/price.tsx';
import { ButtonLink } from '../ui/button.tsx';
import { HeartIcon } from '../ui/icons.tsx';
import type { ShellUser } from './shell-user.ts';
import { ResponsiveImage } from '../ui/responsive-image.tsx';

/** spec §2 /profile?tab=wishlist: the wishlist, newest first, 10 at a time, with add-to-cart. */
export function WishlistTab({ page, pageNumber }: { page: TPage<TWishlistItem> | null; pageNumber: number }) {
  const root = useRouteLoaderData('root') as { user?: ShellUser | null } | undefined;
  const revalidator = useRevalidator();
  const { t, n } = useT();
  const [removing, setRemoving] = useState<number | null>(null);
  const items = page?.list ?? [];

  async function remove(item: TWishlistItem) {
    setRemoving(item.id);
    const res = await session.setInWishlist(root?.user ?? null, item.itemId, item.skuCode, false);
    setRemoving(null);
    if (res.ok) {
      toast.success(t('{title} removed from your wishlist', { title: item.title }));
      revalidator.revalidate();
    } else toast.error(t(res.networkError ? MESSAGES.network.unreachable : (res.message ?? 'Could not update your wishlist')));
  }

  if (!page) return <p className="text-ink-muted">{t('Your wishlist could not be loaded. Please try again.')}</p>;
  if (items.length === 0 && pageNumber === 1) {
    return (
      <div className="rounded-[var(--radius-card)] border border-sand-200 bg-paper p-8 text-center">
        <HeartIcon className="mx-auto text-ink-muted" width={36} height={36} />
        <h2 className="mt-3 text-lg font-semibold">{t('Your wishlist is empty')}</h2>
        <p className="mt-1 text-ink-muted">{t('Tap the heart on any product to keep it here.')}</p>
        <ButtonLink to="/shop" className="mt-5">
          {t('Browse the shop')}
        </ButtonLink>
      </div>
    );
  }
  return (
    <div>
      <h2 className="text-lg font-semibold">
        {t('Wishlist')} <span className="font-normal text-ink-muted">({n(page.count ?? items.length)})</span>
      </h2>
      <ul className="mt-4 flex flex-col gap-3" data-testid="wishlist-list">
        {items.map((item) => (
          <li key={item.id} className="flex gap-4 rounded-[var(--radius-card)] border border-sand-200 bg-paper p-3 md:p-4" data-testid="wishlist-item">
            <Link to={productHref({ id: item.itemId, slug: item.slug })} className="shrink-0">
              {item.image ? (
                <ResponsiveImage
                  src={item.image}
                  alt=""
                  width={96}
                  height={96}
                  sizes="96px"
                  maxWidth={320}
                  loading="lazy"
                  className="h-24 w-24 rounded-lg bg-sand-100 object-cover"
                />
              ) : (
                <span className="block h-24 w-24 rounded-lg bg-sand-100" />
              )}
            </Link>
            <div className="flex min-w-0 flex-1 flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0">
                <Link to={productHref({ id: item.itemId, slug: item.slug })} className="line-clamp-2 font-semibold hover:underline">
                  {item.title}
                </Link>
                <p className="text-xs text-ink-muted">{item.skuCode}</p>
                <Price
                  productId={item.itemId}
                  categoryIds={[item.categoryId]}
                  sku={{ code: item.skuCode, salesPrice: item.salesPrice, discountedSalesPrice: item.discountedSalesPrice }}
                />
              </div>
              <div className="flex items-center gap-2">
                <AddToCartButton
                  variant="compact"
                  product={{ id: item.itemId, title: item.title, slug: item.slug, image: item.image, categoryIds: [item.categoryId] }}
                  sku={{ code: item.skuCode, salesPrice: item.salesPrice, discountedSalesPrice: item.discountedSalesPrice }}
                />
                <button
                  type="button"
                  onClick={() => void remove(item)}
                  disabled={removing === item.id}
                  aria-label={t('Remove {title} from wishlist', { title: item.title })}
                  className="inline-flex h-9 items-center rounded-lg px-3 text-sm font-semibold text-danger-600 hover:bg-sand-100 disabled:opacity-50"
                >
                  {t('Remove')}
                </button>
              </div>
            </div>
          </li>
        ))}
      </ul>
      {(pageNumber > 1 || page.nextPageToken) && (
        <nav aria-label={t('Wishlist pages')} className="mt-5 flex items-center justify-between">
          {pageNumber > 1 ? (
            <ButtonLink variant="secondary" size="sm" to={`/profile?tab=wishlist&page=${pageNumber - 1}`} preventScrollReset>
              {t('Newer')}
            </ButtonLink>
          ) : (
            <span />
          )}
          <span className="text-sm text-ink-muted">{t('Page {page}', { page: n(pageNumber) })}</span>
          {page.nextPageToken ? (
            <ButtonLink variant="secondary" size="sm" to={`/profile?tab=wishlist&page=${page.nextPageToken}`} preventScrollReset>
              {t('Older')}
            </ButtonLink>
          ) : (
            <span />
          )}
        </nav>
      )}
    </div>
  );
}
