import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { useT } from '../../lib/i18n.tsx';
import { CloseIcon } from './icons.tsx';

/**
 * A panel that slides in from the side (the mobile menu). Radix Dialog gives it focus
 * trapping, Escape to close, scroll locking and the right roles.
 */
export function Sheet({
  open,
  onOpenChange,
  title,
  side = 'left',
  children,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  side?: 'left' | 'right';
  children: ReactNode;
}) {
  const { t } = useT();
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-ink/40" />
        <Dialog.Content
          aria-describedby={undefined}
          className={`fixed inset-y-0 z-50 flex w-[min(22rem,88vw)] flex-col bg-paper shadow-xl ${side === 'left' ? 'left-0' : 'right-0'}`}
        >
          <div className="flex h-16 items-center justify-between border-b border-sand-200 px-4">
            <Dialog.Title className="text-lg font-semibold">{title}</Dialog.Title>
            <Dialog.Close className="inline-flex h-11 w-11 items-center justify-center rounded-full hover:bg-sand-100" aria-label={t('Close')}>
              <CloseIcon />
            </Dialog.Close>
          </div>
          <div className="flex-1 overflow-y-auto p-4">{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
