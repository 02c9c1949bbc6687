import { useSyncExternalStore } from 'react';
import { useT } from '../../lib/i18n.tsx';
import { dismiss, getServerToasts, getToasts, subscribeToasts, type ToastItem, type ToastPosition } from '../../lib/toast.ts';

const POSITIONS: Record<ToastPosition, string> = {
  'top-left': 'top-4 left-4 items-start',
  'top-center': 'top-4 left-1/2 -translate-x-1/2 items-center',
  'top-right': 'top-4 right-4 items-end',
  'bottom-left': 'bottom-4 left-4 items-start flex-col-reverse',
  'bottom-center': 'bottom-4 left-1/2 -translate-x-1/2 items-center flex-col-reverse',
  'bottom-right': 'bottom-4 right-4 items-end flex-col-reverse',
};

// White on these two is 5.1:1 (success-600) and 6.6:1 (danger-600): both pass WCAG AA.
const TYPES = {
  success: 'bg-success-600 text-white',
  error: 'bg-danger-600 text-white',
} as const;

/**
 * Renders the toasts raised through lib/toast.ts. Rendered once, in root.tsx. The
 * regions are in the page from the first paint, so screen readers announce what is added
 * to them later (a live region created together with its text is often not announced).
 */
export function Toaster() {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, getServerToasts);
  const { t } = useT();
  return (
    <>
      {(Object.keys(POSITIONS) as ToastPosition[]).map((position) => (
        <ol
          key={position}
          aria-live="polite"
          aria-label={position === 'bottom-right' ? t('Notifications') : t('Notifications ({position})', { position: t(POSITION_NAMES[position]) })}
          data-toast-region={position}
          className={`pointer-events-none fixed z-[60] flex max-w-[calc(100vw-2rem)] flex-col gap-2 ${POSITIONS[position]}`}
        >
          {toasts
            .filter((t) => t.position === position)
            .map((t) => (
              <ToastView key={t.id} toast={t} />
            ))}
        </ol>
      ))}
    </>
  );
}

/** The regions' names, for the screen reader's list of landmarks (message ids). */
const POSITION_NAMES: Record<ToastPosition, string> = {
  'top-left': 'top left',
  'top-center': 'top centre',
  'top-right': 'top right',
  'bottom-left': 'bottom left',
  'bottom-center': 'bottom centre',
  'bottom-right': 'bottom right',
};

function ToastView({ toast }: { toast: ToastItem }) {
  // A toast's message is an English id (a validation or API message) or a text already
  // translated by its caller; t() leaves the latter as it is (lib/toast.ts).
  const { t } = useT();
  const message = t(toast.message);
  const body = (
    <>
      <span aria-hidden="true" className="text-lg leading-none">
        {toast.type === 'success' ? '✓' : '!'}
      </span>
      <span>{message}</span>
    </>
  );
  const cls = `pointer-events-auto flex min-h-11 w-[min(22rem,calc(100vw-2rem))] items-center gap-3 rounded-lg px-4 py-3 text-left text-sm font-medium shadow-lg ${TYPES[toast.type]} ${toast.ripple ? 'toast-ripple' : ''}`;
  return (
    // An error interrupts (role alert); a success waits its turn (role status).
    <li role={toast.type === 'error' ? 'alert' : 'status'} data-toast={toast.type} className="toast-enter">
      {toast.dismissible ? (
        <button type="button" className={`${cls} cursor-pointer`} onClick={() => dismiss(toast.id)} aria-label={t('{message} (dismiss)', { message })}>
          {body}
        </button>
      ) : (
        <div className={cls}>{body}</div>
      )}
    </li>
  );
}
