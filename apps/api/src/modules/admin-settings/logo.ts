import { LOGO_MAX_BYTES, LOGO_PATH } from '@storefront/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { findFile } from '../files/files.service.ts';
import type { FileStorage } from '../files/storage.ts';

/**
 * The shop's logo as bytes the PDF invoice can embed: PDF documents take PNG and JPEG
 * only, so a WebP logo (or none, or a file gone from storage) answers null and the invoice
 * sets the shop's name in type instead (docs/decisions/0037).
 */
export async function logoForPdf(db: Kysely<Database>, storage: FileStorage, logoPath: string | undefined): Promise<Buffer | null> {
  const uuid = logoPath ? LOGO_PATH.exec(logoPath)?.[1] : undefined;
  if (!uuid) return null;
  try {
    const row = await findFile(db, uuid);
    if (!row || (row.mime_type !== 'image/png' && row.mime_type !== 'image/jpeg') || Number(row.size) > LOGO_MAX_BYTES) return null;
    const chunks: Buffer[] = [];
    for await (const c of await storage.read(row.storage_key)) chunks.push(Buffer.from(c));
    return Buffer.concat(chunks);
  } catch {
    return null;
  }
}
