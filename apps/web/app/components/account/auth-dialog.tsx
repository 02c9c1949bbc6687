import * as Dialog from '@radix-ui/react-dialog';
import { useNavigate } from 'react-router';
import { useT } from '../../lib/i18n.tsx';
import { session, useAuthView } from '../../lib/session-store.ts';
import { CloseIcon } from '../ui/icons.tsx';
import { SignInForm } from './sign-in-form.tsx';
import { SignUpForm } from './sign-up-form.tsx';

/**
 * The sign-in and sign-up modals (spec §2): one Radix dialog whose body switches between
 * the two forms, so they open from each other without stacking. Radix traps focus,
 * closes on Escape and the overlay, hides the page from screen readers and locks body
 * scrolling while it is shown.
 */
export function AuthDialog() {
  const view = useAuthView();
  const navigate = useNavigate();
  const { t } = useT();
  const title = view === 'sign-up' ? t('Create Your Account') : t('Sign In');
  return (
    <Dialog.Root open={view !== null} onOpenChange={(open) => !open && session.closeAuth()}>
      <Dialog.Portal>
        <Dialog.Overlay className="modal-overlay fixed inset-0 z-40 bg-ink/50" />
        <Dialog.Content
          // Opened from outside a Dialog.Trigger (the account icon, a heart, a page), so
          // Radix does not know where focus came from: give it back to the opener.
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            session.takeOpener()?.focus();
          }}
          data-testid={view === 'sign-up' ? 'sign-up-modal' : 'sign-in-modal'}
          className="modal-content fixed left-1/2 top-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 flex-col overflow-hidden rounded-[var(--radius-card)] bg-paper shadow-2xl focus:outline-none"
        >
          <div className="border-b border-sand-200 py-4 pl-5 pr-14 md:pl-6">
            <Dialog.Title className="text-xl font-semibold tracking-tight">{title}</Dialog.Title>
            <Dialog.Description className="mt-0.5 text-sm text-ink-muted">
              {view === 'sign-up'
                ? t('Save your wishlist and addresses, and follow your orders.')
                : t('Welcome back. Sign in with your email or mobile number.')}
            </Dialog.Description>
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto p-5 md:p-6">
            {view === 'sign-up' ? (
              <SignUpForm key="sign-up" onSwitch={() => session.openAuth('sign-in')} />
            ) : (
              <SignInForm
                key="sign-in"
                onSwitch={() => session.openAuth('sign-up')}
                onForgot={() => {
                  session.closeAuth();
                  navigate('/forgot-password');
                }}
              />
            )}
          </div>
          {/* Last in the DOM so that opening the dialog focuses the first field, not the close button. */}
          <Dialog.Close
            aria-label={t('Close')}
            className="absolute right-2 top-2 inline-flex h-11 w-11 items-center justify-center rounded-full hover:bg-sand-100"
          >
            <CloseIcon />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
