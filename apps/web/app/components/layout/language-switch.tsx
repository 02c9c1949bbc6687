import { LOCALE_NAMES, type Locale } from '@storefront/shared';
import { useLocation } from 'react-router';
import { addressIn, useT } from '../../lib/i18n.tsx';

/**
 * The link to this page in the other language (docs/decisions/0038). A full page load with
 * `?lang=`: the server answers in that language and remembers it in a cookie. Each name is
 * written in its own language, so a shopper who cannot read the page can still find theirs.
 */
export function LanguageSwitch({ className = '' }: { className?: string }) {
  const { lang, t } = useT();
  const location = useLocation();
  const other: Locale = lang === 'bn' ? 'en' : 'bn';
  return (
    <a
      href={addressIn(other, location.pathname, location.search)}
      hrefLang={other}
      lang={other}
      className={`inline-flex items-center rounded-sm font-medium hover:underline ${className}`}
      aria-label={t('Language: {current}. Show this page in {other}', { current: LOCALE_NAMES[lang], other: LOCALE_NAMES[other] })}
      data-testid="language-switch"
    >
      {LOCALE_NAMES[other]}
    </a>
  );
}
