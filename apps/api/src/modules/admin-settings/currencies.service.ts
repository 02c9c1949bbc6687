import { BASE_CURRENCY, type TAdminCurrency, type TCurrencyUpdate, type ZCurrencyCreate } from '@storefront/shared';
import type { Kysely, Selectable } from 'kysely';
import type { z } from 'zod';
import { isUniqueViolation } from '../../db/dialect/unique-violation.ts';
import type { CurrenciesTable, Database } from '../../db/schema.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { bumpReadSideVersion } from '../catalogue/search-index.ts';
import { type Actor, recordAudit } from '../staff/audit.ts';
import * as repo from './settings.repository.ts';

// The display currencies (spec §3, §7; docs/decisions/0014 and 0037): staff add one, change
// its rate (BDT per unit) and hide or show it. BDT is the currency the shop charges in:
// always shown, rate 1. The storefront's list and conversions are part of every page's
// shell, cached until the read side's version moves, which every change here bumps.

type Row = Selectable<CurrenciesTable>;

const toAdmin = (r: Row): TAdminCurrency => ({
  code: r.code,
  country: r.country,
  rate: Number(r.rate),
  numCode: r.num_code,
  imageUrl: r.image_url,
  sortOrder: r.sort_order,
  enabled: Number(r.enabled) === 1,
  version: r.version,
  updatedAt: r.updated_at,
  updatedBy: r.updated_by,
});

const snapshot = (c: TAdminCurrency) => ({ code: c.code, country: c.country, rate: c.rate, enabled: c.enabled });

export async function adminCurrencies(db: Kysely<Database>): Promise<TAdminCurrency[]> {
  return (await repo.allCurrencies(db)).map(toAdmin);
}

const taken = (code: string) => conflict('duplicate_code', `The shop already has ${code}`, { code: `The shop already has ${code}` });

export async function createCurrency(db: Kysely<Database>, input: z.output<typeof ZCurrencyCreate>, actor: Actor): Promise<TAdminCurrency> {
  try {
    return await db.transaction().execute(async (trx) => {
      if (await repo.currencyByCode(trx, input.code)) throw taken(input.code);
      const row = await repo.insertCurrency(trx, {
        code: input.code,
        country: input.country,
        rate: input.rate,
        num_code: input.numCode,
        // The flag the shop draws for the code (routes/media.ts); codes it has no drawing for show none.
        image_url: `/media/flags/${input.code}.svg`,
        sort_order: await repo.nextCurrencyOrder(trx),
        updated_at: new Date().toISOString(),
        updated_by: actor.email,
      });
      const made = toAdmin(row);
      await recordAudit(trx, actor, { action: 'currency_created', entity: 'currency', entityId: made.code, before: null, after: snapshot(made) });
      await bumpReadSideVersion(trx);
      return made;
    });
  } catch (err) {
    // Two staff adding the same code at once: the second meets the primary key.
    if (isUniqueViolation(err)) throw taken(input.code);
    throw err;
  }
}

export async function updateCurrency(db: Kysely<Database>, rawCode: string, input: TCurrencyUpdate, actor: Actor): Promise<TAdminCurrency> {
  const code = rawCode.toUpperCase();
  return db.transaction().execute(async (trx) => {
    const before = await repo.currencyByCode(trx, code);
    if (!before) throw notFound('The currency');
    if (input.version !== before.version)
      throw conflict('stale_version', 'Someone changed this currency meanwhile: reload the page and make your change again');
    if (code === BASE_CURRENCY) {
      if (input.enabled === false) throw conflict('base_currency', 'BDT is the currency the shop charges in: it cannot be disabled');
      if (input.rate !== undefined && input.rate !== 1) {
        throw conflict('base_currency', 'BDT is the currency the shop charges in: its rate is always 1', { rate: 'BDT’s rate is always 1' });
      }
    }
    const moved = await repo.updateCurrency(trx, code, before.version, {
      ...(input.rate !== undefined ? { rate: input.rate } : {}),
      ...(input.enabled !== undefined ? { enabled: input.enabled ? 1 : 0 } : {}),
      ...(input.country !== undefined ? { country: input.country } : {}),
      updated_at: new Date().toISOString(),
      updated_by: actor.email,
    });
    if (!moved) throw conflict('stale_version', 'Someone changed this currency meanwhile: reload the page and make your change again');
    const after = toAdmin(moved);
    await recordAudit(trx, actor, {
      action: 'currency_updated',
      entity: 'currency',
      entityId: code,
      before: snapshot(toAdmin(before)),
      after: snapshot(after),
    });
    await bumpReadSideVersion(trx);
    return after;
  });
}
