import {
  allowedActions,
  canCollectCash,
  type TAdminOrder,
  type TAdminOrderQuery,
  type TAdminOrderRow,
  type TDeliveryMethod,
  type TPaymentMethod,
  type TPaymentStatus,
  type TSaleStatus,
  normalizeMobile,
} from '@storefront/shared';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import * as repo from '../orders/repository.ts';
import { toSale } from '../orders/sale-view.ts';
import { stripSecrets } from '../payments/gateway-fields.ts';
import { fulfilmentState, heldMoney } from './fulfilment.service.ts';
import { toRefund } from './refunds.service.ts';
import { dhakaDayStart } from './staff-history.ts';

// Reading orders for the back office (docs/decisions/0032): the filtered, paged list (and its
// CSV), and one order with everything staff need to act on it.

type Db = Kysely<Database>;

/** The list's rows, filtered as the query says; the CSV export reads the same query unpaged. */
export function filteredSales(db: Db, f: Omit<TAdminOrderQuery, 'page' | 'size' | 'sort'>) {
  // The showroom it is collected from, else the branch that supplies it.
  let q = db.selectFrom('sales').leftJoin('branches', (j) => j.on(sql<boolean>`branches.id = coalesce(sales.pickup_branch_id, sales.branch_id)`));
  if (f.status) q = q.where('sales.status', '=', f.status);
  if (f.paymentStatus) q = q.where('sales.payment_status', '=', f.paymentStatus);
  if (f.paymentMethod) q = q.where('sales.payment_method', '=', f.paymentMethod);
  if (f.kind) q = q.where('sales.kind', '=', f.kind);
  if (f.branchId) q = q.where((eb) => eb.or([eb('sales.branch_id', '=', f.branchId!), eb('sales.pickup_branch_id', '=', f.branchId!)]));
  if (f.from) q = q.where('sales.created_at', '>=', dhakaDayStart(f.from));
  if (f.to) q = q.where('sales.created_at', '<', new Date(Date.parse(dhakaDayStart(f.to)) + 86_400_000).toISOString());
  if (f.minTotal !== undefined) q = q.where('sales.total', '>=', f.minTotal);
  if (f.maxTotal !== undefined) q = q.where('sales.total', '<=', f.maxTotal);
  const text = f.q?.trim();
  if (text) {
    const like = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const mobile = normalizeMobile(text);
    q = q.where((eb) =>
      eb.or([
        eb('sales.invoice_id', '=', text.toUpperCase()),
        eb(sql<string>`lower(sales.contact_name)`, 'like', sql<string>`${like} escape '\\'`),
        eb(sql<string>`lower(sales.contact_email)`, 'like', sql<string>`${like} escape '\\'`),
        ...(mobile ? [eb('sales.contact_mobile', '=', mobile)] : []),
      ]),
    );
  }
  return q;
}

const ROW_COLUMNS = [
  'sales.id',
  'sales.invoice_id',
  'sales.kind',
  'sales.status',
  'sales.payment_status',
  'sales.payment_method',
  'sales.delivery_method',
  'sales.contact_name',
  'sales.contact_mobile',
  'sales.contact_email',
  'sales.customer_id',
  'sales.total',
  'sales.amount_paid',
  'sales.refunded_total',
  'sales.created_at',
  'branches.name as branch_name',
] as const;

type ListRow = {
  id: number;
  invoice_id: string;
  kind: string;
  status: string;
  payment_status: string;
  payment_method: string;
  delivery_method: string;
  contact_name: string;
  contact_mobile: string;
  contact_email: string;
  customer_id: number | null;
  total: number;
  amount_paid: number;
  refunded_total: number;
  created_at: string;
  branch_name: string | null;
};

function toRow(r: ListRow): TAdminOrderRow {
  return {
    id: r.id,
    invoiceId: r.invoice_id,
    kind: r.kind as 'order' | 'booking',
    status: r.status as TSaleStatus,
    paymentStatus: r.payment_status as TPaymentStatus,
    paymentMethod: r.payment_method as TPaymentMethod,
    deliveryMethod: r.delivery_method as TDeliveryMethod,
    contactName: r.contact_name,
    contactMobile: r.contact_mobile,
    contactEmail: r.contact_email,
    customerId: r.customer_id,
    total: Number(r.total),
    amountPaid: Number(r.amount_paid),
    refundedTotal: Number(r.refunded_total),
    branchName: r.branch_name,
    createdAt: r.created_at,
  };
}

const ORDER_BY = {
  newest: ['sales.created_at', 'desc'],
  oldest: ['sales.created_at', 'asc'],
  total_desc: ['sales.total', 'desc'],
  total_asc: ['sales.total', 'asc'],
} as const;

export async function listOrders(db: Db, query: TAdminOrderQuery) {
  const { page, size, sort, ...filters } = query;
  const base = filteredSales(db, filters);
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    base
      .select([...ROW_COLUMNS])
      .orderBy(ORDER_BY[sort][0], ORDER_BY[sort][1])
      .orderBy('sales.id', ORDER_BY[sort][1])
      .offset((page - 1) * size)
      .limit(size)
      .execute(),
  ]);
  return { items: (rows as ListRow[]).map(toRow), total: Number(count?.n ?? 0), page, size };
}

/** Every row of the filtered list, newest first, in pages of 500 (a large export never sits in memory at once). */
export async function* exportOrders(db: Db, filters: Omit<TAdminOrderQuery, 'page' | 'size' | 'sort'>): AsyncGenerator<TAdminOrderRow[]> {
  let before: { created_at: string; id: number } | null = null;
  for (;;) {
    let q = filteredSales(db, filters).select([...ROW_COLUMNS]);
    if (before) {
      const b = before;
      q = q.where((eb) => eb.or([eb('sales.created_at', '<', b.created_at), eb.and([eb('sales.created_at', '=', b.created_at), eb('sales.id', '<', b.id)])]));
    }
    const rows = (await q.orderBy('sales.created_at', 'desc').orderBy('sales.id', 'desc').limit(500).execute()) as ListRow[];
    if (!rows.length) return;
    yield rows.map(toRow);
    if (rows.length < 500) return;
    const last = rows[rows.length - 1];
    before = { created_at: last.created_at, id: last.id };
  }
}

/** One order as staff see it. */
export async function adminOrder(
  db: Db,
  id: number,
  fileUrl: (uuid: string, name: string | null) => string | null,
  gatewayRefunds: boolean,
): Promise<TAdminOrder> {
  const row = await repo.saleById(db, id);
  if (!row) throw notFound('The order');
  const [lines, history, payments, proofs, notes, refunds, branch] = await Promise.all([
    repo.linesOf(db, [id]),
    db
      .selectFrom('sale_status_history')
      .select(['status', 'payment_status', 'actor', 'staff_name', 'note', 'created_at'])
      .where('sale_id', '=', id)
      .orderBy('id')
      .execute(),
    repo.paymentsOf(db, id),
    db
      .selectFrom('sale_attachments')
      .leftJoin('files', 'files.uuid', 'sale_attachments.file_uuid')
      .select([
        'sale_attachments.id',
        'sale_attachments.file_uuid',
        'sale_attachments.note',
        'sale_attachments.review_status',
        'sale_attachments.review_note',
        'sale_attachments.reviewed_by',
        'sale_attachments.reviewed_at',
        'sale_attachments.amount',
        'sale_attachments.created_at',
        'files.name',
        'files.mime_type',
      ])
      .where('sale_attachments.sale_id', '=', id)
      .where('sale_attachments.kind', '=', 'payment_proof')
      .orderBy('sale_attachments.id')
      .execute(),
    db.selectFrom('sale_notes').select(['id', 'staff_name', 'body', 'created_at']).where('sale_id', '=', id).orderBy('id', 'desc').execute(),
    db.selectFrom('refunds').selectAll().where('sale_id', '=', id).orderBy('id').execute(),
    (row.branch_id ?? row.pickup_branch_id)
      ? db
          .selectFrom('branches')
          .select('name')
          .where('id', '=', (row.pickup_branch_id ?? row.branch_id)!)
          .executeTakeFirst()
      : null,
  ]);
  const sale = toSale(row, lines);
  const refundedUnits = new Map<number, number>();
  for (const r of refunds) {
    if (r.status === 'failed' || !r.lines) continue;
    for (const l of JSON.parse(r.lines) as { lineNo: number; quantity: number }[]) refundedUnits.set(l.lineNo, (refundedUnits.get(l.lineNo) ?? 0) + l.quantity);
  }
  const state = fulfilmentState(row);
  // Nagad publishes no refund API (docs/decisions/0042): its payments are refunded in Nagad's
  // portal and recorded as a wallet refund, so the screen does not offer the gateway for them.
  const verifiedCard = payments.some((p) => (p.status === 'valid' || p.status === 'review') && p.bank_tran_id && p.provider !== 'nagad');
  return {
    ...toRow({ ...row, branch_name: branch?.name ?? null } as ListRow),
    subTotal: sale.subTotal,
    discount: sale.discount,
    couponCode: sale.couponCode,
    couponAmount: sale.couponAmount,
    deliveryFee: sale.deliveryFee,
    note: row.note,
    deliveryAddress: sale.deliveryAddress,
    pickupBranch: sale.pickupBranch,
    holdUntil: row.status === 'booked' ? row.hold_until : null,
    paidAt: row.paid_at,
    confirmedAt: row.confirmed_at,
    packedAt: row.packed_at,
    shippedAt: row.shipped_at,
    fulfilledAt: row.fulfilled_at,
    cancelledAt: row.cancelled_at,
    returnedAt: row.returned_at,
    codCollectedAt: row.cod_collected_at,
    codCollectedBy: row.cod_collected_by,
    lines: lines.map((l) => ({
      lineNo: l.line_no,
      skuCode: l.sku_code,
      productId: l.product_id,
      title: l.title,
      variant: l.variant,
      image: l.image_url,
      quantity: l.quantity,
      returnedQuantity: Number(l.returned_quantity),
      unitPrice: Number(l.unit_price),
      discount: Number(l.discount),
      lineTotal: Number(l.line_total),
      refundedQuantity: refundedUnits.get(l.line_no) ?? 0,
    })),
    history: history.map((h) => ({
      status: h.status as TSaleStatus,
      paymentStatus: h.payment_status as TPaymentStatus,
      actor: h.actor,
      staffName: h.staff_name,
      note: h.note,
      createdAt: h.created_at,
    })),
    payments: payments.map((p) => ({
      id: p.id,
      provider: p.provider,
      tranId: p.tran_id,
      valId: p.val_id,
      bankTranId: p.bank_tran_id,
      status: p.status,
      amount: Number(p.amount),
      riskLevel: p.risk_level,
      cardType: p.card_type,
      failureReason: p.failure_reason,
      verification: parseRecord(p.raw_verification),
      createdAt: p.created_at,
      verifiedAt: p.verified_at,
    })),
    proofs: proofs.map((a) => ({
      id: a.id,
      fileUuid: a.file_uuid,
      name: a.name,
      mimeType: a.mime_type,
      url: fileUrl(a.file_uuid, a.name),
      note: a.note,
      reviewStatus: a.review_status as 'pending' | 'accepted' | 'rejected',
      reviewNote: a.review_note,
      reviewedBy: a.reviewed_by,
      reviewedAt: a.reviewed_at,
      amount: a.amount === null ? null : Number(a.amount),
      createdAt: a.created_at,
    })),
    notes: notes.map((n) => ({ id: n.id, staffName: n.staff_name, body: n.body, createdAt: n.created_at })),
    refunds: refunds.map(toRefund),
    actions: allowedActions(state),
    canCollectCash: canCollectCash(state),
    refundable: Math.max(0, heldMoney(row)),
    gatewayRefund: gatewayRefunds && verifiedCard,
  };
}

function parseRecord(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const v = JSON.parse(text);
    return v && typeof v === 'object' ? stripSecrets(v) : null;
  } catch {
    return null;
  }
}
