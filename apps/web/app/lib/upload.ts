import {
  NetworkError,
  type ResumeStore,
  type TUploadedFile,
  type TUploadType,
  type Transport,
  UploadCancelledError,
  UploadError,
  type UploadProgress,
  uploadSource,
} from '@storefront/shared';
import { apiHeaders } from './api-client.ts';

// The web app's one upload helper. The protocol — direct or multipart by size,
// 4 parts at a time, retries, resume, URL imports polled every 500 ms — lives in
// packages/shared/src/upload-client.ts and is unit-tested there; this file gives it the
// browser's transport (XMLHttpRequest, because fetch cannot report upload progress) and a
// place to remember unfinished uploads (localStorage, so a reload can resume).

export { UploadCancelledError, UploadError, type UploadProgress };

/** Sends one request with XMLHttpRequest, reporting upload progress. */
const xhrTransport: Transport = (req) =>
  new Promise((resolve, reject) => {
    if (req.signal?.aborted) return reject(new UploadCancelledError());
    const xhr = new XMLHttpRequest();
    xhr.open(req.method, req.url);
    for (const [k, v] of Object.entries(apiHeaders())) xhr.setRequestHeader(k, v);
    xhr.setRequestHeader('accept', 'application/json');
    if (req.onUploadProgress) {
      const report = req.onUploadProgress;
      xhr.upload.onprogress = (e) => report(e.loaded);
    }
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        // Not JSON: the status says what happened.
      }
      resolve({ status: xhr.status, body, header: (name) => xhr.getResponseHeader(name) });
    };
    xhr.onerror = () => reject(new NetworkError());
    xhr.ontimeout = () => reject(new NetworkError());
    xhr.onabort = () => reject(new UploadCancelledError());
    const abort = () => xhr.abort();
    req.signal?.addEventListener('abort', abort, { once: true });
    xhr.onloadend = () => req.signal?.removeEventListener('abort', abort);

    if (req.form) {
      const form = new FormData();
      form.append('type', req.form.type);
      form.append('file', req.form.file as Blob, (req.form.file as File).name ?? 'file');
      xhr.send(form);
    } else if (req.json !== undefined) {
      xhr.setRequestHeader('content-type', 'application/json');
      xhr.send(JSON.stringify(req.json));
    } else if (req.bytes !== undefined) {
      xhr.setRequestHeader('content-type', 'application/octet-stream');
      xhr.send(req.bytes as Blob);
    } else {
      xhr.send();
    }
  });

const RESUME_PREFIX = 'upload-resume:';

/** Unfinished multipart uploads by file (name, size, date, type): a retry after a reload resumes them. */
const localResume: ResumeStore = {
  get: (key) => {
    try {
      return localStorage.getItem(RESUME_PREFIX + key);
    } catch {
      return null;
    }
  },
  set: (key, uuid) => {
    try {
      localStorage.setItem(RESUME_PREFIX + key, uuid);
    } catch {
      // Private mode or full storage: the upload still works, it just cannot resume.
    }
  },
  delete: (key) => {
    try {
      localStorage.removeItem(RESUME_PREFIX + key);
    } catch {
      // as above
    }
  },
};

/**
 * Uploads a File, imports an http(s) URL, or looks up a file UUID (spec §5) and resolves
 * with the stored file (spec §3). Rejects with UploadError (code, message for the shopper)
 * or UploadCancelledError when `signal` aborts.
 */
export function uploadFile(
  source: File | string,
  opts: { type: TUploadType; onProgress?: (p: UploadProgress) => void; signal?: AbortSignal },
): Promise<TUploadedFile> {
  return uploadSource(source, { ...opts, transport: xhrTransport, resume: localResume });
}
