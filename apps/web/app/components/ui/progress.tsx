import type { UploadState } from '../../lib/use-upload.ts';
import { useT } from '../../lib/i18n.tsx';
import { Button } from './button.tsx';

/** Bytes for people: 950 KB, 12.4 MB (units are symbols: the same in Bangla). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KB`;
  return `${(n / 1024 / 1024).toFixed(n < 10 * 1024 * 1024 ? 1 : 0)} MB`;
}

/**
 * A progress bar. Without a known total it is indeterminate (a pulsing bar), and says so
 * to screen readers by leaving out aria-valuenow.
 */
export function ProgressBar({ value, max, label, className = '' }: { value: number; max: number | null; label: string; className?: string }) {
  const percent = max ? Math.min(100, Math.round((value / max) * 100)) : null;
  const { t, n } = useT();
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent ?? undefined}
      aria-valuetext={percent === null ? t('Working…') : `${n(percent)}%`}
      className={`h-2.5 overflow-hidden rounded-full bg-sand-200 ${className}`}
    >
      {percent === null ? (
        <div className="h-full w-full animate-pulse rounded-full bg-brand-600/70 motion-reduce:animate-none" />
      ) : (
        <div className="h-full rounded-full bg-brand-700 transition-[width] duration-200 motion-reduce:transition-none" style={{ width: `${percent}%` }} />
      )}
    </div>
  );
}

/**
 * Where a file upload stands: name, bar, bytes and percent, and a Cancel button
 * while it runs; the server's reason when it failed. Renders nothing when idle.
 */
export function UploadProgress({ state, onCancel, onRetry, label }: { state: UploadState; onCancel(): void; onRetry?(): void; label?: string }) {
  const { t, digits } = useT();
  if (state.phase === 'idle') return null;
  const running = state.phase === 'uploading' || state.phase === 'processing';
  return (
    <div className="rounded-card border border-sand-200 bg-paper p-3 shadow-card" data-testid="upload-progress">
      <div className="flex items-center justify-between gap-3">
        <p className="min-w-0 truncate text-sm font-medium text-ink" title={state.name}>
          {state.name}
        </p>
        {running && (
          <Button variant="ghost" size="sm" onClick={onCancel} aria-label={t('Cancel uploading {name}', { name: state.name })}>
            {t('Cancel')}
          </Button>
        )}
        {state.phase === 'error' && state.retryable && onRetry && (
          <Button variant="secondary" size="sm" onClick={onRetry}>
            {t('Try again')}
          </Button>
        )}
      </div>
      {running && (
        <>
          <ProgressBar
            className="mt-2"
            label={label ?? t('Upload progress')}
            value={state.phase === 'processing' ? 0 : state.loaded}
            max={state.phase === 'processing' ? null : state.total}
          />
          <p className="mt-1.5 text-xs text-ink-muted" aria-live="polite">
            {state.phase === 'processing'
              ? t('Processing…')
              : state.total
                ? t('{loaded} of {total} · {percent}%', {
                    loaded: digits(formatBytes(state.loaded)),
                    total: digits(formatBytes(state.total)),
                    percent: digits(String(Math.round((state.loaded / state.total) * 100))),
                  })
                : t('{loaded} received', { loaded: digits(formatBytes(state.loaded)) })}
          </p>
        </>
      )}
      {state.phase === 'done' && (
        <p className="mt-1 text-sm text-success-600" role="status">
          {t('Uploaded')}
        </p>
      )}
      {state.phase === 'cancelled' && (
        <p className="mt-1 text-sm text-ink-muted" role="status">
          {t('Upload cancelled')}
        </p>
      )}
      {state.phase === 'error' && (
        <p className="mt-1 text-sm font-medium text-danger-600" role="alert">
          {t(state.message)}
        </p>
      )}
    </div>
  );
}
