// The orders list's filters as the page's address holds them, turned into the API's query
// (typed taka become poisha): shared by the list and its CSV download.

const FILTERS = ['q', 'status', 'paymentStatus', 'paymentMethod', 'kind', 'branchId', 'from', 'to', 'sort', 'page'] as const;

/** Typed taka ("12,500") as poisha; anything else is left out. */
function poisha(text: string | null): string | null {
  if (!text) return null;
  const n = Number(text.replace(/[,৳\s]/g, ''));
  return Number.isFinite(n) && n >= 0 ? String(Math.round(n * 100)) : null;
}

export function apiQuery(url: URL): URLSearchParams {
  const q = new URLSearchParams();
  for (const k of FILTERS) {
    const v = url.searchParams.get(k);
    if (v) q.set(k, v);
  }
  const min = poisha(url.searchParams.get('min'));
  const max = poisha(url.searchParams.get('max'));
  if (min) q.set('minTotal', min);
  if (max) q.set('maxTotal', max);
  return q;
}
