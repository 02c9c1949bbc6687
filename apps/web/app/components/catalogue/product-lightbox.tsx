import { IMAGE_WIDTHS, imageVariantBase, imageVariantUrl } from '@storefront/shared/upload-images';
import Lightbox, { type Labels, type SlideImage } from 'yet-another-react-lightbox';
import Zoom from 'yet-another-react-lightbox/plugins/zoom';
import 'yet-another-react-lightbox/styles.css';

// The product page's zoomable gallery. Loaded only when a shopper first opens it (a
// dynamic import in product-gallery.tsx), so neither the library nor its CSS is part of
// the product page's first-load JavaScript (docs/decisions/0030).

export interface ProductLightboxProps {
  open: boolean;
  index: number;
  images: { url: string; alt: string }[];
  labels: Labels;
  onView(index: number): void;
  onClose(): void;
  /** After the closing animation: focus goes back to the picture that opened it. */
  onExited(): void;
}

/** Slides with the WebP copies (every browser that runs this script shows WebP) at the fixed widths, 4:3 like the page shows them. */
function slide(img: { url: string; alt: string }): SlideImage {
  const base = imageVariantBase(img.url);
  if (!base) return { src: img.url, alt: img.alt };
  const largest = IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1]!;
  return {
    src: imageVariantUrl(base, largest, 'webp'),
    alt: img.alt,
    width: largest,
    height: (largest * 3) / 4,
    srcSet: IMAGE_WIDTHS.map((w) => ({ src: imageVariantUrl(base, w, 'webp'), width: w, height: (w * 3) / 4 })),
  };
}

export default function ProductLightbox({ open, index, images, labels, onView, onClose, onExited }: ProductLightboxProps) {
  const single = images.length <= 1;
  return (
    <Lightbox
      open={open}
      close={onClose}
      index={index}
      slides={images.map(slide)}
      plugins={[Zoom]}
      labels={labels}
      // Arrow keys, Escape, swipes and +/−/0 for the zoom come with the library and its Zoom plugin.
      zoom={{ maxZoomPixelRatio: 3, scrollToZoom: true }}
      carousel={{ finite: single }}
      controller={{ closeOnBackdropClick: true }}
      render={single ? { buttonPrev: () => null, buttonNext: () => null } : undefined}
      on={{ view: ({ index: i }) => onView(i), exited: onExited }}
      styles={{ container: { backgroundColor: 'rgba(20, 18, 16, 0.94)' } }}
    />
  );
}
