import { cartActions } from '../../lib/cart-store.ts';
import { toast } from '../../lib/toast.ts';
import { Button } from '../ui/button.tsx';

/** spec §4: clear all, coupon included, and say so (the cart dropdown and the cart page). */
export function ClearCartButton({ variant }: { variant: 'secondary' | 'ghost' }) {
  return (
    <Button
      variant={variant}
      size="sm"
      onClick={() => {
        cartActions.clear();
        toast.success('Your cart is now empty');
      }}
    >
      Clear All
    </Button>
  );
}
