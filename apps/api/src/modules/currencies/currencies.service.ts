import { DEFAULT_CURRENCY, type TCurrencyConversion } from '@storefront/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { currencyPage } from './currencies.repository.ts';

/**
 * GET /api/currencies/conversions (spec §3, §7): display currencies with their rate in
 * BDT per unit. BDT (rate 1) is always present and first, even if the table lost it:
 * it is the currency the shop charges in (decisions.md).
 */
export async function listCurrencies(db: Kysely<Database>, page: number, size: number) {
  const rows = await currencyPage(db, (page - 1) * size, size + 1);
  const more = rows.length > size;
  const list: TCurrencyConversion[] = rows.slice(0, size).map((r) => ({
    sourceId: r.code,
    sourceCountry: r.country,
    rate: Number(r.rate),
    numCode: r.num_code,
    imageUrl: r.image_url,
  }));
  if (page === 1 && !list.some((c) => c.sourceId === DEFAULT_CURRENCY.sourceId)) {
    list.unshift({ ...DEFAULT_CURRENCY, imageUrl: `/media/flags/${DEFAULT_CURRENCY.sourceId}.svg` });
  }
  return { list, nextPageToken: more ? String(page + 1) : '' };
}
