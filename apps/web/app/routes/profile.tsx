import * as Tabs from '@radix-ui/react-tabs';
import { type TAddress, type TCustomer, type TPage, type TWishlistItem, WISHLIST_SEARCH } from '@storefront/shared';
import { Link, useNavigate, useNavigation } from 'react-router';
import { Avatar } from '../components/account/account-slots.tsx';
import { AddressesTab } from '../components/account/addresses-tab.tsx';
import { ProfileTab } from '../components/account/profile-tab.tsx';
import { SecurityTab } from '../components/account/security-tab.tsx';
import { WishlistTab } from '../components/account/wishlist-tab.tsx';
import { Button } from '../components/ui/button.tsx';
import { metaT, useT } from '../lib/i18n.tsx';
import { session } from '../lib/session-store.ts';
import type { Route } from './+types/profile';

// spec §2: /profile, with the tab chosen by the query `tab` (such as wishlist). The URL is
// the state: a tab can be linked to, reloaded and reached with Back.

export const PROFILE_TABS = [
  { id: 'profile', label: 'Profile' },
  { id: 'addresses', label: 'Addresses' },
  { id: 'wishlist', label: 'Wishlist' },
  { id: 'security', label: 'Security' },
] as const;
export type ProfileTabId = (typeof PROFILE_TABS)[number]['id'];

function tabOf(value: string | null): ProfileTabId {
  return PROFILE_TABS.some((t) => t.id === value) ? (value as ProfileTabId) : 'profile';
}

async function json<T>(res: Response): Promise<T | null> {
  return res.ok ? ((await res.json()) as T) : null;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const tab = tabOf(url.searchParams.get('tab'));
  const page = Math.max(1, Math.min(1000, Number(url.searchParams.get('page')) || 1));
  const me = await context.api('/api/customers');
  if (me.status === 401) return { tab, page, customer: null, addresses: null, wishlist: null };
  const customer = await json<TCustomer>(me);
  // Only the open tab's data: the others load when they are opened.
  const [addresses, wishlist] = await Promise.all([
    tab === 'addresses' ? context.api('/api/addresses/search', { method: 'POST', body: { page: 1, size: 20 } }).then((r) => json<TPage<TAddress>>(r)) : null,
    tab === 'wishlist'
      ? context.api('/api/wishlists/items/search', { method: 'POST', body: { ...WISHLIST_SEARCH, page } }).then((r) => json<TPage<TWishlistItem>>(r))
      : null,
  ]);
  return { tab, page, customer, addresses, wishlist };
}

// A customer's own page: never stored by the browser's or anyone else's cache.
export function headers() {
  return { 'Cache-Control': 'private, no-store' };
}

export const meta: Route.MetaFunction = ({ data, matches }) => {
  const { t } = metaT(matches);
  const tab = PROFILE_TABS.find((x) => x.id === data?.tab);
  return [{ title: tab && tab.id !== 'profile' ? `${t(tab.label)} · ${t('My Account')}` : t('My Account') }, { name: 'robots', content: 'noindex' }];
};

export default function ProfilePage({ loaderData }: Route.ComponentProps) {
  const { customer, tab } = loaderData;
  const { t } = useT();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const pendingTab = navigation.location?.pathname === '/profile' ? tabOf(new URLSearchParams(navigation.location.search).get('tab')) : null;
  const shownTab = pendingTab ?? tab;

  if (!customer) {
    return (
      <section className="container-page flex justify-center py-14 md:py-20">
        <div className="max-w-md text-center">
          <h1 className="text-2xl font-bold tracking-tight md:text-3xl">{t('Your account')}</h1>
          <p className="mt-3 text-ink-muted">{t('Sign in to see your profile, saved addresses and wishlist.')}</p>
          <div className="mt-6 flex flex-wrap justify-center gap-3">
            <Button onClick={() => session.openAuth('sign-in')}>{t('Sign In')}</Button>
            <Button variant="secondary" onClick={() => session.openAuth('sign-up')}>
              {t('Create an account')}
            </Button>
          </div>
        </div>
      </section>
    );
  }

  const loading = navigation.state === 'loading' && pendingTab !== null && pendingTab !== tab;

  return (
    <section className="container-page py-8 md:py-12">
      <header className="flex items-center gap-4">
        <Avatar user={{ name: customer.fullName, imageUrl: customer.imageUrl }} size={64} />
        <div className="min-w-0">
          <h1 className="truncate text-2xl font-bold tracking-tight md:text-3xl">{customer.fullName}</h1>
          <p className="truncate text-ink-muted">{customer.email}</p>
        </div>
      </header>
      <Tabs.Root
        value={shownTab}
        onValueChange={(v) => navigate(v === 'profile' ? '/profile' : `/profile?tab=${v}`, { preventScrollReset: true })}
        activationMode="manual"
        className="mt-8 md:grid md:grid-cols-[13rem_1fr] md:gap-8"
      >
        {/* The orders are a page of their own (/orders, spec §2), so a link beside the tabs,
            not a tab: shoppers look for them with the rest of their account. */}
        <div className="-mx-4 flex items-stretch overflow-x-auto border-b border-sand-200 px-4 md:mx-0 md:flex-col md:self-start md:overflow-visible md:border-b-0 md:px-0">
          <Tabs.List aria-label={t('My account')} className="flex gap-1 md:flex-col">
            {PROFILE_TABS.map((tab) => (
              <Tabs.Trigger
                key={tab.id}
                value={tab.id}
                className="shrink-0 whitespace-nowrap border-b-2 border-transparent px-2.5 py-3 sm:px-3 text-[0.95rem] font-medium text-ink-muted hover:text-ink data-[state=active]:border-brand-700 data-[state=active]:text-brand-700 md:rounded-lg md:border-b-0 md:px-4 md:py-2.5 md:text-left md:data-[state=active]:bg-brand-50"
              >
                {t(tab.label)}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          <Link
            to="/orders"
            className="ml-1 shrink-0 whitespace-nowrap border-b-2 border-transparent px-2.5 py-3 text-[0.95rem] font-medium text-ink-muted hover:text-ink sm:px-3 md:mt-2 md:ml-0 md:border-b-0 md:border-t md:border-t-sand-200 md:px-4 md:py-2.5 md:pt-3"
          >
            {t('My Orders')}
          </Link>
        </div>
        {PROFILE_TABS.map((x) => (
          <Tabs.Content key={x.id} value={x.id} className="pt-6 focus-visible:outline-none md:pt-0" aria-busy={loading || undefined}>
            {loading ? (
              <p className="py-10 text-ink-muted" role="status">
                {t('Loading…')}
              </p>
            ) : x.id !== tab ? null : x.id === 'profile' ? (
              <ProfileTab customer={customer} />
            ) : x.id === 'addresses' ? (
              <AddressesTab addresses={loaderData.addresses?.list ?? []} />
            ) : x.id === 'wishlist' ? (
              <WishlistTab page={loaderData.wishlist} pageNumber={loaderData.page} />
            ) : (
              <SecurityTab customer={customer} />
            )}
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </section>
  );
}
