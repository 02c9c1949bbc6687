import { ZAdminPageQuery } from './admin-schemas.ts';
import { DELIVERY_METHODS, PAYMENT_METHODS, PAYMENT_STATUSES, SALE_STATUSES } from './checkout.ts';
import { ZSale } from './checkout-schemas.ts';
import { ORDER_ACTIONS, REFUND_METHODS } from './fulfilment.ts';
import { z } from './zod.ts';

// The back office's orders and bookings (/api/admin/orders, docs/decisions/0032): the list's
// filters, one order as staff see it, and the bodies of what staff do to it. Amounts are
// poisha (docs/decisions/0002); the screens turn typed taka into poisha before sending.

const text = (max: number) => z.string().max(max);
const money = z.coerce.number().int().min(0).max(1_000_000_000_00);
/** A day of the calendar as YYYY-MM-DD: 2026-02-30 or 0751-59-13 is no day (and no date to compute with). */
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'A date as YYYY-MM-DD')
  .refine((v) => {
    const t = Date.parse(`${v}T00:00:00Z`);
    return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === v;
  }, 'A date as YYYY-MM-DD');

export const ORDER_SORTS = ['newest', 'oldest', 'total_desc', 'total_asc'] as const;

export const ZAdminOrderQuery = ZAdminPageQuery.extend({
  /** Invoice id, customer name, mobile or email. */
  q: text(120).optional(),
  status: z.enum(SALE_STATUSES).optional(),
  paymentStatus: z.enum(PAYMENT_STATUSES).optional(),
  paymentMethod: z.enum(PAYMENT_METHODS).optional(),
  kind: z.enum(['order', 'booking']).optional(),
  branchId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  /** Placed on or after this Dhaka day. */
  from: isoDate.optional(),
  /** Placed on or before this Dhaka day. */
  to: isoDate.optional(),
  minTotal: money.optional(),
  maxTotal: money.optional(),
  sort: z.enum(ORDER_SORTS).default('newest'),
});
export type TAdminOrderQuery = z.infer<typeof ZAdminOrderQuery>;

export const ZAdminOrderRow = z.object({
  id: z.number(),
  invoiceId: z.string(),
  kind: z.enum(['order', 'booking']),
  status: z.enum(SALE_STATUSES),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  paymentMethod: z.enum(PAYMENT_METHODS),
  deliveryMethod: z.enum(DELIVERY_METHODS),
  contactName: z.string(),
  contactMobile: z.string(),
  contactEmail: z.string(),
  customerId: z.number().nullable(),
  total: z.number(),
  amountPaid: z.number(),
  refundedTotal: z.number(),
  branchName: z.string().nullable(),
  createdAt: z.string(),
});
export type TAdminOrderRow = z.infer<typeof ZAdminOrderRow>;

export const ZAdminOrderLine = z.object({
  lineNo: z.number(),
  skuCode: z.string(),
  productId: z.number(),
  title: z.string(),
  variant: z.string(),
  image: z.string().nullable(),
  quantity: z.number(),
  returnedQuantity: z.number(),
  unitPrice: z.number(),
  discount: z.number(),
  lineTotal: z.number(),
  /** What refunds by line have already handed back for this line, in units. */
  refundedQuantity: z.number(),
});

export const ZAdminOrderHistory = z.object({
  status: z.enum(SALE_STATUSES),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  actor: z.string(),
  staffName: z.string().nullable(),
  note: z.string(),
  createdAt: z.string(),
});

export const ZAdminPayment = z.object({
  id: z.number(),
  provider: z.string(),
  tranId: z.string(),
  valId: z.string().nullable(),
  bankTranId: z.string().nullable(),
  status: z.string(),
  amount: z.number(),
  riskLevel: z.number().nullable(),
  cardType: z.string().nullable(),
  failureReason: z.string().nullable(),
  /** What the gateway's validation answered (no store credentials). */
  verification: z.record(z.string(), z.unknown()).nullable(),
  createdAt: z.string(),
  verifiedAt: z.string().nullable(),
});

export const ZAdminProof = z.object({
  id: z.number(),
  fileUuid: z.string(),
  name: z.string().nullable(),
  mimeType: z.string().nullable(),
  url: z.string().nullable(),
  note: z.string(),
  reviewStatus: z.enum(['pending', 'accepted', 'rejected']),
  reviewNote: z.string().nullable(),
  reviewedBy: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  amount: z.number().nullable(),
  createdAt: z.string(),
});

export const ZAdminNote = z.object({ id: z.number(), staffName: z.string(), body: z.string(), createdAt: z.string() });

export const ZAdminRefund = z.object({
  id: z.number(),
  method: z.enum(REFUND_METHODS),
  amount: z.number(),
  lines: z.array(z.object({ lineNo: z.number(), quantity: z.number() })).nullable(),
  reason: z.string(),
  reference: z.string().nullable(),
  status: z.enum(['processing', 'refunded', 'failed']),
  failureReason: z.string().nullable(),
  staffName: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TAdminRefund = z.infer<typeof ZAdminRefund>;

export const ZAdminOrder = ZAdminOrderRow.extend({
  // As the shopper's view of the sale has them.
  ...ZSale.pick({
    subTotal: true,
    discount: true,
    couponCode: true,
    couponAmount: true,
    deliveryFee: true,
    note: true,
    deliveryAddress: true,
    pickupBranch: true,
    paidAt: true,
    fulfilledAt: true,
    cancelledAt: true,
  }).shape,
  holdUntil: z.string().nullable(),
  confirmedAt: z.string().nullable(),
  packedAt: z.string().nullable(),
  shippedAt: z.string().nullable(),
  returnedAt: z.string().nullable(),
  codCollectedAt: z.string().nullable(),
  codCollectedBy: z.string().nullable(),
  lines: z.array(ZAdminOrderLine),
  history: z.array(ZAdminOrderHistory),
  payments: z.array(ZAdminPayment),
  proofs: z.array(ZAdminProof),
  notes: z.array(ZAdminNote),
  refunds: z.array(ZAdminRefund),
  /** The steps staff may take now (packages/shared fulfilment.ts). */
  actions: z.array(z.enum(ORDER_ACTIONS)),
  canCollectCash: z.boolean(),
  /** Paid and not yet refunded, poisha: the most a refund may be. */
  refundable: z.number(),
  /** Whether the card payment can be refunded through its gateway. */
  gatewayRefund: z.boolean(),
});
export type TAdminOrder = z.infer<typeof ZAdminOrder>;

const ZLineQuantities = z.array(z.object({ lineNo: z.number().int().min(1).max(10_000), quantity: z.number().int().min(1).max(100_000) })).max(500);

export const ZOrderActionBody = z.object({
  action: z.enum(ORDER_ACTIONS),
  /** Shown in the history; the reason of a cancellation is mailed to the shopper. */
  note: text(500).optional(),
  /** return: the units that came back (all of them when left out); deliver: units refused at the door. */
  lines: ZLineQuantities.optional(),
});
export type TOrderActionBody = z.infer<typeof ZOrderActionBody>;

export const ZCollectCashBody = z.object({
  amount: money.refine((n) => n > 0, 'Give the amount collected'),
  /** The day the courier or the team collected it (default today). */
  collectedOn: isoDate.optional(),
});

export const ZProofReviewBody = z.object({
  decision: z.enum(['accept', 'reject']),
  /** accept: what the slip shows was paid (default: what is still owed). */
  amount: money.optional(),
  /** reject: why, in words the shopper reads. */
  reason: text(300).optional(),
});

export const ZOrderNoteBody = z.object({ body: text(2000) });

export const ZRefundBody = z.object({
  /** The same key twice is the same refund: a double click or a retried request refunds once. */
  idempotencyKey: z
    .string()
    .min(8)
    .max(100)
    .regex(/^[\w-]+$/, 'Letters, digits, - and _'),
  method: z.enum(REFUND_METHODS),
  /** By amount … */
  amount: money.optional(),
  /** … or by line (the lines' charged prices). */
  lines: ZLineQuantities.optional(),
  reason: text(300),
  /** The bank or cash reference of a refund made by hand. */
  reference: text(120).optional(),
});
export type TRefundBody = z.infer<typeof ZRefundBody>;
