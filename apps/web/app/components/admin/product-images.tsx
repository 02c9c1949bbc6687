import { FileUploadField } from '../files/file-upload-field.tsx';
import { describedBy, Field, inputClass } from './admin-ui.tsx';
import { newKey, type ProductDraft } from './product-form.ts';

type Images = ProductDraft['images'];

// A product's pictures in the order the shop shows them, uploaded through the files
// endpoints (checked by their bytes there; the shop's pages load pictures from the shop
// only), each with its alternative text for screen readers.

/** The path of an uploaded file on this shop (the stored url is the path, whatever host served it). */
function localPath(url: string): string {
  try {
    const u = new URL(url, window.location.origin);
    return u.origin === window.location.origin || u.pathname.startsWith('/files/') ? `${u.pathname}${u.search}` : url;
  } catch {
    return url;
  }
}

export function ProductImages({ images, onChange, errors }: { images: Images; onChange(images: Images): void; errors: Record<string, string> }) {
  const move = (i: number, by: number) => {
    const next = [...images];
    const [img] = next.splice(i, 1);
    next.splice(i + by, 0, img);
    onChange(next);
  };
  return (
    <div className="flex flex-col gap-4">
      {!images.length && <p className="text-sm text-ink-muted">No pictures yet. The first picture is the one listings show.</p>}
      <ol className="flex flex-col gap-3">
        {images.map((img, i) => (
          <li key={img.key} className="flex flex-wrap items-start gap-3 rounded-lg border border-sand-200 p-2">
            <img src={img.url} alt="" width={72} height={72} className="h-18 w-18 rounded-md border border-sand-200 bg-sand-50 object-contain" />
            <div className="min-w-48 flex-1">
              <Field
                id={`image-${i}-alt`}
                label={i === 0 ? 'Alternative text (main picture)' : `Alternative text (picture ${i + 1})`}
                error={errors[`images.${i}.url`]}
              >
                <input
                  className={inputClass}
                  value={img.alt}
                  maxLength={200}
                  onChange={(e) => onChange(images.map((x, j) => (j === i ? { ...x, alt: e.target.value } : x)))}
                  {...describedBy(`image-${i}-alt`, errors[`images.${i}.url`])}
                />
              </Field>
              {img.variantValue && <p className="mt-1 text-xs text-ink-muted">Shown for the option “{img.variantValue}”.</p>}
            </div>
            <div className="flex gap-1">
              <button
                type="button"
                className="h-9 rounded-md border border-sand-300 px-2 text-sm disabled:opacity-40"
                disabled={i === 0}
                onClick={() => move(i, -1)}
                aria-label={`Move picture ${i + 1} up`}
              >
                ↑
              </button>
              <button
                type="button"
                className="h-9 rounded-md border border-sand-300 px-2 text-sm disabled:opacity-40"
                disabled={i === images.length - 1}
                onClick={() => move(i, 1)}
                aria-label={`Move picture ${i + 1} down`}
              >
                ↓
              </button>
              <button
                type="button"
                className="h-9 rounded-md border border-sand-300 px-2 text-sm text-danger-600"
                onClick={() => onChange(images.filter((_, j) => j !== i))}
                aria-label={`Remove picture ${i + 1}`}
              >
                Remove
              </button>
            </div>
          </li>
        ))}
      </ol>
      <FileUploadField
        label="Upload a picture"
        type="image"
        buttonText="Choose a picture"
        onUploaded={(file) => onChange([...images, { key: newKey(), url: localPath(file.cdnUrl), alt: '', variantValue: null }])}
      />
    </div>
  );
}
