import { PICTURE_LIMITS, type TUploadedFile, type TUploadType, UPLOAD, UPLOAD_ACCEPT } from '@storefront/shared';
import { type ChangeEvent, useId, useRef } from 'react';
import { useT } from '../../lib/i18n.tsx';
import { useUpload } from '../../lib/use-upload.ts';
import { Button } from '../ui/button.tsx';
import { UploadProgress, formatBytes } from '../ui/progress.tsx';

/** The accepted kinds as the hint names them (English ids, translated where shown). */
const KINDS: Record<TUploadType, string> = {
  image: 'PNG, JPEG, GIF or WebP',
  document: 'PNG, JPEG, GIF, WebP or PDF',
};

/**
 * A labelled "choose a file" control that uploads at once with a progress bar and Cancel
 *, for any screen that takes a file: a booking's payment proof, a profile
 * picture. `onUploaded` gets the stored file (its uuid is what other endpoints take).
 */
export function FileUploadField({
  label,
  type,
  onUploaded,
  maxBytes = UPLOAD.maxBytes,
  buttonText,
  disabled = false,
  accept,
  maxSide,
}: {
  label: string;
  type: TUploadType;
  onUploaded(file: TUploadedFile): void | Promise<void>;
  maxBytes?: number;
  buttonText?: string;
  disabled?: boolean;
  /** Narrower than the upload type allows (a logo: no GIF): the MIME types and how the hint names them. */
  accept?: { types: readonly string[]; names: string };
  /** Narrower than the upload type's largest picture (a logo: 2000 px), for the hint. */
  maxSide?: number;
}) {
  const id = useId();
  const { t, digits, n } = useT();
  const types = accept?.types ?? UPLOAD_ACCEPT[type];
  const names = t(accept?.names ?? KINDS[type]);
  const size = digits(formatBytes(maxBytes));
  const input = useRef<HTMLInputElement>(null);
  const last = useRef<File | null>(null);
  const { state, start, cancel, refuse } = useUpload();
  const running = state.phase === 'uploading' || state.phase === 'processing';

  async function send(file: File) {
    last.current = file;
    // Quick answers for the obvious cases; the server decides from the bytes either way.
    if (file.size > maxBytes) return refuse(file.name, t('Please choose a file of at most {size}.', { size }));
    if (file.type && !types.includes(file.type)) return refuse(file.name, t('Please choose a {kinds} file.', { kinds: names }));
    const stored = await start(file, type);
    if (stored) await onUploaded(stored);
  }

  function choose(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (file) void send(file);
  }

  // The largest picture the upload takes (docs/decisions/0050): a phone photo's megapixels
  // for a document such as a payment slip, pixels wide and high for a picture.
  const limit = PICTURE_LIMITS[type];
  const hint =
    type === 'document' && maxSide === undefined
      ? t('{kinds}, up to {size}; a photo of up to {megapixels} megapixels.', { kinds: names, size, megapixels: n(Math.floor(limit.maxPixels / 1e6)) })
      : t('{kinds}, up to {size} and {side} pixels wide and high.', { kinds: names, size, side: n(maxSide ?? limit.maxSide) });
  return (
    <div>
      <p id={`${id}-label`} className="text-sm font-semibold text-ink">
        {label}
      </p>
      <p id={`${id}-hint`} className="mt-0.5 text-sm text-ink-muted">
        {hint}
      </p>
      <input
        ref={input}
        id={id}
        type="file"
        accept={types.join(',')}
        className="sr-only"
        tabIndex={-1}
        aria-labelledby={`${id}-label`}
        onChange={choose}
        data-testid="file-upload-input"
      />
      {!running && (
        <Button variant="secondary" className="mt-3" disabled={disabled} aria-describedby={`${id}-hint`} onClick={() => input.current?.click()}>
          {state.phase === 'done' ? t('Choose another file') : (buttonText ?? t('Choose a file'))}
        </Button>
      )}
      <div className="mt-3 max-w-md" aria-live="polite">
        <UploadProgress
          state={state}
          label={t('Uploading {file}', { file: label.toLowerCase() })}
          onCancel={cancel}
          onRetry={last.current ? () => void send(last.current!) : undefined}
        />
      </div>
    </div>
  );
}
