import bengali400 from '@fontsource/noto-sans-bengali/files/noto-sans-bengali-bengali-400-normal.woff2?url';
import bengali600 from '@fontsource/noto-sans-bengali/files/noto-sans-bengali-bengali-600-normal.woff2?url';

// The Bengali font shipped with the shop (docs/decisions/0038), so that ৳ and Bangla never
// show as boxes on a device without one. The faces cover only the Bengali block (and the
// joiners and the dotted circle its vowel signs lean on): a page in English with no ৳ on it
// downloads nothing, a page with a price downloads one subset of about 44 KB, and Bangla
// pages preload it (root.tsx). `swap`: text shows at once in a fallback and is redrawn.
const RANGE = 'U+0951-0952,U+0964-0965,U+0980-09FE,U+200C-200D,U+25CC';

export const BENGALI_FONT_URL = bengali400;

export const FONT_FACES = [
  [400, bengali400],
  [600, bengali600],
]
  .map(
    ([weight, url]) =>
      `@font-face{font-family:"Shop Bengali";font-style:normal;font-display:swap;font-weight:${weight};src:url(${url}) format("woff2");unicode-range:${RANGE}}`,
  )
  .join('');
