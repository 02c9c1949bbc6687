import { z } from './zod.ts';
import { LIMITS, SUBSCRIPTION_STATUSES } from './account-validation.ts';

// Bodies and answers of the customer API (spec §3, §7), shared by the server's route
// schemas and the web app's types. Lengths are generous outer bounds; the rules with
// the spec's messages, and the constants the browser needs, are in account-validation.ts
// (the browser loads no zod: decision 0030).

const text = (max: number) => z.string().max(max * 4);

/** spec §3: sign-in and sign-up carry source and type, both DEFAULT. */
const ZSource = z.enum(['DEFAULT']).default('DEFAULT');

export const ZSignInRequest = z.object({
  source: ZSource,
  type: ZSource,
  userName: text(LIMITS.userName).describe('Email or mobile number'),
  password: text(LIMITS.passwordMax),
});
export type TSignInRequest = z.input<typeof ZSignInRequest>;

export const ZSignUpRequest = z.object({
  source: ZSource,
  type: ZSource,
  fullName: text(LIMITS.fullName),
  email: text(LIMITS.email),
  mobile: text(LIMITS.mobile),
  password: text(LIMITS.passwordMax),
});
export type TSignUpRequest = z.input<typeof ZSignUpRequest>;

/** spec §3: the profile kept with the session. */
export const ZProfile = z.object({
  name: z.string(),
  userId: z.string(),
  imageUrl: z.string().nullable(),
  subscriptionStatus: z.enum(SUBSCRIPTION_STATUSES),
});
export type TProfile = z.infer<typeof ZProfile>;

/** The customer as GET /api/customers answers. */
export const ZCustomer = z.object({
  userId: z.string(),
  fullName: z.string(),
  email: z.string(),
  mobile: z.string(),
  imageUrl: z.string().nullable(),
  subscriptionStatus: z.enum(SUBSCRIPTION_STATUSES),
  dateCreated: z.string(),
});
export type TCustomer = z.infer<typeof ZCustomer>;

/**
 * spec §7: sign-in answers a user carrying authToken and a profile. When the web app
 * asks for a cookie session (docs/decisions/0008) the token travels only in the
 * httpOnly cookie and authToken is the empty string.
 */
export const ZSignedInUser = ZCustomer.extend({
  authToken: z.string(),
  /** When the session ends at the latest (absolute expiry). */
  expiresAt: z.string(),
  profile: ZProfile,
});
export type TSignedInUser = z.infer<typeof ZSignedInUser>;

export const ZUpdateCustomerRequest = z.object({
  fullName: text(LIMITS.fullName),
  mobile: text(LIMITS.mobile),
});

export const ZProfileImageRequest = z.object({
  uuid: z.string().max(64).describe('uuid of an image this customer uploaded with POST /api/files'),
});

export const ZForgotRequest = z.object({ email: text(LIMITS.email) });
export const ZResetRequest = z.object({ token: z.string().max(200), password: text(LIMITS.passwordMax) });
export const ZChangePasswordRequest = z.object({
  currentPassword: text(LIMITS.passwordMax),
  newPassword: text(LIMITS.passwordMax),
});

// ---------------------------------------------------------------------------
// Addresses

export const ZAddressInput = z.object({
  fullName: text(LIMITS.fullName),
  phone: text(LIMITS.mobile),
  division: z.string().max(40),
  district: z.string().max(40),
  area: text(LIMITS.area),
  addressLine: text(LIMITS.addressLine),
  label: text(LIMITS.label).nullish(),
  isDefault: z.boolean().optional(),
});
export type TAddressInput = z.input<typeof ZAddressInput>;

export const ZAddress = z.object({
  id: z.number().int(),
  fullName: z.string(),
  phone: z.string(),
  division: z.string(),
  district: z.string(),
  area: z.string(),
  addressLine: z.string(),
  label: z.string().nullable(),
  isDefault: z.boolean(),
  dateCreated: z.string(),
  dateUpdated: z.string(),
});
export type TAddress = z.infer<typeof ZAddress>;

// ---------------------------------------------------------------------------
// Wishlist (spec §3: itemId, skuCode, userId, wishlistId)

export const ZWishlistItemRequest = z.object({
  itemId: z.number().int().positive().max(2_147_483_647),
  skuCode: z.string().min(1).max(64),
  /** Absent: toggle, as the earlier client did. The web app always says which. */
  action: z.enum(['add', 'remove', 'toggle']).default('toggle'),
});
export type TWishlistItemRequest = z.input<typeof ZWishlistItemRequest>;

export const ZWishlistItem = z.object({
  id: z.number().int(),
  wishlistId: z.number().int(),
  userId: z.string(),
  itemId: z.number().int(),
  skuCode: z.string(),
  dateCreated: z.string(),
  title: z.string(),
  slug: z.string(),
  /** The product's own category, for showing category discounts. */
  categoryId: z.number().int(),
  image: z.string().nullable(),
  salesPrice: z.number().int(),
  discountedSalesPrice: z.number().int().nullable(),
});
export type TWishlistItem = z.infer<typeof ZWishlistItem>;

export const ZWishlistToggleResult = z.object({
  inWishlist: z.boolean(),
  item: ZWishlistItem.nullable(),
  count: z.number().int(),
});
export type TWishlistToggleResult = z.infer<typeof ZWishlistToggleResult>;
