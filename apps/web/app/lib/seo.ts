import type { MetaDescriptor } from 'react-router';
import { brandName, type SiteSettings } from './site.ts';

/** The site settings from the root loader's data, inside a route's meta(). */
export function settingsFrom(matches: readonly ({ id: string; data?: unknown } | undefined)[]): SiteSettings {
  const root = matches.find((m) => m?.id === 'root');
  return ((root?.data as { settings?: SiteSettings } | undefined)?.settings ?? {}) as SiteSettings;
}

/**
 * Title, description, canonical URL and Open Graph tags for a catalogue page.
 * `image` may be a path; Open Graph wants an absolute address.
 */
export function pageMeta(opts: {
  settings: SiteSettings;
  title: string;
  description: string;
  canonical: string;
  type?: 'website' | 'product';
  image?: string | null;
  noindex?: boolean;
}): MetaDescriptor[] {
  const brand = brandName(opts.settings);
  const origin = new URL(opts.canonical).origin;
  const description = opts.description.replace(/\s+/g, ' ').trim().slice(0, 160);
  const title = opts.title.includes(brand) ? opts.title : `${opts.title} | ${brand}`;
  const out: MetaDescriptor[] = [
    { title },
    { name: 'description', content: description },
    { tagName: 'link', rel: 'canonical', href: opts.canonical },
    { property: 'og:site_name', content: brand },
    { property: 'og:title', content: opts.title },
    { property: 'og:description', content: description },
    { property: 'og:type', content: opts.type ?? 'website' },
    { property: 'og:url', content: opts.canonical },
  ];
  if (opts.image) out.push({ property: 'og:image', content: new URL(opts.image, origin).href });
  if (opts.noindex) out.push({ name: 'robots', content: 'noindex, follow' });
  return out;
}
