import { DEFAULT_LOCALE, ERROR_PAGE_DEFAULTS, LANG_PARAM, LOCALES, type Locale } from '@storefront/shared';
import type { ReactNode } from 'react';
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  type ShouldRevalidateFunctionArgs,
  useLocation,
  useRouteLoaderData,
} from 'react-router';
import type { Route } from './+types/root';
import stylesheet from './app.css?url';
import { ErrorPage } from './components/layout/error-page.tsx';
import { SiteFooter } from './components/layout/site-footer.tsx';
import { SiteHeader } from './components/layout/site-header.tsx';
import { NavigationProgress } from './components/ui/navigation-progress.tsx';
import { Toaster } from './components/ui/toaster.tsx';
import { HomePopups } from './components/home/home-popups.tsx';
import { useBuildFreshness } from './lib/build-freshness.ts';
import { loadSession } from './components/account/session.server.ts';
import { loadCurrencies, loadPricing } from './components/cart/currencies.server.ts';
import { loadCategoryMenu } from './components/catalogue/category-menu.server.ts';
import { configureApi } from './lib/api-client.ts';
import { PricingProvider } from './lib/currency.tsx';
import { BENGALI_FONT_URL, earlyFontScript } from './lib/fonts.ts';
import { addressIn, LanguageProvider, metaT, useT } from './lib/i18n.tsx';
import { useNonce } from './lib/nonce.ts';
import type { SiteSettings } from './lib/site.ts';

export async function loader({ context, request }: Route.LoaderArgs) {
  // The back office (routes/admin) shows none of the shop's header and footer (admin.css
  // takes them away), so it needs none of their data. Decided here, on the server only, so
  // that a shopper's page loads not a byte more for it.
  if (/^\/admin(\/|$)/.test(new URL(request.url).pathname)) {
    return {
      settings: {} as SiteSettings,
      categories: [],
      user: null,
      currencies: [],
      pricing: null,
      apiKey: context.apiKey,
      publicUrl: context.publicUrl,
      // The back office is in English whatever the shop's language (docs/decisions/0038).
      lang: 'en' as const,
    };
  }
  // What every page's header and footer need, fetched side by side.
  const [settings, categories, user, currencies, pricing] = await Promise.all([
    context.reads.siteSettings() as Promise<SiteSettings>,
    loadCategoryMenu(context),
    loadSession(context),
    loadCurrencies(context),
    loadPricing(context, request),
  ]);
  return { settings, categories, user, currencies, pricing, apiKey: context.apiKey, publicUrl: context.publicUrl, lang: context.lang };
}

// Site settings change rarely; navigations inside the app need not fetch them again. An
// explicit revalidation (useRevalidator, as after sign-in, sign-out or a profile change:
// same URL, no form) does run, so the header and everything that depends on the
// signed-in customer change at once.
export function shouldRevalidate({ currentUrl, nextUrl, formMethod }: ShouldRevalidateFunctionArgs) {
  return !formMethod && currentUrl.href === nextUrl.href;
}

export const links: Route.LinksFunction = () => [{ rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' }];

/**
 * The page in each language, for search engines (hreflang, docs/decisions/0038): English at
 * the plain address, Bangla with `?lang=bn`. The plain address is also the default.
 */
function LanguageAlternates({ publicUrl }: { publicUrl: string }) {
  const location = useLocation();
  if (/^\/admin(\/|$)/.test(location.pathname)) return null;
  const params = new URLSearchParams(location.search);
  params.delete(LANG_PARAM);
  const rest = params.toString();
  const plain = `${publicUrl}${location.pathname}${rest ? `?${rest}` : ''}`;
  return (
    <>
      {LOCALES.map((locale) => (
        <link
          key={locale}
          rel="alternate"
          hrefLang={locale}
          href={locale === DEFAULT_LOCALE ? plain : `${publicUrl}${addressIn(locale, location.pathname, rest)}`}
        />
      ))}
      <link rel="alternate" hrefLang="x-default" href={plain} />
    </>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>('root');
  const lang: Locale = data?.lang ?? DEFAULT_LOCALE;
  return (
    <LanguageProvider locale={lang}>
      <Document lang={lang} data={data}>
        {children}
      </Document>
    </LanguageProvider>
  );
}

function Document({ lang, data, children }: { lang: Locale; data: Awaited<ReturnType<typeof loader>> | undefined; children: ReactNode }) {
  const nonce = useNonce();
  const { t } = useT();
  useBuildFreshness();
  const settings = data?.settings ?? {};
  if (data?.apiKey) configureApi(data.apiKey);
  return (
    <html lang={lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1f4d3a" />
        {/* With a precedence, React puts the stylesheet ahead of the script preloads in the
            head, so the browser asks for it first: the page cannot paint before it. */}
        <link rel="stylesheet" href={stylesheet} precedence="high" />
        {/* The Bengali font (fonts.css): Bangla pages ask for it at once. */}
        {lang === 'bn' && <link rel="preload" href={BENGALI_FONT_URL} as="font" type="font/woff2" crossOrigin="anonymous" />}
        {data?.publicUrl && <LanguageAlternates publicUrl={data.publicUrl} />}
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col">
        {/* The Bengali faces asked for before the first layout (lib/fonts.ts). */}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a script of the shop's own constants; React would escape its quotes as text */}
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: earlyFontScript(lang) }} />
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:fixed focus:left-3 focus:top-3 focus:z-50 focus:rounded-md focus:bg-paper focus:px-4 focus:py-2"
        >
          {t('Skip to content')}
        </a>
        {/* Display currency and discounts for every price on the page (lib/currency.tsx). */}
        <PricingProvider currencies={data?.currencies ?? []} currency={data?.pricing?.currency} discounts={data?.pricing?.discounts ?? []}>
          <SiteHeader settings={settings} categories={data?.categories ?? []} user={data?.user ?? null} currencies={data?.currencies ?? []} />
          <main id="main" className="flex-1">
            {children}
          </main>
          <SiteFooter settings={settings} />
        </PricingProvider>
        <NavigationProgress />
        <Toaster />
        <HomePopups signedIn={!!data?.user} />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function meta({ error, matches }: Route.MetaArgs) {
  if (!error) return [];
  const { t } = metaT(matches);
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return [{ title: t(status === 404 ? ERROR_PAGE_DEFAULTS[404].statusMessage : ERROR_PAGE_DEFAULTS[500].statusMessage) }];
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useT();
  if (isRouteErrorResponse(error)) {
    const data = typeof error.data === 'object' && error.data ? (error.data as { message?: unknown; path?: unknown }) : {};
    // A loader's message is an English id; 'Page not found: {path}' carries the path
    // beside it (routes/not-found.tsx), so the sentence is translated whole.
    const description =
      typeof data.path === 'string' ? t('Page not found: {path}', { path: data.path }) : data.message !== undefined ? t(String(data.message)) : undefined;
    return <ErrorPage status={error.status} description={description} />;
  }
  return <ErrorPage status={500} />;
}
