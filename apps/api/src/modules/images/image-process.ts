import { IMAGE_MIME, OG_IMAGE, type TImageFormat } from '@storefront/shared';
import sharp, { type Sharp } from 'sharp';

// Every raster picture the shop keeps or serves goes through libvips (sharp): an upload is
// decoded and encoded again, which drops whatever rode along in the file — EXIF with its
// GPS position, XMP, IPTC, comments, PNG text chunks, bytes glued after the image — and the
// resized variants are made from that clean copy.

/**
 * The most pixels a stored picture is drawn from. Uploads are held to far less since
 * docs/decisions/0050 (PICTURE_LIMITS); this was the bound before, and pictures stored
 * then keep their resized copies.
 */
export const MAX_INPUT_PIXELS = 100_000_000;

// Memory, not speed, is what libvips runs out of first (docs/decisions/0050):
// - no operation cache: each copy is made once and kept on disk, so the cache only held
//   decoded pictures nobody would ask for again (2.5 GB while making the copies of one
//   100-megapixel picture, against 0.45 GB without it);
// - one libvips thread per picture: how many pictures are worked on at once is the image
//   work gate's (image-work.ts), so the process's peak is that many pictures' worth.
sharp.cache(false);
sharp.concurrency(1);

/**
 * The formats an upload is kept in: its own (a PNG stays lossless, a GIF keeps its frames).
 * A JPEG is written baseline and with the standard Huffman tables: either a progressive
 * scan or optimised tables makes libjpeg hold every coefficient of the picture at once
 * (320 MB for 50 megapixels, on every later decode too for a progressive file), where a
 * baseline one is written and read a strip at a time (30 MB), and its copies are read at
 * 1/2, 1/4 or 1/8 scale (shrink-on-load). The file is about a third larger. A PNG is
 * deflated at level 9 with its colours as they are: asking libvips for an `effort` turns
 * on palette quantisation (256 colours) and took 28 s for a 36-megapixel picture.
 */
const KEEP: Record<string, (s: Sharp) => Sharp> = {
  'image/jpeg': (s) => s.jpeg({ quality: 90, optimiseCoding: false }),
  'image/png': (s) => s.png({ compressionLevel: 9, palette: false }),
  'image/webp': (s) => s.webp({ quality: 90 }),
  'image/gif': (s) => s.gif(),
};

/** Animated GIF and WebP keep their frames. */
const animatedType = (mime: string) => mime === 'image/gif' || mime === 'image/webp';

export class ImageDecodeError extends Error {}

/**
 * What libvips reads from a picture's header, without decoding its pixels: the size of one
 * frame and how many frames an animation has. Throws ImageDecodeError when it cannot.
 */
export async function pictureHeader(input: Buffer, mime: string): Promise<{ width: number; height: number; frames: number }> {
  try {
    const meta = await sharp(input, { animated: animatedType(mime) }).metadata();
    const frames = animatedType(mime) ? Math.max(1, meta.pages ?? 1) : 1;
    // For an animation, libvips reports the whole strip of frames as its height.
    return { width: meta.width, height: meta.pageHeight ?? meta.height, frames };
  } catch (err) {
    throw new ImageDecodeError((err as Error).message);
  }
}

/**
 * An uploaded raster image, encoded again in its own format with no metadata: turned
 * upright by its EXIF orientation first (the orientation tag goes with the rest), and its
 * colours converted to sRGB — what browsers assume — so no ICC profile is needed to show
 * it right. libvips refuses to decode more than `maxPixels` (all frames together), whatever
 * the header read before said. Throws ImageDecodeError when libvips cannot read it.
 */
export async function sanitiseImage(input: Buffer, mime: string, maxPixels: number): Promise<{ data: Buffer; width: number; height: number }> {
  const encode = KEEP[mime];
  if (!encode) throw new ImageDecodeError(`not a raster type: ${mime}`);
  try {
    // autoOrient applies to stills only (GIFs have no EXIF).
    const animated = animatedType(mime);
    const { data, info } = await encode(sharp(input, { animated, autoOrient: true, limitInputPixels: maxPixels, failOn: 'error' })).toBuffer({
      resolveWithObject: true,
    });
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
  // Resizing a JPEG or WebP reads it at 1/2, 1/4 or 1/8 scale already where the width allows
  // (libvips' shrink-on-load): a 320 px copy of a baseline 50-megapixel JPEG never holds more
  // than a 1024 px wide picture.
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
