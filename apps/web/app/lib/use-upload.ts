import type { TUploadedFile, TUploadType } from '@storefront/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useT } from './i18n.tsx';
import { translateMessage } from './translate-message.ts';
import { UploadCancelledError, UploadError, uploadFile } from './upload.ts';

export type UploadState =
  | { phase: 'idle' }
  | { phase: 'uploading' | 'processing'; name: string; loaded: number; total: number | null }
  | { phase: 'done'; name: string; file: TUploadedFile }
  /** retryable: worth sending the same file again (the network or the server failed, not the file). */
  /** message: in the page's language (the server's English reasons are translated here). */
  | { phase: 'error'; name: string; message: string; retryable: boolean }
  | { phase: 'cancelled'; name: string };

function nameOf(source: File | string): string {
  if (typeof source !== 'string') return source.name || 'file';
  try {
    return decodeURIComponent(new URL(source).pathname.split('/').filter(Boolean).pop() ?? '') || source;
  } catch {
    return source;
  }
}

/**
 * Runs one upload at a time for a screen and keeps its state for <UploadProgress>:
 * `start` resolves with the stored file, or null when it failed or was cancelled (the
 * state then says why). Leaving the screen cancels an upload in flight.
 */
export function useUpload() {
  const [state, setState] = useState<UploadState>({ phase: 'idle' });
  const current = useRef<AbortController | null>(null);
  const l = useT();

  useEffect(() => () => current.current?.abort(), []);

  const start = useCallback(
    async (source: File | string, type: TUploadType): Promise<TUploadedFile | null> => {
      current.current?.abort();
      const ctl = new AbortController();
      current.current = ctl;
      const name = nameOf(source);
      const total = typeof source === 'string' ? null : source.size;
      setState({ phase: 'uploading', name, loaded: 0, total });
      try {
        const file = await uploadFile(source, {
          type,
          signal: ctl.signal,
          onProgress: (p) => {
            if (current.current === ctl) setState({ phase: p.phase, name, loaded: p.loaded, total: p.total });
          },
        });
        if (current.current === ctl) setState({ phase: 'done', name, file });
        return file;
      } catch (err) {
        if (current.current !== ctl) return null;
        if (err instanceof UploadCancelledError) setState({ phase: 'cancelled', name });
        else if (err instanceof UploadError) {
          const retryable = err.status === 0 || err.status === 429 || err.status >= 500;
          setState({ phase: 'error', name, message: translateMessage(l, err.message), retryable });
        } else setState({ phase: 'error', name, message: l.t('The file could not be uploaded. Please try again.'), retryable: true });
        return null;
      } finally {
        if (current.current === ctl) current.current = null;
      }
    },
    [l],
  );

  const cancel = useCallback(() => current.current?.abort(), []);
  /** Shows a refusal decided before uploading (too large, wrong kind). */
  const refuse = useCallback((name: string, message: string) => {
    current.current?.abort();
    current.current = null;
    setState({ phase: 'error', name, message, retryable: false });
  }, []);
  const reset = useCallback(() => {
    current.current?.abort();
    current.current = null;
    setState({ phase: 'idle' });
  }, []);

  return { state, start, cancel, reset, refuse };
}
