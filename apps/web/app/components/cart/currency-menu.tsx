import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { CheckIcon } from './cart-icons.tsx';
import type { ShellCurrency } from './currencies.server.ts';
import { Flag } from './currency-flag.tsx';
import type { FirstUsePart } from '../ui/first-use.tsx';
import { FirstUseMenu } from '../ui/first-use-menu.tsx';
import { useT } from '../../lib/i18n.tsx';

function titleCase(s: string) {
  return s.replace(/\b\p{L}/gu, (c) => c.toUpperCase());
}

/**
 * The open currency menu of spec §2, loaded on first use by CurrencyMenu (cart-slots.tsx),
 * which owns the trigger's look and the open state.
 */
export function CurrencyMenuPopup({
  currencies,
  current,
  onChoose,
  ...part
}: FirstUsePart & {
  currencies: ShellCurrency[];
  current: string;
  onChoose(sourceId: string): void;
}) {
  const { t } = useT();
  return (
    <FirstUseMenu
      {...part}
      sideOffset={8}
      collisionPadding={12}
      className="z-40 w-64 rounded-[var(--radius-card)] border border-sand-200 bg-paper p-1.5 shadow-xl"
    >
      <DropdownMenu.Label className="px-2.5 pb-1 pt-1.5 text-xs font-semibold uppercase tracking-wider text-ink-muted">
        {t('Show prices in')}
      </DropdownMenu.Label>
      <DropdownMenu.RadioGroup value={current} onValueChange={onChoose}>
        {currencies.map((c) => (
          <DropdownMenu.RadioItem
            key={c.sourceId}
            value={c.sourceId}
            className="flex cursor-pointer select-none items-center gap-3 rounded-md px-2.5 py-2 text-sm outline-none data-[highlighted]:bg-sand-100 data-[state=checked]:font-semibold"
          >
            <Flag currency={c} />
            <span className="w-10">{c.sourceId}</span>
            <span className="flex-1 truncate text-ink-muted">{titleCase(c.sourceCountry)}</span>
            <DropdownMenu.ItemIndicator>
              <CheckIcon className="text-brand-700" />
            </DropdownMenu.ItemIndicator>
          </DropdownMenu.RadioItem>
        ))}
      </DropdownMenu.RadioGroup>
      <DropdownMenu.Separator className="my-1 h-px bg-sand-200" />
      <p className="px-2.5 py-1.5 text-xs text-ink-muted">{t('Orders are charged in taka (BDT).')}</p>
    </FirstUseMenu>
  );
}
