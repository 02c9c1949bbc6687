/** The site settings (kvps) the layout reads; every brand detail comes from here. */
export type SiteSettings = Record<string, string>;

export function brandName(s: SiteSettings): string {
  return s['brand.name'] ?? 'Our shop';
}

export const SOCIAL = ['facebook', 'instagram', 'youtube', 'linkedin'] as const;
export type Social = (typeof SOCIAL)[number];

export function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
