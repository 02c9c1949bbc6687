import type { TPage, TSale, TSearchRequest } from '@storefront/shared';
import { notFound } from '../../lib/errors.ts';
import { pagedSearch, textField } from '../../lib/paging.ts';
import { filePath } from '../files/files.service.ts';
import { hashAccessToken, mayAccess, type OrderViewer } from './access.ts';
import type { OrderDeps } from './deps.ts';
import * as repo from './repository.ts';
import type { SaleRow } from './repository.ts';
import { saleDetail, salesWithLines } from './sale-view.ts';
import { shipmentsOf } from '../couriers/consignment-view.ts';

// Orders and bookings as their owner sees them: a customer's by session, a guest's by the
// order-access token (decision 0018). Anybody else gets a 404, never a 403: whether an
// order exists is not something a stranger learns.

export async function accessibleSale(deps: OrderDeps, viewer: OrderViewer, ref: { id?: number; invoiceId?: string }): Promise<SaleRow> {
  const db = deps.db.kysely;
  const row = ref.id !== undefined ? await repo.saleById(db, ref.id) : ref.invoiceId ? await repo.saleByInvoice(db, ref.invoiceId) : undefined;
  if (!row || !mayAccess(row, viewer)) throw notFound('The order');
  return row;
}

export function fileUrl(imageHost: string) {
  return (uuid: string, name: string | null) => (name ? `${imageHost.replace(/\/$/, '')}${filePath({ uuid, name })}` : null);
}

export async function getSale(deps: OrderDeps, viewer: OrderViewer, ref: { id?: number; invoiceId?: string }): Promise<TSale> {
  const row = await accessibleSale(deps, viewer, ref);
  const sale = await saleDetail(deps.db.kysely, row, fileUrl(deps.config.imageHost));
  // The parcel's tracking, for the order's own shopper only (accessibleSale checked that);
  // absent until the order is booked with a courier, as in the answer of checkout.
  const shipment = (await shipmentsOf(deps.db.kysely, [row.id])).get(row.id);
  return shipment ? { ...sale, shipment } : sale;
}

/** The sale ids a guest's tokens open (cookie entries whose token matches). */
async function guestSaleIds(deps: OrderDeps, viewer: OrderViewer): Promise<number[]> {
  const { cookie } = viewer.tokens;
  if (!cookie.size) return [];
  const rows = await repo.guestSalesByInvoice(deps.db.kysely, [...cookie.keys()]);
  return rows.filter((r) => r.access_token_hash && r.access_token_hash === hashAccessToken(cookie.get(r.invoice_id)!)).map((r) => r.id);
}

/**
 * POST /api/sales: the signed-in customer's orders and bookings, or the guest orders this
 * browser placed. Filter fields: kind (order or booking), status, paymentStatus,
 * paymentMethod, invoiceId. Sort fields: createdAt, total. Newest first by default.
 */
export async function searchSales(deps: OrderDeps, viewer: OrderViewer, req: TSearchRequest): Promise<TPage<TSale>> {
  const db = deps.db.kysely;
  const owner = viewer.customerId !== null ? { customerId: viewer.customerId } : { saleIds: await guestSaleIds(deps, viewer) };
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
  const list = await salesWithLines(db, page.list as SaleRow[]);
  const shipments = await shipmentsOf(
    db,
    list.map((s) => s.id),
  );
  return { ...page, list: list.map((s) => (shipments.has(s.id) ? { ...s, shipment: shipments.get(s.id) } : s)) };
}
