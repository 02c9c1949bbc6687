import { DEFAULT_LOCALE, parseLocale } from '@storefront/shared';
import { StrictMode, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import en from 'virtual:i18n/en';
import { registerCatalog } from './lib/i18n.tsx';

// The page's language is in <html lang> (root.tsx). Its catalogue must be in place before
// hydration, or the first client render would differ from the server's. English is small
// (only its ids with values or plurals) and comes with this module; Bangla is its own chunk,
// loaded only by Bangla pages (docs/decisions/0038).
async function hydrate() {
  registerCatalog('en', en);
  const locale = parseLocale(document.documentElement.lang) ?? DEFAULT_LOCALE;
  if (locale === 'bn') registerCatalog('bn', (await import('virtual:i18n/bn')).default);
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
}

void hydrate();
