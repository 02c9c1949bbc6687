import { type KeyboardEvent, type PointerEvent, type ReactElement, useEffect, useState } from 'react';
import { handleChunkLoadError } from '../../lib/build-freshness.ts';
import { toast } from '../../lib/toast.ts';

// Menus, popovers and dialogs of the page shell load their code the first time they are
// used, not with every page (decision 0030): most visits never open the currency menu or
// the cart dropdown, and their library (focus management, positioning, dismissal) is a
// quarter of the first load. Until then each trigger is a plain button with the same look
// and the same ARIA as the real one; the real one replaces it, already open.
//
// A part is rendered (through React.lazy) only once its module has loaded, so a failed
// load never reaches an error boundary: the trigger stays, the shopper is told, and the
// next use tries again. After a deploy the page reloads into the new build instead
// (decision 0011), as a failed route chunk does.

// An English id: the Toaster shows it in the shopper's language.
export const PART_ERROR_MESSAGE = 'This could not be opened. Please check your connection and try again.';

/** Loads a part's module; false (after saying so, or reloading into a newer build) when it fails. */
export async function loadPart(load: () => Promise<unknown>): Promise<boolean> {
  try {
    await load();
    return true;
  } catch (error) {
    console.error('A part of the page failed to load', error);
    if (!(await handleChunkLoadError())) toast.error(PART_ERROR_MESSAGE);
    return false;
  }
}

/** What every menu or popover loaded on first use takes from its owner: the state and the trigger. */
export interface FirstUsePart {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The trigger's button, as the owner draws it (the part wraps it in its own trigger). */
  trigger: ReactElement;
}

export interface FirstUse {
  /** The real component's module has loaded: render it (inside Suspense, the plain trigger as fallback). */
  wanted: boolean;
  open: boolean;
  setOpen(open: boolean): void;
  /** Props for the plain trigger of a menu: opens on pointer-down, Enter, Space or ArrowDown, as a menu does. */
  menuTrigger: {
    'aria-haspopup': 'menu';
    'aria-expanded': false;
    'data-state': 'closed';
    onPointerDown(e: PointerEvent): void;
    onKeyDown(e: KeyboardEvent): void;
    onPointerEnter(): void;
    onFocus(): void;
  };
  /** Props for the plain trigger of a popover or dialog: opens on click. */
  popupTrigger: {
    'aria-haspopup': 'dialog';
    'aria-expanded': false;
    'data-state': 'closed';
    onClick(): void;
    onPointerEnter(): void;
    onFocus(): void;
  };
}

/**
 * Shows a part once `open` is first true, loading its module then (a dialog opened from
 * elsewhere); `onFailed` is called when the module cannot be loaded, to close it again.
 */
export function useLoadedWhenOpen(open: boolean, load: () => Promise<unknown>, onFailed: () => void): boolean {
  const [loaded, setLoaded] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: load and onFailed are read when it opens; they do not decide when.
  useEffect(() => {
    if (!open || loaded) return;
    let live = true;
    void loadPart(load).then((ok) => {
      if (!live) return;
      if (ok) setLoaded(true);
      else onFailed();
    });
    return () => {
      live = false;
    };
  }, [open, loaded]);
  return loaded;
}

/**
 * State for a part that loads on first use. `load` is the dynamic import of its module;
 * hovering or focusing the trigger starts it early, so that by the click it is usually there.
 */
export function useFirstUse(load: () => Promise<unknown>): FirstUse {
  const [wanted, setWanted] = useState(false);
  const [open, setOpen] = useState(false);
  const preload = () => void load().catch(() => {});
  const openNow = () => {
    if (wanted) return setOpen(true);
    void loadPart(load).then((ok) => {
      if (!ok) return;
      setWanted(true);
      setOpen(true);
    });
  };
  return {
    wanted,
    open,
    setOpen(next) {
      if (next) openNow();
      else setOpen(false);
    },
    menuTrigger: {
      'aria-haspopup': 'menu',
      'aria-expanded': false,
      'data-state': 'closed',
      onPointerDown(e) {
        if (e.button === 0 && !e.ctrlKey) {
          e.preventDefault();
          openNow();
        }
      },
      onKeyDown(e) {
        if (e.key === 'Enter' || e.key === ' ' || e.key === 'ArrowDown') {
          e.preventDefault();
          openNow();
        }
      },
      onPointerEnter: preload,
      onFocus: preload,
    },
    popupTrigger: {
      'aria-haspopup': 'dialog',
      'aria-expanded': false,
      'data-state': 'closed',
      onClick: openNow,
      onPointerEnter: preload,
      onFocus: preload,
    },
  };
}
