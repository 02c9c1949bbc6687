import { useEffect, useId, useRef, useState } from 'react';
import { cartActions } from '../../lib/cart-store.ts';
import { useT } from '../../lib/i18n.tsx';
import { toast } from '../../lib/toast.ts';
import { Button } from '../ui/button.tsx';

/**
 * spec §4: clear all, coupon included, and say so (the cart dropdown and the cart page).
 * Emptying a cart cannot be undone, so it takes a second, explicit step: "Clear All" asks
 * in place and puts the focus on the answer that keeps the items, so a stray Enter or a
 * double click never empties the cart. An inline step rather than a dialog: the dropdown is
 * itself a popover, and no dialog code has to load for it (docs/decisions/0030).
 */
export function ClearCartButton({ variant, onCleared }: { variant: 'secondary' | 'ghost'; onCleared?(): void }) {
  const { t } = useT();
  const [asking, setAsking] = useState(false);
  // After the shopper's answer the focus follows: to the safe answer when asking, back to the button after "keep".
  const answered = useRef(false);
  const keepRef = useRef<HTMLButtonElement>(null);
  const clearRef = useRef<HTMLButtonElement>(null);
  const questionId = useId();

  useEffect(() => {
    if (answered.current) (asking ? keepRef : clearRef).current?.focus();
  }, [asking]);

  const ask = (value: boolean) => {
    answered.current = true;
    setAsking(value);
  };

  if (!asking) {
    return (
      <Button ref={clearRef} variant={variant} size="sm" onClick={() => ask(true)} data-testid="clear-cart">
        {t('Clear All')}
      </Button>
    );
  }
  return (
    <div
      role="group"
      aria-labelledby={questionId}
      className="col-span-full flex flex-wrap items-center gap-2 rounded-lg border border-danger-600/40 bg-red-50 p-2"
      data-testid="clear-cart-confirm"
      onKeyDown={(e) => {
        // Escape answers "keep" on the cart page; in the dropdown it closes the dropdown as well.
        if (e.key === 'Escape') ask(false);
      }}
    >
      <p id={questionId} className="w-full text-sm font-semibold">
        {t('Remove every item from your cart?')}
      </p>
      <Button
        variant="danger"
        size="sm"
        onClick={() => {
          cartActions.clear();
          toast.success(t('Your cart is now empty'));
          onCleared?.();
        }}
      >
        {t('Yes, clear the cart')}
      </Button>
      <Button ref={keepRef} variant="secondary" size="sm" onClick={() => ask(false)}>
        {t('Keep the items')}
      </Button>
    </div>
  );
}
