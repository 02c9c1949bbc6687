import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, useRevalidator } from 'react-router';
import { useT } from '../../lib/i18n.tsx';
import { session, useAuthView, useSessionUser } from '../../lib/session-store.ts';
import { toast } from '../../lib/toast.ts';
import { IconButton } from '../ui/button.tsx';
import { useFirstUse, useLoadedWhenOpen } from '../ui/first-use.tsx';
import { HeartIcon, UserIcon } from '../ui/icons.tsx';
import type { ShellUser } from './session.server.ts';

/** Initials for an avatar without a picture: "Rahim Uddin" → "RU". */
export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '') + (parts.length > 1 ? parts[parts.length - 1][0] : '')).toUpperCase() || '?';
}

export function Avatar({ user, size = 32 }: { user: Pick<ShellUser, 'name' | 'imageUrl'>; size?: number }) {
  if (user.imageUrl) {
    return <img src={user.imageUrl} alt="" width={size} height={size} className="rounded-full object-cover" style={{ width: size, height: size }} />;
  }
  return (
    <span
      aria-hidden="true"
      className="inline-flex items-center justify-center rounded-full bg-brand-700 font-semibold text-white"
      style={{ width: size, height: size, fontSize: Math.round(size * 0.4) }}
    >
      {initials(user.name)}
    </span>
  );
}

/**
 * Keeps the browser's session view in step with the server: when the root loader answers
 * again (after a sign-in or sign-out revalidation) its user is the truth; a sign-out that
 * could not reach the server last time is finished now.
 */
function SessionSync({ serverUser }: { serverUser: ShellUser | null }) {
  const first = useRef(true);
  const revalidator = useRevalidator();
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the server's user changes; the value itself is read from the session store.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    session.acceptServerUser();
  }, [serverUser]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once on mount: the revalidator's identity changes every render.
  useEffect(() => {
    void session.retryPendingSignOut().then((done) => {
      if (done) void revalidator.revalidate();
    });
    // Once per page load.
  }, []);
  return null;
}

/**
 * The account icon (spec §2): a guest gets the sign-in modal, a signed-in customer the
 * account dropdown (Profile, Sign Out). Also hosts the sign-in/sign-up dialog, which
 * other parts of the page (the wishlist hearts) open through the session store.
 */
export function AccountButton({ user: serverUser }: { user: ShellUser | null }) {
  const user = useSessionUser(serverUser);
  const revalidator = useRevalidator();
  const { t } = useT();
  // Marks the buttons once React is in charge of them (tests wait for it before clicking).
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  const signOut = async () => {
    await session.signOut();
    toast.success(t('You have signed out'));
    // Pages that show the customer's data (the profile) load again and show a guest's view.
    revalidator.revalidate();
  };

  return (
    <>
      <SessionSync serverUser={serverUser} />
      {user ? (
        <AccountMenu user={user} hydrated={hydrated} onSignOut={() => void signOut()} />
      ) : (
        <IconButton label={t('Sign in')} onClick={() => session.openAuth('sign-in')} data-testid="account-button" data-hydrated={hydrated || undefined}>
          <UserIcon />
        </IconButton>
      )}
      <AuthDialogWhenOpened />
    </>
  );
}

// The account menu loads on first use (components/ui/first-use.tsx).
const loadAccountMenu = () => import('./account-menu.tsx');
const AccountMenuPopup = lazy(() => loadAccountMenu().then((m) => ({ default: m.AccountMenuPopup })));

function AccountMenu({ user, hydrated, onSignOut }: { user: ShellUser; hydrated: boolean; onSignOut(): void }) {
  const use = useFirstUse(loadAccountMenu);
  const { t } = useT();
  const trigger = (extra: object) => (
    <button
      type="button"
      aria-label={t('Account menu for {name}', { name: user.name })}
      title={user.name}
      className="inline-flex h-11 w-11 items-center justify-center rounded-full hover:bg-sand-100 data-[state=open]:bg-sand-100"
      data-testid="account-menu-button"
      data-hydrated={hydrated || undefined}
      {...extra}
    >
      <Avatar user={user} size={30} />
    </button>
  );
  const plain = trigger(use.menuTrigger);
  if (!use.wanted) return plain;
  return (
    <Suspense fallback={plain}>
      <AccountMenuPopup open={use.open} onOpenChange={use.setOpen} trigger={trigger({})} user={user} onSignOut={onSignOut} />
    </Suspense>
  );
}

/** Wishlist heart with its count badge (spec §2), only when signed in. */
export function WishlistButton({ user: serverUser }: { user: ShellUser | null }) {
  const user = useSessionUser(serverUser);
  const { t, n } = useT();
  if (!user) return null;
  const count = user.wishlistCount;
  return (
    <Link
      to="/profile?tab=wishlist"
      aria-label={t('Wishlist, {count, plural, one {# item} other {# items}}', { count })}
      title={t('Wishlist')}
      className="relative inline-flex h-11 w-11 items-center justify-center rounded-full text-ink hover:bg-sand-100"
      data-testid="wishlist-button"
    >
      <HeartIcon />
      {count > 0 && (
        <span
          aria-hidden="true"
          className="absolute right-0.5 top-0.5 inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-accent-600 px-1 text-[0.7rem] font-bold leading-none text-white"
          data-testid="wishlist-count"
        >
          {count > 99 ? `${n(99)}+` : n(count)}
        </span>
      )}
    </Link>
  );
}

// The sign-in and sign-up forms (and their validation) load the first time the dialog
// opens, not with every page: most visits never open it.
const loadAuthDialog = () => import('./auth-dialog.tsx');
const AuthDialog = lazy(() => loadAuthDialog().then((m) => ({ default: m.AuthDialog })));

function AuthDialogWhenOpened() {
  const view = useAuthView();
  // Once loaded it stays mounted, so Radix can animate it closed and return focus.
  const loaded = useLoadedWhenOpen(view !== null, loadAuthDialog, () => session.closeAuth());
  if (!loaded) return null;
  return (
    <Suspense fallback={null}>
      <AuthDialog />
    </Suspense>
  );
}
