import { TOAST } from '@storefront/shared';

// The shop's toasts (spec §3 notification options, §4, §9). A tiny store outside React so
// that any code (event handlers, loaders' callers, non-React helpers) can raise a toast;
// <Toaster/> in root.tsx renders them.
//
// Two sets of defaults, as the spec gives them:
// - the shop's own toasts (toast.success / toast.error): 2000 ms, bottom right, not
//   dismissible;
// - the general toolkit (toast.show): 5000 ms and dismissible by clicking.

export type ToastType = 'success' | 'error';
export type ToastPosition = 'top-left' | 'top-center' | 'top-right' | 'bottom-left' | 'bottom-center' | 'bottom-right';

export interface ToastOptions {
  duration?: number;
  position?: ToastPosition;
  /** A brief pulse when the toast appears, to draw the eye. */
  ripple?: boolean;
  dismissible?: boolean;
}

export interface ToastItem {
  id: number;
  type: ToastType;
  /**
   * An English message id (a validation or API message, docs/decisions/0038) or a text its
   * caller already translated: <Toaster/> shows it through t(), which leaves the latter as it is.
   */
  message: string;
  duration: number;
  position: ToastPosition;
  ripple: boolean;
  dismissible: boolean;
}

type Listener = (toasts: readonly ToastItem[]) => void;

let toasts: readonly ToastItem[] = [];
let nextId = 1;
const listeners = new Set<Listener>();
const timers = new Map<number, ReturnType<typeof setTimeout>>();
const EMPTY: readonly ToastItem[] = [];

function emit() {
  for (const l of listeners) l(toasts);
}

function add(item: Omit<ToastItem, 'id'>): number {
  const id = nextId++;
  toasts = [...toasts, { ...item, id }];
  emit();
  // A duration of 0 or less keeps the toast until it is dismissed.
  if (item.duration > 0 && typeof window !== 'undefined') {
    timers.set(
      id,
      setTimeout(() => dismiss(id), item.duration),
    );
  }
  return id;
}

export function dismiss(id: number) {
  const t = timers.get(id);
  if (t) clearTimeout(t);
  timers.delete(id);
  if (!toasts.some((x) => x.id === id)) return;
  toasts = toasts.filter((x) => x.id !== id);
  emit();
}

function shop(type: ToastType, message: string, options: ToastOptions = {}) {
  return add({
    type,
    message,
    duration: options.duration ?? TOAST.shopDurationMs,
    position: options.position ?? 'bottom-right',
    ripple: options.ripple ?? false,
    dismissible: options.dismissible ?? false,
  });
}

export const toast = {
  /** The shop's success toast: green, bottom right, 2000 ms, not dismissible. */
  success(message: string, options?: ToastOptions) {
    return shop('success', message, options);
  },
  /** The shop's error toast: red, bottom right, 2000 ms, not dismissible. */
  error(message: string, options?: ToastOptions) {
    return shop('error', message, options);
  },
  /** The general toolkit: 5000 ms and dismissible unless told otherwise. */
  show(options: ToastOptions & { type: ToastType; message: string }) {
    return add({
      type: options.type,
      message: options.message,
      duration: options.duration ?? TOAST.defaultDurationMs,
      position: options.position ?? 'bottom-right',
      ripple: options.ripple ?? false,
      dismissible: options.dismissible ?? true,
    });
  },
  dismiss,
};

export function subscribeToasts(listener: Listener) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function getToasts() {
  return toasts;
}

/** The server never has toasts; a constant keeps hydration stable. */
export function getServerToasts() {
  return EMPTY;
}
