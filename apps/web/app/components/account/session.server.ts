import type { TCustomer, TPage } from '@storefront/shared';
import type { AppLoadContext } from 'react-router';
import type { ShellUser } from './shell-user.ts';

export type { ShellUser } from './shell-user.ts';

/**
 * The signed-in customer for server rendering, or null for a guest: GET /api/customers
 * with the shopper's `sid` cookie forwarded (WebLoadContext.api), then the wishlist count
 * for the header's badge. Never throws: a failure renders the page as a guest's.
 */
export async function loadSession(context: AppLoadContext): Promise<ShellUser | null> {
  try {
    const me = await context.api('/api/customers');
    if (me.status !== 200) return null;
    const customer = (await me.json()) as TCustomer;
    const wl = await context.api('/api/wishlists/items/search', { method: 'POST', body: { page: 1, size: 1, fetchCount: true } });
    const count = wl.ok ? (((await wl.json()) as TPage<unknown>).count ?? 0) : 0;
    return { userId: customer.userId, name: customer.fullName, imageUrl: customer.imageUrl, wishlistCount: count };
  } catch {
    return null;
  }
}
