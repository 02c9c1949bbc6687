import type { TFacets } from '@storefront/shared';

// The one shape of a listing's facets (spec §7 item indices), whether counted per request
// (search.service.ts), at build time per category, or per common word (search-words.ts).

export interface FacetAttribute {
  id: number;
  name: string;
  display_label: string;
}

export interface FacetValueCount {
  attribute_id: number;
  value: string;
  display_label: string;
  n: number;
}

function byLabel(x: { displayLabel: string }, y: { displayLabel: string }) {
  return x.displayLabel < y.displayLabel ? -1 : x.displayLabel > y.displayLabel ? 1 : 0;
}

/**
 * The facets from counts: category options without products are left out (except the
 * category being listed), attributes in their own order with their values by label.
 */
export function shapeFacets(
  options: { id: number; name: string }[],
  countOf: (categoryId: number) => number,
  currentCategoryId: number | undefined,
  price: TFacets['price'],
  attrs: FacetAttribute[],
  values: FacetValueCount[],
): TFacets {
  return {
    categories: options.map((o) => ({ id: o.id, name: o.name, count: countOf(o.id) })).filter((c) => c.count > 0 || c.id === currentCategoryId),
    price,
    attributes: attrs
      .map((a) => ({
        name: a.name,
        displayLabel: a.display_label,
        values: values
          .filter((v) => v.attribute_id === a.id)
          .map((v) => ({ value: v.value, displayLabel: v.display_label, count: Number(v.n) }))
          .sort(byLabel),
      }))
      .filter((a) => a.values.length > 0),
  };
}
