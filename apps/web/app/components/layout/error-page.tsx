import { ERROR_PAGE_DEFAULTS } from '@storefront/shared';
import { useT } from '../../lib/i18n.tsx';
import { ButtonLink } from '../ui/button.tsx';

/**
 * spec §2: error pages show a status code, a status message and a description.
 * The 404 page is used for status 404, the 500 page for anything else. The messages are
 * English ids (ERROR_PAGE_DEFAULTS, an API's or a loader's message), shown through t().
 */
export function ErrorPage({ status, statusMessage, description }: { status: number; statusMessage?: string; description?: string }) {
  const { t, n } = useT();
  const is404 = status === 404;
  const message = statusMessage ?? (is404 ? ERROR_PAGE_DEFAULTS[404].statusMessage : ERROR_PAGE_DEFAULTS[500].statusMessage);
  return (
    <section className="container-page flex min-h-[50vh] flex-col items-center justify-center py-16 text-center" aria-labelledby="error-title">
      <p className="text-6xl font-bold tracking-tight text-brand-700" data-testid="error-status">
        {n(is404 ? 404 : status || 500)}
      </p>
      <h1 id="error-title" className="mt-3 text-2xl font-semibold">
        {t(message)}
      </h1>
      <p className="mt-3 max-w-xl break-words text-ink-muted" data-testid="error-description">
        {description ?? (is404 ? t('The page you are looking for does not exist.') : t('Something went wrong on our side. Please try again in a moment.'))}
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <ButtonLink to="/">{t('Back to home')}</ButtonLink>
        <ButtonLink to="/shop" variant="secondary">
          {t('Browse the shop')}
        </ButtonLink>
      </div>
    </section>
  );
}
