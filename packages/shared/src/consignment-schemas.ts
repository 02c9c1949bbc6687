import { z } from './zod.ts';

// Parcels handed to a courier from the back office (docs/decisions/0040): booking one order,
// booking a selection, and what the label and the order screen show. Amounts are poisha.

export const CONSIGNMENT_COURIERS = ['steadfast', 'pathao'] as const;
export type TConsignmentCourier = (typeof CONSIGNMENT_COURIERS)[number];

/** The courier's own location ids for the address (Pathao's city, zone and optional area: GET /api/admin/couriers/pathao/…). */
export const ZCourierDestination = z.object({
  cityId: z.number().int().positive(),
  zoneId: z.number().int().positive(),
  areaId: z.number().int().positive().optional(),
});

/** What Pathao needs beyond the order: where (its ids) and the parcel's weight; the item count defaults to the order's units. */
const parcelDetails = {
  destination: ZCourierDestination.optional(),
  /** Grams; Pathao carries 0.5–10 kg a parcel. Default: a kilogram an item. */
  weightGrams: z.number().int().positive().max(1_000_000).optional(),
  itemCount: z.number().int().positive().max(999).optional(),
};

export const ZBookConsignmentBody = z.object({
  courier: z.enum(CONSIGNMENT_COURIERS),
  /** For the rider (Steadfast's note, Pathao's special instruction), e.g. "call before coming". */
  note: z.string().max(300).optional(),
  ...parcelDetails,
});
export type TBookConsignmentBody = z.infer<typeof ZBookConsignmentBody>;

export const ZBulkBookConsignmentBody = z.object({
  courier: z.enum(CONSIGNMENT_COURIERS),
  orderIds: z.array(z.number().int().positive()).min(1).max(100),
  /** Pathao: each order's destination (and weight); an order without one is refused on its own (422, field destination). */
  parcels: z
    .array(z.object({ orderId: z.number().int().positive(), ...parcelDetails }))
    .max(100)
    .optional(),
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
  /** What the courier charges to carry it, in poisha, when it said (Pathao quotes it on booking). */
  deliveryFee: z.number().int().nullable().optional(),
  /** The courier's location ids it was booked to (Pathao). */
  destination: ZCourierDestination.nullable().optional(),
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
export type TBulkBookResult = z.infer<typeof ZBulkBookResult>;

/** The couriers this shop has credentials for: the only ones the order screen offers. */
export const ZCourierList = z.object({
  items: z.array(z.object({ id: z.enum(CONSIGNMENT_COURIERS), name: z.string() })),
});
export type TCourierList = z.infer<typeof ZCourierList>;

/**
 * Where a parcel is, in the shopper's words (docs/decisions/0040). The courier's own status
 * names vary; these are the shop's.
 */
export const SHIPMENT_STATUS_LABELS: Record<string, string> = {
  booked: 'Handed to the courier',
  picked_up: 'Picked up by the courier',
  in_transit: 'On the way',
  delivered: 'Delivered',
  partly_delivered: 'Partly delivered',
  returned: 'Returned to us',
  cancelled: 'Cancelled by the courier',
  on_hold: 'On hold at the courier',
  unknown: 'Being checked with the courier',
};

export const COURIER_NAMES: Record<TConsignmentCourier, string> = { steadfast: 'Steadfast', pathao: 'Pathao' };

/** A courier's cities, zones of a city or areas of a zone (Pathao), for the booking form. */
export const ZCourierPlaceList = z.object({
  items: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      /** Areas only: whether the courier delivers to the door there. */
      homeDelivery: z.boolean().optional(),
    }),
  ),
});
export type TCourierPlaceList = z.infer<typeof ZCourierPlaceList>;
