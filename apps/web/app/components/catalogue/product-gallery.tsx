import { lazy, Suspense, useRef, useState } from 'react';
import { useT } from '../../lib/i18n.tsx';
import { ResponsiveImage } from '../ui/responsive-image.tsx';

// The zoomable gallery is its own chunk, fetched on the first open (or when the pointer
// comes over the picture): not in the product page's first-load JavaScript (decision 0030).
const loadLightbox = () => import('./product-lightbox.tsx');
const ProductLightbox = lazy(loadLightbox);

/**
 * The product's pictures: one large, the rest as thumbnails to pick from. `images` come in
 * the order to show (the chosen colour's first); a new list starts again at the first.
 * The large picture opens a zoomable gallery (mouse, Enter or Space; arrows, Escape, +/−
 * and swipes inside), and closing it puts the focus back on the picture.
 */
export function ProductGallery({ images, title }: { images: { url: string; alt: string }[]; title: string }) {
  const { t, n } = useT();
  const [picked, setPicked] = useState<{ list: typeof images; index: number }>({ list: images, index: 0 });
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const index = picked.list === images ? Math.min(picked.index, images.length - 1) : 0;
  const main = images[index];
  const labels = {
    Previous: t('Previous picture'),
    Next: t('Next picture'),
    Close: t('Close the gallery'),
    'Zoom in': t('Zoom in'),
    'Zoom out': t('Zoom out'),
    Lightbox: t('Picture gallery'),
    'Photo gallery': t('Picture gallery'),
    Carousel: t('Pictures'),
    Slide: t('Picture'),
    // The library puts the numbers in for {index} and {total} itself.
    '{index} of {total}': t('{index} of {total}', { index: '{index}', total: '{total}' }),
  };
  return (
    <div>
      <div className="overflow-hidden rounded-[var(--radius-card)] bg-sand-100">
        {main ? (
          <button
            ref={opener}
            type="button"
            aria-haspopup="dialog"
            aria-label={t('Enlarge picture: {name}', { name: main.alt || title })}
            onClick={() => {
              setLoaded(true);
              setOpen(true);
            }}
            onPointerEnter={() => void loadLightbox()}
            className="block w-full cursor-zoom-in focus-visible:outline-offset-[-3px]"
            data-testid="open-gallery"
          >
            <ResponsiveImage
              src={main.url}
              alt={main.alt || title}
              width={800}
              height={600}
              sizes="(min-width: 1280px) 600px, (min-width: 768px) 50vw, 100vw"
              fetchPriority="high"
              loading="eager"
              className="aspect-[4/3] w-full object-cover"
              data-testid="main-image"
            />
          </button>
        ) : (
          <div className="aspect-[4/3] w-full" />
        )}
      </div>
      {images.length > 1 && (
        <ul className="mt-3 flex gap-2 overflow-x-auto pb-1" aria-label={t('Pictures')}>
          {images.map((img, i) => (
            <li key={img.url + i} className="shrink-0">
              <button
                type="button"
                onClick={() => setPicked({ list: images, index: i })}
                aria-label={t('Show picture {number} of {total}: {name}', { number: n(i + 1), total: n(images.length), name: img.alt || title })}
                aria-pressed={i === index}
                className={`block overflow-hidden rounded-lg ring-2 ${i === index ? 'ring-brand-700' : 'ring-transparent hover:ring-sand-300'}`}
              >
                <ResponsiveImage
                  src={img.url}
                  alt=""
                  width={96}
                  height={72}
                  sizes="96px"
                  maxWidth={320}
                  loading="lazy"
                  className="h-[72px] w-24 object-cover"
                />
              </button>
            </li>
          ))}
        </ul>
      )}
      {loaded && (
        <Suspense fallback={null}>
          <ProductLightbox
            open={open}
            index={index}
            images={images.map((img) => ({ url: img.url, alt: img.alt || title }))}
            labels={labels}
            onView={(i) => setPicked({ list: images, index: i })}
            onClose={() => setOpen(false)}
            onExited={() => opener.current?.focus()}
          />
        </Suspense>
      )}
    </div>
  );
}
