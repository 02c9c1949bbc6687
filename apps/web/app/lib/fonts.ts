import type { Locale } from '@storefront/shared';
import bengali400 from '@fontsource/noto-sans-bengali/files/noto-sans-bengali-bengali-400-normal.woff2?url';

/** The Bengali font's regular weight, which Bangla pages preload (its faces: fonts.css). */
export const BENGALI_FONT_URL = bengali400;

/**
 * A script for the start of the body: it asks for the page's Bengali faces (fonts.css) while
 * the body is parsed, before its first layout. A face asked for by the layout itself arrives
 * after it, and with `swap` Chromium then lays out every text run in the stack again: the
 * whole page, once per face (a 10–30 ms task each after the first paint, four times that on
 * Lighthouse's phone). English pages' marks faces are data URIs and ready within a task.
 * Bangla pages' one face (fonts.css) is the one they preload.
 */
export function earlyFontScript(lang: Locale): string {
  const [family, weights] = lang === 'bn' ? ['Shop Bengali', "'400'"] : ['Shop Bengali Marks', "'400','600'"];
  return `(function(f){if(f)[${weights}].forEach(function(w){f.load(w+' 1em "${family}"','\u09f3').catch(function(){})})})(document.fonts)`;
}
