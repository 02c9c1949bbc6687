import { DEFAULT_LOCALE, LANG_PARAM, type Locale } from '@storefront/shared';
import { ogImage } from '@storefront/shared/upload-images';
import type { MetaDescriptor } from 'react-router';
import { brandName, type SiteSettings } from './site.ts';

/** The site settings from the root loader's data, inside a route's meta(). */
export function settingsFrom(matches: readonly ({ id: string; data?: unknown } | undefined)[]): SiteSettings {
  const root = matches.find((m) => m?.id === 'root');
  return ((root?.data as { settings?: SiteSettings } | undefined)?.settings ?? {}) as SiteSettings;
}

/**
 * A page's own address in its language (docs/decisions/0038): English at the plain address,
 * Bangla with `lang=bn`, so that each version is its own canonical page and the hreflang
 * pair (root.tsx) points at two indexable addresses.
 */
export function inLanguage(url: string, lang: Locale): string {
  if (lang === DEFAULT_LOCALE) return url;
  const u = new URL(url);
  u.searchParams.set(LANG_PARAM, lang);
  return u.href;
}

/**
 * Title, description, canonical URL and Open Graph tags for a catalogue page.
 * `image` may be a path; Open Graph wants an absolute address.
 */
export function pageMeta(opts: {
  settings: SiteSettings;
  /** The page's language: a Bangla page's canonical address is its own (`?lang=bn`), as hreflang says. */
  lang?: Locale;
  title: string;
  description: string;
  canonical: string;
  type?: 'website' | 'product';
  image?: string | null;
  noindex?: boolean;
}): MetaDescriptor[] {
  const brand = brandName(opts.settings);
  const origin = new URL(opts.canonical).origin;
  const canonical = inLanguage(opts.canonical, opts.lang ?? DEFAULT_LOCALE);
  const description = opts.description.replace(/\s+/g, ' ').trim().slice(0, 160);
  const title = opts.title.includes(brand) ? opts.title : `${opts.title} | ${brand}`;
  const out: MetaDescriptor[] = [
    { title },
    { name: 'description', content: description },
    { tagName: 'link', rel: 'canonical', href: canonical },
    { property: 'og:site_name', content: brand },
    { property: 'og:title', content: opts.title },
    { property: 'og:description', content: description },
    { property: 'og:type', content: opts.type ?? 'website' },
    { property: 'og:url', content: canonical },
  ];
  // Link previews show JPEG and PNG, not SVG: the picture's Open Graph copy (a 1200 × 630
  // JPEG, upload-images.ts); a picture without one (an SVG flag) gives no og:image.
  const og = opts.image ? ogImage(opts.image) : null;
  if (og) {
    out.push({ property: 'og:image', content: new URL(og.url, origin).href }, { property: 'og:image:type', content: og.type });
    if (og.width) out.push({ property: 'og:image:width', content: String(og.width) }, { property: 'og:image:height', content: String(og.height) });
  }
  if (opts.noindex) out.push({ name: 'robots', content: 'noindex, follow' });
  return out;
}
