import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Link } from 'react-router';
import { useT } from '../../lib/i18n.tsx';
import type { FirstUsePart } from '../ui/first-use.tsx';
import { FirstUseMenu } from '../ui/first-use-menu.tsx';
import { HeartIcon, PackageIcon, UserIcon } from '../ui/icons.tsx';
import { Avatar } from './account-slots.tsx';
import type { ShellUser } from './session.server.ts';

/**
 * The open account menu of spec §2 (Profile, My Orders, Wishlist, Sign Out), loaded on first
 * use by AccountButton (account-slots.tsx), which owns the trigger's look and the open state.
 * My Orders is here because this menu is where a signed-in shopper looks for what is theirs;
 * /orders (spec §2) had no other way in from the shop.
 */
export function AccountMenuPopup({
  user,
  onSignOut,
  ...part
}: FirstUsePart & {
  user: Pick<ShellUser, 'name' | 'imageUrl'>;
  onSignOut(): void;
}) {
  const { t } = useT();
  return (
    <FirstUseMenu
      {...part}
      sideOffset={6}
      className="z-50 min-w-56 rounded-[var(--radius-card)] border border-sand-200 bg-paper p-1.5 shadow-[var(--shadow-card)]"
    >
      <DropdownMenu.Label className="flex items-center gap-3 px-2.5 py-2">
        <Avatar user={user} size={36} />
        <span className="min-w-0">
          <span className="block truncate text-sm font-semibold">{user.name}</span>
          <span className="block text-xs text-ink-muted">{t('Signed in')}</span>
        </span>
      </DropdownMenu.Label>
      <DropdownMenu.Separator className="my-1 h-px bg-sand-200" />
      <DropdownMenu.Item asChild>
        <Link to="/profile" className="flex h-10 items-center gap-2 rounded-md px-2.5 text-sm font-medium outline-none data-[highlighted]:bg-sand-100">
          <UserIcon width={18} height={18} /> {t('Profile')}
        </Link>
      </DropdownMenu.Item>
      <DropdownMenu.Item asChild>
        <Link to="/orders" className="flex h-10 items-center gap-2 rounded-md px-2.5 text-sm font-medium outline-none data-[highlighted]:bg-sand-100">
          <PackageIcon width={18} height={18} /> {t('My Orders')}
        </Link>
      </DropdownMenu.Item>
      <DropdownMenu.Item asChild>
        <Link
          to="/profile?tab=wishlist"
          className="flex h-10 items-center gap-2 rounded-md px-2.5 text-sm font-medium outline-none data-[highlighted]:bg-sand-100"
        >
          <HeartIcon width={18} height={18} /> {t('Wishlist')}
        </Link>
      </DropdownMenu.Item>
      <DropdownMenu.Separator className="my-1 h-px bg-sand-200" />
      <DropdownMenu.Item
        onSelect={onSignOut}
        className="flex h-10 cursor-pointer items-center gap-2 rounded-md px-2.5 text-sm font-medium text-danger-600 outline-none data-[highlighted]:bg-sand-100"
      >
        {t('Sign Out')}
      </DropdownMenu.Item>
    </FirstUseMenu>
  );
}
