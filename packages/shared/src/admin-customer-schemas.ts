import { ZAddress } from './account-schemas.ts';
import { ZAdminPageQuery } from './admin-schemas.ts';
import { PAYMENT_STATUSES, SALE_STATUSES } from './checkout.ts';
import { z } from './zod.ts';

// The back office's customers (/api/admin/customers, docs/decisions/0032): the searchable
// list, one customer as staff see them, and blocking. Amounts are poisha (docs/decisions/0002).
// What a customer's account keeps secret (password hash, session and reset tokens) has no
// field here, so no answer can carry it.

const text = (max: number) => z.string().max(max);

/** What a blocked customer is told when they sign in with the right password. */
export const ACCOUNT_BLOCKED_MESSAGE = 'This account has been blocked. Please contact us.';

/** A block's reason, as staff type it. */
export const BLOCK_REASON_MAX = 200;

export const CUSTOMER_SORTS = ['newest', 'name'] as const;

export const ZAdminCustomerQuery = ZAdminPageQuery.extend({
  /** A part of the name or email, or the mobile in any usual form (017…, +88017…). */
  q: text(120).optional(),
  /** Only blocked customers ('true'), or only those who are not ('false'). */
  blocked: z.enum(['true', 'false']).optional(),
  sort: z.enum(CUSTOMER_SORTS).default('newest'),
});
export type TAdminCustomerQuery = z.infer<typeof ZAdminCustomerQuery>;

export const ZAdminCustomerRow = z.object({
  id: z.number(),
  userId: z.string(),
  fullName: z.string(),
  email: z.string(),
  mobile: z.string(),
  createdAt: z.string(),
  blocked: z.boolean(),
  /** Orders and bookings placed by, or attached to, this account. */
  orderCount: z.number(),
});
export type TAdminCustomerRow = z.infer<typeof ZAdminCustomerRow>;

export const ZAdminCustomerSale = z.object({
  id: z.number(),
  invoiceId: z.string(),
  kind: z.enum(['order', 'booking']),
  status: z.enum(SALE_STATUSES),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  total: z.number(),
  createdAt: z.string(),
});
export type TAdminCustomerSale = z.infer<typeof ZAdminCustomerSale>;

export const ZAdminCustomer = z.object({
  id: z.number(),
  userId: z.string(),
  fullName: z.string(),
  email: z.string(),
  mobile: z.string(),
  imageUrl: z.string().nullable(),
  createdAt: z.string(),
  blocked: z.boolean(),
  blockedAt: z.string().nullable(),
  blockedReason: z.string().nullable(),
  /** Sessions that would still let them in (none while blocked). */
  activeSessions: z.number(),
  /** Subscribed to the newsletter, by this account or by its email. */
  subscribed: z.boolean(),
  /** All their orders and bookings; `orders` holds the newest 50. */
  orderCount: z.number(),
  orders: z.array(ZAdminCustomerSale),
  addresses: z.array(ZAddress),
});
export type TAdminCustomer = z.infer<typeof ZAdminCustomer>;

export const ZBlockCustomer = z.object({
  blocked: z.boolean(),
  reason: text(BLOCK_REASON_MAX).optional(),
});
export type TBlockCustomer = z.infer<typeof ZBlockCustomer>;
