import { useState } from 'react';

/**
 * The product's pictures: one large, the rest as thumbnails to pick from. `images` come in
 * the order to show (the chosen colour's first); a new list starts again at the first.
 */
export function ProductGallery({ images, title }: { images: { url: string; alt: string }[]; title: string }) {
  const [picked, setPicked] = useState<{ list: typeof images; index: number }>({ list: images, index: 0 });
  const index = picked.list === images ? Math.min(picked.index, images.length - 1) : 0;
  const main = images[index];
  return (
    <div>
      <div className="overflow-hidden rounded-[var(--radius-card)] bg-sand-100">
        {main ? (
          <img
            src={main.url}
            alt={main.alt || title}
            width={800}
            height={600}
            fetchPriority="high"
            className="aspect-[4/3] w-full object-cover"
            data-testid="main-image"
          />
        ) : (
          <div className="aspect-[4/3] w-full" />
        )}
      </div>
      {images.length > 1 && (
        <ul className="mt-3 flex gap-2 overflow-x-auto pb-1" aria-label="Pictures">
          {images.map((img, i) => (
            <li key={img.url + i} className="shrink-0">
              <button
                type="button"
                onClick={() => setPicked({ list: images, index: i })}
                aria-label={`Show picture ${i + 1} of ${images.length}: ${img.alt || title}`}
                aria-pressed={i === index}
                className={`block overflow-hidden rounded-lg ring-2 ${i === index ? 'ring-brand-700' : 'ring-transparent hover:ring-sand-300'}`}
              >
                <img src={img.url} alt="" width={96} height={72} loading="lazy" className="h-[72px] w-24 object-cover" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
