import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type FileStorage, StorageNotFoundError, StorageTooLargeError } from './storage.ts';

// Keys are made by the server (yyyy/mm/uuid); the pattern is a second line of defence so
// that even a bug elsewhere cannot make a key climb out of the root folder.
const KEY = /^[a-z0-9]+(?:[/-][a-z0-9]+)*$/;
const UPLOAD_ID = /^[0-9a-f-]{36}$/;

/** Counts bytes going through and fails the stream as soon as there are too many. */
function limiter(maxBytes: number, onChunk?: (chunk: Buffer) => void): Transform & { bytes: number } {
  const t = new Transform({
    transform(chunk: Buffer, _enc, done) {
      t.bytes += chunk.length;
      if (t.bytes > maxBytes) return done(new StorageTooLargeError(maxBytes));
      onChunk?.(chunk);
      done(null, chunk);
    },
  }) as Transform & { bytes: number };
  t.bytes = 0;
  return t;
}

/** Uploaded files on the local disk, under `<root>/<key>`; multipart parts under `<root>/.multipart/`. */
export class LocalDiskStorage implements FileStorage {
  constructor(readonly root: string) {}

  private file(key: string): string {
    if (!KEY.test(key)) throw new Error(`storage key not allowed: ${key}`);
    return path.join(this.root, ...key.split('/'));
  }

  private partsDir(uploadId: string): string {
    if (!UPLOAD_ID.test(uploadId)) throw new Error(`upload id not allowed: ${uploadId}`);
    return path.join(this.root, '.multipart', uploadId);
  }

  /** Writes to a temporary name first, then renames: a reader never sees half a file. */
  private async writeAtomically(target: string, body: Readable, maxBytes: number, hash?: ReturnType<typeof createHash>): Promise<number> {
    await fsp.mkdir(path.dirname(target), { recursive: true });
    const tmp = `${target}.${randomUUID()}.tmp`;
    const count = limiter(maxBytes, hash ? (c) => hash.update(c) : undefined);
    try {
      await pipeline(body, count, fs.createWriteStream(tmp, { flags: 'wx' }));
      await fsp.rename(tmp, target);
      return count.bytes;
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      // Leave the request stream readable no longer: the caller answers and closes.
      if (!body.destroyed) body.destroy();
      throw err;
    }
  }

  async put(key: string, body: Readable, opts: { maxBytes: number }) {
    return { size: await this.writeAtomically(this.file(key), body, opts.maxBytes) };
  }

  async read(key: string, range?: { start: number; end: number }) {
    const file = this.file(key);
    try {
      const handle = await fsp.open(file, 'r');
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new StorageNotFoundError(key);
      throw err;
    }
  }

  async stat(key: string) {
    try {
      const s = await fsp.stat(this.file(key));
      return { size: s.size };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async delete(key: string) {
    await fsp.rm(this.file(key), { force: true });
  }

  async createMultipart(key: string) {
    this.file(key);
    const uploadId = randomUUID();
    await fsp.mkdir(this.partsDir(uploadId), { recursive: true });
    return uploadId;
  }

  async putPart(key: string, uploadId: string, partNumber: number, body: Readable, opts: { maxBytes: number }) {
    this.file(key);
    const dir = this.partsDir(uploadId);
    if (!fs.existsSync(dir)) throw new StorageNotFoundError(`${key} (upload ${uploadId})`);
    const hash = createHash('md5');
    const size = await this.writeAtomically(path.join(dir, `${Math.trunc(partNumber)}.part`), body, opts.maxBytes, hash);
    return { size, etag: hash.digest('hex') };
  }

  async completeMultipart(key: string, uploadId: string, parts: { partNumber: number; etag: string }[]) {
    const dir = this.partsDir(uploadId);
    const target = this.file(key);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    const tmp = `${target}.${randomUUID()}.tmp`;
    let size = 0;
    try {
      const files: string[] = [];
      for (const part of parts) {
        const file = path.join(dir, `${Math.trunc(part.partNumber)}.part`);
        if (!fs.existsSync(file)) throw new StorageNotFoundError(`${key} part ${part.partNumber}`);
        size += (await fsp.stat(file)).size;
        files.push(file);
      }
      // One pipeline from all the parts in order: a pipeline per part into one open stream
      // would leave its listeners on that stream, one set per part.
      await pipeline(
        async function* () {
          for (const file of files) yield* fs.createReadStream(file);
        },
        fs.createWriteStream(tmp, { flags: 'wx' }),
      );
      await fsp.rename(tmp, target);
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
    await fsp.rm(dir, { recursive: true, force: true });
    return { size };
  }

  async abortMultipart(_key: string, uploadId: string) {
    await fsp.rm(this.partsDir(uploadId), { recursive: true, force: true });
  }

  /** Space an unprivileged writer may still use on the root's file system (statfs bavail). */
  async freeBytes() {
    await fsp.mkdir(this.root, { recursive: true });
    const s = await fsp.statfs(this.root);
    return Number(s.bavail) * Number(s.bsize);
  }
}
