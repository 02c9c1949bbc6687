import type { AppLoadContext } from 'react-router';
import type { ShellUser } from './shell-user.ts';

export type { ShellUser } from './shell-user.ts';

/**
 * The signed-in customer for server rendering, or null for a guest: the shopper of the
 * `sid` cookie with the wishlist count for the header's badge (context.reads). Never
 * throws: a failure renders the page as a guest's.
 */
export async function loadSession(context: AppLoadContext): Promise<ShellUser | null> {
  try {
    const s = await context.reads.shopper();
    if (!s) return null;
    return { userId: s.customer.userId, name: s.customer.fullName, imageUrl: s.customer.imageUrl, wishlistCount: s.wishlistCount };
  } catch {
    return null;
  }
}
