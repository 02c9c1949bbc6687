import {
  canCustomerCancel,
  canRetryPayment,
  canUploadProof,
  type TDeliveryMethod,
  type TPaymentMethod,
  type TPaymentStatus,
  type TSale,
  type TSaleState,
  type TSaleStatus,
} from '@storefront/shared';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import * as repo from './repository.ts';
import type { SaleLineRow, SaleRow } from './repository.ts';

// A sale row as the API answers it (packages/shared ZSale).

type Q = Kysely<Database> | Transaction<Database>;

function parseJson<T>(text: string | null): T | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

type AddressSnapshot = {
  fullName: string;
  phone: string;
  division?: string;
  district?: string;
  area?: string;
  addressLine?: string;
  branch?: { id: number; name: string; address: string; city: string; phone: string; hours: string };
};

/** The state a sale's rules (canRetryPayment, canUploadProof, …) read, from its row. */
export function saleState(row: Pick<SaleRow, 'kind' | 'payment_method' | 'status' | 'payment_status'>): TSaleState {
  return {
    kind: row.kind as 'order' | 'booking',
    paymentMethod: row.payment_method as TPaymentMethod,
    status: row.status as TSaleStatus,
    paymentStatus: row.payment_status as TPaymentStatus,
  };
}

export function toSale(row: SaleRow, lines: SaleLineRow[]): TSale {
  const state = saleState(row);
  const snap = parseJson<AddressSnapshot>(row.delivery_address);
  const { branch, ...address } = snap ?? ({} as AddressSnapshot);
  return {
    id: row.id,
    invoiceId: row.invoice_id,
    ...state,
    deliveryMethod: row.delivery_method as TDeliveryMethod,
    currency: 'BDT',
    subTotal: Number(row.subtotal),
    discount: Number(row.discount_total),
    couponCode: row.coupon_code,
    couponAmount: Number(row.coupon_discount),
    deliveryFee: Number(row.delivery_fee),
    total: Number(row.total),
    itemCount: lines.reduce((n, l) => n + l.quantity, 0),
    contact: { name: row.contact_name, mobile: row.contact_mobile, email: row.contact_email },
    deliveryAddress: snap && row.delivery_method === 'home_delivery' ? (address as TSale['deliveryAddress']) : null,
    pickupBranch: branch ?? null,
    note: row.note,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    paidAt: row.paid_at,
    cancelledAt: row.cancelled_at,
    fulfilledAt: row.fulfilled_at,
    amountPaid: Number(row.amount_paid ?? 0),
    refundedTotal: Number(row.refunded_total ?? 0),
    holdUntil: row.status === 'booked' && (row.payment_status === 'unpaid' || row.payment_status === 'proof_rejected') ? row.hold_until : null,
    lines: lines.map((l) => ({
      lineNo: l.line_no,
      skuCode: l.sku_code,
      productId: l.product_id,
      title: l.title,
      variant: l.variant,
      image: l.image_url,
      sourceType: l.source_type,
      quantity: l.quantity,
      unitPrice: Number(l.unit_price),
      discount: Number(l.discount),
      lineTotal: Number(l.line_total),
    })),
    canCancel: canCustomerCancel(state),
    canRetryPayment: canRetryPayment(state),
    canUploadProof: canUploadProof(state),
  };
}

/** What a sale's full view is made of besides its row. */
export interface SaleParts {
  lines: SaleLineRow[];
  history: Awaited<ReturnType<typeof repo.historyOf>>;
  payments: Awaited<ReturnType<typeof repo.paymentsOf>>;
  attachments: Awaited<ReturnType<typeof repo.attachmentsOf>>;
}

/** One sale with its lines, history, payments and attachments, from parts the caller holds. */
export function saleView(
  row: SaleRow,
  { lines, history, payments, attachments }: SaleParts,
  fileUrl: (uuid: string, name: string | null) => string | null,
): TSale {
  return {
    ...toSale(row, lines),
    history: history.map((h) => ({
      status: h.status as TSaleStatus,
      paymentStatus: h.payment_status as TPaymentStatus,
      actor: h.actor,
      note: h.note,
      createdAt: h.created_at,
    })),
    payments: payments.map((p) => ({
      provider: p.provider,
      status: p.status,
      amount: Number(p.amount),
      currency: p.currency,
      riskLevel: p.risk_level,
      cardType: p.card_type,
      // bKash's trxID and Nagad's issuer reference are the shopper's own receipt numbers (they
      // are in their wallet's statement).
      transactionId: (p.provider === 'bkash' || p.provider === 'nagad') && p.status !== 'initiated' ? p.bank_tran_id : null,
      createdAt: p.created_at,
      verifiedAt: p.verified_at,
    })),
    attachments: attachments.map((a) => ({
      fileUuid: a.file_uuid,
      name: a.name,
      mimeType: a.mime_type,
      kind: a.kind,
      note: a.note,
      url: fileUrl(a.file_uuid, a.name),
      createdAt: a.created_at,
      reviewStatus: a.review_status as 'pending' | 'accepted' | 'rejected',
      reviewNote: a.review_note,
    })),
  };
}

/** One sale with its lines, history, payments and attachments, read in one round of queries. */
export async function saleDetail(db: Q, row: SaleRow, fileUrl: (uuid: string, name: string | null) => string | null): Promise<TSale> {
  const [lines, history, payments, attachments] = await Promise.all([
    repo.linesOf(db, [row.id]),
    repo.historyOf(db, row.id),
    repo.paymentsOf(db, row.id),
    repo.attachmentsOf(db, row.id),
  ]);
  return saleView(row, { lines, history, payments, attachments }, fileUrl);
}

/** Many sales with their lines, in two queries. */
export async function salesWithLines(db: Q, rows: SaleRow[]): Promise<TSale[]> {
  const lines = await repo.linesOf(
    db,
    rows.map((r) => r.id),
  );
  const by = new Map<number, SaleLineRow[]>();
  for (const l of lines) by.set(l.sale_id, [...(by.get(l.sale_id) ?? []), l]);
  return rows.map((r) => toSale(r, by.get(r.id) ?? []));
}
