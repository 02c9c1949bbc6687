import { z } from './zod.ts';

// The delivery zones as the API answers them (GET /api/delivery/zones) and as the back office
// writes them (docs/decisions/0033). Amounts are poisha.

export const ZDeliveryZone = z.object({
  id: z.number(),
  name: z.string(),
  districts: z.array(z.string()),
  fee: z.number(),
  freeFrom: z.number().nullable(),
  etaMinDays: z.number(),
  etaMaxDays: z.number(),
});

export const ZAdminDeliveryZone = ZDeliveryZone.extend({ sortOrder: z.number(), version: z.number(), updatedAt: z.string() });
export type TAdminDeliveryZone = z.infer<typeof ZAdminDeliveryZone>;

export const ZDeliveryZoneInput = z.object({
  name: z.string().max(80),
  districts: z.array(z.string().max(60)).max(64),
  fee: z.number().int().max(100_000_000),
  freeFrom: z.number().int().max(1_000_000_000_00).nullable(),
  etaMinDays: z.number().int().max(60),
  etaMaxDays: z.number().int().max(60),
  sortOrder: z.number().int().min(0).max(1000).optional(),
  /** The version read: a zone changed since answers 409 `stale_version`. */
  version: z.number().int().optional(),
});
export type TDeliveryZoneInput = z.infer<typeof ZDeliveryZoneInput>;
