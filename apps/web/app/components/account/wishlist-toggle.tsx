import { MESSAGES, wishlistKey } from '@storefront/shared';
import { useEffect, useState } from 'react';
import { useRouteLoaderData } from 'react-router';
import { useT } from '../../lib/i18n.tsx';
import { session, useSessionUser, useWishlistKeys } from '../../lib/session-store.ts';
import { toast } from '../../lib/toast.ts';
import { HeartIcon } from '../ui/icons.tsx';
import type { ShellUser } from './shell-user.ts';

/**
 * The heart on product cards and the product page. Signed in, it adds or removes the sku
 * (the badge in the header follows); a guest gets the sign-in modal, and the item is
 * added once they have signed in.
 */
export function WishlistToggle({ itemId, skuCode, title, className = '' }: { itemId: number; skuCode: string; title: string; className?: string }) {
  const root = useRouteLoaderData('root') as { user?: ShellUser | null } | undefined;
  const user = useSessionUser(root?.user ?? null);
  const keys = useWishlistKeys();
  const { t } = useT();
  const [busy, setBusy] = useState(false);
  const [optimistic, setOptimistic] = useState<boolean | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: loads again only when another customer signs in, not when the profile object is replaced.
  useEffect(() => {
    if (user) void session.loadWishlist();
  }, [user?.userId]);

  const saved = optimistic ?? (!!user && !!keys?.has(wishlistKey(itemId, skuCode)));

  async function toggle(add: boolean, current: ShellUser | null) {
    setBusy(true);
    setOptimistic(add);
    const res = await session.setInWishlist(current, itemId, skuCode, add);
    setOptimistic(null);
    setBusy(false);
    if (res.ok) {
      toast.success(res.data.inWishlist ? t('{title} saved to your wishlist', { title }) : t('{title} removed from your wishlist', { title }));
    } else if (res.status === 401) {
      session.openAuth('sign-in', () => toggle(add, null));
    } else {
      toast.error(t(res.networkError ? MESSAGES.network.unreachable : (res.message ?? 'Could not update your wishlist')));
    }
  }

  const onClick = () => {
    if (busy) return;
    if (!user) {
      session.openAuth('sign-in', () => toggle(true, null));
      return;
    }
    void toggle(!saved, user);
  };

  return (
    <button
      type="button"
      onClick={onClick}
      aria-pressed={user ? saved : undefined}
      aria-label={saved ? t('Remove {title} from wishlist', { title }) : t('Add {title} to wishlist', { title })}
      title={saved ? t('Remove from wishlist') : t('Add to wishlist')}
      className={`inline-flex h-11 w-11 items-center justify-center rounded-full bg-paper/90 shadow-sm transition-colors hover:bg-paper ${saved ? 'text-accent-600' : 'text-ink'} ${className}`}
      data-testid="wishlist-toggle"
    >
      <HeartIcon fill={saved ? 'currentColor' : 'none'} />
    </button>
  );
}
