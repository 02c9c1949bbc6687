import type { Locale } from '@storefront/shared';
import type { TCodLineOutcome } from '@storefront/shared/cod-schemas';
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

// Conventions that keep SQLite and PostgreSQL alike (docs/decisions/0002):
// - money is an integer number of poisha;
// - booleans are integers 0/1;
// - timestamps are ISO 8601 UTC text;
// - structured extras are JSON text.

export interface CategoriesTable {
  id: Generated<number>;
  name: string;
  /** The name in Bangla, when entered; null: shoppers reading Bangla see the English (migration 0024). */
  name_bn?: string | null;
  slug: string;
  parent_id: number | null;
  sort_order: number;
  image_url: string | null;
  banner_url: string | null;
  /** JSON: [{ discriminator, values: [{ displayLabel }] }] */
  options: string;
  created_at: string;
  /** Moves on every back-office write (optimistic locking, migration 0015). */
  version?: Generated<number>;
}

export interface ProductsTable {
  id: Generated<number>;
  title: string;
  slug: string;
  model_code: string | null;
  description: string;
  /** The title and description in Bangla, when entered; null: the English (migration 0024). */
  title_bn?: string | null;
  description_bn?: string | null;
  /** 'single' or 'bundle' */
  kind: string;
  primary_category_id: number;
  is_new_arrival: number;
  model_url: string | null;
  created_at: string;
  /** 'published', 'draft' or 'archived': only published products reach shoppers. */
  status: Generated<string>;
  /** Moves on every back-office write: an edit made from an older version is refused (409). */
  version: Generated<number>;
  updated_at?: string | null;
}

export interface ProductImagesTable {
  id: Generated<number>;
  product_id: number;
  url: string;
  alt: string;
  sort_order: number;
  /** The attribute value (a colour) this picture shows; null for a general picture. */
  variant_value?: string | null;
  /** The uploaded file this picture is, when it is one (kept from the sweep of guest files). */
  file_uuid?: string | null;
}

export interface ProductCategoriesTable {
  product_id: number;
  category_id: number;
}

export interface SkusTable {
  id: Generated<number>;
  product_id: number;
  code: string;
  sales_price: number;
  discounted_sales_price: number | null;
  sort_order: number;
  /** Below this many in all branches the sku is low on stock; null: the shop's default. */
  low_stock_threshold?: number | null;
}

export interface AttributesTable {
  id: Generated<number>;
  /** Machine name such as 'color' */
  name: string;
  /** Shown to shoppers, such as 'Color' (optionDisplayLabel of spec §3) */
  display_label: string;
  sort_order: number;
  /** Moves on every back-office write (optimistic locking, migration 0015). */
  version?: Generated<number>;
}

export interface SkuAttributeValuesTable {
  sku_id: number;
  attribute_id: number;
  value: string;
  display_label: string;
}

export interface BundleItemsTable {
  bundle_product_id: number;
  sku_id: number;
  quantity: number;
}

export interface BranchesTable {
  id: Generated<number>;
  name: string;
  /** 'showroom', 'outlet' or 'warehouse' */
  kind: string;
  address: string;
  city: string;
  phone: string;
  hours: string;
  latitude: number;
  longitude: number;
  sort_order: number;
  /** 1: off the storefront (a branch stock or orders refer to cannot be removed; migration 0020). */
  hidden: Generated<number>;
  /** Moves on every back-office write (optimistic locking, migration 0020). */
  version: Generated<number>;
}

export interface StocksTable {
  sku_id: number;
  branch_id: number;
  quantity: number;
}

export interface CurrenciesTable {
  code: string;
  country: string;
  /** BDT per one unit of this currency */
  rate: number;
  num_code: string;
  image_url: string;
  sort_order: number;
  /** 1: offered to shoppers; 0: hidden from the storefront (docs/decisions/0037). BDT is always 1. */
  enabled: Generated<number>;
  version: Generated<number>;
  updated_at: string | null;
  /** The staff member's email who changed it last. */
  updated_by: string | null;
}

export interface CmsContentTable {
  id: Generated<number>;
  /** 'slider', 'article', 'bullet', 'page', 'campaign', 'subscription-offer', 'attr-text' */
  type: string;
  title: string;
  slug: string;
  body: string;
  /** The title and body in Bangla, when entered; null: the English (migration 0024). */
  title_bn?: string | null;
  body_bn?: string | null;
  /** JSON object, such as { image, hasCampaign, link } */
  fields: string;
  sort_order: number;
  created_at: string;
  updated_at: string;
  /** Moves on every back-office write (optimistic locking, migration 0020). */
  version: Generated<number>;
  /** 1: served by the storefront (inside its schedule); 0: switched off (migration 0020). */
  active: Generated<number>;
  /** The schedule, ISO 8601 UTC; null: from always / until further notice. */
  shown_from: Generated<string | null>;
  shown_until: Generated<string | null>;
}

export interface KvpsTable {
  key: string;
  value: string;
}

export interface MailOutboxTable {
  id: Generated<number>;
  to_address: string;
  reply_to: string | null;
  subject: string;
  text_body: string;
  html_body: string | null;
  status: string;
  attempts: Generated<number>;
  last_error: string | null;
  created_at: string;
  claimed_at: string | null;
  sent_at: string | null;
}

export interface FilesTable {
  id: Generated<number>;
  uuid: string;
  /** Chosen by the server (files/yyyy/mm/uuid); never derived from the client's name. */
  storage_key: string;
  /** The client's file name, sanitised, with the extension of the detected type. */
  name: string;
  size: number;
  /** Detected from the bytes. */
  mime_type: string;
  is_image: number;
  width: number | null;
  height: number | null;
  /** 'direct', 'multipart' or 'url' */
  source: string;
  owner_customer_id: number | null;
  /** A guest's client address (their quota is per address; docs/decisions/0024); null for a customer's file. */
  owner_address: string | null;
  created_at: string;
}

export interface FileUploadsTable {
  id: Generated<number>;
  uuid: string;
  owner_customer_id: number | null;
  /** A guest's client address; null for a customer's upload. */
  owner_address: string | null;
  name: string;
  size: number;
  /** 'image' or 'document' (packages/shared UPLOAD_TYPES) */
  upload_type: string;
  part_size: number;
  part_count: number;
  storage_key: string;
  storage_upload_id: string;
  /** 'open', 'completing' or 'complete' */
  status: string;
  file_uuid: string | null;
  created_at: string;
  expires_at: string;
}

export interface FileUploadPartsTable {
  upload_id: number;
  part_number: number;
  size: number;
  etag: string;
  received_at: string;
}

/** Room reserved for an upload whose bytes are still arriving (docs/decisions/0024). */
export interface FileQuotaHoldsTable {
  id: Generated<number>;
  owner_customer_id: number | null;
  owner_address: string | null;
  bytes: number;
  created_at: string;
  expires_at: string;
}

export interface FileImportsTable {
  id: Generated<number>;
  token: string;
  owner_customer_id: number | null;
  source_url: string;
  upload_type: string;
  /** 'waiting', 'progress', 'error' or 'success' (spec §4) */
  status: string;
  done_bytes: number;
  total_bytes: number | null;
  error_code: string | null;
  error_message: string | null;
  file_uuid: string | null;
  created_at: string;
  updated_at: string;
}

export interface EmailSubscriptionsTable {
  id: Generated<number>;
  /** As typed, trimmed. */
  email: string;
  /** Trimmed and lower-cased; unique (one subscription per address in any letter case). */
  email_key: string;
  customer_id: number | null;
  offer: string;
  type: string;
  created_at: string;
  /** When the address asked to stop (migration 0021); null while subscribed. */
  unsubscribed_at: string | null;
  /** Who stopped it: 'link' (the subscriber's own) or 'staff'. */
  unsubscribed_by: 'link' | 'staff' | null;
  /** The language the address subscribed in, for the mails it receives (migration 0025). */
  locale: Generated<Locale>;
}

export interface ContactMessagesTable {
  id: Generated<number>;
  name: string;
  email: string;
  subject: string;
  message: string;
  customer_id: number | null;
  ip: string;
  mail_outbox_id: number | null;
  created_at: string;
  /** First opened in the back office (migration 0021). */
  read_at: string | null;
  /** Last answered from the back office. */
  answered_at: string | null;
  /** The language the sender wrote from: the shop's answer is framed in it (migration 0025). */
  locale: Generated<Locale>;
}

export interface CustomersTable {
  id: Generated<number>;
  /** Public id (spec §3 userId), random. */
  user_id: string;
  full_name: string;
  /** As typed (NFKC, trimmed), for mail. */
  email: string;
  /** NFKC, trimmed, lower-cased (packages/shared emailKey); unique. */
  email_key: string;
  /** +8801XXXXXXXXX or E.164 (packages/shared normalizeMobile); unique. */
  mobile: string;
  /** argon2id PHC string */
  password_hash: string;
  image_url: string | null;
  image_file_uuid: string | null;
  created_at: string;
  updated_at: string;
  password_changed_at: string;
  /** Staff blocked this customer's sign-in (their orders stay). */
  blocked_at: string | null;
  blocked_reason: string | null;
  /** The language the customer last used the shop in, for their mails (migration 0025). */
  locale: Generated<Locale>;
}

export interface CustomerSessionsTable {
  id: Generated<number>;
  customer_id: number;
  /** sha-256 hex of the session token */
  token_hash: string;
  created_at: string;
  last_seen_at: string;
  /** absolute expiry */
  expires_at: string;
  revoked_at: string | null;
  user_agent: Generated<string>;
  ip: Generated<string>;
}

export interface PasswordResetsTable {
  id: Generated<number>;
  customer_id: number;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface AddressesTable {
  id: Generated<number>;
  customer_id: number;
  full_name: string;
  phone: string;
  division: string;
  district: string;
  area: string;
  address_line: string;
  label: string | null;
  is_default: number;
  created_at: string;
  updated_at: string;
}

export interface WishlistsTable {
  id: Generated<number>;
  customer_id: number;
  created_at: string;
}

export interface WishlistItemsTable {
  id: Generated<number>;
  wishlist_id: number;
  customer_id: number;
  product_id: number;
  sku_code: string;
  created_at: string;
}

/** Secrets generated at the first start, shared by every process on the database (PAYMENT_SANDBOX_SECRET's stand-in). */
export interface InstallationSecretsTable {
  name: string;
  value: string;
  created_at: string;
}

export interface RateLimitsTable {
  key: string;
  window_start: string;
  hits: number;
}

/** Global discounts (spec §3): FIXED_CATEGORY or FIXED_PRODUCT. */
export interface GlobalDiscountsTable {
  id: Generated<number>;
  title: string;
  type: string;
  /** 'PERCENTAGE' (value per cent) or 'AMOUNT' (value poisha) */
  discount_type: string;
  value: number;
  active: number;
  starts_at: string | null;
  ends_at: string | null;
  created_at: string;
  /** Optimistic locking for the back office (migration 0019). */
  version: Generated<number>;
  updated_at: string | null;
}

export interface GlobalDiscountCategoriesTable {
  discount_id: number;
  category_id: number;
}

export interface GlobalDiscountItemsTable {
  id: Generated<number>;
  discount_id: number;
  product_id: number;
  /** null: every sku of the product */
  sku_code: string | null;
}

export interface CouponsTable {
  id: Generated<number>;
  code: string;
  title: string;
  discount_type: string;
  value: number;
  minimum_order: number | null;
  max_amount: number | null;
  starts_at: string | null;
  ends_at: string | null;
  usage_limit: number | null;
  per_customer_limit: number | null;
  is_public: number;
  active: number;
  created_at: string;
  /** Optimistic locking for the back office (migration 0019). */
  version: Generated<number>;
  updated_at: string | null;
}

/** One use of a coupon; written by checkout in the order's transaction. */
export interface CouponUsagesTable {
  id: Generated<number>;
  coupon_id: number;
  customer_id: number | null;
  order_ref: string | null;
  amount: number;
  created_at: string;
}

// Orders, bookings and payments.
export interface SalesTable {
  id: Generated<number>;
  invoice_id: string;
  /** 'order' or 'booking' */
  kind: string;
  customer_id: number | null;
  contact_name: string;
  contact_mobile: string;
  contact_email: string;
  access_token_hash: string | null;
  delivery_method: string;
  /** JSON snapshot of the address */
  delivery_address: string;
  pickup_branch_id: number | null;
  branch_id: number | null;
  currency: string;
  subtotal: number;
  discount_total: number;
  coupon_code: string | null;
  coupon_discount: number;
  delivery_fee: number;
  total: number;
  payment_method: string;
  status: string;
  payment_status: string;
  stock_held: number;
  coupon_held: number;
  note: string | null;
  created_at: string;
  updated_at: string;
  paid_at: string | null;
  cancelled_at: string | null;
  fulfilled_at: string | null;
  /** The client address that placed the sale (unpaid holds are capped per address, docs/decisions/0022). */
  client_address: string | null;
  /** An unpaid booking without a payment proof is released after this; null: never. */
  hold_until: string | null;
  /** Poisha received: card payments verified, payment proofs accepted, cash collected on delivery. */
  amount_paid: Generated<number>;
  /** Poisha handed back by refunds that completed or are with the gateway. */
  refunded_total: Generated<number>;
  confirmed_at: string | null;
  packed_at: string | null;
  shipped_at: string | null;
  returned_at: string | null;
  cod_collected_at: string | null;
  /** The staff member who recorded the cash. */
  cod_collected_by: string | null;
  /** The language the sale was placed in: every mail about it is written in it (migration 0025). */
  locale: Generated<Locale>;
}

export interface SaleLinesTable {
  id: Generated<number>;
  sale_id: number;
  line_no: number;
  sku_id: number;
  sku_code: string;
  product_id: number;
  title: string;
  variant: string;
  image_url: string | null;
  source_type: string | null;
  quantity: number;
  unit_price: number;
  discount: number;
  line_total: number;
  /** Units that came back (refused at the door, returned later) and went back to stock. */
  returned_quantity: Generated<number>;
}

export interface SaleStatusHistoryTable {
  id: Generated<number>;
  sale_id: number;
  status: string;
  payment_status: string;
  actor: string;
  note: string;
  created_at: string;
  staff_id: number | null;
  staff_name: string | null;
}

export interface StockReservationsTable {
  id: Generated<number>;
  sale_id: number;
  sku_id: number;
  branch_id: number;
  quantity: number;
  created_at: string;
  released_at: string | null;
}

export interface PaymentsTable {
  id: Generated<number>;
  sale_id: number;
  provider: string;
  tran_id: string;
  val_id: string | null;
  session_key: string | null;
  gateway_url: string | null;
  amount: number;
  currency: string;
  status: string;
  risk_level: number | null;
  bank_tran_id: string | null;
  card_type: string | null;
  raw_verification: string | null;
  failure_reason: string | null;
  created_at: string;
  updated_at: string;
  verified_at: string | null;
}

export interface SaleAttachmentsTable {
  id: Generated<number>;
  sale_id: number;
  file_uuid: string;
  kind: string;
  note: string;
  created_at: string;
  /** 'pending', 'accepted' or 'rejected' */
  review_status: Generated<string>;
  /** Why a proof was rejected: the shopper reads it. */
  review_note: string | null;
  reviewed_at: string | null;
  reviewed_by: string | null;
  /** Poisha the accepted proof showed. */
  amount: number | null;
}

/** A parcel handed to a courier for an order (migration 0027). */
export interface ConsignmentsTable {
  id: Generated<number>;
  sale_id: number;
  courier: 'steadfast' | 'pathao';
  consignment_id: string | null;
  tracking_code: string | null;
  /** The shop's word for where the parcel is (TCourierStatus), or 'requested' while the booking is on its way. */
  status: string;
  courier_status: string | null;
  /** Poisha the rider collects. */
  cod_amount: Generated<number>;
  booked_by: number | null;
  booked_by_name: string | null;
  active: Generated<number>;
  poll_claimed_until: string | null;
  polled_at: string | null;
  created_at: string;
  updated_at: string;
  /** The courier's own city, zone and area ids the parcel goes to (Pathao; migration 0029). */
  destination_city_id: ColumnType<number | null, number | null | undefined, number | null>;
  destination_zone_id: ColumnType<number | null, number | null | undefined, number | null>;
  destination_area_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** Poisha the courier quoted for carrying it, when it says (Pathao does). */
  delivery_fee: ColumnType<number | null, number | null | undefined, number | null>;
}

/** A provider's access token shared by every process on the database (migration 0029, docs/decisions/0041). */
export interface ProviderTokensTable {
  provider: 'bkash' | 'pathao';
  account_key: string;
  /** Sealed with a key derived from the account's own secret setting. */
  access_token: string | null;
  refresh_token: string | null;
  token_hash: string | null;
  /** Epoch milliseconds. */
  issued_at: number | null;
  refresh_at: number | null;
  expires_at: number | null;
  lease_owner: string | null;
  lease_until: number | null;
  updated_at: string;
}

/** Each status a courier reported for a consignment, once. */
export interface ConsignmentEventsTable {
  id: Generated<number>;
  consignment_id: number;
  status: string;
  courier_status: string | null;
  message: string | null;
  source: 'webhook' | 'poll' | 'staff';
  dedupe_key: string;
  at: string;
}

/** A payout a courier made for the cash it collected on delivery (migration 0028, docs/decisions/0043). */
export interface CourierPayoutsTable {
  id: Generated<number>;
  courier: 'steadfast' | 'pathao';
  reference: string;
  /** YYYY-MM-DD */
  paid_on: string;
  /** Poisha: the lines' net, what the riders collected, the courier's charges. */
  total: number;
  collected: number;
  charges: number;
  source: 'csv' | 'manual';
  note: string | null;
  recorded_by: number | null;
  recorded_by_name: string | null;
  created_at: string;
}

/** One parcel line of a courier's payout, matched to its consignment when there is one. */
export interface CourierPayoutLinesTable {
  id: Generated<number>;
  payout_id: number;
  line_no: number;
  given_consignment_id: string | null;
  given_tracking_code: string | null;
  given_invoice: string | null;
  /** consignments.id */
  consignment_ref: number | null;
  outcome: TCodLineOutcome;
  /** 1 when the line settles its consignment (once per consignment). */
  counted: number;
  /** Poisha: the consignment's amount when matched. */
  cod_amount: number | null;
  collected: number;
  delivery_charge: number;
  cod_charge: number;
  net: number;
}

export interface SaleNotesTable {
  id: Generated<number>;
  sale_id: number;
  staff_id: number | null;
  staff_name: string;
  body: string;
  created_at: string;
}

export interface RefundsTable {
  id: Generated<number>;
  sale_id: number;
  payment_id: number | null;
  /** 'gateway', 'bank', 'cash' or 'wallet' */
  method: string;
  amount: number;
  /** JSON [{ lineNo, quantity }] or null */
  lines: string | null;
  reason: Generated<string>;
  reference: string | null;
  /** 'processing', 'refunded' or 'failed' */
  status: string;
  failure_reason: string | null;
  raw: string | null;
  idempotency_key: string;
  /** SHA-256 of the request that made the refund; null for refunds recorded before it was kept */
  request_hash: string | null;
  staff_id: number | null;
  staff_name: string;
  created_at: string;
  updated_at: string;
}

export interface DeliveryZonesTable {
  id: Generated<number>;
  name: string;
  /**
   * JSON array of district names; [] for every district no other zone names (one such zone:
   * a unique index). delivery_zone_districts holds the same names, one row each.
   */
  districts: string;
  fee: number;
  /** Items worth at least this (poisha) are delivered free; null: never free. */
  free_from: number | null;
  eta_min_days: number;
  eta_max_days: number;
  sort_order: Generated<number>;
  version: Generated<number>;
  updated_at: string;
}

/** Which zone delivers a district: one zone per district (migration 0030, docs/decisions/0052). */
export interface DeliveryZoneDistrictsTable {
  district: string;
  zone_id: number;
}

export interface SandboxRefundsTable {
  id: Generated<number>;
  refund_ref_id: string;
  bank_tran_id: string;
  refe_id: string | null;
  amount: string;
  status: string;
  created_at: string;
}

export interface CheckoutKeysTable {
  key: string;
  owner: string;
  request_hash: string;
  sale_id: number;
  created_at: string;
}

export interface SandboxPaymentSessionsTable {
  id: Generated<number>;
  session_key: string;
  tran_id: string;
  val_id: string | null;
  amount: string;
  currency: string;
  success_url: string;
  fail_url: string;
  cancel_url: string;
  ipn_url: string | null;
  customer_name: string;
  product_name: string;
  value_a: string | null;
  status: string;
  risk_level: number;
  created_at: string;
  completed_at: string | null;
}

/** Derived from the catalogue tables by modules/catalogue/search-index.ts (migration 0004). */
export interface ProductSearchTable {
  product_id: number;
  title: string;
  /** The Bangla title, or null when the product has none (migration 0024). */
  title_bn: string | null;
  slug: string;
  model_code: string | null;
  /** The model code as upper-case letters and digits (packages/shared modelKey): 'DFL2040'. */
  model_key: string | null;
  kind: string;
  primary_category_id: number;
  image_url: string | null;
  image_alt: string;
  /** The cheapest sku, which listings show and add. */
  sku_code: string;
  sales_price: number;
  discounted_sales_price: number | null;
  /** The card sku's price after its own sale price and the global discounts in force. */
  price: number;
  on_sale: number;
  is_new_arrival: number;
  sku_count: number;
  /** JSON: [{ label, value }] */
  colors: string;
  /** JSON: every category the product is filed under, ascending */
  category_ids: string;
  created_at: string;
  /** Words in the form of packages/shared searchText(), per field. */
  title_text: string;
  model_text: string;
  category_text: string;
  attribute_text: string;
}

/** The answer to searching for one common word alone, made with the read side (search-words.ts). */
export interface SearchWordsTable {
  word: string;
  n: number;
  /** JSON: the facets of the word's matches (TFacets) */
  summary: string;
  /** JSON arrays of product ids, first of each order */
  relevance: string;
  newest: string;
  price_asc: string;
  price_desc: string;
}

/** One row per product and category it is filed under, with the keys listings sort by. */
export interface CategoryListingTable {
  category_id: number;
  product_id: number;
  price: number;
  created_at: string;
  title: string;
}

export interface CategoryFacetsTable {
  /** 0: the whole catalogue. */
  category_id: number;
  /** 'count', 'price' or 'attr' */
  kind: string;
  key: string;
  label: string;
  n: number;
}

export interface SearchIndexStateTable {
  id: number;
  discounts_signature: string;
  built_at: string;
}

export interface ProductFacetsTable {
  product_id: number;
  attribute_id: number;
  value: string;
  display_label: string;
}

/** Back-office accounts (migration 0015). */
export interface StaffTable {
  id: Generated<number>;
  email: string;
  email_key: string;
  full_name: string;
  /** 'owner', 'manager', 'staff' or 'read_only' */
  role: string;
  password_hash: string;
  totp_secret: string | null;
  totp_enabled_at: string | null;
  totp_last_step: Generated<number>;
  disabled_at: string | null;
  version: Generated<number>;
  created_at: string;
  updated_at: string;
  password_changed_at: string;
}

export interface StaffSessionsTable {
  id: Generated<number>;
  staff_id: number;
  token_hash: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  revoked_at: string | null;
  user_agent: Generated<string>;
  ip: Generated<string>;
}

/** A mailed invitation to choose a password (migration 0023). */
export interface StaffInvitesTable {
  id: Generated<number>;
  staff_id: number;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface StaffRecoveryCodesTable {
  id: Generated<number>;
  staff_id: number;
  code_hash: string;
  used_at: string | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  staff_id: number | null;
  staff_email: string;
  action: string;
  entity: string;
  entity_id: string;
  before: string | null;
  after: string | null;
  diff: string;
  ip: string;
  created_at: string;
}

export interface ProductSlugRedirectsTable {
  slug: string;
  product_id: number;
  created_at: string;
}

export interface StockMovementsTable {
  id: Generated<number>;
  sku_id: number;
  branch_id: number;
  delta: number;
  quantity_after: number;
  /** 'received', 'sold', 'returned' or 'correction' */
  reason: string;
  note: Generated<string>;
  staff_id: number | null;
  created_at: string;
}

/** One row: moves whenever the back office changes what the read side is made from. */
export interface ReadSideVersionTable {
  id: number;
  version: number;
  changed_at: string;
}

/** A CSV import of products, checked in full before it is applied (migration 0016). */
export interface CatalogueImportsTable {
  id: Generated<number>;
  staff_id: number | null;
  status: string;
  file_name: string;
  total_rows: number;
  errors: Generated<string>;
  error_count: Generated<number>;
  summary: string | null;
  created_at: string;
  updated_at: string;
}

/** The file of a catalogue import, in parts of 256 KB (migration 0030, docs/decisions/0051). */
export interface CatalogueImportPartsTable {
  import_id: number;
  part: number;
  bytes: Uint8Array;
}

/** An answer staff sent to a contact message (migration 0021, docs/decisions/0036). */
export interface ContactRepliesTable {
  id: Generated<number>;
  message_id: number;
  staff_id: number | null;
  staff_name: string;
  body: string;
  mail_outbox_id: number | null;
  created_at: string;
}

/** One row per group of the shop's settings (docs/decisions/0037): its version for optimistic locking. */
export interface SettingsGroupsTable {
  name: string;
  version: Generated<number>;
  updated_at: string | null;
  updated_by: string | null;
}

export interface Database {
  categories: CategoriesTable;
  products: ProductsTable;
  product_images: ProductImagesTable;
  product_categories: ProductCategoriesTable;
  skus: SkusTable;
  attributes: AttributesTable;
  sku_attribute_values: SkuAttributeValuesTable;
  bundle_items: BundleItemsTable;
  branches: BranchesTable;
  stocks: StocksTable;
  currencies: CurrenciesTable;
  cms_content: CmsContentTable;
  kvps: KvpsTable;
  product_search: ProductSearchTable;
  product_facets: ProductFacetsTable;
  search_index_state: SearchIndexStateTable;
  category_facets: CategoryFacetsTable;
  search_words: SearchWordsTable;
  category_listing: CategoryListingTable;
  mail_outbox: MailOutboxTable;
  customers: CustomersTable;
  customer_sessions: CustomerSessionsTable;
  password_resets: PasswordResetsTable;
  addresses: AddressesTable;
  wishlists: WishlistsTable;
  wishlist_items: WishlistItemsTable;
  rate_limits: RateLimitsTable;
  installation_secrets: InstallationSecretsTable;
  email_subscriptions: EmailSubscriptionsTable;
  contact_messages: ContactMessagesTable;
  contact_replies: ContactRepliesTable;
  files: FilesTable;
  file_uploads: FileUploadsTable;
  file_upload_parts: FileUploadPartsTable;
  file_imports: FileImportsTable;
  file_quota_holds: FileQuotaHoldsTable;
  global_discounts: GlobalDiscountsTable;
  global_discount_categories: GlobalDiscountCategoriesTable;
  global_discount_items: GlobalDiscountItemsTable;
  coupons: CouponsTable;
  coupon_usages: CouponUsagesTable;
  sales: SalesTable;
  sale_lines: SaleLinesTable;
  sale_status_history: SaleStatusHistoryTable;
  stock_reservations: StockReservationsTable;
  payments: PaymentsTable;
  sale_attachments: SaleAttachmentsTable;
  sandbox_payment_sessions: SandboxPaymentSessionsTable;
  checkout_keys: CheckoutKeysTable;
  staff: StaffTable;
  staff_sessions: StaffSessionsTable;
  staff_recovery_codes: StaffRecoveryCodesTable;
  staff_invites: StaffInvitesTable;
  audit_log: AuditLogTable;
  product_slug_redirects: ProductSlugRedirectsTable;
  stock_movements: StockMovementsTable;
  read_side_version: ReadSideVersionTable;
  catalogue_imports: CatalogueImportsTable;
  catalogue_import_parts: CatalogueImportPartsTable;
  sale_notes: SaleNotesTable;
  consignments: ConsignmentsTable;
  consignment_events: ConsignmentEventsTable;
  courier_payouts: CourierPayoutsTable;
  courier_payout_lines: CourierPayoutLinesTable;
  provider_tokens: ProviderTokensTable;
  refunds: RefundsTable;
  sandbox_refunds: SandboxRefundsTable;
  delivery_zones: DeliveryZonesTable;
  delivery_zone_districts: DeliveryZoneDistrictsTable;
  settings_groups: SettingsGroupsTable;
}

export type Category = Selectable<CategoriesTable>;
export type NewCategory = Insertable<CategoriesTable>;
export type Product = Selectable<ProductsTable>;
export type CmsContent = Selectable<CmsContentTable>;
export type Branch = Selectable<BranchesTable>;
export type Currency = Selectable<CurrenciesTable>;
export type Timestamp = ColumnType<string, string, string>;
