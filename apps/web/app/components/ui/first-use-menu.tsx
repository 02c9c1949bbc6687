import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import type { ComponentProps } from 'react';
import type { FirstUsePart } from './first-use.tsx';

/**
 * The menu of a header control loaded on first use (first-use.tsx): Radix's menu around the
 * owner's trigger, open as the owner says, its content beside the trigger's end. Only the
 * parts that load on first use import it, so the menu library stays out of the first load.
 */
export function FirstUseMenu({ open, onOpenChange, trigger, children, ...content }: FirstUsePart & ComponentProps<typeof DropdownMenu.Content>) {
  return (
    <DropdownMenu.Root modal={false} open={open} onOpenChange={onOpenChange}>
      <DropdownMenu.Trigger asChild>{trigger}</DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" {...content}>
          {children}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
