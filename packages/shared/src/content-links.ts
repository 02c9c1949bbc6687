import { isSitePath } from './catalogue.ts';

// Where the shop's own content may lead (docs/decisions/0035). No zod here: the storefront's
// rich text reads these on every page, and must not bring the schemas' library with it.

/** An https address on any host. */
export function isHttpsLink(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'https:' && !!u.hostname && !/\s/.test(value);
  } catch {
    return false;
  }
}

/**
 * Where a slide, pop-up, article or bullet may lead: a path on this site. The storefront drops
 * any other link of these (catalogue.service toSlides, the campaign pop-up), so that a banner
 * never sends shoppers to another site, however it got into the database.
 */
export function isContentLink(value: string): boolean {
  return value.length <= 500 && isSitePath(value);
}

/** A link inside rich text: as a content link, or a mail or phone link. */
export function isRichTextLink(value: string): boolean {
  // A page's text may point elsewhere (a map, a courier's tracking page), in https only.
  return (
    isContentLink(value) ||
    (value.length <= 500 && isHttpsLink(value)) ||
    /^mailto:[^\s<>"']+@[^\s<>"']+$/i.test(value) ||
    /^tel:\+?[\d\s-]{3,20}$/i.test(value)
  );
}
