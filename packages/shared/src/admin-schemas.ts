import { z } from './zod.ts';
import { PRODUCT_STATUSES, STAFF_ROLES, STOCK_REASONS } from './admin.ts';

// Bodies and answers of the back office's API (/api/admin/*, docs/decisions/0031), shared
// by the route schemas and the back office's types. Rules with readable messages are
// checked by the services; these are the shapes and outer bounds.

const text = (max: number) => z.string().max(max);
const id = z.coerce.number().int().positive();

export const ZStaffRole = z.enum(STAFF_ROLES);

export const ZAdminSignIn = z.object({
  email: text(254),
  password: text(256),
  /** The authenticator's six digits, when two-factor is on. */
  code: text(16).optional(),
  /** Or one of the recovery codes given when two-factor was switched on. */
  recoveryCode: text(32).optional(),
});
export type TAdminSignIn = z.infer<typeof ZAdminSignIn>;

export const ZStaffMember = z.object({
  id: z.number(),
  email: z.string(),
  fullName: z.string(),
  role: ZStaffRole,
  twoFactor: z.boolean(),
  disabled: z.boolean(),
  /** Invited by mail and has not chosen a password yet. */
  invitePending: z.boolean(),
  createdAt: z.string(),
  version: z.number(),
});
export type TStaffMember = z.infer<typeof ZStaffMember>;

export const ZAdminSession = z.object({
  staff: ZStaffMember,
  permissions: z.array(z.string()),
  /** The role needs two-factor and this account has none yet: only enrolment is open. */
  mustEnrolTwoFactor: z.boolean(),
});
export type TAdminSession = z.infer<typeof ZAdminSession>;

export const ZTwoFactorSetup = z.object({ secret: z.string(), otpauthUri: z.string(), qrSvg: z.string() });
export type TTwoFactorSetup = z.infer<typeof ZTwoFactorSetup>;
export const ZTwoFactorCode = z.object({ code: text(16) });
export const ZRecoveryCodes = z.object({ recoveryCodes: z.array(z.string()) });

export const ZCreateStaff = z.object({
  email: text(254),
  fullName: text(120),
  role: ZStaffRole,
  password: text(256),
});
export type TCreateStaff = z.infer<typeof ZCreateStaff>;

/** An owner adds a member by mail: the member chooses their own password (docs/decisions/0031). */
export const ZInviteStaff = ZCreateStaff.omit({ password: true });
export type TInviteStaff = z.infer<typeof ZInviteStaff>;

export const ZAcceptInvite = z.object({
  token: text(64),
  password: text(256),
});
export type TAcceptInvite = z.infer<typeof ZAcceptInvite>;

export const ZUpdateStaff = z.object({
  role: ZStaffRole.optional(),
  disabled: z.boolean().optional(),
  resetTwoFactor: z.boolean().optional(),
  version: z.number().int(),
});
export type TUpdateStaff = z.infer<typeof ZUpdateStaff>;

export const ZAdminPageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  size: z.coerce.number().int().min(1).max(100).default(25),
});

export function ZAdminPage<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), total: z.number(), page: z.number(), size: z.number() });
}

export const ZAuditQuery = ZAdminPageQuery.extend({
  entity: text(40).optional(),
  entityId: text(40).optional(),
  staffId: id.optional(),
});

export const ZAuditEntry = z.object({
  id: z.number(),
  staffEmail: z.string(),
  action: z.string(),
  entity: z.string(),
  entityId: z.string(),
  /** Per changed field: [before, after]. */
  diff: z.record(z.string(), z.tuple([z.unknown(), z.unknown()])),
  ip: z.string(),
  createdAt: z.string(),
});
export type TAuditEntry = z.infer<typeof ZAuditEntry>;

// ---------------------------------------------------------------------------
// Catalogue

export const ZProductStatus = z.enum(PRODUCT_STATUSES);

export const ZAdminProductQuery = ZAdminPageQuery.extend({
  q: text(120).optional(),
  categoryId: id.optional(),
  status: ZProductStatus.optional(),
  stock: z.enum(['in', 'out', 'low']).optional(),
  sort: z.enum(['updated', 'title', 'price', 'stock', 'id']).default('updated'),
  dir: z.enum(['asc', 'desc']).default('desc'),
});
export type TAdminProductQuery = z.input<typeof ZAdminProductQuery>;
export type TAdminProductFilter = z.output<typeof ZAdminProductQuery>;

export const ZAdminProductRow = z.object({
  id: z.number(),
  title: z.string(),
  slug: z.string(),
  modelCode: z.string().nullable(),
  status: ZProductStatus,
  category: z.string(),
  imageUrl: z.string().nullable(),
  skuCount: z.number(),
  /** The cheapest sku's sales price, in poisha. */
  price: z.number().nullable(),
  stock: z.number(),
  updatedAt: z.string(),
});
export type TAdminProductRow = z.infer<typeof ZAdminProductRow>;

const ZSkuAttribute = z.object({ attributeId: z.number().int(), value: text(80), displayLabel: text(80) });

export const ZAdminSkuInput = z.object({
  /** Present for a sku that exists; absent for a new one. */
  id: z.number().int().optional(),
  code: text(80),
  /** Poisha. */
  salesPrice: z.number().int(),
  discountedSalesPrice: z.number().int().nullable(),
  attributes: z.array(ZSkuAttribute).max(10).default([]),
  lowStockThreshold: z.number().int().nullable().default(null),
});
export type TAdminSkuInput = z.input<typeof ZAdminSkuInput>;

const ZImageInput = z.object({ url: text(500), alt: text(200).default(''), variantValue: text(80).nullable().default(null) });

export const ZAdminProductInput = z.object({
  title: text(200),
  /**
   * The title and description in Bangla, when they exist (docs/decisions/0038): null or
   * empty, none (shoppers reading Bangla see the English); left out, unchanged.
   */
  titleBn: text(200).nullable().optional(),
  slug: text(140),
  modelCode: text(60).nullable().default(null),
  description: text(20_000).default(''),
  descriptionBn: text(20_000).nullable().optional(),
  kind: z.enum(['single', 'bundle']).default('single'),
  categoryIds: z.array(z.number().int()).max(20),
  primaryCategoryId: z.number().int(),
  isNewArrival: z.boolean().default(false),
  status: z.enum(['published', 'draft']).default('draft'),
  images: z.array(ZImageInput).max(20).default([]),
  skus: z.array(ZAdminSkuInput).max(50),
  /** A bundle's contents: skus of other products, with how many of each. */
  bundleItems: z
    .array(z.object({ skuCode: text(80), quantity: z.number().int() }))
    .max(20)
    .default([]),
});
export type TAdminProductInput = z.input<typeof ZAdminProductInput>;

export const ZAdminProductUpdate = ZAdminProductInput.extend({ version: z.number().int() });
export type TAdminProductUpdate = z.input<typeof ZAdminProductUpdate>;

export const ZAdminStockCell = z.object({ branchId: z.number(), quantity: z.number() });

export const ZAdminSku = z.object({
  id: z.number(),
  code: z.string(),
  salesPrice: z.number(),
  discountedSalesPrice: z.number().nullable(),
  attributes: z.array(ZSkuAttribute),
  lowStockThreshold: z.number().nullable(),
  stock: z.array(ZAdminStockCell),
});
export type TAdminSku = z.infer<typeof ZAdminSku>;

export const ZAdminProduct = z.object({
  id: z.number(),
  title: z.string(),
  titleBn: z.string().nullable(),
  slug: z.string(),
  modelCode: z.string().nullable(),
  description: z.string(),
  descriptionBn: z.string().nullable(),
  kind: z.enum(['single', 'bundle']),
  categoryIds: z.array(z.number()),
  primaryCategoryId: z.number(),
  isNewArrival: z.boolean(),
  status: ZProductStatus,
  images: z.array(z.object({ url: z.string(), alt: z.string(), variantValue: z.string().nullable() })),
  skus: z.array(ZAdminSku),
  bundleItems: z.array(z.object({ skuId: z.number(), skuCode: z.string(), title: z.string(), quantity: z.number() })),
  hasOrders: z.boolean(),
  version: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TAdminProduct = z.infer<typeof ZAdminProduct>;

export const ZVersionBody = z.object({ version: z.number().int() });

export const ZStockAdjustment = z.object({
  skuId: z.number().int(),
  branchId: z.number().int(),
  reason: z.enum(STOCK_REASONS),
  /** Units in (positive) or out (negative); or, for a count, the quantity counted. */
  delta: z.number().int().optional(),
  countedQuantity: z.number().int().optional(),
  note: text(500).default(''),
});
export type TStockAdjustment = z.input<typeof ZStockAdjustment>;

export const ZStockMovement = z.object({
  id: z.number(),
  skuId: z.number(),
  skuCode: z.string(),
  branchId: z.number(),
  branch: z.string(),
  delta: z.number(),
  quantityAfter: z.number(),
  reason: z.enum(STOCK_REASONS),
  note: z.string(),
  staffEmail: z.string().nullable(),
  createdAt: z.string(),
});
export type TStockMovement = z.infer<typeof ZStockMovement>;

export const ZAdminReference = z.object({
  categories: z.array(z.object({ id: z.number(), name: z.string(), parentId: z.number().nullable(), depth: z.number(), path: z.string() })),
  attributes: z.array(
    z.object({ id: z.number(), name: z.string(), label: z.string(), values: z.array(z.object({ value: z.string(), displayLabel: z.string() })) }),
  ),
  branches: z.array(z.object({ id: z.number(), name: z.string(), kind: z.string() })),
});
export type TAdminReference = z.infer<typeof ZAdminReference>;

// ---------------------------------------------------------------------------
// Bulk price change and low stock

export const ZBulkPriceChange = z.object({
  /** A category (with its sub-categories) or chosen products. */
  categoryId: z.number().int().optional(),
  productIds: z.array(z.number().int()).max(500).optional(),
  kind: z.enum(['percent', 'amount']),
  /** Percent (-90 to 500, e.g. 7.5) or poisha (signed). */
  value: z.number(),
  /** New prices are rounded to this many poisha (100: whole taka). */
  roundTo: z.union([z.literal(1), z.literal(100), z.literal(1000), z.literal(10000)]).default(100),
  /** Change discounted prices by the same rule (else they stay, and are dropped where no longer below the price). */
  alsoDiscounted: z.boolean().default(true),
});
export type TBulkPriceChange = z.input<typeof ZBulkPriceChange>;

export const ZBulkPriceApply = ZBulkPriceChange.extend({
  /** How many skus the preview showed: a different selection now is a 409. */
  expectedSkus: z.number().int(),
});
export type TBulkPriceApply = z.input<typeof ZBulkPriceApply>;

export const ZBulkPriceLine = z.object({
  skuId: z.number(),
  code: z.string(),
  productId: z.number(),
  title: z.string(),
  oldPrice: z.number(),
  newPrice: z.number(),
  oldDiscounted: z.number().nullable(),
  newDiscounted: z.number().nullable(),
});
export type TBulkPriceLine = z.infer<typeof ZBulkPriceLine>;

export const ZBulkPricePreview = z.object({
  skus: z.number(),
  products: z.number(),
  /** The first lines, for the screen. */
  lines: z.array(ZBulkPriceLine),
});
export type TBulkPricePreview = z.infer<typeof ZBulkPricePreview>;

export const ZLowStockRow = z.object({
  skuId: z.number(),
  code: z.string(),
  productId: z.number(),
  title: z.string(),
  status: ZProductStatus,
  total: z.number(),
  threshold: z.number(),
  byBranch: z.array(ZAdminStockCell),
});
export type TLowStockRow = z.infer<typeof ZLowStockRow>;

// ---------------------------------------------------------------------------
// CSV import

export const ZImportProblem = z.object({ line: z.number(), column: z.string(), message: z.string() });
export type TImportProblem = z.infer<typeof ZImportProblem>;

export const ZImportSummary = z.object({
  productsCreated: z.number(),
  productsChanged: z.number(),
  productsUnchanged: z.number(),
  skusCreated: z.number(),
  skusChanged: z.number(),
  stockChanges: z.number(),
});
export type TImportSummary = z.infer<typeof ZImportSummary>;

/**
 * What one product file may hold (docs/decisions/0051): 10 MB and 20,000 rows after the
 * header, empty rows counted. A shop of 100,000 products imports a range, a new collection
 * or a price list at a time, or its whole catalogue in several files.
 */
export const CATALOGUE_IMPORT_MAX_MB = 10;
export const CATALOGUE_IMPORT_MAX_ROWS = 20_000;
/** An import, its file and its report, is deleted this long after its last change. */
export const CATALOGUE_IMPORT_KEPT_DAYS = 7;

export const ZCatalogueImport = z.object({
  id: z.number(),
  status: z.enum(['invalid', 'ready', 'applying', 'applied', 'failed']),
  fileName: z.string(),
  totalRows: z.number(),
  /** Products written so far while applying (known to the process applying it). */
  doneProducts: z.number(),
  totalProducts: z.number(),
  errors: z.array(ZImportProblem),
  errorCount: z.number(),
  /** What the file does (checked) or did (applied). */
  summary: ZImportSummary.nullable(),
  createdAt: z.string(),
});
export type TCatalogueImport = z.infer<typeof ZCatalogueImport>;

// ---------------------------------------------------------------------------
// Categories and attributes

export const ZAdminCategory = z.object({
  id: z.number(),
  name: z.string(),
  nameBn: z.string().nullable(),
  slug: z.string(),
  parentId: z.number().nullable(),
  depth: z.number(),
  path: z.string(),
  imageUrl: z.string().nullable(),
  bannerUrl: z.string().nullable(),
  productCount: z.number(),
  childCount: z.number(),
  version: z.number(),
});
export type TAdminCategory = z.infer<typeof ZAdminCategory>;

const ZPicturePath = text(500).nullable().default(null);

export const ZAdminCategoryInput = z.object({
  name: text(120),
  /** The name in Bangla (docs/decisions/0038): null or empty, none; left out, unchanged. */
  nameBn: text(120).nullable().optional(),
  slug: text(140),
  parentId: z.number().int().nullable().default(null),
  imageUrl: ZPicturePath,
  bannerUrl: ZPicturePath,
});
export type TAdminCategoryInput = z.input<typeof ZAdminCategoryInput>;

export const ZAdminCategoryUpdate = ZAdminCategoryInput.omit({ parentId: true }).extend({ version: z.number().int() });
export type TAdminCategoryUpdate = z.input<typeof ZAdminCategoryUpdate>;

export const ZCategoryMove = z.object({ direction: z.enum(['up', 'down']), version: z.number().int() });

export const ZAdminAttribute = z.object({
  id: z.number(),
  name: z.string(),
  label: z.string(),
  version: z.number(),
  values: z.array(z.object({ value: z.string(), displayLabel: z.string(), skus: z.number() })),
});
export type TAdminAttribute = z.infer<typeof ZAdminAttribute>;

export const ZAdminAttributeUpdate = z.object({ label: text(80), version: z.number().int() });
export const ZAttributeValueRename = z.object({ value: text(80), displayLabel: text(80) });
