import { formatNumber } from './i18n/format.ts';
import type { Locale } from './i18n/locales.ts';

// Money is an integer number of poisha (1/100 taka) everywhere (decisions.md).

export type Minor = number;

export function assertMinor(amount: number): Minor {
  if (!Number.isSafeInteger(amount)) throw new RangeError(`not an integer amount of minor units: ${amount}`);
  return amount;
}

/** Whole taka to poisha. */
export function takaToMinor(taka: number): Minor {
  return assertMinor(Math.round(taka * 100));
}

/** A display currency (spec §3): `rate` is BDT per one unit of it (decisions.md). */
export interface TDisplayCurrency {
  sourceId: string;
  rate: number;
}

export const BDT: TDisplayCurrency = { sourceId: 'BDT', rate: 1 };

/** The cookie (and browser-storage key) that remembers the shopper's display currency. */
export const CURRENCY_COOKIE = 'currency';

export const CURRENCY_SYMBOLS: Record<string, string> = { BDT: '৳', USD: '$', EUR: '€', GBP: '£', INR: '₹', AED: 'AED ' };

export function currencySymbol(code: string): string {
  return CURRENCY_SYMBOLS[code] ?? `${code} `;
}

/** A currency code as a cookie or a query may carry it: three letters, else null. */
export function parseCurrencyCode(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const code = value.trim().toUpperCase();
  return /^[A-Z]{3}$/.test(code) ? code : null;
}

/**
 * A BDT amount in the chosen currency, to 2 decimals (spec §9: the BDT amount divided by
 * the rate). Halves round away from zero. The result is only ever displayed: every
 * calculation stays in poisha.
 */
export function toDisplayAmount(minorBdt: Minor, currency: TDisplayCurrency = BDT): number {
  const rate = currency.rate > 0 && Number.isFinite(currency.rate) ? currency.rate : 1;
  // minor / rate is in hundredths of the display unit. toPrecision(12) drops the binary
  // noise of the division (145 / 1.45 = 100.00000000000001) before rounding.
  const hundredths = Number((Math.abs(minorBdt) / rate).toPrecision(12));
  const rounded = Math.round(hundredths) / 100;
  return minorBdt < 0 && rounded !== 0 ? -rounded : rounded;
}

/**
 * Display a BDT amount in the chosen currency: BDT / rate to 2 decimals, with the
 * currency's symbol (spec §9), South Asian grouping, and Bangla digits in the Bangla shop
 * (i18n/format.ts). The one formatting function of the shop: every price on every page
 * goes through it.
 */
export function formatMoney(minorBdt: Minor, currency: TDisplayCurrency = BDT, locale: Locale = 'en'): string {
  const amount = toDisplayAmount(minorBdt, currency);
  const digits = formatNumber(Math.abs(amount), locale, { fractionDigits: 2 });
  return `${amount < 0 ? '−' : ''}${currencySymbol(currency.sourceId)}${digits}`;
}
