import type { TCustomer } from './account-schemas.ts';
import type { TSale } from './checkout-schemas.ts';
import type {
  TAttachment,
  TBranch,
  TCategory,
  TCmsItem,
  TItemContent,
  TItemSearchRequestInput,
  TItemSearchResult,
  TOption,
  TProductCard,
  TProductDetails,
  TSlide,
  TStockRow,
  TVariantImages,
} from './catalogue-schemas.ts';
import type { TDeliveryZone } from './delivery.ts';
import type { TGlobalDiscount } from './pricing-schemas.ts';
import type { TCurrencyConversion } from './pricing-api.ts';
import type { Locale } from './i18n/locales.ts';
import type { TPage } from './search.ts';
import type { TSearchRequestInput } from './search-schemas.ts';

/**
 * What the web app's loaders and actions receive as context from the server that
 * renders them: a fetch-like call into the API of the same process, with the
 * shopper's cookie and device id forwarded (docs/decisions/0004).
 */
export interface WebLoadContext {
  api(path: string, init?: { method?: string; body?: unknown; headers?: Record<string, string> }): Promise<Response>;
  /** The storefront's API key, also handed to the browser for its own calls. */
  apiKey: string;
  publicUrl: string;
  /** CSP nonce of this response's scripts. */
  nonce: string;
  /** The page's language: `?lang=`, else the `lang` cookie, else English (docs/decisions/0038). */
  lang: Locale;
  /** The shop's reads, called directly (loaders use these rather than `api`). */
  reads: ShopReads;
}

/** What a content page (about, policies, …) carries: the article found by its slug. */
export type TContentItem = {
  id: number;
  type: string;
  title: string;
  slug: string;
  body: string;
  fields: Record<string, unknown>;
  sortOrder: number;
  updatedAt: string;
};

/**
 * The shop's reads as page loaders call them: the same service functions the REST routes
 * call, in the same process, with no HTTP hop, API key check, JSON round trip or response
 * serialisation in between (docs/decisions/0029). Inputs are parsed with the routes'
 * own schemas, so defaults and limits are the API's. A refusal throws the API's domain
 * error (an Error with `status` and `code`), which the loader maps to a page status.
 */
export interface ShopReads {
  /** GET /api/kvps. */
  siteSettings(): Promise<Record<string, string>>;
  /** Every category (POST /api/categories/search followed to the last page). */
  allCategories(): Promise<TCategory[]>;
  /** GET /api/currencies/conversions?size=10. */
  currencies(): Promise<TCurrencyConversion[]>;
  /** The global discounts in force (POST /api/global/discounts/search, valid = true). */
  discountsInForce(): Promise<TGlobalDiscount[]>;
  /** GET /api/delivery/zones: kept with the shell, so a product page reads no more rows for it. */
  deliveryZones(): Promise<TDeliveryZone[]>;
  /** The signed-in shopper of this request with their wishlist count, or null for a guest. */
  shopper(): Promise<{ customer: TCustomer; wishlistCount: number } | null>;
  /** GET /api/options. */
  options(): Promise<TOption[]>;
  /** POST /api/search/indices/items (`search`) or POST /api/v2/items/indices (`listing`). */
  searchItems(body: TItemSearchRequestInput, mode: 'search' | 'listing'): Promise<TItemSearchResult>;
  /** GET /api/v3/items/joined with exactly one of id, slug or code. */
  item(by: { id?: number; slug?: string; code?: string }): Promise<TProductDetails>;
  /**
   * Everything the product page shows, each table read once: the product (as item()), its
   * content, bullets, articles, variant pictures, stock rows, the branches, `relatedSize`
   * related items, attachments and the attributes' help texts.
   */
  /** The slug a product has now, when `slug` is one it had before; else null. */
  slugRedirect(slug: string): Promise<string | null>;
  productPage(
    by: { id?: number; slug?: string; code?: string },
    relatedSize: number,
  ): Promise<{
    item: TProductDetails;
    content: TItemContent;
    bullets: TCmsItem[];
    articles: TCmsItem[];
    variants: TVariantImages;
    stock: TStockRow[];
    branches: TBranch[];
    related: TProductCard[];
    attachments: TAttachment[];
    helpTexts: TCmsItem[];
  }>;
  itemContent(itemId: number): Promise<TItemContent>;
  itemBullets(itemId: number): Promise<TCmsItem[]>;
  itemArticles(itemId: number): Promise<TCmsItem[]>;
  variantImages(itemId: number): Promise<TVariantImages>;
  branches(): Promise<TBranch[]>;
  linkedItems(req: TSearchRequestInput): Promise<TPage<TProductCard>>;
  attachments(req: TSearchRequestInput): Promise<TPage<TAttachment>>;
  attributeTexts(): Promise<TCmsItem[]>;
  /** POST /api/stocks/items/skus/search: never cached. */
  stock(req: TSearchRequestInput): Promise<TPage<TStockRow>>;
  sliders(): Promise<TSlide[]>;
  /** The carousel, the selling points and the first `articles` articles, in one read. */
  homeContent(articles: number): Promise<{ slides: TSlide[]; bullets: TCmsItem[]; articles: TContentItem[] }>;
  siteBullets(): Promise<TCmsItem[]>;
  /** POST /api/cms/articles/search. */
  content(req: TSearchRequestInput): Promise<TPage<TContentItem>>;
  /**
   * GET /api/sales (by id or invoice id) as the page's visitor may see it: their own order as
   * a customer, or a guest's by the order-access cookie; anyone else's is a 404.
   */
  sale(ref: { id?: number | string; invoiceId?: string }, orderLink?: string | null): Promise<TSale>;
  /**
   * The Set-Cookie that lets this browser keep opening a guest order reached by its mailed
   * link (docs/decisions/0032), or null when the link does not open that order.
   */
  rememberOrderLink(invoiceId: string, orderLink: string): Promise<string | null>;
  /** POST /api/sales: the visitor's orders and bookings. */
  sales(req: TSearchRequestInput): Promise<TPage<TSale>>;
  /** GET /api/qrs as SVG: the QR code of one of the visitor's invoices. */
  invoiceQr(invoiceId: string, size: number, orderLink?: string | null): Promise<string>;
}
