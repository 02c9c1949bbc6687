import bengali400 from '@fontsource/noto-sans-bengali/files/noto-sans-bengali-bengali-400-normal.woff2?url';

/** The Bengali font's regular weight, which Bangla pages preload (its faces: fonts.css). */
export const BENGALI_FONT_URL = bengali400;
