import urls from 'virtual:i18n/chunk-urls';
import type { Locale } from '@storefront/shared';

/**
 * The script of this language's catalogue when it is a chunk of its own (Bangla,
 * docs/decisions/0038), or null. The page preloads it beside its other scripts: the browser
 * would otherwise ask for it only once the entry script has run, one more round trip before
 * the page is interactive.
 */
export function catalogueChunk(lang: Locale): string | null {
  return urls[lang] ?? null;
}
