import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, useRevalidator } from 'react-router';
import { session, useAuthView, useSessionUser } from '../../lib/session-store.ts';
import { toast } from '../../lib/toast.ts';
import { IconButton } from '../ui/button.tsx';
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
  // Marks the buttons once React is in charge of them (tests wait for it before clicking).
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  const signOut = async () => {
    await session.signOut();
    toast.success('You have signed out');
    // Pages that show the customer's data (the profile) load again and show a guest's view.
    revalidator.revalidate();
  };

  return (
    <>
      <SessionSync serverUser={serverUser} />
      {user ? (
        <DropdownMenu.Root modal={false}>
          <DropdownMenu.Trigger asChild>
            <button
              type="button"
              aria-label={`Account menu for ${user.name}`}
              title={user.name}
              className="inline-flex h-11 w-11 items-center justify-center rounded-full hover:bg-sand-100 data-[state=open]:bg-sand-100"
              data-testid="account-menu-button"
              data-hydrated={hydrated || undefined}
            >
              <Avatar user={user} size={30} />
            </button>
          </DropdownMenu.Trigger>
          <DropdownMenu.Portal>
            <DropdownMenu.Content
              align="end"
              sideOffset={6}
              className="z-50 min-w-56 rounded-[var(--radius-card)] border border-sand-200 bg-paper p-1.5 shadow-[var(--shadow-card)]"
            >
              <DropdownMenu.Label className="flex items-center gap-3 px-2.5 py-2">
                <Avatar user={user} size={36} />
                <span className="min-w-0">
                  <span className="block truncate text-sm font-semibold">{user.name}</span>
                  <span className="block text-xs text-ink-muted">Signed in</span>
                </span>
              </DropdownMenu.Label>
              <DropdownMenu.Separator className="my-1 h-px bg-sand-200" />
              <DropdownMenu.Item asChild>
                <Link to="/profile" className="flex h-10 items-center gap-2 rounded-md px-2.5 text-sm font-medium outline-none data-[highlighted]:bg-sand-100">
                  <UserIcon width={18} height={18} /> Profile
                </Link>
              </DropdownMenu.Item>
              <DropdownMenu.Item asChild>
                <Link
                  to="/profile?tab=wishlist"
                  className="flex h-10 items-center gap-2 rounded-md px-2.5 text-sm font-medium outline-none data-[highlighted]:bg-sand-100"
                >
                  <HeartIcon width={18} height={18} /> Wishlist
                </Link>
              </DropdownMenu.Item>
              <DropdownMenu.Separator className="my-1 h-px bg-sand-200" />
              <DropdownMenu.Item
                onSelect={() => void signOut()}
                className="flex h-10 cursor-pointer items-center gap-2 rounded-md px-2.5 text-sm font-medium text-danger-600 outline-none data-[highlighted]:bg-sand-100"
              >
                Sign Out
              </DropdownMenu.Item>
            </DropdownMenu.Content>
          </DropdownMenu.Portal>
        </DropdownMenu.Root>
      ) : (
        <IconButton label="Sign in" onClick={() => session.openAuth('sign-in')} data-testid="account-button" data-hydrated={hydrated || undefined}>
          <UserIcon />
        </IconButton>
      )}
      <AuthDialogWhenOpened />
    </>
  );
}

/** Wishlist heart with its count badge (spec §2), only when signed in. */
export function WishlistButton({ user: serverUser }: { user: ShellUser | null }) {
  const user = useSessionUser(serverUser);
  if (!user) return null;
  const count = user.wishlistCount;
  return (
    <Link
      to="/profile?tab=wishlist"
      aria-label={`Wishlist, ${count} ${count === 1 ? 'item' : 'items'}`}
      title="Wishlist"
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
          {count > 99 ? '99+' : count}
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
  const [opened, setOpened] = useState(false);
  // Once loaded it stays mounted, so Radix can animate it closed and return focus.
  if (view !== null && !opened) setOpened(true);
  if (!opened && view === null) return null;
  return (
    <Suspense fallback={null}>
      <AuthDialog />
    </Suspense>
  );
}
