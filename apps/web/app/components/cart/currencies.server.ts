import { CURRENCY_COOKIE, parseCurrencyCode, type TCurrencyConversion, type TGlobalDiscount, type TPage } from '@storefront/shared';
import type { AppLoadContext } from 'react-router';
import { apiJson } from '../../lib/api.server.ts';

/** A display currency of spec §3 (cart and currency feature). */
export type ShellCurrency = { sourceId: string; sourceCountry: string; rate: number; imageUrl: string };

/** spec §7: GET /api/currencies/conversions?size=10. A failure leaves the shop in BDT, not broken. */
export async function loadCurrencies(context: AppLoadContext): Promise<ShellCurrency[]> {
  try {
    const page = await apiJson<TPage<TCurrencyConversion>>(context, '/api/currencies/conversions?size=10');
    return page.list.map(({ sourceId, sourceCountry, rate, imageUrl }) => ({ sourceId, sourceCountry, rate, imageUrl }));
  } catch {
    return [];
  }
}

/** The display currency chosen in an earlier visit (cookie `currency`), or null. */
export function chosenCurrency(request: Request): string | null {
  const header = request.headers.get('cookie') ?? '';
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === CURRENCY_COOKIE) return parseCurrencyCode(decodeURIComponent(rest.join('=')));
  }
  return null;
}

/**
 * The global discounts in force (spec §7: POST /api/global/discounts/search, size 100,
 * following nextPageToken), for the discounted prices every page shows. A failure shows
 * list prices rather than an error page; the server's quote still applies every discount.
 */
export async function loadDiscounts(context: AppLoadContext): Promise<TGlobalDiscount[]> {
  const all: TGlobalDiscount[] = [];
  try {
    for (let page = 1; page <= 20; page++) {
      const res = await apiJson<TPage<TGlobalDiscount>>(context, '/api/global/discounts/search', {
        method: 'POST',
        body: { page, size: 100, textParams: [{ field: 'valid', value: true }] },
      });
      all.push(...res.list);
      if (!res.nextPageToken) break;
    }
  } catch {
    return [];
  }
  return all;
}

/** What the root loader hands to PricingProvider: currency choice and discounts. */
export async function loadPricing(context: AppLoadContext, request: Request) {
  return { currency: chosenCurrency(request), discounts: await loadDiscounts(context) };
}
