import type { Readable } from 'node:stream';

/**
 * Where uploaded bytes live. The default keeps them on the local disk under the data
 * folder (local-disk.storage.ts); an S3-compatible store implements the same calls with
 * PutObject, GetObject (Range), HeadObject, DeleteObject and the multipart trio
 * CreateMultipartUpload / UploadPart / CompleteMultipartUpload (whose part rules — 5 MB
 * parts, a smaller last one — our protocol keeps, spec §9).
 *
 * Keys are chosen by the server only (files.service.ts); no client text ever becomes one.
 */
export interface FileStorage {
  /** Stores a whole object. Beyond maxBytes it fails with StorageTooLargeError and keeps nothing. */
  put(key: string, body: Readable, opts: { maxBytes: number }): Promise<{ size: number }>;
  /** The object's bytes, or a range of them (inclusive end); StorageNotFoundError when absent. */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /** The object's size, or null when absent. */
  stat(key: string): Promise<{ size: number } | null>;
  /** Removes the object; removing an absent object is not an error. */
  delete(key: string): Promise<void>;

  /** Begins a multipart upload to `key` and answers the storage's id for it. */
  createMultipart(key: string): Promise<string>;
  /** Stores one part (a part sent again replaces the earlier one). */
  putPart(key: string, uploadId: string, partNumber: number, body: Readable, opts: { maxBytes: number }): Promise<{ size: number; etag: string }>;
  /** Joins the parts, in the order given, into the object at `key` and forgets the parts. */
  completeMultipart(key: string, uploadId: string, parts: { partNumber: number; etag: string }[]): Promise<{ size: number }>;
  /** Forgets an unfinished upload and its parts; aborting an unknown upload is not an error. */
  abortMultipart(key: string, uploadId: string): Promise<void>;

  /**
   * Bytes still free where the objects are kept, or null when the store cannot tell or
   * has no such limit (an S3 bucket): guest uploads stop before a local disk fills
   * (docs/decisions/0024).
   */
  freeBytes?(): Promise<number | null>;
}

export class StorageTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`more than ${maxBytes} bytes`);
  }
}

export class StorageNotFoundError extends Error {
  constructor(key: string) {
    super(`no stored object ${key}`);
  }
}
