import { IMAGE_MIME, OG_IMAGE, type TImageFormat } from '@storefront/shared';
import sharp, { type Sharp } from 'sharp';

// Every raster picture the shop keeps or serves goes through libvips (sharp): an upload is
// decoded and encoded again, which drops whatever rode along in the file — EXIF with its
// GPS position, XMP, IPTC, comments, PNG text chunks, bytes glued after the image — and the
// resized variants are made from that clean copy.

/** Beyond these an "image" is a decompression bomb, not a photo (the same bounds as file-type.ts). */
export const MAX_INPUT_PIXELS = 100_000_000;

// Several requests may each start an encode; libvips' own threads already use every core.
sharp.concurrency(0);

/** The formats an upload is kept in: its own (a PNG stays lossless, a GIF keeps its frames). */
const KEEP: Record<string, (s: Sharp) => Sharp> = {
  'image/jpeg': (s) => s.jpeg({ quality: 90, mozjpeg: true }),
  'image/png': (s) => s.png({ compressionLevel: 9, effort: 7 }),
  'image/webp': (s) => s.webp({ quality: 90 }),
  'image/gif': (s) => s.gif(),
};

export class ImageDecodeError extends Error {}

/**
 * An uploaded raster image, encoded again in its own format with no metadata: turned
 * upright by its EXIF orientation first (the orientation tag goes with the rest), and its
 * colours converted to sRGB — what browsers assume — so no ICC profile is needed to show
 * it right. Throws ImageDecodeError when libvips cannot read it.
 */
export async function sanitiseImage(input: Buffer, mime: string): Promise<{ data: Buffer; width: number; height: number }> {
  const encode = KEEP[mime];
  if (!encode) throw new ImageDecodeError(`not a raster type: ${mime}`);
  try {
    // Animated GIF and WebP keep their frames; autoOrient applies to stills only (GIFs have no EXIF).
    const animated = mime === 'image/gif' || mime === 'image/webp';
    const { data, info } = await encode(sharp(input, { animated, autoOrient: true, limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })).toBuffer({
      resolveWithObject: true,
    });
    // For an animation, libvips reports the whole strip of frames as its height.
    const height = info.pageHeight ?? info.height;
    return { data, width: info.width, height };
  } catch (err) {
    throw new ImageDecodeError((err as Error).message);
  }
}

export interface VariantSpec {
  /** A fixed width (upload-images.ts), or the Open Graph picture. */
  width: number | 'og';
  format: TImageFormat;
}

/**
 * One resized copy. Never wider than the picture itself (a small photo is not blown up);
 * the first frame of an animation. `svgWidth`: the drawing's own width, to render a vector
 * picture at the density the variant needs instead of scaling up a small raster.
 */
export async function renderVariant(
  input: Buffer,
  spec: VariantSpec,
  svgWidth?: number,
): Promise<{ data: Buffer; width: number; height: number; mime: string }> {
  const target = spec.width === 'og' ? OG_IMAGE.width : spec.width;
  const density = svgWidth ? Math.min(2400, Math.max(72, Math.ceil((72 * target) / svgWidth))) : undefined;
  let s = sharp(input, { autoOrient: true, limitInputPixels: MAX_INPUT_PIXELS, density });
  if (spec.width === 'og') {
    // Link previews crop to about 1.91:1; letterboxing keeps the whole piece of furniture in view.
    s = s.resize({ width: OG_IMAGE.width, height: OG_IMAGE.height, fit: 'contain', background: '#f3efe8' });
  } else {
    s = s.resize({ width: spec.width, withoutEnlargement: true });
  }
  switch (spec.format) {
    case 'avif':
      // effort 2: a first visitor waits ~0.1 s for a 640 px picture rather than ~0.5 s, for files a little larger.
      s = s.avif({ quality: 55, effort: 2 });
      break;
    case 'webp':
      s = s.webp({ quality: 78 });
      break;
    case 'jpeg':
      // JPEG has no transparency: a transparent PNG goes onto white.
      s = s.flatten({ background: '#ffffff' }).jpeg({ quality: 80, mozjpeg: true, progressive: true });
      break;
  }
  const { data, info } = await s.toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, mime: IMAGE_MIME[spec.format] };
}
