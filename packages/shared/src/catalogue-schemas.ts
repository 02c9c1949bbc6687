import { z } from './zod.ts';
import { ZSearchRequest } from './search-schemas.ts';

// The catalogue API's shapes (spec §3, §7): the server validates its answers with these and
// the web app reads its types from them. Amounts are integers in poisha.

const ZMinor = z.number().int();

export const ZCategoryOption = z.object({
  discriminator: z.string(),
  values: z.array(z.object({ displayLabel: z.string() })),
});

export const ZCategoryRef = z.object({ id: z.number().int(), name: z.string(), slug: z.string(), sortOrder: z.number().int() });

/** spec §3 Category: id, name, parentId, sortOrder, children, img, extras.shop_banner_image_url, options. */
export const ZCategory = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  parentId: z.number().int().nullable(),
  sortOrder: z.number().int(),
  img: z.string().nullable(),
  extras: z.object({ shop_banner_image_url: z.string().nullable() }),
  options: z.array(ZCategoryOption),
  /** The direct children, in their order. */
  children: z.array(ZCategoryRef),
});
export type TCategory = z.infer<typeof ZCategory>;

export const ZSkuPrice = z.object({ code: z.string(), salesPrice: ZMinor, discountedSalesPrice: ZMinor.nullable() });
export type TSkuSummary = z.infer<typeof ZSkuPrice>;

/** One product in a listing (the "index" of spec §7's item indices). */
export const ZProductCard = z.object({
  id: z.number().int(),
  title: z.string(),
  slug: z.string(),
  modelCode: z.string().nullable(),
  kind: z.enum(['single', 'bundle']),
  image: z.object({ url: z.string(), alt: z.string() }).nullable(),
  /** The product's own (leaf) category. */
  categoryId: z.number().int(),
  /** The leaf and all its ancestors (what category discounts reach). */
  categoryIds: z.array(z.number().int()),
  /** The sku a card shows and adds: the cheapest one. */
  sku: ZSkuPrice,
  /** What the card's sku costs after its own sale price. */
  price: ZMinor,
  onSale: z.boolean(),
  isNewArrival: z.boolean(),
  skuCount: z.number().int(),
  colors: z.array(z.object({ label: z.string(), value: z.string() })),
  createdAt: z.string(),
});
export type TProductCard = z.infer<typeof ZProductCard>;

export const ZFacets = z.object({
  /** Sub-categories of the chosen category (top-level ones without), with matching products. */
  categories: z.array(z.object({ id: z.number().int(), name: z.string(), count: z.number().int() })),
  /** Lowest and highest price among the matches, ignoring the price filter; null when none. */
  price: z.object({ min: ZMinor, max: ZMinor }).nullable(),
  attributes: z.array(
    z.object({
      name: z.string(),
      displayLabel: z.string(),
      values: z.array(z.object({ value: z.string(), displayLabel: z.string(), count: z.number().int() })),
    }),
  ),
});
export type TFacets = z.infer<typeof ZFacets>;

/** Body of the item searches: spec §3's search body, plus whether facets are wanted. */
export const ZItemSearchRequest = ZSearchRequest.extend({
  facets: z.boolean().default(false),
});
export type TItemSearchRequest = z.infer<typeof ZItemSearchRequest>;
export type TItemSearchRequestInput = z.input<typeof ZItemSearchRequest>;

export const ZItemSearchResult = z.object({
  list: z.array(ZProductCard),
  nextPageToken: z.string(),
  count: z.number().int().optional(),
  /** 'model': the term was a model number and matched one exactly; 'text': full-text; 'all': no term. */
  match: z.enum(['model', 'text', 'all']),
  /** The category the listing is filtered to, when one is. */
  category: z
    .object({ id: z.number().int(), name: z.string(), slug: z.string(), parentId: z.number().int().nullable(), banner: z.string().nullable() })
    .nullable(),
  facets: ZFacets.optional(),
});
export type TItemSearchResult = z.infer<typeof ZItemSearchResult>;

export const ZAttributeValue = z.object({
  attributeId: z.number().int(),
  /** Machine name of the attribute, such as color. */
  name: z.string(),
  value: z.string(),
  displayLabel: z.string(),
  /** spec §3: the attribute's label, such as Size or Color. */
  optionDisplayLabel: z.string(),
});

export const ZSku = ZSkuPrice.extend({ attributeValues: z.array(ZAttributeValue) });
export type TSku = z.infer<typeof ZSku>;

export const ZProductImage = z.object({ url: z.string(), alt: z.string(), variantValue: z.string().nullable() });

export const ZBundlePart = z.object({
  skuCode: z.string(),
  quantity: z.number().int(),
  salesPrice: ZMinor,
  discountedSalesPrice: ZMinor.nullable(),
  attributeValues: z.array(ZAttributeValue),
  product: z.object({ id: z.number().int(), title: z.string(), slug: z.string(), image: z.string().nullable() }),
});

/** GET /api/v3/items/joined: a product with everything its page needs to sell it. */
export const ZProductDetails = z.object({
  id: z.number().int(),
  title: z.string(),
  slug: z.string(),
  modelCode: z.string().nullable(),
  description: z.string(),
  kind: z.enum(['single', 'bundle']),
  modelUrl: z.string().nullable(),
  isNewArrival: z.boolean(),
  createdAt: z.string(),
  /** Leaf first, then its ancestors (spec §3: the first one's id is used). */
  categories: z.array(z.object({ id: z.number().int(), name: z.string(), slug: z.string(), parentId: z.number().int().nullable() })),
  categoryIds: z.array(z.number().int()),
  image: z.string().nullable(),
  images: z.array(ZProductImage),
  skus: z.array(ZSku),
  /** spec §3 skuDetails: the parts of a bundle (empty for a single product). */
  skuDetails: z.array(ZBundlePart),
});
export type TProductDetails = z.infer<typeof ZProductDetails>;

export const ZBranch = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: z.string(),
  address: z.string(),
  city: z.string(),
  phone: z.string(),
  hours: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  sortOrder: z.number().int(),
});
export type TBranch = z.infer<typeof ZBranch>;

export const ZStockRow = z.object({
  skuCode: z.string(),
  itemId: z.number().int(),
  branchId: z.number().int(),
  quantity: z.number().int(),
});
export type TStockRow = z.infer<typeof ZStockRow>;

export const ZAttribute = z.object({ id: z.number().int(), name: z.string(), displayLabel: z.string(), sortOrder: z.number().int() });
export type TAttribute = z.infer<typeof ZAttribute>;

export const ZOption = ZAttribute.extend({ values: z.array(z.object({ value: z.string(), displayLabel: z.string() })) });
export type TOption = z.infer<typeof ZOption>;

export const ZItemContent = z.object({
  itemId: z.number().int(),
  title: z.string(),
  description: z.string(),
  specifications: z.array(z.object({ label: z.string(), value: z.string() })),
});
export type TItemContent = z.infer<typeof ZItemContent>;

export const ZVariantImages = z.object({
  itemId: z.number().int(),
  variants: z.array(
    z.object({
      name: z.string(),
      value: z.string(),
      displayLabel: z.string(),
      images: z.array(z.object({ url: z.string(), alt: z.string() })),
    }),
  ),
});
export type TVariantImages = z.infer<typeof ZVariantImages>;

export const ZAttachment = z.object({
  id: z.string(),
  itemId: z.number().int(),
  /** '3d-model' for a viewable 3D model. */
  kind: z.string(),
  title: z.string(),
  url: z.string(),
});
export type TAttachment = z.infer<typeof ZAttachment>;

export const ZBundle = z.object({
  id: z.number().int(),
  title: z.string(),
  slug: z.string(),
  modelCode: z.string().nullable(),
  image: z.string().nullable(),
  sku: ZSkuPrice,
  skuDetails: z.array(ZBundlePart),
});
export type TBundle = z.infer<typeof ZBundle>;

export const ZCmsItem = z.object({
  id: z.number().int(),
  type: z.string(),
  title: z.string(),
  slug: z.string(),
  body: z.string(),
  fields: z.record(z.string(), z.unknown()),
  sortOrder: z.number().int(),
  updatedAt: z.string(),
});
export type TCmsItem = z.infer<typeof ZCmsItem>;

export const ZSlide = z.object({
  id: z.number().int(),
  title: z.string(),
  body: z.string(),
  image: z.string(),
  /** A path on this site the slide leads to. */
  link: z.string().nullable(),
});
export type TSlide = z.infer<typeof ZSlide>;
