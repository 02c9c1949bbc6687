// Resized copies of the shop's pictures (uploaded photos and the demo drawings), shared by
// the API, which makes them, and the storefront, which lists them in `srcset`. Only these
// widths and formats exist: a client cannot ask the server to make (and store) any other.

/**
 * Widths made of every picture, from the layouts' real sizes: 96–180 px thumbnails, cart
 * lines and phone cards (320 covers them at 2×); 300 px desktop cards and a phone's full
 * width (640); the product page's main picture and a tablet's hero (960); the desktop hero
 * and the gallery's zoom (1440, about the drawings' own 1600 px).
 */
export const IMAGE_WIDTHS = [320, 640, 960, 1440] as const;
export type TImageWidth = (typeof IMAGE_WIDTHS)[number];

/** Formats in the order a browser should prefer them; JPEG is the fallback every browser shows. */
export const IMAGE_FORMATS = ['avif', 'webp', 'jpeg'] as const;
export type TImageFormat = (typeof IMAGE_FORMATS)[number];

export const IMAGE_EXTENSION: Record<TImageFormat, string> = { avif: 'avif', webp: 'webp', jpeg: 'jpg' };
export const IMAGE_MIME: Record<TImageFormat, string> = { avif: 'image/avif', webp: 'image/webp', jpeg: 'image/jpeg' };

/** The Open Graph picture: a JPEG of the size link previews use, the whole picture letterboxed in it. */
export const OG_IMAGE = { width: 1200, height: 630, name: 'og.jpg' } as const;

/** The name of one variant inside a picture's folder: `640.webp`. */
export function variantName(width: TImageWidth, format: TImageFormat): string {
  return `${width}.${IMAGE_EXTENSION[format]}`;
}

/** A variant name back to its width and format, or null for anything that is not one of the fixed ones. */
export function parseVariantName(name: string): { width: TImageWidth; format: TImageFormat } | { og: true } | null {
  if (name === OG_IMAGE.name) return { og: true };
  const m = /^([1-9]\d{2,3})\.(avif|webp|jpg)$/.exec(name);
  if (!m) return null;
  const width = Number(m[1]) as TImageWidth;
  if (!IMAGE_WIDTHS.includes(width)) return null;
  const format = (Object.keys(IMAGE_EXTENSION) as TImageFormat[]).find((f) => IMAGE_EXTENSION[f] === m[2])!;
  return { width, format };
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const FILE = new RegExp(`^/files/(${UUID})(?:/[^?#]*)?$`, 'i');
const DRAWING = /^\/media\/(demo|banner)\/([a-z-]+)\/([0-9a-f]{6})\.svg(?:\?[^#]*)?$/i;

/**
 * Where the variants of a picture live, from the picture's own address: an uploaded file
 * (`/files/<uuid>/<name>`, possibly on the image host) or a demo drawing
 * (`/media/demo/<shape>/<colour>.svg`, `/media/banner/…`). Null for anything else (a flag,
 * a picture on another site): that is shown as it is.
 */
export function imageVariantBase(url: string): string | null {
  let origin = '';
  let path = url;
  const abs = /^(https?:\/\/[^/?#]+)(\/.*)?$/i.exec(url);
  if (abs) {
    origin = abs[1]!;
    path = abs[2] ?? '/';
  }
  const file = FILE.exec(path);
  if (file) return `${origin}/images/files/${file[1]!.toLowerCase()}`;
  const drawing = DRAWING.exec(path);
  // A banner's ?t= is its <title> only: not drawn, so every title shares the variants.
  if (drawing) return `${origin}/images/${drawing[1]!.toLowerCase()}/${drawing[2]!.toLowerCase()}/${drawing[3]!.toLowerCase()}`;
  return null;
}

/** `srcset` of one format: every fixed width, each with its `w` descriptor. */
export function imageSrcSet(base: string, format: TImageFormat, widths: readonly TImageWidth[] = IMAGE_WIDTHS): string {
  return widths.map((w) => `${base}/${variantName(w, format)} ${w}w`).join(', ');
}

/** One variant's address. */
export function imageVariantUrl(base: string, width: TImageWidth, format: TImageFormat): string {
  return `${base}/${variantName(width, format)}`;
}

/** The Open Graph JPEG of a picture, or null when it has none (an SVG flag, a picture elsewhere). */
export function ogImage(url: string): { url: string; width: number; height: number; type: string } | null {
  const base = imageVariantBase(url);
  if (!base) return /\.(jpe?g|png)(\?|$)/i.test(url) ? { url, width: 0, height: 0, type: /\.png/i.test(url) ? 'image/png' : 'image/jpeg' } : null;
  return { url: `${base}/${OG_IMAGE.name}`, width: OG_IMAGE.width, height: OG_IMAGE.height, type: 'image/jpeg' };
}
