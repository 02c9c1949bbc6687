import { parseTaka, slugify, type TAdminProduct, type TAdminProductInput, takaInput } from '@storefront/shared';

// The product editor's state: the product as staff type it (prices as taka text), turned
// into the API's body (prices in poisha) when saved. Kept apart from the screen so the
// conversion is one function each way.

export interface SkuDraft {
  key: string;
  id?: number;
  code: string;
  price: string;
  discounted: string;
  lowStock: string;
  attributes: { attributeId: number; value: string; displayLabel: string }[];
}

export interface ProductDraft {
  title: string;
  /** The Bangla title and description, when they exist (docs/decisions/0038); empty: none. */
  titleBn: string;
  descriptionBn: string;
  slug: string;
  slugTouched: boolean;
  modelCode: string;
  description: string;
  status: 'published' | 'draft';
  isNewArrival: boolean;
  kind: 'single' | 'bundle';
  /** A bundle's contents: other products' sku codes and how many of each. */
  bundleItems: { key: string; skuCode: string; quantity: string }[];
  categoryIds: number[];
  primaryCategoryId: number | null;
  /** variantValue: the colour a picture shows (kept as it is; the storefront's gallery uses it). */
  images: { key: string; url: string; alt: string; variantValue: string | null }[];
  skus: SkuDraft[];
}

let seq = 0;
export const newKey = () => `k${++seq}`;

export function emptySku(): SkuDraft {
  return { key: newKey(), code: '', price: '', discounted: '', lowStock: '', attributes: [] };
}

export function draftOf(p: TAdminProduct | null): ProductDraft {
  if (!p) {
    return {
      title: '',
      titleBn: '',
      descriptionBn: '',
      slug: '',
      slugTouched: false,
      modelCode: '',
      description: '',
      status: 'draft',
      isNewArrival: false,
      kind: 'single',
      bundleItems: [],
      categoryIds: [],
      primaryCategoryId: null,
      images: [],
      skus: [emptySku()],
    };
  }
  return {
    title: p.title,
    titleBn: p.titleBn ?? '',
    descriptionBn: p.descriptionBn ?? '',
    slug: p.slug,
    slugTouched: true,
    modelCode: p.modelCode ?? '',
    description: p.description,
    status: p.status === 'published' ? 'published' : 'draft',
    isNewArrival: p.isNewArrival,
    kind: p.kind,
    bundleItems: p.bundleItems.map((b) => ({ key: newKey(), skuCode: b.skuCode, quantity: String(b.quantity) })),
    categoryIds: p.categoryIds,
    primaryCategoryId: p.primaryCategoryId,
    images: p.images.map((i) => ({ key: newKey(), url: i.url, alt: i.alt, variantValue: i.variantValue })),
    skus: p.skus.map((s) => ({
      key: newKey(),
      id: s.id,
      code: s.code,
      price: takaInput(s.salesPrice),
      discounted: s.discountedSalesPrice == null ? '' : takaInput(s.discountedSalesPrice),
      lowStock: s.lowStockThreshold == null ? '' : String(s.lowStockThreshold),
      attributes: s.attributes,
    })),
  };
}

export function withTitle(d: ProductDraft, title: string): ProductDraft {
  return { ...d, title, slug: d.slugTouched ? d.slug : slugify(title) };
}

/** The API body, or the fields that are not amounts (checked here, as the server would refuse them anyway). */
export function bodyOf(d: ProductDraft): { body: TAdminProductInput; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const skus = d.skus.map((s, i) => {
    const price = parseTaka(s.price);
    if (price == null) errors[`skus.${i}.salesPrice`] = 'Enter the price in taka, for example 12500 or 12500.50';
    const discounted = s.discounted.trim() ? parseTaka(s.discounted) : null;
    if (s.discounted.trim() && discounted == null) errors[`skus.${i}.discountedSalesPrice`] = 'Enter the discounted price in taka, or leave it empty';
    const lowStock = s.lowStock.trim() ? Number(s.lowStock) : null;
    if (lowStock != null && !Number.isInteger(lowStock)) errors[`skus.${i}.lowStockThreshold`] = 'Enter a whole number, or leave it empty';
    return {
      ...(s.id != null ? { id: s.id } : {}),
      code: s.code,
      salesPrice: price ?? 0,
      discountedSalesPrice: discounted,
      lowStockThreshold: lowStock,
      attributes: s.attributes.filter((a) => a.value.trim()),
    };
  });
  return {
    errors,
    body: {
      title: d.title,
      titleBn: d.titleBn.trim() || null,
      slug: d.slug,
      modelCode: d.modelCode.trim() || null,
      description: d.description,
      descriptionBn: d.descriptionBn.trim() ? d.descriptionBn : null,
      status: d.status,
      isNewArrival: d.isNewArrival,
      kind: d.kind,
      bundleItems:
        d.kind === 'bundle' ? d.bundleItems.filter((b) => b.skuCode.trim()).map((b) => ({ skuCode: b.skuCode.trim(), quantity: Number(b.quantity) || 0 })) : [],
      categoryIds: d.categoryIds,
      primaryCategoryId: d.primaryCategoryId ?? d.categoryIds[0] ?? 0,
      images: d.images.map((i) => ({ url: i.url, alt: i.alt, variantValue: i.variantValue })),
      skus,
    },
  };
}
