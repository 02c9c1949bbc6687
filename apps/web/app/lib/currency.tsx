import {
  BDT,
  CURRENCY_COOKIE,
  DEFAULT_CURRENCY,
  formatMoney,
  type Minor,
  parseCurrencyCode,
  priceSku,
  type TGlobalDiscount,
  type TPriceInput,
  type TSkuPrice,
} from '@storefront/shared';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import type { ShellCurrency } from '../components/cart/currencies.server.ts';
import { useT } from './i18n.tsx';

// The display currency and the global discounts, for every price on every page.
// Components call useMoney().format(minor) for any amount and useSkuPrice(...) for a
// sku's price after discounts: both go through the shared functions of packages/shared
// (formatMoney, priceSku) that the server's quote uses too, so what a page shows is what
// the server charges (docs/decisions/0014).
//
// The choice of currency lives in a plain cookie, so the server renders the first paint
// in it (no flash of BDT prices), and in localStorage, whose storage event keeps other
// tabs in step.

const YEAR_S = 365 * 24 * 60 * 60;
const FALLBACK: ShellCurrency = {
  sourceId: DEFAULT_CURRENCY.sourceId,
  sourceCountry: DEFAULT_CURRENCY.sourceCountry,
  rate: DEFAULT_CURRENCY.rate,
  imageUrl: '/media/flags/BDT.svg',
};

interface PricingValue {
  currency: ShellCurrency;
  currencies: ShellCurrency[];
  discounts: TGlobalDiscount[];
  setCurrency(code: string): void;
}

const PricingContext = createContext<PricingValue | null>(null);

function pick(currencies: ShellCurrency[], code: string | null | undefined): ShellCurrency {
  return currencies.find((c) => c.sourceId === code) ?? currencies.find((c) => c.sourceId === BDT.sourceId) ?? FALLBACK;
}

export function PricingProvider({
  currencies,
  currency,
  discounts,
  children,
}: {
  currencies: ShellCurrency[];
  /** The code read from the cookie by the root loader. */
  currency: string | null | undefined;
  discounts: TGlobalDiscount[];
  children: ReactNode;
}) {
  const [code, setCode] = useState(() => pick(currencies, currency).sourceId);

  const setCurrency = useCallback((next: string) => {
    const valid = parseCurrencyCode(next);
    if (!valid) return;
    setCode(valid);
    // biome-ignore lint/suspicious/noDocumentCookie: one cookie, read by the server to render prices; the Cookie Store API is not in every browser we serve.
    document.cookie = `${CURRENCY_COOKIE}=${valid}; Path=/; Max-Age=${YEAR_S}; SameSite=Lax`;
    try {
      localStorage.setItem(CURRENCY_COOKIE, valid);
    } catch {
      // Storage may be full or blocked; the cookie still remembers the choice.
    }
  }, []);

  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key !== CURRENCY_COOKIE) return;
      const next = parseCurrencyCode(e.newValue);
      if (next) setCode(next);
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const value = useMemo(() => ({ currency: pick(currencies, code), currencies, discounts, setCurrency }), [currencies, code, discounts, setCurrency]);
  return <PricingContext.Provider value={value}>{children}</PricingContext.Provider>;
}

const NO_PROVIDER: PricingValue = { currency: FALLBACK, currencies: [FALLBACK], discounts: [], setCurrency: () => {} };

function usePricing(): PricingValue {
  return useContext(PricingContext) ?? NO_PROVIDER;
}

export interface Money {
  /** The chosen display currency. */
  currency: ShellCurrency;
  currencies: ShellCurrency[];
  /** Any BDT amount in poisha, in the chosen currency (spec §9: BDT / rate, 2 decimals). */
  format(minorBdt: Minor): string;
  /** The same amount in BDT, whatever is chosen: what checkout charges. */
  formatBdt(minorBdt: Minor): string;
  setCurrency(code: string): void;
  isBdt: boolean;
}

/** The one way components show money. */
export function useMoney(): Money {
  const { currency, currencies, setCurrency } = usePricing();
  // Bangla digits in the Bangla shop, South Asian grouping in both (docs/decisions/0038).
  const { lang } = useT();
  return useMemo(
    () => ({
      currency,
      currencies,
      format: (minor: Minor) => formatMoney(minor, currency, lang),
      formatBdt: (minor: Minor) => formatMoney(minor, BDT, lang),
      setCurrency,
      isBdt: currency.sourceId === BDT.sourceId,
    }),
    [currency, currencies, setCurrency, lang],
  );
}

/** The global discounts in force, as the root loader read them. */
export function useDiscounts(): TGlobalDiscount[] {
  return usePricing().discounts;
}

/**
 * A sku's price after the best discount (its own sale price or a global discount), by
 * the shared rule the server's quote uses. `categoryIds` may be the leaf category alone:
 * a discount lists every descendant it reaches.
 */
export function useSkuPrice(input: TPriceInput): TSkuPrice {
  const discounts = usePricing().discounts;
  const { productId, skuCode, salesPrice, discountedSalesPrice } = input;
  const cats = input.categoryIds.join(',');
  // biome-ignore lint: categoryIds is compared by value through `cats`.
  return useMemo(() => priceSku(input, discounts), [discounts, productId, skuCode, salesPrice, discountedSalesPrice, cats]);
}
