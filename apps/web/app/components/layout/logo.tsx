import type { SiteSettings } from '../../lib/site.ts';

/** The uploaded logo (brand.logo) with its pixel size, or null for the wordmark. */
export type LogoImage = { src: string; width: number; height: number } | null;

/** The logo staff uploaded in the back office (docs/decisions/0037), when there is one with a known size. */
export function logoImage(s: SiteSettings): LogoImage {
  const src = s['brand.logo']?.trim();
  const width = Number(s['brand.logoWidth']);
  const height = Number(s['brand.logoHeight']);
  if (!src?.startsWith('/files/') || !(width > 0) || !(height > 0)) return null;
  return { src, width, height };
}

/**
 * The wordmark: a small house mark and the brand name from the site settings, or the
 * uploaded logo. The logo is drawn 40 px high (at most 200 px wide) with its width and
 * height given, so the header does not move when it loads; its alt text is the shop's name.
 *
 * `compact` (the header below 640 px): the name stays beside the mark, in smaller type on
 * up to two lines, and gives way to the header's buttons rather than push them off a 360 px
 * screen: what does not fit ends in an ellipsis. (It used to be hidden there, so a phone
 * showed no shop name at all.)
 */
export function Logo({ name, inverted = false, compact = false, image = null }: { name: string; inverted?: boolean; compact?: boolean; image?: LogoImage }) {
  if (image) {
    const height = 40;
    const width = Math.min(200, Math.max(1, Math.round((image.width / image.height) * height)));
    return (
      <img
        src={image.src}
        alt={name}
        width={width}
        height={height}
        data-testid="brand-logo"
        className={`h-10 w-auto max-w-[200px] object-contain ${compact ? 'max-sm:min-w-0 max-sm:shrink' : ''} ${inverted ? 'rounded-md bg-white p-1' : ''}`}
        style={{ aspectRatio: `${width} / ${height}` }}
      />
    );
  }
  return (
    <>
      <svg viewBox="0 0 32 32" width="32" height="32" aria-hidden="true" focusable="false" className={compact ? 'shrink-0 max-sm:h-7 max-sm:w-7' : 'shrink-0'}>
        <rect width="32" height="32" rx="7" fill={inverted ? '#f3efe8' : '#1f4d3a'} />
        <path d="M7 22V12l9-5 9 5v10" fill="none" stroke={inverted ? '#1f4d3a' : '#f3efe8'} strokeWidth="2.6" strokeLinejoin="round" />
        <rect x="11" y="16" width="10" height="6" rx="1.5" fill={inverted ? '#1f4d3a' : '#f3efe8'} />
      </svg>
      {/* The shop's name is a name: the same in every language (and not for machine translation). */}
      <span
        translate="no"
        data-testid="brand-name"
        className={`font-bold tracking-tight ${inverted ? 'text-white' : 'text-brand-800'} ${compact ? 'min-w-0 text-lg max-sm:line-clamp-2 max-sm:text-[0.9rem] max-sm:leading-[1.15] max-sm:[overflow-wrap:anywhere] sm:whitespace-nowrap' : 'text-lg'}`}
      >
        {name}
      </span>
    </>
  );
}
