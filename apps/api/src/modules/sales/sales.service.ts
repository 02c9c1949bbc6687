import { canUploadProof, type TPage, type TPaymentMethod, type TPaymentStatus, type TSale, type TSaleStatus, type TSearchRequest } from '@storefront/shared';
import type { FastifyRequest } from 'fastify';
import { ApiError, conflict, notFound } from '../../lib/errors.ts';
import { pagedSearch, textField } from '../../lib/paging.ts';
import type { CheckoutDeps } from '../checkout/checkout-deps.ts';
import { filePath, findFile, findFileForOwner } from '../files/files.service.ts';
import { addHistory, cancelSale } from '../payments/payments.service.ts';
import { hashAccessToken, mayAccess, requestTokens } from './order-access.ts';
import * as repo from './sales.repository.ts';
import type { SaleRow } from './sales.repository.ts';
import { saleDetail, salesWithLines } from './sale-view.ts';

// Orders and bookings as their owner sees them: a customer's by session, a guest's by the
// order-access token (decision 0018). Anybody else gets a 404, never a 403: whether an
// order exists is not something a stranger learns.

export async function accessibleSale(deps: CheckoutDeps, request: FastifyRequest, ref: { id?: number; invoiceId?: string }): Promise<SaleRow> {
  const db = deps.db.kysely;
  const row = ref.id !== undefined ? await repo.saleById(db, ref.id) : ref.invoiceId ? await repo.saleByInvoice(db, ref.invoiceId) : undefined;
  if (!row || !mayAccess(row, request)) throw notFound('The order');
  return row;
}

export function fileUrl(imageHost: string) {
  return (uuid: string, name: string | null) => (name ? `${imageHost.replace(/\/$/, '')}${filePath({ uuid, name })}` : null);
}

export async function getSale(deps: CheckoutDeps, request: FastifyRequest, ref: { id?: number; invoiceId?: string }): Promise<TSale> {
  const row = await accessibleSale(deps, request, ref);
  return saleDetail(deps.db.kysely, row, fileUrl(deps.config.imageHost));
}

/** The sale ids a guest's tokens open (cookie entries whose token matches). */
async function guestSaleIds(deps: CheckoutDeps, request: FastifyRequest): Promise<number[]> {
  const { cookie } = requestTokens(request);
  if (!cookie.size) return [];
  const rows = await repo.guestSalesByInvoice(deps.db.kysely, [...cookie.keys()]);
  return rows.filter((r) => r.access_token_hash && r.access_token_hash === hashAccessToken(cookie.get(r.invoice_id)!)).map((r) => r.id);
}

/**
 * POST /api/sales: the signed-in customer's orders and bookings, or the guest orders this
 * browser placed. Filter fields: kind (order or booking), status, paymentStatus,
 * paymentMethod, invoiceId. Sort fields: createdAt, total. Newest first by default.
 */
export async function searchSales(deps: CheckoutDeps, request: FastifyRequest, req: TSearchRequest): Promise<TPage<TSale>> {
  const db = deps.db.kysely;
  const owner = request.customerId !== null ? { customerId: request.customerId } : { saleIds: await guestSaleIds(deps, request) };
  const sorted = req.sortParams.length ? req : { ...req, sortParams: [{ field: 'createdAt', type: 'DESC' as const }] };
  const page = await pagedSearch(repo.salesQuery(db, owner), sorted, {
    filter: {
      kind: textField('kind'),
      status: textField('status'),
      paymentStatus: textField('payment_status'),
      paymentMethod: textField('payment_method'),
      invoiceId: textField('invoice_id'),
    },
    sort: { createdAt: 'created_at', total: 'total', updatedAt: 'updated_at' },
    tieBreaker: 'id',
  });
  return { ...page, list: await salesWithLines(db, page.list as SaleRow[]) };
}

/** PATCH /api/sales?id: the owner cancels a booking (or an unpaid order) before it is fulfilled. */
export async function cancelOwnSale(deps: CheckoutDeps, request: FastifyRequest, id: number, reason?: string): Promise<TSale> {
  const row = await accessibleSale(deps, request, { id });
  const actor = request.customerId !== null ? 'customer' : 'guest';
  await cancelSale(deps, row.id, actor, reason?.trim() ? `Cancelled by the ${actor}: ${reason.trim().slice(0, 200)}` : `Cancelled by the ${actor}`);
  return getSale(deps, request, { id: row.id });
}

/**
 * PATCH /api/sales/payments/attachments: a payment proof (a bank deposit slip) for a
 * booking, as a file uploaded through POST /api/files by the same customer (a guest's
 * upload has no owner; its random uuid is then the only key).
 */
export async function attachPaymentProof(
  deps: CheckoutDeps,
  request: FastifyRequest,
  ref: { id?: number; invoiceId?: string },
  fileUuid: string,
  note?: string,
): Promise<TSale> {
  const db = deps.db.kysely;
  const row = await accessibleSale(deps, request, ref);
  const state = {
    kind: row.kind as 'order' | 'booking',
    paymentMethod: row.payment_method as TPaymentMethod,
    status: row.status as TSaleStatus,
    paymentStatus: row.payment_status as TPaymentStatus,
  };
  if (!canUploadProof(state)) throw conflict('cannot_attach', 'A payment proof can be added only to a booking that is still open');
  const file = request.customerId !== null ? await findFileForOwner(db, fileUuid, request.customerId) : await findFile(db, fileUuid);
  if (!file || (request.customerId === null && file.owner_customer_id !== null)) {
    throw new ApiError('bad_request', 'This file was not found; upload it first', { fileUuid: 'This file was not found; upload it first' });
  }
  const now = new Date().toISOString();
  await db.transaction().execute(async (trx) => {
    await repo.insertAttachment(trx, { sale_id: row.id, file_uuid: file.uuid, kind: 'payment_proof', note: note?.trim().slice(0, 300) ?? '', created_at: now });
    const moved = await repo.transitionSale(
      trx,
      row.id,
      { fromStatuses: ['booked'], fromPaymentStatuses: ['unpaid', 'proof_submitted'] },
      { payment_status: 'proof_submitted', updated_at: now },
    );
    if (moved)
      await addHistory(
        trx,
        row.id,
        'booked',
        'proof_submitted',
        request.customerId !== null ? 'customer' : 'guest',
        `Payment proof uploaded: ${file.name}`,
        now,
      );
  });
  return getSale(deps, request, { id: row.id });
}
