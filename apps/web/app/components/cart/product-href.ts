import { productPath } from '@storefront/shared';

/** Where a cart line links to: the product's readable, canonical page (catalogue feature). */
export function productHref(product: { id: number; slug: string }): string {
  return productPath(product.slug);
}
