import { useEffect, useState } from 'react';
import { useNavigation } from 'react-router';
import { useT } from '../../lib/i18n.tsx';

/** Navigations that finish sooner than this show nothing, so a fast page does not flash a bar. */
export const NAVIGATION_PROGRESS_DELAY_MS = 150;

/**
 * A thin bar along the top of the window while the next page's data loads, so a click on a
 * slow connection visibly did something. It appears only after a short delay, is named for
 * assistive technology (and says "Loading…" in a polite live region), and stands still for
 * shoppers who ask for reduced motion (app.css, .nav-progress).
 */
export function NavigationProgress() {
  const loading = useNavigation().state === 'loading';
  const [shown, setShown] = useState(false);
  const { t } = useT();

  useEffect(() => {
    if (!loading) {
      setShown(false);
      return;
    }
    const timer = setTimeout(() => setShown(true), NAVIGATION_PROGRESS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [loading]);

  return (
    <>
      {shown && (
        <div
          role="progressbar"
          aria-label={t('Loading page')}
          aria-valuetext={t('Loading…')}
          className="nav-progress pointer-events-none fixed inset-x-0 top-0 z-[60] h-[3px] overflow-hidden bg-brand-100"
          data-testid="navigation-progress"
        >
          <div className="nav-progress-bar h-full w-full origin-left bg-brand-700" />
        </div>
      )}
      {/* Always in the page, so that the text appearing in it is announced. A live region
          without the status role: the page's own status messages stay the only ones. */}
      <div className="sr-only" aria-live="polite" data-testid="navigation-announce">
        {shown ? t('Loading…') : ''}
      </div>
    </>
  );
}
