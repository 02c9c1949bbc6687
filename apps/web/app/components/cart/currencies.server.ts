import { CURRENCY_COOKIE, parseCurrencyCode, type TGlobalDiscount } from '@storefront/shared';
import type { AppLoadContext } from 'react-router';

/** A display currency of spec §3 (cart and currency feature). */
export type ShellCurrency = { sourceId: string; sourceCountry: string; rate: number; imageUrl: string };

/** spec §7: the conversions of GET /api/currencies/conversions?size=10. A failure leaves the shop in BDT, not broken. */
export async function loadCurrencies(context: AppLoadContext): Promise<ShellCurrency[]> {
  try {
    const list = await context.reads.currencies();
    return list.map(({ sourceId, sourceCountry, rate, imageUrl }) => ({ sourceId, sourceCountry, rate, imageUrl }));
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
 * The global discounts in force (spec §7: what POST /api/global/discounts/search answers
 * for valid = true), for the discounted prices every page shows. A failure shows
 * list prices rather than an error page; the server's quote still applies every discount.
 */
export async function loadDiscounts(context: AppLoadContext): Promise<TGlobalDiscount[]> {
  try {
    return await context.reads.discountsInForce();
  } catch {
    return [];
  }
}

/** What the root loader hands to PricingProvider: currency choice and discounts. */
export async function loadPricing(context: AppLoadContext, request: Request) {
  return { currency: chosenCurrency(request), discounts: await loadDiscounts(context) };
}
