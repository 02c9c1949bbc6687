import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** Who made a back-office write, and from where: kept with every audit entry. */
export interface Actor {
  staffId: number | null;
  email: string;
  ip: string;
}

type Json = Record<string, unknown>;

/**
 * The fields that changed between two snapshots, as { field: [before, after] }. Nested
 * values (a product's skus, images) compare by their JSON, and are shown whole.
 */
export function diffOf(before: Json | null, after: Json | null): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const k of keys) {
    if (k === 'version' || k === 'updatedAt') continue;
    const a = before?.[k];
    const b = after?.[k];
    if (JSON.stringify(a) !== JSON.stringify(b)) out[k] = [a ?? null, b ?? null];
  }
  return out;
}

/**
 * Records one back-office write (docs/decisions/0031). Called inside the write's own
 * transaction, so an entry exists exactly when the change does.
 */
export async function recordAudit(
  db: Kysely<Database>,
  actor: Actor,
  entry: { action: string; entity: string; entityId: string | number; before: Json | null; after: Json | null },
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      staff_id: actor.staffId,
      staff_email: actor.email,
      action: entry.action,
      entity: entry.entity,
      entity_id: String(entry.entityId),
      before: entry.before ? JSON.stringify(entry.before) : null,
      after: entry.after ? JSON.stringify(entry.after) : null,
      diff: JSON.stringify(diffOf(entry.before, entry.after)),
      ip: actor.ip.slice(0, 64),
      created_at: new Date().toISOString(),
    })
    .execute();
}
