import { LOCALE_NAMES } from '@storefront/shared';

/**
 * The Bengali characters an English page shows (docs/decisions/0038): the taka sign of every
 * price and the language switch's name for Bangla. The marks faces of fonts.css hold just
 * these, so English pages never download the whole Bengali font.
 */
export const MARK_TEXT = `৳${LOCALE_NAMES.bn}`;

/** The unicode-range of MARK_TEXT's characters, for the marks faces' @font-face (fonts.css). */
export const MARK_RANGE = [...new Set([...MARK_TEXT].map((c) => c.codePointAt(0) as number))]
  .sort((a, b) => a - b)
  .map((c) => `U+${c.toString(16).toUpperCase().padStart(4, '0')}`)
  .join(',');
