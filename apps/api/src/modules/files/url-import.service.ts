import { randomUUID } from 'node:crypto';
import { Transform } from 'node:stream';
import { MESSAGES, type TUploadTask, type TUploadTaskStatus, type TUploadType, UPLOAD } from '@storefront/shared';
import { ApiError, notFound } from '../../lib/errors.ts';
import type { AddressPolicy } from './address-policy.ts';
import * as repo from './files.repository.ts';
import type { ImportRow } from './files.repository.ts';
import { type FilesDeps, acceptObject, storeObject, toUploadedFile, tooLarge } from './files.service.ts';
import { FetchRefusedError, type Resolver, precheckUrl, safeGet } from './safe-fetch.ts';
import { type Hold, type Uploader, overHoldError, releaseHold, reserveUpload, shrinkHold } from './upload-quota.ts';

/** One import may take this long from its first byte request to its last byte. */
const IMPORT_TIMEOUT_MS = 90_000;
/** A task still waiting or in progress after this long was lost with its process. */
const STALE_AFTER_MS = 3 * 60_000;
/** Imports run at once per process; the rest wait their turn (status "waiting"). */
const MAX_RUNNING = 4;
const MAX_QUEUED = 200;

const nowIso = () => new Date().toISOString();

interface ImportJob {
  token: string;
  url: string;
  type: TUploadType;
  who: Uploader;
  /** Room reserved under the uploader's quota when the import started (docs/decisions/0024). */
  hold: Hold;
}

function nameFromUrl(url: URL): string {
  const last = url.pathname.split('/').filter(Boolean).pop() ?? '';
  try {
    return decodeURIComponent(last) || url.hostname;
  } catch {
    return last || url.hostname;
  }
}

/**
 * Imports files from http(s) URLs (spec §4: start, then poll the task status). The task
 * lives in the database, so any process can answer a status poll; the download runs in
 * the process that accepted the start.
 */
export class UrlImporter {
  private readonly running = new Map<string, AbortController>();
  private readonly queue: ImportJob[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;

  constructor(private readonly deps: FilesDeps & { policy: AddressPolicy; resolve?: Resolver; log?: { warn(o: object, m: string): void } }) {}

  async start(input: { sourceUrl: string; type: TUploadType; who: Uploader }): Promise<TUploadTask> {
    const raw = input.sourceUrl.trim();
    if (!/^https?:\/\//i.test(raw))
      throw new ApiError('unsupported_source', MESSAGES.uploadUnsupported(raw.slice(0, 100)), { sourceUrl: MESSAGES.uploadUnsupported(raw.slice(0, 100)) });
    // Refuse what is refusable without the network (scheme, IP literals) at once.
    try {
      precheckUrl(raw, this.deps.policy);
    } catch (err) {
      if (err instanceof FetchRefusedError) {
        const code = err.code === 'unsupported_source' ? 'unsupported_source' : err.code;
        throw new ApiError(code, err.message, { sourceUrl: err.message }, err.code === 'address_not_allowed' ? 403 : 400);
      }
      throw err;
    }
    if (this.queue.length >= MAX_QUEUED || this.closed)
      throw new ApiError('service_unavailable', 'Too many imports are waiting; please try again shortly', undefined, 503);
    // The size is known only once the source answers: reserve what is left of the quota (up
    // to 50 MB) now, refuse at once when nothing is, and cut the download off at the hold.
    const hold = await reserveUpload(this.deps, input.who, { bytes: UPLOAD.maxBytes, atLeast: 1 });
    const at = nowIso();
    let row: ImportRow;
    try {
      row = await repo.insertImport(this.deps.db, {
        token: randomUUID(),
        owner_customer_id: input.who.customerId,
        source_url: raw.slice(0, 2048),
        upload_type: input.type,
        status: 'waiting',
        done_bytes: 0,
        total_bytes: null,
        error_code: null,
        error_message: null,
        file_uuid: null,
        created_at: at,
        updated_at: at,
      });
    } catch (err) {
      await releaseHold(this.deps.db, hold);
      throw err;
    }
    this.queue.push({ token: row.token, url: raw, type: input.type, who: input.who, hold });
    this.pump();
    return this.view(row);
  }

  /** The task's status (spec §4); others' tasks look absent, unknown tokens say "unknown". */
  async status(token: string, owner: number | null): Promise<TUploadTask> {
    const row = /^[0-9a-f-]{36}$/i.test(token) ? await repo.importByToken(this.deps.db, token.toLowerCase()) : undefined;
    if (!row) return { token, status: 'unknown', done: 0, total: null, error: null, file: null };
    if (row.owner_customer_id !== null && row.owner_customer_id !== owner) throw notFound('The import');
    return this.view(row);
  }

  private async view(row: ImportRow): Promise<TUploadTask> {
    let status = row.status as TUploadTaskStatus;
    let error = row.error_code ? { code: row.error_code, message: row.error_message ?? '' } : null;
    if ((status === 'waiting' || status === 'progress') && Date.now() - Date.parse(row.updated_at) > STALE_AFTER_MS) {
      status = 'error';
      error = { code: 'import_interrupted', message: 'The import was interrupted; please try again' };
    }
    const file = row.file_uuid ? await repo.fileByUuid(this.deps.db, row.file_uuid) : undefined;
    return {
      token: row.token,
      status,
      done: row.done_bytes,
      total: row.total_bytes,
      error,
      file: file ? toUploadedFile(file, this.deps.imageHost) : null,
    };
  }

  private pump() {
    while (!this.closed && this.running.size < MAX_RUNNING && this.queue.length > 0) {
      const job = this.queue.shift()!;
      const ctl = new AbortController();
      this.running.set(job.token, ctl);
      const p = this.run(job, ctl.signal)
        .catch((err) => this.deps.log?.warn({ err }, 'url import failed unexpectedly'))
        .finally(() => releaseHold(this.deps.db, job.hold).catch(() => {}))
        .finally(() => {
          this.running.delete(job.token);
          this.inFlight.delete(p);
          this.pump();
        });
      this.inFlight.add(p);
    }
  }

  private async run(job: ImportJob, signal: AbortSignal) {
    const db = this.deps.db;
    const fail = (code: string, message: string) =>
      repo.updateImport(db, job.token, { status: 'error', error_code: code, error_message: message, updated_at: nowIso() });
    // "waiting" until the source answers (queued, resolving, connecting); "progress" while bytes arrive.
    const timeout = AbortSignal.timeout(IMPORT_TIMEOUT_MS);
    const both = AbortSignal.any([signal, timeout]);
    try {
      const { response, url } = await safeGet(job.url, { policy: this.deps.policy, signal: both, resolve: this.deps.resolve });
      const declared = Number(response.headers['content-length']);
      const total = Number.isSafeInteger(declared) && declared >= 0 ? declared : null;
      let limit = Math.min(UPLOAD.maxBytes, job.hold.bytes);
      const overLimit = () => overHoldError(job.who, job.hold, this.deps.quota, tooLarge);
      if (total !== null && total > limit) {
        response.destroy();
        const err = total > UPLOAD.maxBytes ? tooLarge() : overLimit();
        return await fail(String(err.code), err.message);
      }
      if (total !== null && total < job.hold.bytes) {
        // The source said how large the file is: keep only that much of the room reserved.
        await shrinkHold(db, job.hold, total);
        limit = total;
      }
      await repo.updateImport(db, job.token, { status: 'progress', total_bytes: total, updated_at: nowIso() });
      // Progress goes to the database at most every 250 ms, one write at a time.
      let done = 0;
      let lastWrite = 0;
      let writing: Promise<void> = Promise.resolve();
      const counter = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          done += chunk.length;
          const now = Date.now();
          if (now - lastWrite >= 250) {
            lastWrite = now;
            const value = done;
            writing = writing.then(() => repo.updateImport(db, job.token, { done_bytes: value, updated_at: nowIso() })).catch(() => {});
          }
          cb(null, chunk);
        },
      });
      response.on('error', (err) => counter.destroy(err));
      both.addEventListener('abort', () => response.destroy(new Error('aborted')), { once: true });
      const obj = await storeObject(this.deps.storage, response.pipe(counter), limit, overLimit);
      await writing;
      const file = await acceptObject(this.deps, obj, {
        type: job.type,
        filename: nameFromUrl(url),
        owner: job.who.customerId,
        address: job.who.address,
        holdId: job.hold.id,
        source: 'url',
      });
      await repo.updateImport(db, job.token, { status: 'success', done_bytes: obj.size, file_uuid: file.uuid, updated_at: nowIso() });
    } catch (err) {
      if (err instanceof FetchRefusedError) return fail(err.code, err.message);
      if (err instanceof ApiError) return fail(String(err.code), err.message);
      if (timeout.aborted) return fail('source_timeout', 'The source took too long to send the file');
      if (signal.aborted) return fail('import_interrupted', 'The import was interrupted; please try again');
      await fail('source_unreachable', 'The file could not be fetched');
      throw err;
    }
  }

  /** Stops running imports (server shutdown); their tasks end as errors. */
  async close() {
    this.closed = true;
    for (const job of this.queue.splice(0)) {
      await releaseHold(this.deps.db, job.hold).catch(() => {});
      await repo
        .updateImport(this.deps.db, job.token, {
          status: 'error',
          error_code: 'import_interrupted',
          error_message: 'The import was interrupted; please try again',
          updated_at: nowIso(),
        })
        .catch(() => {});
    }
    for (const ctl of this.running.values()) ctl.abort();
    await Promise.allSettled([...this.inFlight]);
  }
}
