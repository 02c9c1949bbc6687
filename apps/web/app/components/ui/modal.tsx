import * as Dialog from '@radix-ui/react-dialog';
import { type ReactNode, useRef } from 'react';
import { useT } from '../../lib/i18n.tsx';
import { CloseIcon } from './icons.tsx';

/**
 * A centred modal on Radix Dialog: focus trapped and returned, Escape and the overlay
 * close it, the page behind is inert and its scrolling locked while shown (spec §2,
 * "modals lock body scrolling"), and given back on close.
 *
 * Width: the screen less a margin on phones; at most 60 % of the screen from 1024 px
 * (spec §9, the pop-up and contact modal maximum width).
 */
export function Modal({
  open,
  onOpenChange,
  title,
  hideTitle = false,
  description,
  children,
  className = '',
  bodyClassName = 'p-5 md:p-6',
  testId,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** Omit it to place a <ModalTitle> of your own inside the body. */
  title?: ReactNode;
  /** Keep the title for screen readers only (an image pop-up carries its own heading). */
  hideTitle?: boolean;
  description?: ReactNode;
  children: ReactNode;
  className?: string;
  bodyClassName?: string;
  testId?: string;
}) {
  // Radix gives focus back to a Dialog.Trigger, but these modals have none: a control outside
  // the lazily loaded dialog module opens them (the footer's support email, a page's button),
  // or the page itself (the home pop-ups). So focus goes back to what had it when the modal
  // opened, if that is still in the page (as the sign-in dialog does with its opener).
  const returnTo = useRef<HTMLElement | null>(null);
  const { t } = useT();
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="modal-overlay fixed inset-0 z-40 bg-ink/50" />
        <Dialog.Content
          data-testid={testId}
          onOpenAutoFocus={() => {
            const active = document.activeElement;
            returnTo.current = active instanceof HTMLElement && active !== document.body ? active : null;
          }}
          onCloseAutoFocus={(e) => {
            const to = returnTo.current;
            returnTo.current = null;
            if (!to?.isConnected) return;
            e.preventDefault();
            to.focus();
          }}
          {...(description || title === undefined ? {} : { 'aria-describedby': undefined })}
          className={`modal-content fixed left-1/2 top-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 flex-col overflow-hidden rounded-[var(--radius-card)] bg-paper shadow-2xl focus:outline-none lg:max-w-[60%] ${className}`}
        >
          {title !== undefined && (
            <div className={hideTitle ? 'sr-only' : 'border-b border-sand-200 py-4 pl-5 pr-14 md:pl-6'}>
              <Dialog.Title className="text-xl font-semibold tracking-tight">{title}</Dialog.Title>
              {description && <Dialog.Description className="sr-only">{description}</Dialog.Description>}
            </div>
          )}
          <Dialog.Close
            aria-label={t('Close')}
            className={`absolute right-2 top-2 z-10 inline-flex h-11 w-11 items-center justify-center rounded-full ${hideTitle || title === undefined ? 'bg-paper/90 shadow-md hover:bg-paper' : 'hover:bg-sand-100'}`}
          >
            <CloseIcon />
          </Dialog.Close>
          <div className={`min-h-0 flex-1 overflow-y-auto ${bodyClassName}`}>{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The modal's accessible name, when the body places its own heading. */
export const ModalTitle = Dialog.Title;
export const ModalDescription = Dialog.Description;
