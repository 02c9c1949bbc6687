import { useT } from '../../lib/i18n.tsx';

/**
 * What /cart and /checkout show until the cart is read from this browser's storage (the
 * server cannot know it). It holds a screen's height, so the footer is out of sight while
 * the cart loads and nothing visible jumps when the cart appears.
 */
export function CartLoading() {
  const { t } = useT();
  return (
    <p className="min-h-[100svh] py-16 text-center text-ink-muted" aria-busy="true">
      {t('Loading your cart…')}
    </p>
  );
}
