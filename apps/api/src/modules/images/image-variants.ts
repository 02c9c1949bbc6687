import { randomUUID } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { IMAGE_MIME, parseVariantName } from '@storefront/shared';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { isInlineSafe } from '../files/file-type.ts';
import { findFile } from '../files/files.service.ts';
import type { FileStorage } from '../files/storage.ts';
import { drawBanner, drawFurniture, SHAPES, type Shape } from '../media/demo-art.ts';
import { renderVariant, type VariantSpec } from './image-process.ts';
import type { ImageWork } from './image-work.ts';

// Resized copies of the shop's pictures, in AVIF, WebP and JPEG (upload-images.ts, docs/decisions/0039).
//
// Made on first request, not at upload: a picture is shown at a few sizes in one or two
// formats by the browsers that actually visit, so most of the 13 copies of an upload would
// never be asked for; an upload answers as fast as before; and the demo drawings, which are
// never uploaded, go the same way. Once made, a copy is a file under
// `<dataDir>/image-cache/` and every later request streams it; it is a cache, not a record:
// the database tracks the uploaded original only, and a lost cache is made again. Several
// processes sharing one database each keep their own (or share the folder): the worst case
// is one picture encoded once per process.
//
// Nobody can make the server store pictures of their choosing: only the fixed widths and
// formats exist, only for stored images (whose uploads are under quota) and for the
// drawings the catalogue actually shows.

export type ImageSource = { kind: 'files'; uuid: string } | { kind: 'demo' | 'banner'; shape: string; color: string };

export type VariantAnswer =
  | { status: 'ok'; file: string; size: number; mime: string }
  /** A drawing the catalogue does not use: its SVG, drawn per request as before, and nothing stored. */
  | { status: 'redirect'; location: string }
  | { status: 'bad_variant' }
  | { status: 'not_found' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const COLOR = /^[0-9a-f]{6}$/;

export interface ImageVariantsDeps {
  db: Kysely<Database>;
  storage: FileStorage;
  /** `<dataDir>/image-cache` */
  cacheDir: string;
  /** Turns for decoding pictures, shared with uploads (image-work.ts, docs/decisions/0050). */
  work: ImageWork;
}

export class ImageVariants {
  /** How many copies this process has encoded: tests see a second request encode nothing. */
  encodes = 0;
  private readonly inflight = new Map<string, Promise<VariantAnswer>>();

  constructor(private readonly deps: ImageVariantsDeps) {}

  /** The cache folder of one source: also what is removed when an uploaded file is deleted. */
  folderOf(source: ImageSource): string {
    return source.kind === 'files'
      ? path.join(this.deps.cacheDir, 'files', source.uuid)
      : path.join(this.deps.cacheDir, source.kind, source.shape, source.color);
  }

  /** The variant `name` (`640.webp`, `og.jpg`) of a picture, made on the first request for it. */
  async get(source: ImageSource, name: string): Promise<VariantAnswer> {
    const parsed = parseVariantName(name);
    if (!parsed) return { status: 'bad_variant' };
    if (!validSource(source)) return { status: 'not_found' };
    const spec: VariantSpec = 'og' in parsed ? { width: 'og', format: 'jpeg' } : parsed;
    const file = path.join(this.folderOf(source), name);
    const cached = await sizeOf(file);
    if (cached !== null) return { status: 'ok', file, size: cached, mime: mimeOf(spec) };
    // One encode per variant however many requests arrive for it at once: the others wait
    // for the same promise (and share its answer, a 503 included).
    let job = this.inflight.get(file);
    if (!job) {
      job = this.make(source, spec, file).finally(() => this.inflight.delete(file));
      this.inflight.set(file, job);
    }
    return job;
  }

  /** Forgets the copies of an uploaded file (it was deleted). */
  async forget(uuid: string): Promise<void> {
    if (!UUID.test(uuid)) return;
    await fsp.rm(this.folderOf({ kind: 'files', uuid }), { recursive: true, force: true });
  }

  private async make(source: ImageSource, spec: VariantSpec, file: string): Promise<VariantAnswer> {
    const original = await this.original(source);
    if ('status' in original) return original;
    // The original's bytes (up to 50 MB) are read in the turn, not before: a request waiting
    // for its turn holds nothing.
    const out = await this.deps.work.run(async () => {
      const { bytes, svgWidth } = await original.load();
      const made = await renderVariant(bytes, spec, svgWidth);
      this.encodes++;
      return made;
    });
    await fsp.mkdir(path.dirname(file), { recursive: true });
    // A reader never sees half a file; a second process writing the same copy only replaces it.
    const tmp = `${file}.${randomUUID()}.tmp`;
    await fsp.writeFile(tmp, out.data);
    await fsp.rename(tmp, file);
    return { status: 'ok', file, size: out.data.length, mime: out.mime };
  }

  /** The picture a copy is made from, once it is known to exist; its bytes are read by `load`. */
  private async original(source: ImageSource): Promise<{ load(): Promise<{ bytes: Buffer; svgWidth?: number }> } | VariantAnswer> {
    if (source.kind === 'files') {
      const row = await findFile(this.deps.db, source.uuid);
      if (!row || row.is_image !== 1 || !isInlineSafe(row.mime_type)) return { status: 'not_found' };
      return { load: async () => ({ bytes: await readAll(await this.deps.storage.read(row.storage_key)) }) };
    }
    const svg = `/media/${source.kind}/${source.shape}/${source.color}.svg`;
    if (!(await drawingInUse(this.deps.db, svg))) return { status: 'redirect', location: svg };
    return source.kind === 'demo'
      ? { load: async () => ({ bytes: Buffer.from(drawFurniture(source.shape as Shape, source.color)), svgWidth: 800 }) }
      : { load: async () => ({ bytes: Buffer.from(drawBanner(source.shape as Shape, source.color, '')), svgWidth: 1600 }) };
  }
}

function validSource(source: ImageSource): boolean {
  if (source.kind === 'files') return UUID.test(source.uuid);
  return SHAPES.includes(source.shape as Shape) && COLOR.test(source.color);
}

function mimeOf(spec: VariantSpec): string {
  return IMAGE_MIME[spec.format];
}

async function sizeOf(file: string): Promise<number | null> {
  try {
    return (await fsp.stat(file)).size;
  } catch {
    return null;
  }
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Whether the catalogue shows this drawing: a product's picture, a category's picture or
 * banner (whose ?t= follows the path), or a content item's (slides, campaigns). Only those
 * get copies on disk, so the 16 million colours a drawing URL accepts cannot fill it.
 */
async function drawingInUse(db: Kysely<Database>, svgPath: string): Promise<boolean> {
  // The path holds only [a-z0-9-/.]: nothing LIKE treats specially.
  const prefix = `${svgPath}%`;
  const inside = `%${svgPath}%`;
  const { rows } = await sql<{ one: number }>`
    select 1 as one from product_images where url like ${prefix}
    union all select 1 from categories where image_url like ${prefix} or banner_url like ${prefix}
    union all select 1 from cms_content where fields like ${inside}
    limit 1`.execute(db);
  return rows.length > 0;
}
