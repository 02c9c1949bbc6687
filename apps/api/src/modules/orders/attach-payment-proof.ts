import { canUploadProof, type TSale } from '@storefront/shared';
import { ApiError, conflict } from '../../lib/errors.ts';
import { findFile, findFileForOwner } from '../files/files.service.ts';
import type { OrderViewer } from './access.ts';
import type { OrderDeps } from './deps.ts';
import { addHistory } from './history.ts';
import { notifyShop } from './notify.ts';
import * as repo from './repository.ts';
import { saleState } from './sale-view.ts';
import { accessibleSale, getSale } from './view-orders.ts';

/**
 * PATCH /api/sales/payments/attachments: a payment proof (a bank deposit slip) for a
 * booking, as a file uploaded through POST /api/files by the same customer (a guest's
 * upload has no owner; its random uuid is then the only key).
 */
export async function attachPaymentProof(
  deps: OrderDeps,
  viewer: OrderViewer,
  ref: { id?: number; invoiceId?: string },
  fileUuid: string,
  note?: string,
): Promise<TSale> {
  const db = deps.db.kysely;
  const row = await accessibleSale(deps, viewer, ref);
  if (!canUploadProof(saleState(row))) throw conflict('cannot_attach', 'A payment proof can be added only to a booking that is still open');
  const file = viewer.customerId !== null ? await findFileForOwner(db, fileUuid, viewer.customerId) : await findFile(db, fileUuid);
  if (!file || (viewer.customerId === null && file.owner_customer_id !== null)) {
    throw new ApiError('bad_request', 'This file was not found; upload it first', { fileUuid: 'This file was not found; upload it first' });
  }
  const now = new Date().toISOString();
  const added = await db.transaction().execute(async (trx) => {
    const inserted = await repo.insertAttachment(trx, {
      sale_id: row.id,
      file_uuid: file.uuid,
      kind: 'payment_proof',
      note: note?.trim().slice(0, 300) ?? '',
      created_at: now,
    });
    const moved = await repo.transitionSale(
      trx,
      row.id,
      { fromStatuses: ['booked'], fromPaymentStatuses: ['unpaid', 'proof_submitted', 'proof_rejected'] },
      { payment_status: 'proof_submitted', updated_at: now },
    );
    if (moved)
      await addHistory(
        trx,
        row.id,
        'booked',
        'proof_submitted',
        viewer.customerId !== null ? 'customer' : 'guest',
        `Payment proof uploaded: ${file.name}`,
        now,
      );
    return inserted.some((r) => Number(r.numInsertedOrUpdatedRows ?? 0) > 0);
  });
  if (added) await notifyShop(deps, row.id, 'new_proof');
  return getSale(deps, viewer, { id: row.id });
}
