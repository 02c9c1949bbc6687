import { z } from './zod.ts';

// Parcels handed to a courier from the back office (docs/decisions/0040): booking one order,
// booking a selection, and what the label and the order screen show. Amounts are poisha.

export const CONSIGNMENT_COURIERS = ['steadfast', 'pathao'] as const;
export type TConsignmentCourier = (typeof CONSIGNMENT_COURIERS)[number];

export const ZBookConsignmentBody = z.object({
  courier: z.enum(CONSIGNMENT_COURIERS),
  /** For the rider (Steadfast's note), e.g. "call before coming". */
  note: z.string().max(300).optional(),
});
export type TBookConsignmentBody = z.infer<typeof ZBookConsignmentBody>;

export const ZBulkBookConsignmentBody = z.object({
  courier: z.enum(CONSIGNMENT_COURIERS),
  orderIds: z.array(z.number().int().positive()).min(1).max(100),
});
export type TBulkBookConsignmentBody = z.infer<typeof ZBulkBookConsignmentBody>;

export const ZConsignmentEvent = z.object({
  status: z.string(),
  courierStatus: z.string().nullable(),
  message: z.string().nullable(),
  source: z.enum(['webhook', 'poll', 'staff']),
  at: z.string(),
});

/** What the parcel's label carries. */
export const ZConsignmentLabel = z.object({
  invoice: z.string(),
  recipientName: z.string(),
  recipientPhone: z.string(),
  recipientAddress: z.string(),
  codAmount: z.number().int(),
  consignmentId: z.string().nullable(),
  trackingCode: z.string().nullable(),
});

export const ZConsignment = z.object({
  id: z.number().int(),
  orderId: z.number().int(),
  courier: z.enum(CONSIGNMENT_COURIERS),
  consignmentId: z.string().nullable(),
  trackingCode: z.string().nullable(),
  status: z.string(),
  courierStatus: z.string().nullable(),
  codAmount: z.number().int(),
  active: z.boolean(),
  bookedBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  history: z.array(ZConsignmentEvent),
  label: ZConsignmentLabel,
});
export type TConsignment = z.infer<typeof ZConsignment>;

/** Each order's own outcome of a bulk booking: its consignment, or the error in the API's one shape. */
export const ZBulkBookResult = z.object({
  results: z.array(
    z.object({
      orderId: z.number().int(),
      ok: z.boolean(),
      consignment: ZConsignment.optional(),
      error: z.object({ code: z.string(), message: z.string(), fields: z.record(z.string(), z.string()).optional() }).optional(),
    }),
  ),
});
