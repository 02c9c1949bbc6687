import { IMAGE_WIDTHS, imageSrcSet, imageVariantBase, imageVariantUrl, type TImageWidth } from '@storefront/shared/upload-images';
import type { CSSProperties } from 'react';

export interface ResponsiveImageProps {
  src: string;
  alt: string;
  /** The picture's intrinsic size (or just its aspect ratio): the browser keeps the room before it loads, so nothing shifts. */
  width: number;
  height: number;
  /** How wide the picture is drawn at each viewport (`(min-width: 1024px) 600px, 100vw`): the browser picks the smallest copy that is sharp. */
  sizes: string;
  loading?: 'lazy' | 'eager';
  decoding?: 'async' | 'sync' | 'auto';
  fetchPriority?: 'high' | 'low' | 'auto';
  /** The largest copy worth listing (a 96 px thumbnail never needs 1440). */
  maxWidth?: TImageWidth;
  className?: string;
  style?: CSSProperties;
  draggable?: boolean;
  'data-testid'?: string;
}

/**
 * A picture with resized copies (packages/shared upload-images.ts): AVIF, then WebP, then
 * JPEG for browsers that show neither, each at the fixed widths, so a phone downloads a
 * phone-sized file. Pictures without copies (a flag, a picture on another site) are a plain
 * <img>. The <img> carries width and height, so the layout does not move as it loads.
 */
export function ResponsiveImage({
  src,
  alt,
  width,
  height,
  sizes,
  loading,
  decoding = 'async',
  fetchPriority,
  maxWidth,
  className,
  style,
  draggable,
  ...rest
}: ResponsiveImageProps) {
  const base = imageVariantBase(src);
  const img = { width, height, loading, decoding, fetchPriority, className, style, draggable, 'data-testid': rest['data-testid'] };
  if (!base) return <img src={src} alt={alt} {...img} />;
  const widths = IMAGE_WIDTHS.filter((w) => !maxWidth || w <= maxWidth);
  const fallback = widths.find((w) => w >= 640) ?? widths[widths.length - 1]!;
  return (
    <picture>
      <source type="image/avif" srcSet={imageSrcSet(base, 'avif', widths)} sizes={sizes} />
      <source type="image/webp" srcSet={imageSrcSet(base, 'webp', widths)} sizes={sizes} />
      <img src={imageVariantUrl(base, fallback, 'jpeg')} srcSet={imageSrcSet(base, 'jpeg', widths)} sizes={sizes} alt={alt} {...img} />
    </picture>
  );
}
