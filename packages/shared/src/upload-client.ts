import { UPLOAD } from './constants.ts';
import { MESSAGES } from './messages.ts';
import { type FileLike, type TUploadType, classifyUploadSource, retryDelayMs, shouldUseMultipart } from './upload.ts';
import type { TMultipartUpload, TUploadedFile, TUploadTask } from './upload-schemas.ts';

// The upload client of spec §4/§8/§9, free of browser and Node APIs: the transport (XHR in
// the web app, anything in a test) is passed in. It picks a direct or a multipart upload
// by size, sends parts 4 at a time, retries throttled requests and network errors, resumes
// an interrupted multipart upload, reports progress and stops when its signal aborts.

export interface TransportRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  /** A JSON body. */
  json?: unknown;
  /** A multipart form (POST /api/files). */
  form?: { file: FileLike; type: TUploadType };
  /** Raw bytes (a part): a slice of the file. */
  bytes?: unknown;
  /** Bytes of the request body sent so far. */
  onUploadProgress?: (loaded: number) => void;
  signal?: AbortSignal;
}

export interface TransportResponse {
  status: number;
  header(name: string): string | null;
  body: unknown;
}

/** Sends one request. Rejects with NetworkError when no answer came, and with the signal's reason when aborted. */
export type Transport = (req: TransportRequest) => Promise<TransportResponse>;

export class NetworkError extends Error {
  constructor() {
    super('network error');
  }
}

/** A failed upload, in the one error shape of the API (code, message), plus the HTTP status (0: none). */
export class UploadError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 0,
  ) {
    super(message);
  }
}

export class UploadCancelledError extends Error {
  constructor() {
    super('The upload was cancelled');
  }
}

export interface UploadProgress {
  loaded: number;
  /** Total bytes, when known (a URL import may not say). */
  total: number | null;
  /** What is happening: sending bytes, or the server importing / joining. */
  phase: 'uploading' | 'processing';
}

/** Where a multipart upload's uuid is kept between attempts, so a new attempt can resume it. */
export interface ResumeStore {
  get(key: string): string | null;
  set(key: string, uuid: string): void;
  delete(key: string): void;
}

export interface UploadOptions {
  type: TUploadType;
  transport: Transport;
  onProgress?: (p: UploadProgress) => void;
  signal?: AbortSignal;
  resume?: ResumeStore;
  /** Waits ms (or until the signal aborts); tests pass a fake clock. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(new UploadCancelledError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new UploadCancelledError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

function errorOf(res: TransportResponse): UploadError {
  const e = (res.body as { error?: { code?: string; message?: string } } | null)?.error;
  return new UploadError(e?.code ?? `http_${res.status}`, e?.message ?? `The upload failed (${res.status})`, res.status);
}

/**
 * One request with the retries of spec §8/§9: a 429 waits for Retry-After (15 s when absent),
 * a network error is tried again up to 3 times after 1 s × attempt. Any other answer is
 * returned as it is.
 */
export async function sendWithRetries(transport: Transport, req: TransportRequest, sleep = defaultSleep): Promise<TransportResponse> {
  let network = 0;
  let throttled = 0;
  for (;;) {
    if (req.signal?.aborted) throw new UploadCancelledError();
    let res: TransportResponse;
    try {
      res = await transport(req);
    } catch (err) {
      if (req.signal?.aborted) throw new UploadCancelledError();
      if (!(err instanceof NetworkError)) throw err;
      const wait = retryDelayMs({ kind: 'network', attempt: ++network });
      if (wait === null) throw new UploadError('network_error', MESSAGES.network.unreachable);
      await sleep(wait, req.signal);
      continue;
    }
    if (res.status === 429) {
      const wait = retryDelayMs({ kind: 'throttled', attempt: ++throttled, retryAfter: res.header('retry-after') });
      if (wait === null) return res;
      await sleep(wait, req.signal);
      continue;
    }
    return res;
  }
}

/** Runs `work` over the items, at most `limit` at a time; the first failure stops new work and is thrown. */
export async function runPool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed: unknown = null;
  const lane = async () => {
    while (failed === null && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (err) {
        if (failed === null) failed = err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (failed !== null) throw failed;
}

async function expectOk<T>(res: TransportResponse, ok = [200, 201, 202]): Promise<T> {
  if (!ok.includes(res.status)) throw errorOf(res);
  return res.body as T;
}

function resumeKey(file: FileLike, type: TUploadType): string {
  const modified = (file as { lastModified?: number }).lastModified ?? 0;
  return `${type}:${file.name ?? ''}:${file.size}:${modified}`;
}

async function uploadDirect(file: FileLike, o: UploadOptions): Promise<TUploadedFile> {
  const sleep = o.sleep ?? defaultSleep;
  const total = file.size;
  const res = await sendWithRetries(
    o.transport,
    {
      method: 'POST',
      url: '/api/files',
      form: { file, type: o.type },
      signal: o.signal,
      onUploadProgress: (loaded) => o.onProgress?.({ loaded: Math.min(loaded, total), total, phase: loaded >= total ? 'processing' : 'uploading' }),
    },
    sleep,
  );
  return expectOk<TUploadedFile>(res);
}

async function uploadMultipart(file: FileLike, o: UploadOptions): Promise<TUploadedFile> {
  const sleep = o.sleep ?? defaultSleep;
  const send = (req: TransportRequest) => sendWithRetries(o.transport, { ...req, signal: o.signal }, sleep);
  const key = resumeKey(file, o.type);

  // Resume an earlier attempt at the same file when the server still has it.
  let upload: TMultipartUpload | null = null;
  const known = o.resume?.get(key);
  if (known) {
    const res = await send({ method: 'GET', url: `/api/files/multipart/${known}` });
    if (res.status === 200 && (res.body as TMultipartUpload).size === file.size) upload = res.body as TMultipartUpload;
    else o.resume?.delete(key);
  }
  if (!upload) {
    upload = await expectOk<TMultipartUpload>(
      await send({
        method: 'POST',
        url: '/api/files/multipart/start',
        json: { filename: file.name || 'file', size: file.size, contentType: file.type || undefined, type: o.type },
      }),
    );
    o.resume?.set(key, upload.uuid);
  }

  const done = new Set(upload.completedParts);
  const inFlight = new Map<number, number>();
  let finished = upload.parts.filter((p) => done.has(p.partNumber)).reduce((n, p) => n + p.size, 0);
  const report = () => {
    let loaded = finished;
    for (const v of inFlight.values()) loaded += v;
    o.onProgress?.({ loaded, total: file.size, phase: 'uploading' });
  };
  report();

  try {
    await runPool(
      upload.parts.filter((p) => !done.has(p.partNumber)),
      UPLOAD.concurrency,
      async (part) => {
        const res = await send({
          method: 'PUT',
          url: part.url,
          bytes: file.slice(part.offset, part.offset + part.size, 'application/octet-stream'),
          onUploadProgress: (loaded) => {
            inFlight.set(part.partNumber, Math.min(loaded, part.size));
            report();
          },
        });
        inFlight.delete(part.partNumber);
        await expectOk(res);
        finished += part.size;
        report();
      },
    );
    o.onProgress?.({ loaded: file.size, total: file.size, phase: 'processing' });
    // Another process may still be joining the parts (409): ask again shortly.
    for (let attempt = 1; ; attempt++) {
      const res = await send({ method: 'POST', url: `/api/files/multipart/${upload.uuid}/complete` });
      if (res.status === 409 && attempt < 5) {
        await sleep(UPLOAD.networkBackoffMs * attempt, o.signal);
        continue;
      }
      const file_ = await expectOk<TUploadedFile>(res);
      o.resume?.delete(key);
      return file_;
    }
  } catch (err) {
    if (err instanceof UploadCancelledError || o.signal?.aborted) {
      // A cancelled upload is dropped on the server too; a failed one is kept to resume.
      o.resume?.delete(key);
      await o.transport({ method: 'DELETE', url: `/api/files/multipart/${upload.uuid}` }).catch(() => {});
      throw new UploadCancelledError();
    }
    if (err instanceof UploadError && err.status >= 400 && err.status < 500 && err.status !== 429) o.resume?.delete(key);
    throw err;
  }
}

async function importFromUrl(url: string, o: UploadOptions): Promise<TUploadedFile> {
  const sleep = o.sleep ?? defaultSleep;
  const send = (req: TransportRequest) => sendWithRetries(o.transport, { ...req, signal: o.signal }, sleep);
  let task = await expectOk<TUploadTask>(await send({ method: 'POST', url: '/api/files/from-url', json: { sourceUrl: url, type: o.type } }));
  // spec §4: poll the task every 500 ms until it ends.
  for (;;) {
    o.onProgress?.({ loaded: task.done, total: task.total, phase: task.status === 'progress' ? 'uploading' : 'processing' });
    if (task.status === 'success') {
      if (task.file) return task.file;
      throw new UploadError('import_failed', 'The file could not be imported');
    }
    if (task.status === 'error') throw new UploadError(task.error?.code ?? 'import_failed', task.error?.message ?? 'The file could not be imported');
    if (task.status === 'unknown') throw new UploadError('import_failed', 'The import was lost; please try again');
    await sleep(UPLOAD.pollIntervalMs, o.signal);
    task = await expectOk<TUploadTask>(await send({ method: 'GET', url: `/api/files/from-url/${task.token}` }));
  }
}

/**
 * Uploads a file object, imports an http(s) URL, or looks up an uploaded file's UUID
 * (spec §5); anything else fails with 'File uploading from ... is not supported'.
 * Throws UploadError (code, message) or UploadCancelledError.
 */
export async function uploadSource(source: unknown, o: UploadOptions): Promise<TUploadedFile> {
  const s = classifyUploadSource(source);
  if (s.kind === 'unsupported') throw new UploadError('unsupported_source', s.message);
  if (o.signal?.aborted) throw new UploadCancelledError();
  if (s.kind === 'uuid') {
    return expectOk<TUploadedFile>(await sendWithRetries(o.transport, { method: 'GET', url: `/api/files/${s.uuid}`, signal: o.signal }, o.sleep));
  }
  if (s.kind === 'url') return importFromUrl(s.url, o);
  if (s.file.size > UPLOAD.maxBytes) {
    throw new UploadError('payload_too_large', `The file is larger than the ${UPLOAD.maxBytes / 1024 / 1024} MB limit`, 413);
  }
  if (s.file.size === 0) throw new UploadError('bad_request', 'The file is empty', 400);
  return shouldUseMultipart(s.file.size) ? uploadMultipart(s.file, o) : uploadDirect(s.file, o);
}
